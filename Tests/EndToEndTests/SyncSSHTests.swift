import Foundation
import TodoTestSupport
import XCTest

/// How `todo sync` runs ssh (docs/sync.md section 3, "Never stops to ask" and "Speed"): in batch
/// mode unless the user said how to run it, and the user's `core.sshCommand` is used even where it
/// comes from an included file (the fetch that starts before the configuration is read must never
/// replace it). A fake `ssh` on PATH and a fake ssh command record how they were called and fail,
/// as an unreachable host would.
final class SyncSSHTests: XCTestCase {
    /// A machine whose upstream is an ssh URL, a fake `ssh` first on PATH, and a command to run it.
    private func world() -> (SyncWorld, machine: String, bin: String, run: () -> ProcessResult) {
        let world = SyncWorld("sync-ssh")
        let machine = world.setUpMachine("a", tasks: ["buy milk"])
        world.sandbox.gitOK(machine, ["remote", "set-url", "origin", "ssh://git.example.invalid/todo.git"])
        let bin = world.root + "/bin"
        try? FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        for name in ["ssh", "user-ssh"] {
            let script = "#!/bin/sh\necho \"\(name) $*\" >> \(bin)/calls\nexit 255\n"
            _ = FileManager.default.createFile(atPath: bin + "/" + name, contents: Data(script.utf8),
                                           attributes: [.posixPermissions: 0o755])
        }
        var environment = world.sandbox.environment
        environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let run = {
            Spawn.run(["/bin/sh", "-c", "cd \"$1\" && shift && exec \"$@\"", "sh", world.root, Spawn.todo,
                       "-f", machine + "/todo.txt", "sync"], environment: environment)
        }
        return (world, machine, bin, run)
    }

    private func calls(_ bin: String) -> [String] {
        let text = (try? String(contentsOfFile: bin + "/calls", encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: bin + "/calls")
        return text.split(separator: "\n").map(String.init)
    }

    func testSSHRunsInBatchModeUnlessTheUserSaysHow() {
        let (world, machine, bin, run) = world()
        var result = run()
        XCTAssertEqual(result.status, 1, result.err)
        XCTAssertTrue(result.err.contains("cannot fetch from origin"), result.err)
        let batch = calls(bin)
        XCTAssertFalse(batch.isEmpty)
        XCTAssertTrue(batch.allSatisfy { $0.hasPrefix("ssh -o BatchMode=yes ") }, "\(batch)")

        world.sandbox.gitOK(machine, ["config", "core.sshCommand", bin + "/user-ssh"])
        result = run()
        XCTAssertEqual(result.status, 1, result.err)
        let own = calls(bin)
        XCTAssertFalse(own.isEmpty)
        XCTAssertTrue(own.allSatisfy { $0.hasPrefix("user-ssh ") }, "the user's command, alone: \(own)")

        // The same command from an included file: git's configuration decides, not a guess.
        world.sandbox.gitOK(machine, ["config", "--unset", "core.sshCommand"])
        let included = world.root + "/ssh.inc"
        _ = FileManager.default.createFile(atPath: included, contents: Data("[core]\n\tsshCommand = \(bin)/user-ssh\n".utf8))
        world.sandbox.gitOK(machine, ["config", "include.path", included])
        result = run()
        XCTAssertEqual(result.status, 1, result.err)
        let fromInclude = calls(bin)
        XCTAssertFalse(fromInclude.isEmpty)
        XCTAssertTrue(fromInclude.allSatisfy { $0.hasPrefix("user-ssh ") }, "\(fromInclude)")
    }
}
