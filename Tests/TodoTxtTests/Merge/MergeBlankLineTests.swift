import Foundation
import Testing
import TodoTestSupport
@testable import TodoTxt

/// A blank line one side adds must survive the three-way merge whatever the other side does to the
/// lines around it (issue 12).
///
/// Blank lines have no uid, so the merge matches them by bytes as a multiset: the k-th blank line of
/// one file matches the k-th blank line of another. Each round here builds
/// - BASE: tasks with uids, some blank lines, LF or CRLF, with or without a final newline;
/// - OURS: BASE with exactly one blank line inserted at a random position `p`;
/// - THEIRS: BASE with some lines near `p` deleted and/or reordered among themselves, nothing added
///   or edited.
///
/// **Invariant.** With `blanks(x)` the number of empty lines of `x`:
/// `blanks(result) == blanks(THEIRS) + 1` and the merge is clean. Why: THEIRS only removes BASE's
/// lines, so it keeps `blanks(THEIRS)` of BASE's blank lines and OURS keeps all of them; the multiset
/// rule keeps a BASE line as many times as both sides keep it, `min(blanks(OURS), blanks(THEIRS))`
/// = `blanks(THEIRS)`, and adds the copies one side added on top, `blanks(OURS) - blanks(BASE)` = 1.
///
/// `TODO_PROPERTY_SEED` fixes the first seed (default fixed, so the test is reproducible) and
/// `TODO_PROPERTY_COUNT` the number of rounds; a failure names the seed of its round.
@Suite struct MergeBlankLineTests {
    private static var firstSeed: UInt64 {
        ProcessInfo.processInfo.environment["TODO_PROPERTY_SEED"].flatMap { UInt64($0) } ?? 0xB1A_2026
    }
    private static var rounds: Int {
        ProcessInfo.processInfo.environment["TODO_PROPERTY_COUNT"].flatMap { Int($0) } ?? 3000
    }

    /// The number of lines with no content at all (what a blank line is to the merge's matching).
    static func blankCount(_ document: TodoDocument) -> Int {
        (0..<document.lineCount).count { document.content(at: $0).isEmpty }
    }

    @Test func blankLineWeAddedSurvivesTheirReorderOrDeletion() {
        var failures = 0
        var issueCases = 0
        for round in 0..<Self.rounds {
            let seed = Self.firstSeed &+ UInt64(round)
            var random = SplitMix64(seed: seed)
            let scenario = BlankLineScenario(&random)
            let result = TodoMerge.threeWay(base: scenario.base, ours: scenario.ours, theirs: scenario.theirs)
            if scenario.coversTheIssueCase { issueCases += 1 }
            let expected = Self.blankCount(scenario.theirs) + 1
            let got = Self.blankCount(result.document)
            if got != expected || !result.isClean {
                failures += 1
                Issue.record("""
                    seed \(seed): expected \(expected) blank lines, got \(got) (clean: \(result.isClean))
                    --- base
                    \(show(scenario.base.rendered()))
                    --- ours
                    \(show(scenario.ours.rendered()))
                    --- theirs
                    \(show(scenario.theirs.rendered()))
                    --- result
                    \(show(result.bytes))
                    """)
                if failures >= 3 { return }
            }
        }
        // The generator must reach the case that used to fail, or the test proves little.
        if Self.rounds >= 1000 { #expect(issueCases > Self.rounds / 50) }
    }

    /// The smallest case found: OURS (no final newline) gains a blank line before its last task, THEIRS
    /// deletes that task. The blank line ends the result, and an empty last line without a terminator
    /// is no line at all, so it must get one even though OURS has no final newline.
    @Test func blankLineBeforeALastTaskTheyDeleted() {
        let base = parseRoundTrip(b("a uid:aa0001\nb uid:aa0002"))
        let ours = parseRoundTrip(b("a uid:aa0001\n\nb uid:aa0002"))
        let theirs = parseRoundTrip(b("a uid:aa0001\n"))
        let result = TodoMerge.threeWay(base: base, ours: ours, theirs: theirs)
        #expect(result.isClean)
        #expect(show(result.bytes) == show(b("a uid:aa0001\n\n")))
    }

    /// Same as above with a merge that only keeps the blank line: the result is one blank line.
    @Test func blankLineAloneAfterTheyDeletedEverything() {
        let base = parseRoundTrip(b("a uid:aa0001"))
        let ours = parseRoundTrip(b("\na uid:aa0001"))
        let theirs = parseRoundTrip([])
        let result = TodoMerge.threeWay(base: base, ours: ours, theirs: theirs)
        #expect(result.isClean)
        #expect(show(result.bytes) == show(b("\n")))
    }

    /// The mirror case: THEIRS appends a blank line and OURS dropped its final newline; THEIRS' blank
    /// line is placed last and must not vanish either.
    @Test func blankLineTheyAppendedAfterOursLostItsFinalNewline() {
        let base = parseRoundTrip(b("a uid:aa0001\nb uid:aa0002\n"))
        let ours = parseRoundTrip(b("a uid:aa0001\nb uid:aa0002"))
        let theirs = parseRoundTrip(b("a uid:aa0001\nb uid:aa0002\n\n"))
        let result = TodoMerge.threeWay(base: base, ours: ours, theirs: theirs)
        #expect(result.isClean)
        #expect(show(result.bytes) == show(b("a uid:aa0001\nb uid:aa0002\n\n")))
    }

    /// A non-empty last line keeps OURS' missing final newline (the fix only concerns empty lines).
    @Test func nonEmptyLastLineKeepsOursMissingFinalNewline() {
        let base = parseRoundTrip(b("a uid:aa0001\nb uid:aa0002\nc uid:aa0003"))
        let ours = parseRoundTrip(b("a uid:aa0001\n\nb uid:aa0002\nc uid:aa0003"))
        let theirs = parseRoundTrip(b("a uid:aa0001\nb uid:aa0002\n"))
        let result = TodoMerge.threeWay(base: base, ours: ours, theirs: theirs)
        #expect(show(result.bytes) == show(b("a uid:aa0001\n\nb uid:aa0002")))
    }
}

/// One random round: BASE, OURS = BASE plus one blank line, THEIRS = BASE with lines near that blank
/// line deleted or reordered.
private struct BlankLineScenario {
    let base: TodoDocument
    let ours: TodoDocument
    let theirs: TodoDocument
    /// THEIRS deleted every line from the insertion point on and OURS has no final newline, so OURS'
    /// blank line is the last line of a result laid out without a final newline: the case issue 12
    /// found.
    let coversTheIssueCase: Bool

