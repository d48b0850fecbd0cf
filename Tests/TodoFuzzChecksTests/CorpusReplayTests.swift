import Foundation
import TodoFuzzChecks
import XCTest

/// Replays every file of every fuzz target's corpus (Fixtures/fuzz/TARGET/) through that target's
/// checks, without the fuzzing engine: what libFuzzer once found, or was seeded with, stays checked
/// on every `swift test`. Fixtures/fuzz/findings-pending/ holds inputs that still fail and is not
/// replayed here.
final class CorpusReplayTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/fuzz")

    /// The corpus files of `target`, sorted by name; fails when the directory is missing or empty,
    /// which would otherwise make the replay pass vacuously.
    private func corpus(_ target: FuzzTarget) throws -> [(name: String, bytes: [UInt8])] {
        let folder = Self.root.appendingPathComponent(target.rawValue)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { !$0.hasPrefix(".") }.sorted()
        XCTAssertFalse(names.isEmpty, "no corpus in \(folder.path)")
        return try names.map { ($0, [UInt8](try Data(contentsOf: folder.appendingPathComponent($0)))) }
    }

    private func replay(_ target: FuzzTarget) throws {
        for (name, bytes) in try corpus(target) {
            let failures = target.failures(bytes)
            XCTAssertTrue(failures.isEmpty, "\(target.rawValue)/\(name):\n" + failures.map(\.description).joined(separator: "\n"))
        }
    }

    func testParseCorpus() throws { try replay(.parse) }
    func testEditsCorpus() throws { try replay(.edits) }
    func testSortCorpus() throws { try replay(.sort) }
    func testMergeCorpus() throws { try replay(.merge) }
    func testFilterCorpus() throws { try replay(.filter) }

    /// The filter corpus through real grep (`grep -G -i` in C.UTF-8): every term grep accepts
    /// selects the same lines, every term it refuses is refused with grep's message.
    func testFilterCorpusAgreesWithGrep() throws {
        let grep = try XCTUnwrap(GrepReference(), "these tests need grep on the PATH")
        var compared = 0
        for (name, bytes) in try corpus(.filter) {
            switch try grep.compare(bytes) {
            case .agrees, .rejected: compared += 1
            case .skipped: continue
            case .refusalDiffers(let engine, let grep):
                XCTFail("filter/\(name): syntaxError says \(engine ?? "valid"), grep says \(grep ?? "valid")")
            case .disagrees(let engine, let selected):
                XCTFail("filter/\(name): the engine selects lines \(engine), grep \(selected)")
            }
        }
        XCTAssertGreaterThan(compared, 20, "too few filter inputs compared with grep")
    }

    /// Every target has a corpus directory and nothing else sits beside them but the pending
    /// findings and the dictionary.
    func testCorpusDirectoriesMatchTargets() throws {
        let entries = Set(try FileManager.default.contentsOfDirectory(atPath: Self.root.path).filter { !$0.hasPrefix(".") })
        let expected = Set(FuzzTarget.allCases.map(\.rawValue)).union(["todo.dict", "findings-pending"])
        XCTAssertTrue(entries.isSubset(of: expected), "unexpected entries: \(entries.subtracting(expected).sorted())")
        for target in FuzzTarget.allCases { XCTAssertTrue(entries.contains(target.rawValue), target.rawValue) }
    }
}

/// The input plumbing the targets rely on: the caps and the merge split.
final class FuzzInputTests: XCTestCase {
    func testCutIsAPrefixWithinBothCapsAndIdempotent() {
        let limits = InputLimits(maxBytes: 10, maxLines: 2)
        let inputs: [[UInt8]] = [[], Array("a\nb\nc\n".utf8), Array("0123456789abc".utf8), Array("\n\n\n\n".utf8),
                                 Array("a\r\nb\r\nc".utf8)]
        for input in inputs {
            let cut = limits.cut(input)
            XCTAssertTrue(input.starts(with: cut))
            XCTAssertLessThanOrEqual(cut.count, 10)
            XCTAssertLessThanOrEqual(cut.filter { $0 == 0x0A }.count, 2)
            XCTAssertEqual(limits.cut(cut), cut)
        }
        XCTAssertEqual(limits.cut(Array("a\nb\nc\n".utf8)), Array("a\nb\n".utf8))
        XCTAssertEqual(limits.cut(Array("0123456789abc".utf8)), Array("0123456789".utf8))
    }

    func testMergeSplitAtSeparatorsOrThirds() {
        let split = mergeVersions(Array("b\n".utf8) + [mergeSeparator] + Array("o\n".utf8) + [mergeSeparator] + Array("t\n".utf8))
        XCTAssertEqual(split.base, Array("b\n".utf8))
        XCTAssertEqual(split.ours, Array("o\n".utf8))
        XCTAssertEqual(split.theirs, Array("t\n".utf8))
        let thirds = mergeVersions(Array("aabbcc".utf8))
        XCTAssertEqual([thirds.base, thirds.ours, thirds.theirs], [Array("aa".utf8), Array("bb".utf8), Array("cc".utf8)])
    }

    func testTargetNamesAreTheEnvironmentValues() {
        XCTAssertEqual(FuzzTarget.allCases.map(\.rawValue), ["parse", "edits", "sort", "merge", "filter"])
        XCTAssertEqual(FuzzTarget.environmentVariable, "TODO_FUZZ_TARGET")
    }
}
