import Foundation
import TodoTestSupport
import TodoTxt
import XCTest

/// `todo sync` with real git: a bare repository as the remote and clones as machines
/// (docs/sync.md section 3). Each test runs a handful of syncs.
final class SyncCommandTests: XCTestCase {
    func testSetupFromAnEmptyRemoteThenFromOneWithTasks() {
        let world = SyncWorld("sync-setup")
        let a = world.machine("a")
        world.add(a, "buy milk", "call mom")
        let first = world.todo(a, ["sync", "--setup", world.url])
        XCTAssertEqual(first.status, 0, first.err)
        XCTAssertEqual(first.err, "")
        XCTAssertTrue(first.out.contains("registered the todo.txt merge driver"), first.out)
        XCTAssertEqual(world.git(world.remote, ["log", "--format=%s", "main"]).split(separator: "\n").count, 1)
        // Said once: the next sync, with nothing to do, says nothing.
        let again = world.sync(a)
        XCTAssertEqual(again.out + again.err, "")

        // An empty folder takes the remote's tasks; a folder with its own tasks merges them in.
        let b = world.setUpMachine("b")
        XCTAssertEqual(world.lines(b), world.lines(a))
        let c = world.setUpMachine("c", tasks: ["water plants"])
        for task in ["buy milk", "call mom", "water plants"] {
            XCTAssertEqual(world.lines(c).filter { $0.contains(task) }.count, 1, world.lines(c).description)
        }
        XCTAssertEqual(world.lines(c).count, 3, world.lines(c).description)
        world.sync(a)
        world.sync(b)
        XCTAssertEqual(world.lines(a), world.lines(c))
        XCTAssertEqual(world.lines(b), world.lines(c))
        for machine in [a, b, c] {
            world.assertSettled(machine)
            XCTAssertEqual(world.git(machine, ["status", "--porcelain"]), "", "\(machine): the work tree is clean")
            XCTAssertEqual(world.git(machine, ["check-attr", "merge", "todo.txt"]), "todo.txt: merge: todotxt\n")
        }
    }

    func testEditsOnTwoMachinesMergeByTask() {
        let world = SyncWorld("sync-edits")
        let a = world.setUpMachine("a", tasks: ["buy milk", "call mom", "pay rent", "fix bike"])
        let b = world.setUpMachine("b")
        // A completes task 1 and archives it; B edits it. A completes task 2; B edits task 2.
        // A changes task 3's text, B its priority. Both add a task.
        XCTAssertEqual(world.todo(a, ["replace", "3", "pay the rent"]).status, 0)
        XCTAssertEqual(world.todo(a, ["do", "1", "2"]).status, 0)
        XCTAssertEqual(world.todo(a, ["archive"]).status, 0)
        world.add(a, "from a")
        XCTAssertEqual(world.todo(b, ["append", "1", "2 litres"]).status, 0)
        XCTAssertEqual(world.todo(b, ["append", "2", "about sunday"]).status, 0)
        XCTAssertEqual(world.todo(b, ["pri", "3", "A"]).status, 0)
        world.add(b, "from b")
        let first = world.sync(a, ["-v"])
        XCTAssertTrue(first.out.contains("committed \"todo: 1 added, 2 done, 1 edited, 2 archived (on "), first.out)
        let second = world.sync(b, ["-v"])
        XCTAssertTrue(second.out.contains("merged 1 commit from origin/main"), second.out)
        XCTAssertTrue(second.out.contains("pushed to origin/main"), second.out)
        world.sync(a)
        XCTAssertEqual(Files.read(a + "/todo.txt"), Files.read(b + "/todo.txt"))
        XCTAssertEqual(Files.read(a + "/done.txt"), Files.read(b + "/done.txt"))
        let todo = world.lines(b).map { TodoItem($0) }
        let done = world.lines(b, "done.txt").map { TodoItem($0) }
        XCTAssertEqual(Set(todo.map(\.body)).count, todo.count, "no task twice")
        XCTAssertTrue(todo.contains { $0.text.contains("(A)") && $0.body.hasPrefix("pay the rent") }, "fields of task 3 merged: \(todo.map(\.text))")
        XCTAssertTrue(todo.contains { $0.body.hasPrefix("from a") } && todo.contains { $0.body.hasPrefix("from b") })
        XCTAssertEqual(todo.filter { $0.body.hasPrefix("fix bike") }.count, 1)
        // Archived on A and edited on B: archived exactly once, not open again.
        XCTAssertFalse(todo.contains { $0.body.contains("buy milk") || $0.body.contains("call mom") }, todo.map(\.text).description)
        XCTAssertEqual(done.filter { $0.body.contains("buy milk") }.count, 1, done.map(\.text).description)
        XCTAssertEqual(done.filter { $0.body.contains("call mom") }.count, 1, done.map(\.text).description)
        for machine in [a, b] { world.assertSettled(machine) }
    }

    func testCompletedOnOneAndEditedOnTheOtherMergesFields() {
        let world = SyncWorld("sync-done-edit")
        let a = world.setUpMachine("a", tasks: ["call mom"])
        let b = world.setUpMachine("b")
        XCTAssertEqual(world.todo(a, ["do", "1"]).status, 0)
        XCTAssertEqual(world.todo(b, ["append", "1", "+family"]).status, 0)
        world.sync(a)
        world.sync(b)
        world.sync(a)
        let lines = world.lines(a)
        XCTAssertEqual(lines.count, 1, lines.description)
        XCTAssertTrue(TodoItem(lines[0]).isCompleted && lines[0].contains("+family"), lines[0])
        XCTAssertEqual(Files.read(a + "/todo.txt"), Files.read(b + "/todo.txt"))
    }

