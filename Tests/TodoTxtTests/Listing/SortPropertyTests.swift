import Testing
import TodoTestSupport
@testable import TodoTxt

/// Seeded properties of docs/format.md section 5 over random files.
@Suite struct SortPropertyTests {
    static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    static func withoutBOM(_ line: [UInt8]) -> [UInt8] { line.starts(with: bom) ? Array(line.dropFirst(3)) : line }
    /// The multiset of line contents, each without a BOM of its own.
    static func linesWithoutBOM(_ document: TodoDocument) -> [[UInt8]] {
        lineContents(document).map(withoutBOM).sorted { $0.lexicographicallyPrecedes($1) }
    }

    static func check(_ bytes: [UInt8], by keys: [SortKey]) -> [String] {
        var problems: [String] = []
        let before = TodoDocument(bytes: bytes)
        let sorted = TodoDocument.sort(bytes, by: keys)
        let after = TodoDocument(bytes: sorted)
        // Two implementations must agree: the byte-level one (`sortedPieces`, a vector scan without
        // line records) and the document one (parse, `sortedOrder`, `reorder`, `rendered()`).
        if sorted != before.sorted(by: keys).rendered() { problems.append("differs from the document path") }
        if let pieces = TodoDocument.sortedPieces(bytes, by: keys) {
            if pieces.flatMap({ bytes[$0] }) != sorted { problems.append("pieces differ from sort") }
            if sorted == bytes && pieces != [0..<bytes.count] && !bytes.isEmpty { problems.append("unchanged file not one piece") }
        } else if bytes.last == 0x0A || bytes.isEmpty {
            problems.append("no pieces for a file ending with LF")
        }
        if after.rendered() != sorted { problems.append("sorted output does not round trip") }
        // A line of its own starting with a BOM that sorts to the top becomes the file's BOM when read
        // back (every byte is kept, and both readings skip it), so lines are compared without one.
        if Self.linesWithoutBOM(after) != Self.linesWithoutBOM(before) {
            problems.append("not a permutation of the lines")
        }
        if TodoDocument.sort(sorted, by: keys) != sorted { problems.append("not idempotent") }
        if before.sortedOrder(by: keys).elementsEqual(0..<before.lineCount) && sorted != bytes {
            problems.append("already sorted input changed")
        }
        // Completed lines are exactly the tail, in their original relative order; open lines keep theirs
        // when there are no keys.
        let isDone = (0..<after.lineCount).map { after.item(at: $0).isCompleted }
        if let firstDone = isDone.firstIndex(of: true), isDone[firstDone...].contains(false) {
            problems.append("completed lines are not the tail")
        }
        let doneBefore = lineContents(before).map(Self.withoutBOM).enumerated().filter { before.item(at: $0.offset).isCompleted }.map(\.element)
        let doneAfter = lineContents(after).map(Self.withoutBOM).enumerated().filter { isDone[$0.offset] }.map(\.element)
        if doneBefore != doneAfter { problems.append("completed lines changed relative order") }
        if keys.isEmpty {
            let openBefore = lineContents(before).map(Self.withoutBOM).enumerated().filter { !before.item(at: $0.offset).isCompleted }.map(\.element)
            let openAfter = lineContents(after).map(Self.withoutBOM).enumerated().filter { !isDone[$0.offset] }.map(\.element)
            if openBefore != openAfter { problems.append("open lines changed relative order") }
        }
        // Terminators: every line but the last has one; the file ends with one iff it did before (an
        // empty last line, which a keyed sort can move there, keeps one so it is not lost).
        for index in 0..<max(0, after.lineCount - 1) where after.terminator(at: index) == .none {
            problems.append("line \(index + 1) lacks a terminator")
        }
        let emptyLast = after.lineCount > 0 && after.content(at: after.lineCount - 1).isEmpty
        if after.endsWithTerminator != before.endsWithTerminator && !(emptyLast && !before.endsWithTerminator) {
            problems.append("final newline changed")
        }
        if after.lineCount != before.lineCount { problems.append("line count changed") }
        if before.hasByteOrderMark && !after.hasByteOrderMark { problems.append("BOM lost") }
        if after.hasByteOrderMark && !before.hasByteOrderMark && !lineContents(before).contains(where: { $0.starts(with: Self.bom) }) {
            problems.append("BOM appeared")
        }
        if before.hasByteOrderMark && Array(sorted.prefix(3)) != [0xEF, 0xBB, 0xBF] { problems.append("BOM not in front") }
        return problems
    }

    func run(_ keys: [SortKey], defaultSeed: UInt64, defaultCount: Int, maxLines: Int = 8) {
        let settings = PropertySettings(defaultSeed: defaultSeed, defaultCount: defaultCount)
        var generator = TodoTextGenerator(rng: SplitMix64(seed: settings.seed))
        var failures = 0
        for iteration in 0..<settings.count {
            let bytes = generator.file(maxLines: maxLines)
            let problems = SortPropertyTests.check(bytes, by: keys)
            if !problems.isEmpty {
                failures += 1
                if failures <= 3 {
                    Issue.record("sort \(keys) seed \(settings.seed) iteration \(iteration): \(problems) for \(show(bytes))")
                }
            }
        }
        #expect(failures == 0, "seed \(settings.seed)")
    }

    @Test func plainSortProperties() { run([], defaultSeed: 0x50_87, defaultCount: 20_000) }

    /// Longer files, so that the vector scan crosses many 16-byte blocks and skips many lines.
    @Test func plainSortPropertiesOnLongerFiles() { run([], defaultSeed: 0x50_89, defaultCount: 2_000, maxLines: 120) }

    @Test func keyedSortProperties() { run([.priority, .due, .created], defaultSeed: 0x50_88, defaultCount: 8_000) }
}