    static let words = ["call", "mom", "pay", "rent", "buy", "milk", "+home", "@phone", "due:2026-11-05"]

    init(_ random: inout SplitMix64) {
        func below(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(random.next() % UInt64(bound)) }
        // BASE, written as bytes so that both terminators and a missing final newline occur.
        var lines: [String] = []
        for number in 0..<below(7) {
            let wordCount = 1 + below(3)
            let text = (0..<wordCount).map { _ in Self.words[below(Self.words.count)] }.joined(separator: " ")
            lines.append((below(4) == 0 ? "x 2026-11-02 " : "") + text + " uid:b\(number)")
        }
        for _ in 0..<below(3) { lines.insert(below(3) == 0 ? "# notes" : "", at: below(lines.count + 1)) }
        let terminator = below(4) == 0 ? "\r\n" : "\n"
        var text = lines.joined(separator: terminator)
        if !lines.isEmpty && (below(2) == 0 || lines.last == "") { text += terminator }
        let base = TodoDocument(bytes: Array(text.utf8))

        // OURS: one blank line inserted.
        let position = below(base.lineCount + 1)
        var ours = base
        ours.insertLine([], at: position)

        // THEIRS: a window of BASE lines around the insertion point, reordered and/or thinned.
        var theirs = base
        let window = max(0, position - 2)..<min(base.lineCount, position + 2)
        if below(2) == 0 && window.count > 1 {
            var order = Array(0..<base.lineCount)
            var shuffled = Array(window)
            shuffled.shuffle(using: &random)
            order.replaceSubrange(window, with: shuffled)
            theirs.reorder(order)
        }
        var deletedTheRest = false
        if below(3) != 0 {
            // Delete from the end of the window backwards, so indices before it stay valid; sometimes
            // everything from the insertion point on, the case that lost the blank line.
            let everythingAfter = below(2) == 0
            let lower = everythingAfter ? min(position, theirs.lineCount) : window.lowerBound + below(window.count + 1)
            let upper = everythingAfter ? theirs.lineCount : min(theirs.lineCount, window.upperBound)
            if lower < upper {
                for index in (lower..<upper).reversed() { theirs.removeLine(at: index) }
                deletedTheRest = everythingAfter
            }
        }
        self.base = base
        self.ours = ours
        self.theirs = theirs
        self.coversTheIssueCase = deletedTheRest && !ours.endsWithTerminator
    }
}
