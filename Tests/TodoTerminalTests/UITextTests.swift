import Testing
@testable import TodoTerminal

/// The pieces of `todo ui` that turn bytes into keys, keys into a line of text, and text into
/// columns.
struct UITextTests {
    @Test func keysFromTheBytesATerminalSends() {
        var decoder = KeyDecoder()
        #expect(decoder.keys(from: Array("\u{1B}[A\u{1B}[B\u{1B}OH\u{1B}[4~\u{1B}[3~\u{1B}[5~".utf8))
                == [.up, .down, .home, .end, .delete, .pageUp])
        // A lone ESC is Escape once the input pauses (it could begin a sequence split between reads).
        #expect(decoder.keys(from: [0x0D, 0x7F, 0x15, 0x17, 0x1B]) + decoder.flush()
                == [.enter, .backspace, .control("u"), .control("w"), .escape])
        // A character split between two reads is kept until it is whole.
        let e = Array("é".utf8)
        #expect(decoder.keys(from: [e[0]]) == [])
        #expect(decoder.keys(from: [e[1], UInt8(ascii: "x")]) == [.character("é"), .character("x")])
    }

    @Test func lineEditingKeys() {
        var editor = LineEditor("buy oat milk")
        _ = editor.handle(.control("w"))
        #expect(editor.text == "buy oat ")
        _ = editor.handle(.left)
        _ = editor.handle(.backspace)
        #expect(editor.text == "buy oa ")
        _ = editor.handle(.home)
        _ = editor.handle(.character("("))
        _ = editor.handle(.delete)
        #expect(editor.text == "(uy oa ")
        _ = editor.handle(.end)
        _ = editor.handle(.character("日"))
        #expect(editor.cursorColumn == 9, "a wide character takes two columns")
        _ = editor.handle(.control("u"))
        #expect(editor.text == "")
    }

    @Test(arguments: [("a", 1), ("日", 2), ("🙂", 2), ("e\u{301}", 1), ("한", 2), ("\u{200D}", 0)])
    func displayWidths(text: String, width: Int) {
        #expect(DisplayWidth.of(text) == width)
    }

    @Test func textIsCutByColumnsNeverThroughAWideCharacter() {
        #expect(DisplayWidth.fitted("abc", width: 5) == "abc  ")
        #expect(DisplayWidth.fitted("abcdef", width: 5) == "abcd…")
        #expect(DisplayWidth.fitted("日本語です", width: 6) == "日本… ")
        #expect(DisplayWidth.of(DisplayWidth.fitted("日本語です", width: 6)) == 6)
        #expect(DisplayWidth.fitted("anything", width: 0) == "")
    }
}
