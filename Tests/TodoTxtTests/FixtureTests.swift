import Foundation
import Testing
@testable import TodoTxt

/// Every fixture file round-trips byte for byte; sort cases match their expected output.
@Suite struct FixtureTests {
    static let roundTripFiles = fixtureEntries("roundtrip")
    static let sortCases = fixtureEntries("sort")

    @Test func fixturesExist() {
        #expect(Self.roundTripFiles.count >= 12)
        #expect(Self.sortCases.count >= 8)
    }

    @Test(arguments: roundTripFiles)
    func roundTrip(_ name: String) throws {
        let bytes = try fixtureBytes("roundtrip/\(name)")
        let document = parseRoundTrip(bytes)
        #expect(RoundTripPropertyTests.exercise(document, bytes).isEmpty)
    }

    @Test(arguments: ["example/todo.txt", "example/done.txt"])
    func exampleRoundTrips(_ path: String) throws {
        let bytes = try fixtureBytes(path)
        let document = parseRoundTrip(bytes)
        #expect(document.diagnostics().isEmpty, "\(document.diagnostics())")
    }

    @Test(arguments: sortCases)
    func sortCase(_ name: String) throws {
        let input = try fixtureBytes("sort/\(name)/input")
        let expected = try fixtureBytes("sort/\(name)/expected")
        parseRoundTrip(input)
        parseRoundTrip(expected)
        let sorted = TodoDocument.sort(input)
        #expect(sorted == expected, "got \(show(sorted))")
        #expect(TodoDocument.sort(expected) == expected)
        #expect(SortPropertyTests.check(input, by: []).isEmpty)
    }

    // MARK: Expectations about specific round-trip fixtures

    @Test func bomFixtureKeepsThePriority() throws {
        let document = parseRoundTrip(try fixtureBytes("roundtrip/bom.txt"))
        #expect(document.hasByteOrderMark)
        #expect(document.item(at: 0).priority == Priority("A"))
    }

    @Test func crlfFixture() throws {
        let document = parseRoundTrip(try fixtureBytes("roundtrip/crlf.txt"))
        #expect(document.dominantTerminator == .crlf)
        #expect((0..<document.lineCount).allSatisfy { document.terminator(at: $0) == .crlf })
    }

    @Test func mixedEndingsFixture() throws {
        let document = parseRoundTrip(try fixtureBytes("roundtrip/mixed-endings.txt"))
        let terminators = Set((0..<document.lineCount).map { document.terminator(at: $0) })
        #expect(terminators == [.lf, .crlf])
        #expect(document.dominantTerminator == .lf)
    }

    @Test func noFinalNewlineFixture() throws {
        let document = parseRoundTrip(try fixtureBytes("roundtrip/no-final-newline.txt"))
        #expect(!document.endsWithTerminator)
    }

    @Test func bareCRFixture() throws {
        let document = parseRoundTrip(try fixtureBytes("roundtrip/bare-cr.txt"))
        #expect((0..<document.lineCount).contains { document.content(at: $0).contains(0x0D) })
    }

    @Test func emptyAndBOMOnlyFixtures() throws {
        #expect(parseRoundTrip(try fixtureBytes("roundtrip/empty.txt")).lineCount == 0)
        let bomOnly = parseRoundTrip(try fixtureBytes("roundtrip/bom-only.txt"))
        #expect(bomOnly.lineCount == 0 && bomOnly.hasByteOrderMark)
    }

    @Test func blankLinesFixture() throws {
        let document = parseRoundTrip(try fixtureBytes("roundtrip/blank-lines.txt"))
        #expect(document.items.filter(\.isBlank).count >= 4)
    }

    @Test func invalidUTF8AndNULFixtures() throws {
        let invalid = parseRoundTrip(try fixtureBytes("roundtrip/invalid-utf8.txt"))
        #expect(invalid.diagnostics().contains { $0.kind == .invalidUTF8 })
        let nul = parseRoundTrip(try fixtureBytes("roundtrip/nul.txt"))
        #expect((0..<nul.lineCount).contains { nul.content(at: $0).contains(0) })
    }

    @Test func longLineFixture() throws {
        let document = parseRoundTrip(try fixtureBytes("roundtrip/long-line.txt"))
        #expect((0..<document.lineCount).contains { document.content(at: $0).count >= 200_000 })
    }

    /// The README runs `todo sort --dry-run` on the example: sorting must visibly move lines.
    @Test func exampleSortMovesCompletedTasks() throws {
        let bytes = try fixtureBytes("example/todo.txt")
        let document = parseRoundTrip(bytes)
        let sorted = TodoDocument.sort(bytes)
        #expect(sorted != bytes)
        #expect(SortPropertyTests.check(bytes, by: []).isEmpty)
        let tasks = document.items.filter(\.isTask)
        #expect(tasks.count >= 25)
        #expect(tasks.filter { $0.uid != nil }.count * 2 > tasks.count)
        #expect(tasks.contains { $0.recurrence.value != nil })
        #expect(tasks.contains { $0.threshold.value != nil })
        #expect(tasks.contains { $0.due.value != nil })
        #expect(UIDIndex(document).duplicates.isEmpty)
        let done = parseRoundTrip(try fixtureBytes("example/done.txt"))
        #expect(done.items.filter(\.isTask).allSatisfy { $0.isCompleted })
        #expect(UIDIndex(done).allUIDs.isDisjoint(with: UIDIndex(document).allUIDs))
    }
}