    func testATextConflictIsSettledWithConflictTagsAndNoMarkers() {
        let world = SyncWorld("sync-conflict")
        let a = world.setUpMachine("a", tasks: ["buy milk", "call mom"])
        let b = world.setUpMachine("b")
        XCTAssertEqual(world.todo(a, ["replace", "1", "buy oat milk"]).status, 0)
        XCTAssertEqual(world.todo(b, ["replace", "1", "buy soy milk"]).status, 0)
        world.sync(a)
        let settled = world.sync(b)
        XCTAssertTrue(settled.out.contains("kept both versions"), "a settled conflict is said even without -v: \(settled.out)")
        world.sync(a)
        let lines = world.lines(b)
        XCTAssertEqual(lines.count, 3, lines.description)
        XCTAssertTrue(lines[0].contains("buy soy milk") && !lines[0].contains("conflict:"), lines.description)
        XCTAssertTrue(lines[1].contains("buy oat milk") && lines[1].contains("conflict:remote"), lines.description)
        XCTAssertEqual(Files.read(a + "/todo.txt"), Files.read(b + "/todo.txt"))
        for machine in [a, b] { world.assertSettled(machine) }
    }

    func testTwoSyncsAtOnceBothLand() {
        let world = SyncWorld("sync-race")
        let a = world.setUpMachine("a", tasks: ["first"])
        let b = world.setUpMachine("b")
        world.add(a, "from a 1", "from a 2")
        world.add(b, "from b 1", "from b 2")
        let results = SyncShared([ProcessResult?](repeating: nil, count: 2))
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let result = world.todo(index == 0 ? a : b, ["sync"])
            results.update { $0[index] = result }
        }
        for result in results.value { XCTAssertEqual(result?.status, 0, "\(result?.out ?? "")\(result?.err ?? "")") }
        world.sync(a)
        world.sync(b)
        XCTAssertEqual(Files.read(a + "/todo.txt"), Files.read(b + "/todo.txt"))
        XCTAssertEqual(Set(world.lines(a).map { TodoItem($0).body }).count, 5, world.lines(a).description)
        XCTAssertEqual(world.lines(a).count, 5)
        for machine in [a, b] { world.assertSettled(machine) }
    }

    func testOtherFilesOfTheIndexAndTheWorkTreeAreLeftExactlyAsTheyWere() {
        let world = SyncWorld("sync-untouched")
        let a = world.setUpMachine("a", tasks: ["buy milk"])
        Files.write(a + "/notes.txt", "notes\n")
        world.sandbox.gitOK(a, ["add", "notes.txt"])
        world.sandbox.gitOK(a, ["commit", "-q", "-m", "notes"])
        world.sync(a)
        let b = world.setUpMachine("b")
        // B: a staged new file, a staged change with an unstaged one on top, an untracked file.
        Files.write(b + "/staged.txt", "staged\n")
        world.sandbox.gitOK(b, ["add", "staged.txt"])
        Files.write(b + "/notes.txt", "notes\nstaged line\n")
        world.sandbox.gitOK(b, ["add", "notes.txt"])
        Files.write(b + "/notes.txt", "notes\nstaged line\nunstaged line\n")
        Files.write(b + "/untracked.txt", "untracked\n")
        let statusBefore = world.git(b, ["status", "--porcelain"])
        let stagedBefore = world.git(b, ["diff", "--cached"])
        // Both machines change the todo file, so B commits and merges.
        world.add(a, "from a")
        world.sync(a)
        world.add(b, "from b")
        world.sync(b)
        XCTAssertEqual(world.git(b, ["status", "--porcelain"]), statusBefore)
        XCTAssertEqual(world.git(b, ["diff", "--cached"]), stagedBefore)
        XCTAssertEqual(Files.text(b + "/notes.txt"), "notes\nstaged line\nunstaged line\n")
        let committed = world.git(b, ["log", "--format=", "--name-only", "origin/main", "-n", "3"])
        XCTAssertFalse(committed.contains("staged.txt") || committed.contains("untracked.txt"), committed)
        XCTAssertEqual(world.git(b, ["show", "--format=", "--name-only", "HEAD^1"]), "todo.txt\n", "B's own commit holds the todo file only")
        world.assertSettled(b)
    }

    func testQuietWhenNothingToDoVerboseAndDryRun() {
        let world = SyncWorld("sync-quiet")
        let a = world.setUpMachine("a", tasks: ["buy milk"])
        let quiet = world.sync(a)
        XCTAssertEqual(quiet.out + quiet.err, "")
        XCTAssertEqual(world.sync(a, ["-v"]).out, "sync: \(world.root)/a: nothing to do\n")
        world.add(a, "call mom")
        let commits = world.git(a, ["rev-list", "--count", "HEAD"])
        let dry = world.sync(a, ["--dry-run"])
        XCTAssertTrue(dry.out.contains("would commit todo.txt: \"todo: 1 added (on "), dry.out)
        XCTAssertTrue(dry.out.contains("would fetch origin, merge origin/main and push"), dry.out)
        XCTAssertEqual(world.git(a, ["rev-list", "--count", "HEAD"]), commits, "a dry run commits nothing")
        XCTAssertEqual(world.git(a, ["status", "--porcelain"]), " M todo.txt\n")
        let real = world.sync(a)
        XCTAssertEqual(real.out + real.err, "", "a sync that did its work without trouble is quiet without -v")
        XCTAssertEqual(world.git(world.remote, ["log", "-1", "--format=%s", "main"]).hasPrefix("todo: 1 added (on "), true)
    }
}
