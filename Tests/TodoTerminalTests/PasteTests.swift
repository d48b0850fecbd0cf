import Testing
@testable import TodoTerminal

/// Bracketed paste: the bytes between `ESC [ 200 ~` and `ESC [ 201 ~` are one `Key.paste`, never
/// keys, however the reads cut them; a line editor inserts a paste as text on one line.
struct PasteTests {
    private let start = "\u{1B}[200~", end = "\u{1B}[201~"

    @Test func aPasteIsOneKeyAndItsLineBreaksAreNotEnter() {
        var decoder = KeyDecoder()
        let keys = decoder.keys(from: Array("a\(start)buy milk\rxday\r\(end)x".utf8))
        #expect(keys == [.character("a"), .paste("buy milk\rxday\r"), .character("x")])
    }

    @Test func escapeSequencesInsideAPasteAreText() {
        var decoder = KeyDecoder()
        let keys = decoder.keys(from: Array("\(start)up\u{1B}[A and \u{1B} alone\(end)".utf8))
        #expect(keys == [.paste("up\u{1B}[A and \u{1B} alone")])
    }

    @Test func aPasteSplitAtEveryByteAcrossReadsIsStillOnePaste() {
        let bytes = Array("k\(start)日本語 \u{1B}[20 line\nnext\(end)j".utf8)
        for cut in 1..<bytes.count {
            var decoder = KeyDecoder()
            let keys = decoder.keys(from: Array(bytes[..<cut])) + decoder.keys(from: Array(bytes[cut...]))
            #expect(keys == [.character("k"), .paste("日本語 \u{1B}[20 line\nnext"), .character("j")], "cut at \(cut)")
        }
    }

    @Test func aPasteOneByteAReadIsStillOnePaste() {
        var decoder = KeyDecoder()
        var keys: [Key] = []
        for byte in Array("\(start)a\r\nb\(end)\r".utf8) { keys += decoder.keys(from: [byte]) }
        #expect(keys == [.paste("a\r\nb"), .enter])
    }

    @Test func aPauseInsideAPasteDoesNotEndIt() {
        var decoder = KeyDecoder()
        #expect(decoder.keys(from: Array("\(start)half\u{1B}".utf8)) == [])
        #expect(decoder.flush() == [])
        #expect(decoder.keys(from: Array("[201~".utf8)) == [.paste("half")])
    }

    @Test func anEmptyPasteAndAStrayEndMarker() {
        var decoder = KeyDecoder()
        #expect(decoder.keys(from: Array("\(start)\(end)".utf8)) == [.paste("")])
        #expect(decoder.keys(from: Array("\(end)q".utf8)) == [.character("q")], "an end marker without a start is dropped")
    }

    @Test func aSequenceCutByTheEndOfAReadWaitsForItsRest() {
        var decoder = KeyDecoder()
        #expect(decoder.keys(from: [0x1B, 0x5B]) == [])
        #expect(decoder.keys(from: [0x41]) == [.up])
        #expect(decoder.keys(from: Array("\u{1B}[5".utf8)) == [])
        #expect(decoder.keys(from: Array("~".utf8)) == [.pageUp])
        // An ESC alone at the end of a read waits: with the rest of a paste marker it is the paste.
        #expect(decoder.keys(from: Array("k\u{1B}".utf8)) == [.character("k")])
        #expect(decoder.keys(from: Array("[200~j\rk\u{1B}[201~".utf8)) == [.paste("j\rk")])
        // When the input pauses, a waiting ESC is Escape, and an unfinished sequence's bytes are keys.
        #expect(decoder.keys(from: [0x1B]) == [])
        #expect(decoder.flush() == [.escape])
        #expect(decoder.flush() == [])
        #expect(decoder.keys(from: Array("\u{1B}[2".utf8)) == [])
        #expect(decoder.flush() == [.escape, .character("["), .character("2")])
        // ESC and a letter: Escape, then the letter.
        #expect(decoder.keys(from: Array("\u{1B}j".utf8)) == [.escape, .character("j")])
        // A byte that cannot go on a sequence ends it as Escape and is read on its own.
        #expect(decoder.keys(from: Array("\u{1B}[\u{1B}[B".utf8)) == [.escape, .character("["), .down])
    }

    @Test func aLineEditorInsertsAPasteAsTextOnOneLine() {
        var editor = LineEditor("buy ")
        let handled = editor.handle(.paste("milk\rxday\r\n"))
        #expect(handled)
        #expect(editor.text == "buy milk xday")
        _ = editor.handle(.home)
        _ = editor.handle(.paste("a\r\nb\nc\td\u{07}\u{1B}[31m"))
        #expect(editor.text == "a b c d[31mbuy milk xday", "CRLF is one space, a tab a space, controls dropped")
        #expect(editor.cursor == "a b c d[31m".count)
        _ = editor.handle(.paste("\n\n"))
        #expect(editor.text == "a b c d[31mbuy milk xday", "a paste of line breaks only inserts nothing")
    }
}
