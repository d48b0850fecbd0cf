import Foundation
import TodoTxt
import TodoTestSupport
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
        XCTAssertEqual(again.err, "", "nothing to do says nothing (for cron)")
        XCTAssertTrue(Spawn.todo(["-v", "reconcile", todo]).err.contains("no conflict copies found"))
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
        XCTAssertEqual(again.err, "", "nothing to do says nothing (for cron)")
    }

    func testCopyStaysWhenTheMergedFileCannotBeWritten() {
        let todo = directory + "/todo.txt"
        Files.write(todo, "call mom uid:a1\n")
        let copy = directory + "/todo.sync-conflict-20261129-101500-ABCDEFG.txt"
        Files.write(copy, "call mom uid:a1\npay rent uid:a2\n")
        // Another writer holds the writers' lock (on the file): the merged file cannot be written.
        let descriptor = LockTests.lockFile(todo)
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

    // MARK: - Round two (sync.md, "Reconcile, round two")

    /// A todo.txt beside `copy` (a new task in it) and `decoys`: reconcile merges the copy, removes
    /// it, and leaves every decoy (near-misses, names people make) exactly as it was.
    private func assertReconciles(_ copy: String, base: String = "todo.txt", decoys: [String],
                                  file: StaticString = #filePath, line: UInt = #line) {
        let target = directory + "/" + base
        if base != "todo.txt" { Files.write(directory + "/todo.txt", "todo uid:t0\n") }
        Files.write(target, "call mom uid:a1\n")
        Files.write(directory + "/" + copy, "call mom uid:a1\nnew from the other device uid:n1\n")
        for name in decoys { Files.write(directory + "/" + name, "decoy uid:zz\n") }
        let run = Spawn.todo(["reconcile", directory + "/todo.txt"])
        XCTAssertEqual(run.status, 0, run.err, file: file, line: line)
        XCTAssertTrue(run.out.contains("merged \(copy) into \(base)"), run.out, file: file, line: line)
        XCTAssertEqual(lines(target), ["call mom uid:a1", "new from the other device uid:n1"], file: file, line: line)
        XCTAssertEqual(names(in: directory), (decoys + [base] + (base == "todo.txt" ? [] : ["todo.txt"])).sorted(),
                       "the copy removed, nothing else", file: file, line: line)
        for name in decoys { XCTAssertEqual(Files.text(directory + "/" + name), "decoy uid:zz\n", name, file: file, line: line) }
    }

    func testSeafileCopiesAreReconciled() {
        assertReconciles("todo (SFConflict ann@example.com 2026-11-29-10-15-00).txt",
                         decoys: ["todo (SFConflict ann@example.com 2026-11-29).txt", "todo.txt (SFConflict ann@example.com 2026-11-29-10-15-00)",
                                  "todo (1).txt"])
        // The server's form (whole name, Go's time layout), in a fresh directory.
        tearDown(); setUp()
        assertReconciles("todo.txt (SFConflict Ann 2026-Nov-29-10-15-00).txt",
                         decoys: ["todo.txt (SFConflict Ann 2026-11-29-10-15-00).txt", "todo copy.txt"])
    }

    func testResilioSyncCopiesAreReconciled() {
        // Resilio names the copy after the clashing name of the other device (here differently cased).
        assertReconciles("Todo.Conflict.txt", decoys: ["todo.conflict.txt", "todo.Conflict1.txt", "todo 2.txt"])
        tearDown(); setUp()
        assertReconciles("done.Conflict.txt", base: "done.txt", decoys: ["done.Conflict.md", "todo.Conflicts.txt"])
    }

    func testOneDriveCopiesAreReconciled() {
        // Only the Linux client's `-safeBackup-NNNN` form: a bare `todo-HOSTNAME.txt` may be a
        // person's own per-machine list, and is left alone.
        assertReconciles("todo-onedrive-client-dev-safeBackup-0001.txt",
                         decoys: ["todo-onedrive-client-dev.txt", "todo-DESKTOP-5GU6T73.txt", "todo-work.txt",
                                  "todo-host-safeBackup-0000.txt"])
    }

    func testSynologyDriveCopiesAreReconciled() {
        assertReconciles("todo_Andy-PC_Jan-03-0901-2013_Conflict_1.txt",
                         decoys: ["todo_Andy-PC_Jan-03-0901-2013_WhiteSpaceConflict_1.txt", "Todo_Andy-PC_Jan-03-0901-2013_Conflict_1.txt",
                                  "todo_Andy-PC.txt"])
        tearDown(); setUp()
        assertReconciles("Todo_DiskStation_Nov-29-1015-2026_CaseConflict.txt", decoys: ["todo_old.txt"])
    }

    func testSyncthingCopiesOfCopiesAreReconciled() {
        assertReconciles("todo.sync-conflict-20261129-101500-ABCDEFG.sync-conflict-20261130-080000-HIJKLMN.txt",
                         decoys: ["todo.sync-conflict-20261129-101500-ABCDEFG.copy.txt", "todo.txt.sync-conflict-20261129-101500-ABCDEFG"])
    }

    func testEveryClientsCopyTogetherAllMergedNoneTwice() {
        let todo = directory + "/todo.txt"
        Files.write(todo, "call mom uid:a1\n")
        let copies = ["todo (SFConflict ann@example.com 2026-11-29-10-15-00).txt": "s1",
                      "todo.Conflict.txt": "r1", "todo-laptop-safeBackup-0001.txt": "o1",
                      "todo_Andy-PC_Jan-03-0901-2013_Conflict_1.txt": "y1",
                      "todo.sync-conflict-20261129-101500-ABCDEFG.sync-conflict-20261130-080000-HIJKLMN.txt": "t1"]
        for (name, uid) in copies { Files.write(directory + "/" + name, "call mom uid:a1\ntask \(uid) uid:\(uid)\n") }
        let run = Spawn.todo(["reconcile", todo])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertEqual(names(in: directory), ["todo.txt"])
        let merged = lines(todo)
        XCTAssertEqual(merged.count, 1 + copies.count, "\(merged)")
        for uid in copies.values { XCTAssertEqual(holders(uid, merged).count, 1, "\(uid) in \(merged)") }
    }

    // MARK: - Defects of round two

    /// A copy holding NUL bytes is refused like the merge driver refuses binary input: it stays,
    /// one stderr line names it, the other copies are merged, and the run exits 1.
    func testCopyHoldingNULBytesIsLeftInPlaceAndTheOthersMerged() {
        let todo = directory + "/todo.txt"
        Files.write(todo, "call mom uid:a1\n")
        let binary = "todo (conflicted copy 2026-11-29).txt"
        Files.write(directory + "/" + binary, Array("call mom uid:a1\n".utf8) + [0, 0, 0] + Array("\npay rent uid:a2\n".utf8))
        let good = "todo.sync-conflict-20261129-101500-ABCDEFG.txt"
        Files.write(directory + "/" + good, "call mom uid:a1\nbuy milk uid:a3\n")

        let run = Spawn.todo(["reconcile", todo])
        XCTAssertEqual(run.status, 1, run.err)
        let errors = run.err.split(separator: "\n").map(String.init)
        XCTAssertEqual(errors.count, 1, run.err)
        XCTAssertTrue(errors.first?.contains(binary) ?? false, run.err)
        XCTAssertTrue(errors.first?.contains("NUL") ?? false, run.err)
        XCTAssertFalse(Files.read(todo).contains(0), "no NUL byte written into the todo file")
        XCTAssertEqual(lines(todo), ["call mom uid:a1", "buy milk uid:a3"], "the good copy merged")
        XCTAssertEqual(names(in: directory), [binary, "todo.txt"], "the binary copy kept, the good one removed")
        XCTAssertFalse(run.err.contains("no conflict copies found"))

        // Still there next time, still refused; nothing else changes.
        let again = Spawn.todo(["reconcile", todo])
        XCTAssertEqual(again.status, 1, again.err)
        XCTAssertEqual(lines(todo), ["call mom uid:a1", "buy milk uid:a3"])
        XCTAssertTrue(FileManager.default.fileExists(atPath: directory + "/" + binary))
    }

    /// Three copies carrying the same other version of a task: one `conflict:copy` line, not three.
    func testThreeCopiesWithTheSameLeftoverLineLeaveOneConflictLine() {
        let todo = directory + "/todo.txt"
        Files.write(todo, "(A) call mom uid:a1\npay rent uid:a2\n")
        for name in ["todo (conflicted copy 2026-11-29).txt", "todo.sync-conflict-20261129-101500-ABCDEFG.txt",
                     "todo (conflicted copy 2026-11-29 101500).txt"] {
            Files.write(directory + "/" + name, "(B) call mom uid:a1\npay rent uid:a2\n")
        }
        let run = Spawn.todo(["reconcile", todo])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertEqual(lines(todo), ["(A) call mom uid:a1", "(B) call mom uid:a1 conflict:copy", "pay rent uid:a2"])
        XCTAssertEqual(names(in: directory), ["todo.txt"])
    }

    /// A directory (or a symlink) named like a conflict copy is not one: it is passed over, and the
    /// real copies are merged.
    func testDirectoriesAndLinksNamedLikeCopiesAreSkipped() throws {
        let todo = directory + "/todo.txt"
        Files.write(todo, "call mom uid:a1\n")
        let folder = "todo (conflicted copy 2026-11-28).txt"
        try FileManager.default.createDirectory(atPath: directory + "/" + folder, withIntermediateDirectories: false)
        Files.write(directory + "/" + folder + "/inside.txt", "inside uid:i1\n")
        Files.write(directory + "/elsewhere.txt", "linked uid:l1\n")
        let link = "todo.sync-conflict-20261128-101500-ABCDEFG.txt"
        try FileManager.default.createSymbolicLink(atPath: directory + "/" + link, withDestinationPath: "elsewhere.txt")
        let good = "todo (Ann's conflicted copy 2026-11-29).txt"
        Files.write(directory + "/" + good, "call mom uid:a1\npay rent uid:a2\n")

        let run = Spawn.todo(["reconcile", todo])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertEqual(run.err, "")
        XCTAssertTrue(run.out.contains("merged \(good) into todo.txt"), run.out)
        XCTAssertEqual(lines(todo), ["call mom uid:a1", "pay rent uid:a2"])
        XCTAssertEqual(names(in: directory), ["elsewhere.txt", link, folder, "todo.txt"].sorted())
        XCTAssertEqual(Files.text(directory + "/" + folder + "/inside.txt"), "inside uid:i1\n")
        XCTAssertEqual(Files.text(directory + "/elsewhere.txt"), "linked uid:l1\n")
    }

    /// A done copy with no done file (or a todo copy with no todo file) becomes the file.
    func testCopiesOfMissingFilesBecomeTheFiles() {
        let todo = directory + "/todo.txt", done = directory + "/done.txt"
        let doneCopy = "x 2026-11-27 water plants uid:w1\r\nx 2026-11-28 pay rent uid:a2\r\n"
        Files.write(directory + "/done (conflicted copy 2026-11-29).txt", doneCopy)
        Files.write(directory + "/todo.sync-conflict-20261129-101500-ABCDEFG.txt", "call mom uid:a1\npay rent uid:a2\n")

        let run = Spawn.todo(["reconcile", todo])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertFalse(run.err.contains("no conflict copies found"), run.err)
        XCTAssertEqual(Files.text(done), doneCopy, "the copy became the done file, byte for byte")
        XCTAssertEqual(lines(todo), ["call mom uid:a1"], "created from its copy, without the task archived in done")
        XCTAssertEqual(names(in: directory), ["done.txt", "todo.txt"])
        XCTAssertTrue(run.out.contains("created from the copy"), run.out)
    }

    func testDoneCopyWithoutDoneFileBesideAnExistingTodoFile() {
        let todo = directory + "/todo.txt", done = directory + "/done.txt"
        Files.write(todo, "call mom uid:a1\n")
        Files.write(directory + "/done.sync-conflict-20261129-101500-ABCDEFG.txt", "x 2026-11-28 pay rent uid:a2\n")
        let run = Spawn.todo(["reconcile", todo])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertEqual(Files.text(done), "x 2026-11-28 pay rent uid:a2\n")
        XCTAssertEqual(Files.text(todo), "call mom uid:a1\n")
        XCTAssertEqual(names(in: directory), ["done.txt", "todo.txt"])
    }
}
