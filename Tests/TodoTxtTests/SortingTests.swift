import Testing
@testable import TodoTxt

/// format.md section 5: completed tasks sink, stably; keyed orders of the open group.
@Suite struct SortingTests {
    func sorted(_ text: String, by keys: [SortKey] = [], sourceLocation: SourceLocation = #_sourceLocation) -> String {
        parseRoundTrip(b(text), sourceLocation: sourceLocation)
        let bytes = TodoDocument.sort(b(text), by: keys)
        #expect(TodoDocument(bytes: b(text)).sorted(by: keys).rendered() == bytes, sourceLocation: sourceLocation)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func stablePartition() {
        #expect(sorted("x 1\na\nx 2\n\nb\n# c\n") == "a\n\nb\n# c\nx 1\nx 2\n")
    }

    @Test func onlyLowercaseXSpaceCounts() {
        #expect(sorted("x done\nX not\nxylophone\nx\n(A) x no\n") == "X not\nxylophone\nx\n(A) x no\nx done\n")
    }

    @Test func lastLineMovesUpAndGetsATerminator() {
        #expect(sorted("x done\r\nopen") == "open\r\nx done")
        #expect(sorted("x done\nopen\r\nother") == "open\r\nother\nx done")
    }

    @Test func finalNewlineKept() {
        #expect(sorted("x a\nb\n") == "b\nx a\n")
    }

    @Test func bomStaysInFront() {
        #expect(sorted("\u{FEFF}x a\n(A) b") == "\u{FEFF}(A) b\nx a")
    }

    @Test func alreadySortedReturnsTheSameBytes() {
        let text = "a\r\nb\nx c\r\nx d"
        #expect(sorted(text) == text)
    }

    @Test func sortKeysParse() {
        #expect(SortKey.parseList("priority,due") == [.priority, .due])
        #expect(SortKey.parseList("") == nil)
        #expect(SortKey.parseList("priority,bogus") == nil)
    }

    @Test func byPriority() {
        #expect(sorted("c\n(B) b\nx (A) done\n(A) a\n\n(B) b2\n", by: [.priority])
                == "(A) a\n(B) b\n(B) b2\nc\n\nx (A) done\n")
    }

    @Test func byDueThenPriority() {
        let input = "none\n(B) due:2026-01-02\n(A) due:2026-01-02\nd due:2026-01-01\nbad due:someday\n"
        #expect(sorted(input, by: [.due, .priority])
                == "d due:2026-01-01\n(A) due:2026-01-02\n(B) due:2026-01-02\nnone\nbad due:someday\n")
    }

    @Test func byThresholdCreatedText() {
        #expect(sorted("b t:2026-02-01\na t:2026-01-01\nc\n", by: [.threshold]) == "a t:2026-01-01\nb t:2026-02-01\nc\n")
        #expect(sorted("2026-02-01 b\n2026-01-01 a\nc\n", by: [.created]) == "2026-01-01 a\n2026-02-01 b\nc\n")
        #expect(sorted("(A) beta\nAlpha\n(C) alpha\n", by: [.text]) == "Alpha\n(C) alpha\n(A) beta\n")
    }

    @Test func keyedSortPutsBlankLinesAtTheEndOfTheOpenGroup() {
        #expect(sorted("(B) b\n\n(A) a\nx done\n", by: [.priority]) == "(A) a\n(B) b\n\nx done\n")
    }

    /// Decision (format.md is silent): when a keyed sort moves an empty line to the very end of a file
    /// without a final newline, that line keeps its terminator so it is not lost.
    @Test func keyedSortNeverDropsAnEmptyLine() {
        let result = sorted("(B) b\n\n(A) a", by: [.priority])
        #expect(result == "(A) a\n(B) b\n\n")
        #expect(TodoDocument(result).lineCount == 3)
    }

    @Test func sortedOrderIsAPermutation() {
        let document = parseRoundTrip(b("x 1\na\nx 2\nb"))
        #expect(document.sortedOrder() == [1, 3, 0, 2])
    }
}
