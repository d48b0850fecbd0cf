import Foundation
import TodoTestSupport
import TodoTxt
import XCTest

/// Every way `todo sync` can fail to sync (docs/sync.md section 3, "When it cannot sync"): one
/// line on stderr, exit 1, the local commit kept where one was possible, nothing left half done.
final class SyncFailureTests: XCTestCase {
    /// Runs a sync that must fail with exactly one line containing `expected`.
    @discardableResult
    private func failingSync(_ world: SyncWorld, _ machine: String, containing expected: String,
                             file: StaticString = #filePath, line: UInt = #line) -> ProcessResult {
        let result = world.todo(machine, ["sync"])
        XCTAssertEqual(result.status, 1, "\(result.out)\(result.err)", file: file, line: line)
        // Only the one-time registration of the driver, which happened before the stop, is said.
        XCTAssertEqual(result.out.split(separator: "\n").filter { !$0.hasPrefix("registered the todo.txt merge driver") }, [],
                       file: file, line: line)
        XCTAssertEqual(result.err.split(separator: "\n").count, 1, "one line: \(result.err)", file: file, line: line)
        XCTAssertTrue(result.err.hasPrefix("todo: sync: ") && result.err.contains(expected), result.err, file: file, line: line)
        return result
    }

    private func commitCount(_ world: SyncWorld, _ machine: String) -> Int {
        Int(world.git(machine, ["rev-list", "--count", "HEAD"]).split(separator: "\n").first ?? "0") ?? 0
    }

    func testNotARepositoryNoRemoteAndNoUpstream() {
        let world = SyncWorld("sync-fail-local", bareRemote: false)
        let plain = world.machine("plain")
        world.add(plain, "buy milk")
        failingSync(world, plain, containing: "is not in a git repository (todo sync --setup REMOTE-URL makes it one)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: plain + "/.git"), "nothing created")

        let alone = world.machine("alone")
        world.sandbox.gitOK(alone, ["init", "-q", "-b", "main"])
        world.add(alone, "buy milk")
        failingSync(world, alone, containing: "has no remote (todo sync --setup REMOTE-URL adds one); the local commit is kept")
        XCTAssertEqual(commitCount(world, alone), 1, "the local commit is made before the remote is needed")
        XCTAssertEqual(world.git(alone, ["status", "--porcelain"]), "")

        world.sandbox.gitOK(alone, ["remote", "add", "origin", "file://" + world.root + "/elsewhere.git"])
        failingSync(world, alone, containing: "branch main has no upstream (git push -u origin main sets one)")
    }

    func testUnreachableRemoteKeepsTheCommitAndTheNextSyncSendsIt() {
        let world = SyncWorld("sync-fail-unreachable")
        let a = world.setUpMachine("a", tasks: ["buy milk"])
        let moved = world.root + "/moved.git"
        XCTAssertNoThrow(try FileManager.default.moveItem(atPath: world.remote, toPath: moved))
        world.add(a, "call mom")
        failingSync(world, a, containing: "cannot fetch from origin")
        XCTAssertEqual(commitCount(world, a), 2)
        XCTAssertNoThrow(try FileManager.default.moveItem(atPath: moved, toPath: world.remote))
        world.sync(a)
        XCTAssertEqual(world.git(world.remote, ["rev-list", "--count", "main"]), "2\n")
    }

    func testALockedIndexAMergeInProgressAndADetachedHeadChangeNothing() {
        let world = SyncWorld("sync-fail-state")
        let a = world.setUpMachine("a", tasks: ["buy milk"])
        world.add(a, "call mom")
        let head = world.git(a, ["rev-parse", "HEAD"])
        Files.write(a + "/.git/index.lock", "")
        failingSync(world, a, containing: ".git/index.lock exists")
        XCTAssertEqual(world.git(a, ["rev-parse", "HEAD"]), head)
        XCTAssertNoThrow(try FileManager.default.removeItem(atPath: a + "/.git/index.lock"))

        Files.write(a + "/.git/MERGE_HEAD", head)
        failingSync(world, a, containing: "a merge is in progress")
        XCTAssertNoThrow(try FileManager.default.removeItem(atPath: a + "/.git/MERGE_HEAD"))

        world.sandbox.gitOK(a, ["checkout", "-q", "--detach"])
        failingSync(world, a, containing: "HEAD is detached")
        world.sandbox.gitOK(a, ["checkout", "-q", "main"])
        XCTAssertEqual(world.git(a, ["rev-parse", "HEAD"]), head, "nothing committed by the refused runs")
        world.sync(a)
    }

    func testGitStoppingOnAnotherFileAbortsAndKeepsTheLocalCommit() {
        let world = SyncWorld("sync-fail-other-file")
        let a = world.setUpMachine("a", tasks: ["buy milk"])
        Files.write(a + "/notes.txt", "one\n")
        world.sandbox.gitOK(a, ["add", "notes.txt"])
        world.sandbox.gitOK(a, ["commit", "-q", "-m", "notes"])
        world.sync(a)
        let b = world.setUpMachine("b")
        for (machine, text) in [(a, "from a\n"), (b, "from b\n")] {
            Files.write(machine + "/notes.txt", text)
            world.sandbox.gitOK(machine, ["commit", "-q", "-am", "notes changed"])
        }
        world.sync(a)
        world.add(b, "call mom")
        failingSync(world, b, containing: "git stopped on notes.txt")
        world.assertSettled(b)
        XCTAssertEqual(world.git(b, ["log", "-1", "--format=%s"]).hasPrefix("todo: 1 added (on "), true, "the local commit is kept")
        XCTAssertEqual(world.git(b, ["status", "--porcelain"]), "", "nothing half merged in the work tree")
        XCTAssertEqual(Files.text(b + "/notes.txt"), "from b\n")
    }

    /// A remote whose branch always moves on before a push lands (a `pre-receive` hook that pushes
    /// "another machine's" commit first): each rejected push is fetched and merged again, 5 times,
    /// then exit 1 with the local commit kept and the repository settled.
    func testAPushRejectedEveryTimeGivesUpAfterFiveRounds() {
        let world = SyncWorld("sync-fail-race")
        let a = world.setUpMachine("a", tasks: ["buy milk"])
        Files.writeExecutable(world.remote + "/hooks/pre-receive", """
            #!/bin/sh
            unset GIT_QUARANTINE_PATH GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES
            tip=$(git rev-parse refs/heads/main)
            next=$(git commit-tree "$tip^{tree}" -p "$tip" -m "another machine")
            git update-ref refs/heads/main "$next" "$tip"
            """)
        world.add(a, "call mom")
        failingSync(world, a, containing: "the push was rejected 5 times (other machines kept pushing); the local commit is kept")
        world.assertSettled(a)
        XCTAssertEqual(world.git(a, ["status", "--porcelain"]), "")
        XCTAssertEqual(world.git(a, ["rev-list", "--count", "origin/main..HEAD"]).hasPrefix("0"), false, "the local commits wait for the next sync")
        XCTAssertEqual(world.git(world.remote, ["rev-list", "--count", "--grep=another machine", "main"]), "5\n")
    }
}
