import Foundation
import TodoTxt
import TodoTestSupport
import XCTest

/// `todo merge BASE OURS THEIRS [MARKER_SIZE]` as git calls it, and `todo merge --setup`, run as the
/// built binary (sync.md section 1).
final class MergeCommandTests: XCTestCase {
    private var directory = ""

    override func setUp() {
        directory = Spawn.makeTemporaryDirectory("merge-cli")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Writes the three versions and runs the driver; returns the result and OURS afterwards.
    private func merge(base: [UInt8]?, ours: [UInt8]?, theirs: [UInt8]?, extra: [String] = [])
        -> (result: ProcessResult, ours: [UInt8]) {
        let paths = ["base", "ours", "theirs"].map { directory + "/\($0).txt" }
        for (path, bytes) in zip(paths, [base, ours, theirs]) {
            if let bytes { Files.write(path, bytes) } else { try? FileManager.default.removeItem(atPath: path) }
        }
        let result = Spawn.todo(["merge"] + paths + extra)
        return (result, Files.read(paths[1]))
    }

    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// git 2.44 and later pass the sides' labels (`%S %X %Y`, registered by `--setup`): the markers
    /// carry them. Older git passes the placeholders as they are: `ours`/`theirs` then.
    func testConflictMarkersCarryTheLabelsGitPasses() {
        let base = bytes("call mom uid:a1\n"), ours = bytes("call dad uid:a1\n"), theirs = bytes("ring mom uid:a1\n")
        let labelled = merge(base: base, ours: ours, theirs: theirs,
                             extra: ["7", "todo.txt", "merged common ancestors", "HEAD", "1a2b3c4 (ring instead)"])
        XCTAssertEqual(labelled.result.status, 1, labelled.result.err)
        XCTAssertEqual(String(decoding: labelled.ours, as: UTF8.self),
                       "<<<<<<< HEAD\ncall dad uid:a1\n=======\nring mom uid:a1\n>>>>>>> 1a2b3c4 (ring instead)\n")
        let old = merge(base: base, ours: ours, theirs: theirs, extra: ["7", "todo.txt", "%S", "%X", "%Y"])
        XCTAssertEqual(old.result.status, 1, old.result.err)
        XCTAssertTrue(String(decoding: old.ours, as: UTF8.self).hasPrefix("<<<<<<< ours\n"))
        XCTAssertTrue(String(decoding: old.ours, as: UTF8.self).hasSuffix(">>>>>>> theirs\n"))
    }

    /// Every failure of the driver: exit 1 (never a crash, never above 128), one message, OURS as it was.
    private func assertRefused(_ run: (result: ProcessResult, ours: [UInt8]), oursBefore: [UInt8]?, mentioning: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.result.status, 1, run.result.err, file: file, line: line)
        XCTAssertTrue(run.result.err.contains(mentioning), run.result.err, file: file, line: line)
        if let oursBefore { XCTAssertEqual(run.ours, oursBefore, "OURS must be left byte for byte", file: file, line: line) }
        XCTAssertEqual(run.result.stdout, [], file: file, line: line)
    }

    // MARK: git's contract

