import Foundation
import TodoTestSupport
import TodoTxt
import XCTest

/// A bare repository as the remote (`file://` URL) and machines as clones of it, in one temp
/// directory, for `todo sync` (docs/sync.md section 3). Every `todo` runs from the directory above
/// the machines, which is no repository: the repository must be found from the todo file.
struct SyncWorld {
    let root: String
    let sandbox: GitSandbox
    let remote: String
    var url: String { "file://" + remote }

    init(_ label: String, bareRemote: Bool = true) {
        root = Spawn.makeTemporaryDirectory(label)
        sandbox = GitSandbox(root: root)
        remote = root + "/remote.git"
        if bareRemote { sandbox.gitOK(root, ["init", "-q", "--bare", "-b", "main", remote]) }
    }

    /// A machine's folder (created).
    func machine(_ name: String) -> String {
        let path = root + "/" + name
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// `todo -f MACHINE/todo.txt ARGUMENTS…`, run from the root.
    @discardableResult
    func todo(_ machine: String, _ arguments: [String]) -> ProcessResult {
        sandbox.todo(in: root, ["-f", machine + "/todo.txt"] + arguments)
    }

    /// `todo sync`, which must succeed (its output returned).
    @discardableResult
    func sync(_ machine: String, _ extra: [String] = [], file: StaticString = #filePath, line: UInt = #line) -> ProcessResult {
        let result = todo(machine, ["sync"] + extra)
        XCTAssertEqual(result.status, 0, "sync in \(machine): \(result.out)\(result.err)", file: file, line: line)
        return result
    }

    /// Adds tasks with `todo add`.
    func add(_ machine: String, _ tasks: String..., file: StaticString = #filePath, line: UInt = #line) {
        for task in tasks {
            let result = todo(machine, ["add", task])
            XCTAssertEqual(result.status, 0, result.err, file: file, line: line)
        }
    }

    /// A machine set up by `todo sync --setup URL`.
    func setUpMachine(_ name: String, tasks: [String] = [], file: StaticString = #filePath, line: UInt = #line) -> String {
        let path = machine(name)
        for task in tasks { add(path, task, file: file, line: line) }
        let result = todo(path, ["-q", "sync", "--setup", url])
        XCTAssertEqual(result.status, 0, "setup of \(name): \(result.out)\(result.err)", file: file, line: line)
        return path
    }

    func git(_ machine: String, _ arguments: [String]) -> String { sandbox.git(machine, arguments).out }

    /// What an unattended run must never leave behind: a merge, rebase or cherry-pick in progress,
    /// a detached HEAD, unmerged entries, conflict markers in the todo files.
    func assertSettled(_ machine: String, file: StaticString = #filePath, line: UInt = #line) {
        let gitDirectory = machine + "/.git/"
        for state in ["MERGE_HEAD", "rebase-merge", "rebase-apply", "CHERRY_PICK_HEAD"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: gitDirectory + state), "\(machine): \(state) left", file: file, line: line)
        }
        XCTAssertEqual(sandbox.git(machine, ["symbolic-ref", "-q", "HEAD"]).status, 0, "\(machine): HEAD detached", file: file, line: line)
        XCTAssertEqual(git(machine, ["ls-files", "-u"]), "", "\(machine): unmerged entries", file: file, line: line)
        for name in ["todo.txt", "done.txt"] {
            let bytes = Files.read(machine + "/" + name)
            XCTAssertNil(ConflictMarkers.firstBlockLine(in: bytes), "\(machine)/\(name) holds conflict markers", file: file, line: line)
        }
    }

    /// The task lines of a machine's file, without blank lines.
    func lines(_ machine: String, _ name: String = "todo.txt") -> [String] {
        Files.text(machine + "/" + name).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }
}

/// A value shared by the threads of a test, guarded by a lock.
final class SyncShared<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    func update(_ body: (inout Value) -> Void) { lock.lock(); body(&stored); lock.unlock() }
    var value: Value { lock.lock(); defer { lock.unlock() }; return stored }
}
