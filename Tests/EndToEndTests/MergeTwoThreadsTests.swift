import Foundation
import TodoTestSupport
import TodoTxt
import XCTest

/// `todo merge` and `todo reconcile` on files large enough that the command indexes the first input
/// on a second thread while it reads the others, and decides the lines in two halves on two threads
/// (docs/notes/speed-commands.md, "Round four"): the file written, the exit status and every report
/// are exactly the library's one-thread merge of the same bytes.
final class MergeTwoThreadsTests: XCTestCase {
    private var directory = ""

    override func setUp() {
        directory = Spawn.makeTemporaryDirectory("merge-threads")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A BASE of `count` random lines: tasks with uids, repeated text lines, blank lines, completed
    /// tasks, CR LF now and then.
    private static func base(count: Int, _ random: inout SplitMix64) -> [[UInt8]] {
        let words = ["call", "mom", "+home", "@phone", "due:2026-12-05", "pay", "rent", "t:2026-12-01", "fix", "bike", "crème"]
        return (0..<count).map { number in
            switch random.next() % 20 {
            case 0: return []
            case 1: return Array("water the plants".utf8)
            case 2: return Array("x 2026-11-30 filed taxes uid:d\(number)".utf8)
            default:
                let text = (0..<(2 + random.next() % 5)).map { _ in words[Int(random.next() % UInt64(words.count))] }
                return Array((text.joined(separator: " ") + " uid:u\(number)").utf8)
            }
        }
    }

    /// `lines` edited as a device would: fields changed (priority, a tag, done), lines removed,
    /// lines added, one block moved.
    private static func edit(_ lines: [[UInt8]], side: String, _ random: inout SplitMix64) -> [[UInt8]] {
        var result: [[UInt8]] = []
        for (number, line) in lines.enumerated() {
            switch random.next() % 40 {
            case 0: continue
            case 1: result.append(Array("(B) ".utf8) + line)
            case 2: result.append(line + Array(" due:2027-01-0\(1 + random.next() % 9)".utf8))
            case 3: result.append(Array("x 2026-12-02 ".utf8) + line)
            case 4: result.append(line + Array(" +\(side)".utf8))
            case 5:
                result.append(line)
                result.append(Array("added on \(side) \(number) uid:\(side)\(number)".utf8))
            default: result.append(line)
            }
        }
        let block = result.count / 3
        result.insert(contentsOf: result[block..<(block + 40)], at: 0)
        result.removeSubrange((block + 40)..<(block + 80))
        return result
    }

    private static func bytes(_ lines: [[UInt8]], _ random: inout SplitMix64) -> [UInt8] {
        lines.reduce(into: []) { $0 += $1 + (random.next() % 13 == 0 ? [0x0D, 0x0A] : [0x0A]) }
    }

    func testALargeMergeWritesWhatTheOneThreadMergeGives() {
        let seed = propertySeed()
        var random = SplitMix64(seed: seed)
        let lines = Self.base(count: 60_000, &random)
        let base = Self.bytes(lines, &random)
        let ours = Self.bytes(Self.edit(lines, side: "ours", &random), &random)
        let theirs = Self.bytes(Self.edit(lines, side: "theirs", &random), &random)
        XCTAssertGreaterThan(ours.count, 2 << 20, "seed \(seed): large enough to be decided in two halves")
        let paths = ["base", "ours", "theirs"].map { directory + "/\($0).txt" }
        for (path, content) in zip(paths, [base, ours, theirs]) { Files.write(path, content) }

        let result = Spawn.todo(["merge"] + paths)
        let expected = TodoMerge.threeWay(base: base, ours: ours, theirs: theirs, options: ThreeWayOptions())
        XCTAssertGreaterThan(expected.conflicts.count, 0, "seed \(seed): both sides changed some field differently")
        XCTAssertEqual(result.status, expected.conflicts.isEmpty ? 0 : 1, "seed \(seed): \(result.err.prefix(300))")
        XCTAssertTrue(Files.read(paths[1]) == expected.rendered(), "seed \(seed): the merged file differs from the one-thread merge")
        let said = result.err.split(separator: "\n").map(String.init)
        let wanted = expected.reports.map { "todo merge: \($0)" } + expected.conflicts.map { "todo merge: conflict: \($0.text)" }
        XCTAssertEqual(said, wanted, "seed \(seed): the reports differ from the one-thread merge's, or their order")
    }

    func testALargeReconcileWritesWhatTheOneThreadMergeGives() {
        let seed = propertySeed()
        var random = SplitMix64(seed: seed)
        let lines = Self.base(count: 60_000, &random)
        let file = Self.bytes(Self.edit(lines, side: "laptop", &random), &random)
        let copy = Self.bytes(Self.edit(lines, side: "phone", &random), &random)
        XCTAssertGreaterThan(file.count, 2 << 20, "seed \(seed): large enough to be decided in two halves")
        let todo = directory + "/todo.txt", conflicted = directory + "/todo (conflicted copy 2026-12-02).txt"
        Files.write(todo, file)
        Files.write(conflicted, copy)

        let result = Spawn.todo(["reconcile", todo])
        let expected = TodoMerge.twoWay(file: file, copy: copy, doneUIDs: [])
        XCTAssertEqual(result.status, 0, "seed \(seed): \(result.err.prefix(300))")
        XCTAssertTrue(Files.read(todo) == expected.rendered(), "seed \(seed): the reconciled file differs from the one-thread merge")
        XCTAssertFalse(FileManager.default.fileExists(atPath: conflicted), "seed \(seed): the merged copy is removed")
        let said = result.out.split(separator: "\n").map(String.init)
        XCTAssertEqual(said.first, "merged todo (conflicted copy 2026-12-02).txt into todo.txt")
        XCTAssertEqual(Array(said.dropFirst()), expected.reports.map { "  \($0)" },
                       "seed \(seed): the reports differ from the one-thread merge's, or their order")
    }

    /// Open tasks first, completed ones after: the layout `todo sort` leaves, which the merge keeps.
    private static func partitioned(_ lines: [[UInt8]]) -> [[UInt8]] {
        lines.filter { !isDone($0) } + lines.filter { isDone($0) }
    }

    /// A completed task of these files: it starts with `x ` (they hold no other leading mark).
    private static func isDone(_ line: some Collection<UInt8>) -> Bool { line.starts(with: [0x78, 0x20]) }

    /// Sorted inputs (completed tasks last) are laid out with the open and the completed units on
    /// two threads at once: the file and the reports are still the one-thread merge's.
    func testALargeSortedMergeAndReconcileWriteWhatTheOneThreadMergeGives() {
        let seed = propertySeed()
        var random = SplitMix64(seed: seed)
        let lines = Self.partitioned(Self.base(count: 60_000, &random))
        let base = Self.bytes(lines, &random)
        let ours = Self.bytes(Self.partitioned(Self.edit(lines, side: "ours", &random)), &random)
        let theirs = Self.bytes(Self.partitioned(Self.edit(lines, side: "theirs", &random)), &random)
        let paths = ["base", "ours", "theirs"].map { directory + "/\($0).txt" }
        for (path, content) in zip(paths, [base, ours, theirs]) { Files.write(path, content) }
        let merged = Spawn.todo(["merge"] + paths)
        let expected = TodoMerge.threeWay(base: base, ours: ours, theirs: theirs, options: ThreeWayOptions())
        XCTAssertEqual(merged.status, expected.conflicts.isEmpty ? 0 : 1, "seed \(seed): \(merged.err.prefix(300))")
        XCTAssertTrue(Files.read(paths[1]) == expected.rendered(), "seed \(seed): the merged file differs from the one-thread merge")
        XCTAssertEqual(merged.err.split(separator: "\n").map(String.init),
                       expected.reports.map { "todo merge: \($0)" } + expected.conflicts.map { "todo merge: conflict: \($0.text)" },
                       "seed \(seed): the merge's reports differ")

        let todo = directory + "/todo.txt", conflicted = directory + "/todo (conflicted copy 2026-12-02).txt"
        Files.write(todo, ours)
        Files.write(conflicted, theirs)
        let reconciled = Spawn.todo(["reconcile", todo])
        let twoWay = TodoMerge.twoWay(file: ours, copy: theirs, doneUIDs: [])
        XCTAssertEqual(reconciled.status, 0, "seed \(seed): \(reconciled.err.prefix(300))")
        XCTAssertTrue(Files.read(todo) == twoWay.rendered(), "seed \(seed): the reconciled file differs from the one-thread merge")
        XCTAssertEqual(Array(reconciled.out.split(separator: "\n").map(String.init).dropFirst()), twoWay.reports.map { "  \($0)" },
                       "seed \(seed): the reconcile's reports differ")
    }
}