    func testCleanMergeIsWrittenIntoOursAndExitsZero() {
        let base = bytes("(A) call mom uid:a1\npay rent uid:a2\nbuy milk uid:a3\n")
        let ours = bytes("(A) call mom uid:a1\nx 2026-11-29 pay rent uid:a2\nbuy milk uid:a3\nwater plants uid:o1\n")
        let theirs = bytes("(B) call mom uid:a1\npay rent uid:a2\nbook dentist uid:t1\n")
        let run = merge(base: base, ours: ours, theirs: theirs)
        XCTAssertEqual(run.result.status, 0, run.result.err)
        // Both appended at the end: ours first, then theirs; their delete of "buy milk" applies.
        XCTAssertEqual(String(decoding: run.ours, as: UTF8.self),
                       "(B) call mom uid:a1\nx 2026-11-29 pay rent uid:a2\nwater plants uid:o1\nbook dentist uid:t1\n")
        XCTAssertEqual(Files.read(directory + "/base.txt"), base, "BASE is never written")
        XCTAssertEqual(Files.read(directory + "/theirs.txt"), theirs, "THEIRS is never written")
        XCTAssertEqual(run.result.stdout, [], "a merge driver prints nothing on stdout")
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: directory))?.sorted() ?? []
        XCTAssertEqual(leftovers, ["base.txt", "ours.txt", "theirs.txt"], "no lock or temporary file is left beside OURS")
    }

    func testConflictWritesMarkersOfTheGivenSizeAndExitsOne() {
        let base = bytes("call mom uid:a1\npay rent uid:a2\n")
        let ours = bytes("(A) call mom uid:a1\npay rent uid:a2\n")
        let theirs = bytes("(C) call mom uid:a1\npay rent due:2026-12-01 uid:a2\n")
        let run = merge(base: base, ours: ours, theirs: theirs, extra: ["10"])
        XCTAssertEqual(run.result.status, 1, run.result.err)
        XCTAssertEqual(String(decoding: run.ours, as: UTF8.self), """
            <<<<<<<<<< ours
            (A) call mom uid:a1
            ==========
            (C) call mom uid:a1
            >>>>>>>>>> theirs
            pay rent due:2026-12-01 uid:a2

            """, "only the conflicting task is between markers of size %L; the rest is merged")
        XCTAssertTrue(run.result.err.contains("conflict"), run.result.err)

        let standard = merge(base: base, ours: ours, theirs: theirs)
        XCTAssertEqual(standard.result.status, 1)
        XCTAssertTrue(String(decoding: standard.ours, as: UTF8.self).hasPrefix("<<<<<<< ours\n"), "git's default size is 7")
    }

    func testEmptyBaseIsAddAdd() {
        let ours = bytes("call mom uid:a1\nshared task uid:s1\n")
        let theirs = bytes("shared task uid:s1\npay rent uid:t1\n")
        let run = merge(base: [], ours: ours, theirs: theirs)
        XCTAssertEqual(run.result.status, 0, run.result.err)
        XCTAssertEqual(String(decoding: run.ours, as: UTF8.self), "call mom uid:a1\nshared task uid:s1\npay rent uid:t1\n",
                       "a task both added identically appears once")

        // Both added the same uid with different text: one conflict block (nothing lost, exit 1), never
        // two lines with one uid.
        let clash = merge(base: [], ours: bytes("call mom uid:x1\n"), theirs: bytes("call dad uid:x1\n"))
        XCTAssertEqual(clash.result.status, 1, clash.result.err)
        XCTAssertEqual(String(decoding: clash.ours, as: UTF8.self), "<<<<<<< ours\ncall mom uid:x1\n=======\ncall dad uid:x1\n>>>>>>> theirs\n")
        XCTAssertTrue(clash.result.err.contains("conflict (line): call mom uid:x1"), clash.result.err)
    }

    func testInvalidUTF8IsMergedByteForByte() {
        // Not text git would call binary: invalid UTF-8 and a lone CR stay exactly as they were.
        let odd: [UInt8] = bytes("caf") + [0xE9, 0xFF] + bytes(" r\u{0D}sum uid:z1")
        let base = bytes("a uid:a1\n")
        let ours = bytes("a uid:a1\n") + odd + [0x0A]
        let theirs = bytes("(A) a uid:a1\nb uid:b1\n")
        let run = merge(base: base, ours: ours, theirs: theirs)
        XCTAssertEqual(run.result.status, 0, run.result.err)
        XCTAssertEqual(run.ours, bytes("(A) a uid:a1\n") + odd + bytes("\nb uid:b1\n"), "the odd line is kept byte for byte")
    }

    func testTaskOnALineStartingWithAByteOrderMarkIsStillTheSameTask() {
        // THEIRS was rebuilt with `cat` from a file that had a byte order mark: the mark now starts a
        // line inside the file, right before the uid. The task behind it keeps its uid, so it is one
        // task (merged), not our edit plus their copy.
        let base = bytes("uid:a1 call mom\nb uid:b1\n")
        let ours = bytes("uid:a1 call mom +family\nb uid:b1\n")
        let theirs = bytes("b uid:b1\n\u{FEFF}uid:a1 call mom\n")
        let run = merge(base: base, ours: ours, theirs: theirs)
        XCTAssertEqual(run.result.status, 0, run.result.err)
        let lines = String(decoding: run.ours, as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(lines.filter { $0.contains("uid:a1") }.count, 1, "uid:a1 on one line: \(lines)")
        XCTAssertTrue(lines.contains { $0.hasSuffix("uid:a1 call mom +family") }, "our edit is kept: \(lines)")
        XCTAssertTrue(lines.contains("b uid:b1"))
    }

    func testBinarySideIsRefusedAndOursLeftAsItWas() {
        let text = bytes("call mom uid:a1\n")
        let binary: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D] + bytes("call mom\n")
        for (label, sides) in [("base", (binary, text, text + bytes("x\n"))),
                               ("ours", (text, binary, text + bytes("x\n"))),
                               ("theirs", (text, text + bytes("x\n"), binary))] {
            let run = merge(base: sides.0, ours: sides.1, theirs: sides.2)
            assertRefused(run, oursBefore: sides.1, mentioning: "\(label).txt holds NUL bytes")
        }
    }

    func testMissingFilesAreRefusedWithoutWriting() {
        let text = bytes("call mom uid:a1\n")
        assertRefused(merge(base: nil, ours: text, theirs: text + bytes("x uid:x\n")), oursBefore: text, mentioning: "base.txt")
        assertRefused(merge(base: text, ours: text, theirs: nil), oursBefore: text, mentioning: "theirs.txt")
        let noOurs = merge(base: text, ours: nil, theirs: text)
        assertRefused(noOurs, oursBefore: nil, mentioning: "ours.txt")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/ours.txt"), "a missing OURS is not created")
    }

    func testBadArgumentsAreUsageErrorsAndWriteNothing() {
        let text = bytes("call mom uid:a1\n")
        for extra in [["0"], ["abc"], ["65"]] {
            let run = merge(base: text, ours: text, theirs: text + bytes("b uid:b\n"), extra: extra)
            XCTAssertEqual(run.result.status, 2, "marker size \(extra): \(run.result.err)")
            XCTAssertEqual(run.ours, text)
        }
        let tooFew = Spawn.todo(["merge", directory + "/base.txt"])
        XCTAssertEqual(tooFew.status, 2)
        XCTAssertTrue(tooFew.err.contains("usage"), tooFew.err)
    }

    func testHugeFilesMergeWithoutCrashing() {
        // 200k tasks; both sides change every 97th/89th task in different fields and append a
        // thousand tasks each. It must finish and merge every change.
        let count = 200_000
        let clock = ContinuousClock(), started = clock.now
        var base: [UInt8] = [], ours: [UInt8] = [], theirs: [UInt8] = []
        base.reserveCapacity(count * 50)
        for number in 0..<count {
            let line = bytes("task number \(number) +p\(number % 7) due:2026-11-\(10 + number % 18) uid:b\(number)")
            base += line + [0x0A]
            ours += (number % 97 == 0 ? bytes("(A) ") + line : line) + [0x0A]
            theirs += (number % 89 == 0 ? line + bytes(" @phone") : line) + [0x0A]
        }
        for number in 0..<1000 {
            ours += bytes("ours \(number) uid:o\(number)\n")
            theirs += bytes("theirs \(number) uid:t\(number)\n")
        }
        let generated = clock.now
        let run = merge(base: base, ours: ours, theirs: theirs)
        print("200k-line merge (debug build under test): generating \(generated - started), todo merge \(clock.now - generated)")
        XCTAssertEqual(run.result.status, 0, String(run.result.err.prefix(500)))
        let merged = TodoDocument(bytes: run.ours)
        XCTAssertEqual(merged.lineCount, count + 2000)
        XCTAssertEqual(merged.text(at: 0), "(A) task number 0 +p0 due:2026-11-10 uid:b0 @phone")
        XCTAssertEqual(merged.text(at: 97), "(A) task number 97 +p6 due:2026-11-17 uid:b97")
        XCTAssertEqual(merged.text(at: 89), "task number 89 +p5 due:2026-11-27 uid:b89 @phone")
        XCTAssertEqual(merged.text(at: count), "ours 0 uid:o0")
        XCTAssertEqual(merged.text(at: count + 1000), "theirs 0 uid:t0")
    }

    func testOneHugeLineMergesWithoutCrashing() {
        // A 4 MB line without a final newline on one side.
        let long = bytes("call mom ") + Array(repeating: UInt8(ascii: "z"), count: 4_000_000) + bytes(" uid:l1")
        let run = merge(base: bytes("a uid:a1\n"), ours: bytes("a uid:a1\n") + long, theirs: bytes("(B) a uid:a1\n"))
        XCTAssertEqual(run.result.status, 0, String(run.result.err.prefix(300)))
        XCTAssertEqual(run.ours, bytes("(B) a uid:a1\n") + long, "OURS' missing final newline is kept")
    }

    // MARK: --setup

    func testSetupWritesConfigAndAttributesIdempotently() {
        let sandbox = GitSandbox(root: directory)
        let repo = directory + "/repo"
        sandbox.gitOK(directory, ["init", "-q", "-b", "main", repo])
        try? FileManager.default.createDirectory(atPath: repo + "/sub/dir", withIntermediateDirectories: true)
        // An existing attributes file without a final newline keeps its line.
        Files.write(repo + "/.gitattributes", "*.png binary")

        for run in 1...2 {
            let setup = sandbox.todo(in: repo + "/sub/dir", ["merge", "--setup"])
            XCTAssertEqual(setup.status, 0, "run \(run): \(setup.err)")
            XCTAssertTrue(setup.out.contains("registered"), setup.out)
            XCTAssertEqual(Files.text(repo + "/.gitattributes"), "*.png binary\ntodo.txt merge=todotxt\ndone.txt merge=todotxt\n",
                           "run \(run): the top-level .gitattributes, no duplicate lines")
            XCTAssertEqual(sandbox.gitOK(repo, ["config", "--get-all", "merge.todotxt.driver"]).out,
                           "'\(Spawn.todo)' merge %O %A %B %L %P %S %X %Y\n", "run \(run): one driver, by the path todo was run as")
            XCTAssertEqual(sandbox.gitOK(repo, ["config", "--get-all", "merge.todotxt.name"]).out.split(separator: "\n").count, 1)
            XCTAssertEqual(sandbox.gitOK(repo, ["status", "--porcelain", "--untracked-files=all"]).out, "?? .gitattributes\n",
                           "run \(run): nothing else is left in the work tree (no lock file)")
        }
        XCTAssertEqual(sandbox.gitOK(repo, ["check-attr", "merge", "todo.txt", "done.txt"]).out,
                       "todo.txt: merge: todotxt\ndone.txt: merge: todotxt\n")
    }

    func testSetupOutsideARepositoryFails() {
        let sandbox = GitSandbox(root: directory)
        let outside = directory + "/plain"
        try? FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        // GIT_CEILING_DIRECTORIES stops git from finding a repository above the temp directory.
        var environment = sandbox.environment
        environment["GIT_CEILING_DIRECTORIES"] = directory
        let run = Spawn.run(["/bin/sh", "-c", "cd \"$1\" && shift && exec \"$@\"", "sh", outside, Spawn.todo, "merge", "--setup"],
                            environment: environment)
        XCTAssertEqual(run.status, 1, run.err)
        XCTAssertTrue(run.err.contains("not inside a git repository"), run.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: outside + "/.gitattributes"))
        let extra = sandbox.todo(in: outside, ["merge", "--setup", "x"])
        XCTAssertEqual(extra.status, 2, extra.err)
    }
}
