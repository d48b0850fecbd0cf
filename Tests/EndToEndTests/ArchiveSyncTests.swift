import Foundation
import TodoTestSupport
import XCTest

/// Clone A completes a task and archives it; clone B gives the same task a priority or edits its
/// text, then takes A's work in by each git flow that runs the merge driver. The task must end up
/// archived exactly once: not open in todo.txt, once in done.txt. (Before: it came back open in
/// todo.txt while done.txt held it completed, the source of every duplicate uid the driver made.)
final class ArchiveSyncTests: XCTestCase {
    var sandbox: GitSandbox!
    var a = "", b = ""

    override func setUpWithError() throws {
        let root = Spawn.makeTemporaryDirectory("archive-sync")
        sandbox = GitSandbox(root: root)
        let remote = root + "/remote.git"
        a = root + "/a"
        b = root + "/b"
        sandbox.gitOK(root, ["init", "-q", "--bare", "-b", "main", remote])
        sandbox.gitOK(root, ["init", "-q", "-b", "main", a])
        Files.write(a + "/todo.txt", "buy milk uid:aaaaaa\ncall mom uid:bbbbbb\nwater plants uid:cccccc\n")
        Files.write(a + "/done.txt", "x 2025-11-01 old task uid:dddddd\n")
        XCTAssertEqual(sandbox.todo(in: a, ["merge", "--setup"]).status, 0)
        sandbox.gitOK(a, ["add", "todo.txt", "done.txt", ".gitattributes"])
        sandbox.gitOK(a, ["commit", "-q", "-m", "first"])
        sandbox.gitOK(a, ["remote", "add", "origin", remote])
        sandbox.gitOK(a, ["push", "-q", "-u", "origin", "main"])
        sandbox.gitOK(root, ["clone", "-q", remote, b])
        XCTAssertEqual(sandbox.todo(in: b, ["merge", "--setup"]).status, 0)
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: sandbox.root) }

    func todo(_ clone: String, _ arguments: [String]) {
        let result = sandbox.todo(in: clone, ["-f", clone + "/todo.txt"] + arguments)
        XCTAssertEqual(result.status, 0, "todo \(arguments): \(result.err)")
    }

    /// A completes and archives `buy milk`, commits, pushes.
    func archiveOnA() {
        todo(a, ["do", "aaaaaa"])
        todo(a, ["archive"])
        sandbox.gitOK(a, ["commit", "-q", "-am", "done: buy milk"])
        sandbox.gitOK(a, ["push", "-q"])
    }

    func assertArchivedOnce(_ clone: String, file: StaticString = #filePath, line: UInt = #line) {
        let todoText = Files.text(clone + "/todo.txt"), doneText = Files.text(clone + "/done.txt")
        XCTAssertFalse(todoText.contains("uid:aaaaaa"), "back open in todo.txt:\n\(todoText)", file: file, line: line)
        XCTAssertEqual(doneText.components(separatedBy: "uid:aaaaaa").count - 1, 1, "in done.txt once:\n\(doneText)", file: file, line: line)
        XCTAssertTrue(todoText.contains("call mom uid:bbbbbb") && todoText.contains("water plants uid:cccccc"), todoText,
                      file: file, line: line)
        XCTAssertFalse(todoText.contains("<<<<<<<") || doneText.contains("<<<<<<<"), file: file, line: line)
    }

    func testMerge() {
        archiveOnA()
        todo(b, ["pri", "aaaaaa", "A"])
        sandbox.gitOK(b, ["commit", "-q", "-am", "prioritise"])
        sandbox.gitOK(b, ["pull", "-q", "--no-rebase"])
        assertArchivedOnce(b)
    }

    func testPullRebaseWithATextEditReportsIt() {
        archiveOnA()
        todo(b, ["append", "aaaaaa", "2 litres"])
        sandbox.gitOK(b, ["commit", "-q", "-am", "more text"])
        let pull = sandbox.git(b, ["pull", "-q", "--rebase"])
        XCTAssertEqual(pull.status, 0, pull.err)
        XCTAssertTrue(pull.err.contains("stays archived") && pull.err.contains("2 litres"), pull.err)
        assertArchivedOnce(b)
    }

    func testCherryPick() {
        archiveOnA()
        todo(b, ["pri", "aaaaaa", "B"])
        sandbox.gitOK(b, ["commit", "-q", "-am", "prioritise"])
        sandbox.gitOK(b, ["fetch", "-q"])
        sandbox.gitOK(b, ["cherry-pick", "origin/main"])
        assertArchivedOnce(b)
    }

    func testStashPop() {
        archiveOnA()
        todo(b, ["pri", "aaaaaa", "C"])
        sandbox.gitOK(b, ["stash", "-q"])
        sandbox.gitOK(b, ["pull", "-q", "--no-rebase"])
        sandbox.gitOK(b, ["stash", "pop", "-q"])
        assertArchivedOnce(b)
    }

    /// A adds `pay rent` and pushes it; B adds `call dad` and takes A's commit by a cherry-pick, so
    /// that the merge base of the two clones lacks `pay rent`.
    private func addPayRentOnAAndCherryPickItIntoB() {
        todo(a, ["add", "pay rent uid:eeeeee"])
        sandbox.gitOK(a, ["commit", "-q", "-am", "add pay rent"])
        sandbox.gitOK(a, ["push", "-q"])
        todo(b, ["add", "call dad uid:gggggg"])
        sandbox.gitOK(b, ["commit", "-q", "-am", "add call dad"])
        sandbox.gitOK(b, ["fetch", "-q"])
        sandbox.gitOK(b, ["cherry-pick", "origin/main"])
    }

    /// The merge base's todo.txt holds the same bytes as the commit that archived the task: A adds
    /// `pay rent`, B (with a commit of its own) cherry-picks that, A completes and archives it (A's
    /// todo.txt is the first commit's again) and adds another task; B takes that in by `takeIn`, which
    /// returns git's or todo's status and output. The driver must take the merge base's done file,
    /// not the archive commit's, which holds the task and so hid that THEIRS archived it: the
    /// three-clone simulation's seed 12963754776562898109 (docs/notes/sync.md).
    private func assertArchiveCountsWhenTheBaseTodoFileRecurs(_ takeIn: () -> (status: Int32, output: String),
                                                              file: StaticString = #filePath, line: UInt = #line) {
        let first = Files.read(a + "/todo.txt")
        addPayRentOnAAndCherryPickItIntoB()
        todo(a, ["do", "eeeeee"])
        todo(a, ["archive"])
        XCTAssertEqual(Files.read(a + "/todo.txt"), first, "the archive gives back the first commit's todo.txt", file: file, line: line)
        sandbox.gitOK(a, ["commit", "-q", "-am", "done: pay rent"])
        todo(a, ["add", "book dentist uid:ffffff"])
        sandbox.gitOK(a, ["commit", "-q", "-am", "add book dentist"])
        sandbox.gitOK(a, ["push", "-q"])
        let (status, output) = takeIn()
        XCTAssertEqual(status, 0, output, file: file, line: line)
        let todoText = Files.text(b + "/todo.txt"), doneText = Files.text(b + "/done.txt")
        XCTAssertFalse(todoText.contains("uid:eeeeee"), "back open in todo.txt:\n\(todoText)", file: file, line: line)
        XCTAssertEqual(doneText.components(separatedBy: "uid:eeeeee").count - 1, 1, "in done.txt once:\n\(doneText)",
                       file: file, line: line)
        XCTAssertTrue(output.contains("not resurrected") && output.contains("pay rent"), output, file: file, line: line)
        XCTAssertTrue(todoText.hasPrefix(String(decoding: first, as: UTF8.self)) && todoText.contains(" call dad uid:gggggg\n")
                        && todoText.contains(" book dentist uid:ffffff\n"), todoText, file: file, line: line)
    }

    func testMergeWhoseBaseTodoFileRecursInTheArchivingCommit() {
        assertArchiveCountsWhenTheBaseTodoFileRecurs {
            let pull = sandbox.git(b, ["pull", "-q", "--no-rebase"])
            return (pull.status, pull.err)
        }
    }

    /// The same through `todo sync`, whose `git merge-tree` names no commit to the driver unless
    /// sync does.
    func testSyncWhoseBaseTodoFileRecursInTheArchivingCommit() {
        assertArchiveCountsWhenTheBaseTodoFileRecurs {
            let sync = sandbox.todo(in: b, ["-f", b + "/todo.txt", "-v", "sync"])
            return (sync.status, sync.out + sync.err)
        }
    }

    /// B gets A's new task by a cherry-pick (so the merge base lacks it) and completes it; A completes
    /// and archives it, and adds another. When B pulls, its completed copy must not stay in todo.txt beside the done
    /// line: B's next `todo archive` would put the task in done.txt a second time (the three-clone
    /// simulation's done-file duplicates).
    func testACompletedCopyOfATaskArchivedOnTheOtherSideIsNotKept() {
        addPayRentOnAAndCherryPickItIntoB()
        todo(b, ["do", "eeeeee"])
        sandbox.gitOK(b, ["commit", "-q", "-am", "done: pay rent"])
        todo(a, ["do", "eeeeee"])
        todo(a, ["archive"])
        todo(a, ["add", "book dentist uid:ffffff"])
        sandbox.gitOK(a, ["commit", "-q", "-am", "archived: pay rent; book dentist"])
        sandbox.gitOK(a, ["push", "-q"])
        let pull = sandbox.git(b, ["pull", "-q", "--no-rebase"])
        XCTAssertEqual(pull.status, 0, pull.err)
        XCTAssertTrue(pull.err.contains("not resurrected") && pull.err.contains("pay rent"), pull.err)
        XCTAssertFalse(Files.text(b + "/todo.txt").contains("uid:eeeeee"), Files.text(b + "/todo.txt"))
        todo(b, ["archive"])
        let doneText = Files.text(b + "/done.txt")
        XCTAssertEqual(doneText.components(separatedBy: "uid:eeeeee").count - 1, 1, "in done.txt once:\n\(doneText)")
        XCTAssertTrue(Files.text(b + "/todo.txt").contains("call dad uid:gggggg"), Files.text(b + "/todo.txt"))
    }

    /// done.txt not tracked: B cannot see A's archive and keeps its edit; when A merges B's work in,
    /// A's own done.txt shows the task archived, and it stays so there. (A fast-forward runs no
    /// driver at all: that limit is in docs/notes/sync.md.)
    func testUntrackedDoneFileConvergesOnTheArchivingClone() {
        sandbox.gitOK(a, ["rm", "-q", "--cached", "done.txt"])
        Files.write(a + "/.gitignore", "done.txt\n")
        sandbox.gitOK(a, ["add", ".gitignore"])
        sandbox.gitOK(a, ["commit", "-q", "-m", "done.txt stays local"])
        sandbox.gitOK(a, ["push", "-q"])
        sandbox.gitOK(b, ["pull", "-q", "--no-rebase"])
        archiveOnA()
        todo(b, ["pri", "aaaaaa", "A"])
        sandbox.gitOK(b, ["commit", "-q", "-am", "prioritise"])
        sandbox.gitOK(b, ["pull", "-q", "--no-rebase"])
        sandbox.gitOK(b, ["push", "-q"])
        todo(a, ["add", "new task on A"])
        sandbox.gitOK(a, ["commit", "-q", "-am", "another task"])
        sandbox.gitOK(a, ["pull", "-q", "--no-rebase"])
        assertArchivedOnce(a)
    }
}
