import Testing
@testable import TodoTxt

/// docs/format.md section 1: lines, terminators, BOM, lossless storage, edits touching one line.
@Suite struct TodoDocumentTests {
    @Test func emptyFileHasNoLines() {
        let document = parseRoundTrip([])
        #expect(document.lineCount == 0)
        #expect(document.isEmpty)
        #expect(!document.hasByteOrderMark)
        #expect(!document.endsWithTerminator)
        #expect(document.dominantTerminator == .lf)
    }

    @Test func onlyLFEndsALine() {
        let document = parseRoundTrip(b("a\rb\u{0B}c\u{0C}d\u{85}e\u{2028}f\u{2029}g\0h\nz"))
        #expect(document.lineCount == 2)
        #expect(Array(document.content(at: 0)) == b("a\rb\u{0B}c\u{0C}d\u{85}e\u{2028}f\u{2029}g\0h"))
        #expect(document.terminator(at: 0) == .lf)
        #expect(document.terminator(at: 1) == .none)
    }

    @Test func crBeforeLFBelongsToTheTerminator() {
        let document = parseRoundTrip(b("a\r\nb\r\r\nc\n"))
        #expect(lineContents(document) == [b("a"), b("b\r"), b("c")])
        #expect(document.terminator(at: 0) == .crlf)
        #expect(document.terminator(at: 1) == .crlf)
        #expect(document.terminator(at: 2) == .lf)
        #expect(document.endsWithTerminator)
    }

    @Test func bareCRIsContent() {
        let document = parseRoundTrip(b("a\rb\r"))
        #expect(document.lineCount == 1)
        #expect(Array(document.content(at: 0)) == b("a\rb\r"))
        #expect(!document.endsWithTerminator)
    }

    @Test func lastLineWithoutTerminatorCounts() {
        let document = parseRoundTrip(b("a\nb"))
        #expect(document.lineCount == 2)
        #expect(!document.endsWithTerminator)
        #expect(document.text(at: 1) == "b")
    }

    @Test func byteOrderMarkIsNotPartOfLineOne() {
        let document = parseRoundTrip([0xEF, 0xBB, 0xBF] + b("(A) call mom\n"))
        #expect(document.hasByteOrderMark)
        #expect(Array(document.content(at: 0)) == b("(A) call mom"))
        #expect(document.item(at: 0).priority == Priority("A"))
    }

    @Test func byteOrderMarkAloneIsAnEmptyFile() {
        let document = parseRoundTrip([0xEF, 0xBB, 0xBF])
        #expect(document.hasByteOrderMark)
        #expect(document.isEmpty)
    }

    @Test func byteOrderMarkStartingALaterLineStaysInItsBytesButIsReadPast() {
        let document = parseRoundTrip(b("a\n") + [0xEF, 0xBB, 0xBF] + b("(A) b"))
        #expect(!document.hasByteOrderMark)
        #expect(Array(document.content(at: 1)) == [0xEF, 0xBB, 0xBF] + b("(A) b"))
        #expect(document.item(at: 1).priority == Priority("A"), "read like line 1 after a file's BOM")
    }

    @Test func invalidUTF8IsKeptAndDecodedLossily() {
        let document = parseRoundTrip([0x61, 0xFF, 0x62, 0x0A, 0xC3])
        #expect(document.text(at: 0) == "a\u{FFFD}b")
        #expect(document.text(at: 1) == "\u{FFFD}")
    }

    @Test(arguments: [
        ("", LineTerminator.lf),
        ("a", .lf),
        ("a\r\nb\r\n", .crlf),
        ("a\r\nb", .crlf),
        ("a\r\nb\nc\r\n", .lf),
        ("a\nb\n", .lf),
    ])
    func dominantTerminator(_ text: String, _ expected: LineTerminator) {
        #expect(parseRoundTrip(b(text)).dominantTerminator == expected)
    }

    @Test func lineEndingsAcrossTheEightByteScanBoundary() {
        // The LF search works eight bytes at a time; put LFs at every offset around word boundaries.
        for length in 0..<40 {
            let bytes = [UInt8](repeating: 0x61, count: length) + [0x0A] + [UInt8](repeating: 0x62, count: 17 - length % 17)
            let document = parseRoundTrip(bytes)
            #expect(document.lineCount == 2)
            #expect(document.content(at: 0).count == length)
        }
    }

    @Test func veryLongLine() {
        let long = [UInt8](repeating: 0x61, count: 3_000_000)
        let bytes = b("(A) first\n") + long + b("\nx last")
        let document = parseRoundTrip(bytes)
        #expect(document.lineCount == 3)
        #expect(document.content(at: 1).count == long.count)
        #expect(document.item(at: 2).isCompleted)
    }

    // MARK: Edits touch only their line

