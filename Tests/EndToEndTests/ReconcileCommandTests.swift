import Foundation
import TodoTxt
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `todo reconcile [--keep] [FILE]` run as the built binary on sync-client conflict copies
/// (sync.md section 2).
final class ReconcileCommandTests: XCTestCase {
    private var directory = ""

    override func setUp() {
        directory = Spawn.makeTemporaryDirectory("reconcile")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func lines(_ path: String) -> [String] {
        Files.text(path).split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }

    private func names(in path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// The lines holding `uid`.
    private func holders(_ uid: String, _ lines: [String]) -> [String] {
        lines.filter { TodoItem($0).uid == uid }
    }

    func testEveryNamingSchemeBesideTodoTxtIsMergedThenRemoved() {
        let todo = directory + "/todo.txt"
        Files.write(todo, "(A) call mom uid:a1\npay rent uid:a2\nbuy milk uid:a3\n")
        let copies = [
            // Dropbox, with and without a user name: a task added; the task completed.
            "todo (Ann's conflicted copy 2026-11-29).txt": "(A) call mom uid:a1\npay rent uid:a2\nbuy milk uid:a3\nwater plants uid:c1\n",
            "todo (conflicted copy 2026-11-29).txt": "x 2026-11-28 (A) call mom uid:a1\npay rent uid:a2\nbuy milk uid:a3\n",
            // Syncthing: a due date set and a task added.
            "todo.sync-conflict-20261129-101500-ABCDEFG.txt": "(A) call mom uid:a1\npay rent due:2026-12-01 uid:a2\nbuy milk uid:a3\nbook dentist uid:c3\n",
            // Nextcloud/ownCloud: the text edited differently (a difference that cannot be merged).
            "todo (conflicted copy 2026-11-29 101500).txt": "(A) call mom uid:a1\npay rent uid:a2\nbuy oat milk uid:a3\n",
            // The older ownCloud name.
            "todo_conflict-20261129-101500.txt": "(A) call mom uid:a1\npay rent uid:a2\nbuy milk uid:a3\nfix bike uid:c5\n",
        ]
        for (name, text) in copies { Files.write(directory + "/" + name, text) }
        // Names that are not conflict copies of todo.txt stay untouched.
        let decoys = ["todo (notes).txt", "todo.txt.bak", "todo (conflicted copy 2026-02-30).txt",
                      "Todo (conflicted copy 2026-11-29).txt", "todo (conflicted copy 2026-11-29).md"]
        for name in decoys { Files.write(directory + "/" + name, "decoy uid:zz\n") }

        let run = Spawn.todo(["reconcile", todo])
        XCTAssertEqual(run.status, 0, run.err)
        for name in copies.keys {
            XCTAssertTrue(run.out.contains("merged \(name) into todo.txt"), "\(name) not reported:\n\(run.out)")
        }
        XCTAssertEqual(names(in: directory), (decoys + ["todo.txt"]).sorted(), "every copy removed, nothing else")

        let merged = lines(todo)
        XCTAssertEqual(TodoDocument(bytes: Files.read(todo)).rendered(), Files.read(todo))
        // Nothing lost: every task of every version, with every change that can be merged.
        let a1 = holders("a1", merged)
        XCTAssertEqual(a1.count, 1, "\(merged)")
        XCTAssertTrue(a1.first.map { TodoItem($0).isCompleted } ?? false, "completed beats open: \(a1)")
        XCTAssertEqual(holders("a2", merged), ["pay rent uid:a2 due:2026-12-01"], "a value beats none (appended in the file's layout)")
        XCTAssertEqual(holders("a3", merged), ["buy milk uid:a3", "buy oat milk uid:a3 conflict:copy"],
                       "both texts kept, the copy's marked")
        for uid in ["c1", "c3", "c5"] { XCTAssertEqual(holders(uid, merged).count, 1, "\(uid) in \(merged)") }
        XCTAssertEqual(merged.count, 7, "\(merged)")
        XCTAssertFalse(merged.contains { $0.contains("decoy") })

        let again = Spawn.todo(["reconcile", todo])
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertTrue(again.err.contains("no conflict copies found"), again.err)
        XCTAssertEqual(lines(todo), merged)
    }

    func testDoneCopiesFirstAndArchivedTasksAreNotResurrected() {
        let todo = directory + "/todo.txt", done = directory + "/done.txt"
        // This machine archived "pay rent"; the other machine archived "water plants" and added a task.
        Files.write(todo, "call mom uid:a1\nwater plants uid:w1\n")
        Files.write(done, "x 2026-11-28 pay rent uid:a2\n")
        Files.write(directory + "/done.sync-conflict-20261129-101500-ABCDEFG.txt", "x 2026-11-27 water plants uid:w1\n")
        Files.write(directory + "/todo (conflicted copy 2026-11-29).txt",
                    "call mom uid:a1\npay rent uid:a2\nwater plants uid:w1\nnew from phone uid:p1\n")

        let run = Spawn.todo(["reconcile", todo])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertEqual(names(in: directory), ["done.txt", "todo.txt"])
        XCTAssertEqual(lines(done), ["x 2026-11-28 pay rent uid:a2", "x 2026-11-27 water plants uid:w1"],
                       "the done file's copy is merged into the done file")
        let merged = lines(todo)
        XCTAssertEqual(holders("a2", merged), [], "archived here: not resurrected from the copy")
        XCTAssertEqual(holders("p1", merged), ["new from phone uid:p1"])
        XCTAssertEqual(holders("a1", merged), ["call mom uid:a1"])
        // The file's own line stays (never dropped), even though the other machine archived it.
        XCTAssertEqual(holders("w1", merged), ["water plants uid:w1"])
        XCTAssertTrue(run.out.contains("not resurrected"), run.out)
        let doneReport = run.out.range(of: "into done.txt"), todoReport = run.out.range(of: "into todo.txt")
        XCTAssertNotNil(doneReport)
        XCTAssertNotNil(todoReport)
        if let doneReport, let todoReport { XCTAssertLessThan(doneReport.lowerBound, todoReport.lowerBound, "done file first") }
    }

    func testCopyOnlyInTheCopyOfAnArchivedTaskIsNotResurrectedWithoutADoneCopy() {
        let todo = directory + "/todo.txt"
        Files.write(todo, "call mom uid:a1\n")
        Files.write(directory + "/done.txt", "x 2026-11-28 pay rent uid:a2\n")
        Files.write(directory + "/todo (Bob's conflicted copy 2026-11-29).txt", "call mom uid:a1\npay rent uid:a2\n")
        let run = Spawn.todo(["reconcile", todo])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertEqual(lines(todo), ["call mom uid:a1"])
        XCTAssertEqual(lines(directory + "/done.txt"), ["x 2026-11-28 pay rent uid:a2"])
    }

    func testKeepMovesCopiesAsideUnderNamesThatAreNotCopies() {
        let todo = directory + "/todo.txt"
        Files.write(todo, "call mom uid:a1\n")
        let copy = "todo (conflicted copy 2026-11-29).txt"
        Files.write(directory + "/" + copy, "call mom uid:a1\npay rent uid:a2\n")
        let run = Spawn.todo(["reconcile", "--keep", todo])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertEqual(names(in: directory), [copy + ".reconciled", "todo.txt"])
        XCTAssertEqual(Files.text(directory + "/" + copy + ".reconciled"), "call mom uid:a1\npay rent uid:a2\n", "moved, not rewritten")
        XCTAssertEqual(lines(todo), ["call mom uid:a1", "pay rent uid:a2"])
        let again = Spawn.todo(["reconcile", "--keep", todo])
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertTrue(again.err.contains("no conflict copies found"), again.err)
    }

    func testCopyStaysWhenTheMergedFileCannotBeWritten() {
        let todo = directory + "/todo.txt"
        Files.write(todo, "call mom uid:a1\n")
        let copy = directory + "/todo.sync-conflict-20261129-101500-ABCDEFG.txt"
        Files.write(copy, "call mom uid:a1\npay rent uid:a2\n")
        // Another todo process holds the writers' lock (on the directory): the merged file cannot be written.
        let descriptor = LockTests.lockDirectory(directory)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        let blocked = Spawn.todo(["reconcile", todo], environment: ["TODO_LOCK_TIMEOUT": "0.2"])
        XCTAssertEqual(blocked.status, 1, blocked.err)
        XCTAssertTrue(blocked.err.contains("locked"), blocked.err)
        XCTAssertTrue(FileManager.default.fileExists(atPath: copy), "the copy is removed only after the merge is written")
        XCTAssertEqual(Files.text(todo), "call mom uid:a1\n")
        flock(descriptor, LOCK_UN)
        close(descriptor)

        let released = Spawn.todo(["reconcile", todo], environment: ["TODO_LOCK_TIMEOUT": "0.2"])
        XCTAssertEqual(released.status, 0, released.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: copy))
        XCTAssertEqual(Files.text(todo), "call mom uid:a1\npay rent uid:a2\n")
    }

    func testSymlinkedFilesFindTheCopiesBesideTheirTargets() throws {
        // The synced folder holds the real files and the copies; the home directory holds symlinks.
        let synced = directory + "/Dropbox/todo", home = directory + "/home"
        for path in [synced, home] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        Files.write(synced + "/todo.txt", "call mom uid:a1\n")
        Files.write(synced + "/done.txt", "x 2026-11-20 old uid:d0\n")
        Files.write(synced + "/todo (Ann's conflicted copy 2026-11-29).txt", "call mom uid:a1\npay rent uid:a2\nwater uid:w1\n")
        Files.write(synced + "/done (Ann's conflicted copy 2026-11-29).txt", "x 2026-11-20 old uid:d0\nx 2026-11-29 water uid:w1\n")
        try FileManager.default.createSymbolicLink(atPath: home + "/todo.txt", withDestinationPath: synced + "/todo.txt")
        try FileManager.default.createSymbolicLink(atPath: home + "/done.txt", withDestinationPath: "../Dropbox/todo/done.txt")

        let run = Spawn.todo(["reconcile", home + "/todo.txt"])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertEqual(names(in: synced), ["done.txt", "todo.txt"], "the copies beside the targets are merged and removed")
        XCTAssertEqual(lines(synced + "/todo.txt"), ["call mom uid:a1", "pay rent uid:a2"], "w1 was archived by Ann")
        XCTAssertEqual(lines(synced + "/done.txt"), ["x 2026-11-20 old uid:d0", "x 2026-11-29 water uid:w1"])
        for link in ["todo.txt", "done.txt"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: home + "/" + link)
            XCTAssertEqual(attributes[.type] as? FileAttributeType, .typeSymbolicLink, "\(link) is still a symlink")
        }
        XCTAssertEqual(names(in: home), ["done.txt", "todo.txt"])
    }
}
