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
}
