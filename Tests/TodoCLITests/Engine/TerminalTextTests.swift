import Synchronization
import Testing
@testable import TodoCLI

@Suite struct TerminalTextTests {
    @Test func escapeSequencesBecomeVisible() {
        let input = Array("buy milk \u{1B}[31mred\u{1B}]0;title\u{07}".utf8)
        let shown = String(decoding: TerminalText.escapingControls(input), as: UTF8.self)
        #expect(shown == "buy milk ^[[31mred^[]0;title^G")
    }

    @Test func tabAndOrdinaryUnicodePassThrough() {
        let input = Array("café\tnaïve 日本 🎉".utf8)
        #expect(TerminalText.escapingControls(input) == input)
    }

    @Test func c1ControlsDelAndInvalidBytesAreEscaped() {
        let input: [UInt8] = [0x61, 0xC2, 0x9B, 0x7F, 0xFF, 0x9B, 0x62]
        let shown = String(decoding: TerminalText.escapingControls(input), as: UTF8.self)
        #expect(shown == "a<U+009B>^?\\xFF\\x9Bb")
    }

    @Test func nbspIsNotAControl() {
        let input: [UInt8] = [0xC2, 0xA0]
        #expect(TerminalText.escapingControls(input) == input)
    }

    @Test func escapingLineByLineKeepsTheLineFeedsAndEscapesTheRest() {
        let input = Array("a\u{1B}[2J\nb\rc\n".utf8)
        #expect(String(decoding: TerminalText.escapingControlsKeepingLines(input), as: UTF8.self) == "a^[[2J\nb^Mc\n")
        let crlf = Array("a\u{1B}\r\nb\r\n\r".utf8)
        #expect(String(decoding: TerminalText.escapingControlsKeepingLines(crlf), as: UTF8.self) == "a^[\r\nb\r\n^M",
                 "CRLF line endings stay; a CR that ends no line is escaped")
        let plain = Array("one\ntwo".utf8)
        #expect(TerminalText.escapingControlsKeepingLines(plain) == plain)
    }

    @Test func errorsAreEscapedOnlyWhenStandardErrorIsATerminal() {
        for terminal in [false, true] {
            let written = Mutex<[UInt8]>([])
            let io = CommandIO(writeOutput: { _ in }, writeError: { bytes in written.withLock { $0 += bytes } },
                               outputIsTerminal: false, errorIsTerminal: terminal)
            io.printError("todo: /tmp/evil\u{1B}]0;x\u{07}.txt: is a directory")
            let text = String(decoding: written.withLock { $0 }, as: UTF8.self)
            #expect(text == (terminal ? "todo: /tmp/evil^[]0;x^G.txt: is a directory\n"
                                      : "todo: /tmp/evil\u{1B}]0;x\u{07}.txt: is a directory\n"))
        }
    }
}