    /// Renders before and after an edit, and checks that every line but `changed` is byte-identical,
    /// terminators included.
    func expectOnlyLineChanged(_ before: TodoDocument, _ after: TodoDocument, _ changed: Int,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(before.lineCount == after.lineCount, sourceLocation: sourceLocation)
        for index in 0..<min(before.lineCount, after.lineCount) where index != changed {
            #expect(before.content(at: index).elementsEqual(after.content(at: index)), "line \(index + 1)",
                    sourceLocation: sourceLocation)
            #expect(before.terminator(at: index) == after.terminator(at: index), sourceLocation: sourceLocation)
        }
        #expect(before.hasByteOrderMark == after.hasByteOrderMark, sourceLocation: sourceLocation)
        // The rendering must equal a reparse of itself: the edit left a well-formed file.
        let rendered = after.rendered()
        #expect(TodoDocument(bytes: rendered).rendered() == rendered, sourceLocation: sourceLocation)
        #expect(TodoDocument(bytes: rendered).lineCount == after.lineCount, sourceLocation: sourceLocation)
    }

    @Test func replaceContentKeepsEveryOtherByte() {
        let bytes = [0xEF, 0xBB, 0xBF] + b("one\r\ntwo\n\u{FF}three\r\nfour")
        let before = parseRoundTrip(bytes)
        var after = before
        after.replaceContent(at: 1, with: b("TWO"))
        expectOnlyLineChanged(before, after, 1)
        #expect(after.rendered() == [0xEF, 0xBB, 0xBF] + b("one\r\nTWO\n\u{FF}three\r\nfour"))
    }

    @Test func replaceContentTurnsLFIntoSpace() {
        var document = parseRoundTrip(b("a\nb\n"))
        document.replaceContent(at: 0, with: b("x\ny"))
        #expect(document.rendered() == b("x y\nb\n"))
    }

    @Test func replaceContentEndingInCRKeepsTheCR() {
        var document = parseRoundTrip(b("a\nb\n"))
        document.replaceContent(at: 0, with: b("x\r"))
        let reparsed = TodoDocument(bytes: document.rendered())
        #expect(Array(reparsed.content(at: 0)) == b("x\r"))
        #expect(reparsed.lineCount == 2)
    }

    @Test func appendToFileWithoutFinalNewlineTerminatesTheLastLineFirst() {
        var document = parseRoundTrip(b("a\r\nb"))
        let index = document.appendLine(b("c"))
        #expect(index == 2)
        #expect(document.rendered() == b("a\r\nb\r\nc\r\n"))
    }

    @Test func appendToEmptyFileUsesLF() {
        var document = parseRoundTrip([])
        document.appendLine(b("a"))
        #expect(document.rendered() == b("a\n"))
    }

    @Test func appendToBOMOnlyFileKeepsTheBOM() {
        var document = parseRoundTrip([0xEF, 0xBB, 0xBF])
        document.appendLine(b("(A) a"))
        #expect(document.rendered() == [0xEF, 0xBB, 0xBF] + b("(A) a\n"))
        #expect(TodoDocument(bytes: document.rendered()).item(at: 0).priority == Priority("A"))
    }

    @Test func appendUsesLFInMixedFile() {
        var document = parseRoundTrip(b("a\r\nb\n"))
        document.appendLine(b("c"))
        #expect(document.rendered() == b("a\r\nb\nc\n"))
    }

    @Test func insertInTheMiddle() {
        let before = parseRoundTrip(b("a\nb"))
        var after = before
        after.insertLine(b("m"), at: 1)
        #expect(after.rendered() == b("a\nm\nb"))
    }

    @Test func removeLine() {
        var document = parseRoundTrip(b("a\r\nb\nc"))
        document.removeLine(at: 1)
        #expect(document.rendered() == b("a\r\nc"))
    }

    @Test func compactKeepsRendering() {
        var document = parseRoundTrip(b("a\nb\n"))
        for round in 0..<10 { document.replaceContent(at: 0, with: b("edit \(round)")) }
        let rendered = document.rendered()
        document.compact()
        #expect(document.rendered() == rendered)
        #expect(document.storage.count == rendered.count)
    }

    @Test func withLineBuffersVisitsEveryLine() {
        let document = parseRoundTrip([0xEF, 0xBB, 0xBF] + b("a\r\n\nbc"))
        var seen: [[UInt8]] = []
        document.withLineBuffers { index, buffer in
            #expect(index == seen.count)
            seen.append(Array(buffer))
        }
        #expect(seen == [b("a"), [], b("bc")])
    }

    @Test func reorderGivesTheMovedLastLineATerminator() {
        var document = parseRoundTrip(b("a\r\nb"))
        document.reorder([1, 0])
        #expect(document.rendered() == b("b\r\na"))
    }

    @Test func reorderKeepsFinalNewline() {
        var document = parseRoundTrip(b("a\nb\n"))
        document.reorder([1, 0])
        #expect(document.rendered() == b("b\na\n"))
    }

    @Test func reorderKeepsABareCRAtTheEndOfAMovedLine() {
        var document = parseRoundTrip(b("a\nb\r"))
        document.reorder([1, 0])
        let rendered = document.rendered()
        let reparsed = TodoDocument(bytes: rendered)
        #expect(lineContents(reparsed) == [b("b\r"), b("a")])
    }

    /// Decision: an empty line can only be last in a file without a final newline if it keeps its
    /// terminator (otherwise it would vanish); the line count wins over the final-newline rule.
    @Test func reorderNeverDropsAnEmptyLastLine() {
        var document = parseRoundTrip(b("a\n\nb"))
        document.reorder([0, 2, 1])
        let reparsed = TodoDocument(bytes: document.rendered())
        #expect(reparsed.lineCount == 3)
        #expect(document.rendered() == b("a\nb\n\n"))
    }
}
