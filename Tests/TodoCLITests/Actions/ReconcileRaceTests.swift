import Foundation
import Synchronization
import Testing
import TodoTestSupport
@testable import TodoCLI
@testable import TodoFileSystem

/// `todo reconcile` run in process while another process writes to the conflict copy at the step
/// between the copy's read and its removal (while the merge is written: the first temporary file the
/// merge creates), made deterministic by a hook on that call. Before, the copy was unlinked with the
/// new lines in it; now every line ends up in todo.txt exactly once and the copy is gone
/// (docs/sync.md section 2, "A copy that changes while it is merged").
struct ReconcileRaceTests {
    static let copyName = "todo (conflicted copy 2026-11-29).txt"

    /// A directory with todo.txt and one conflict copy holding a task the file lacks.
    func makeDirectory() throws -> TemporaryDirectory {
        let directory = TemporaryDirectory("todo-reconcile-race")
        try Data("call mom uid:a1\n".utf8).write(to: URL(fileURLWithPath: directory.file("todo.txt")))
        try Data("call mom uid:a1\nwater plants uid:c1\n".utf8).write(to: URL(fileURLWithPath: directory.file(Self.copyName)))
        return directory
    }

    /// Runs `todo reconcile DIR/todo.txt` in process on `syscalls`.
    func reconcile(_ directory: String, syscalls: Syscalls, keep: Bool = false) -> (status: Int32, out: String, err: String) {
        let out = Mutex<[UInt8]>([]), err = Mutex<[UInt8]>([])
        let io = CommandIO(writeOutput: { bytes in out.withLock { $0 += bytes } },
                           writeError: { bytes in err.withLock { $0 += bytes } }, outputIsTerminal: false)
        let status = TodoCommand.run(arguments: ["todo", "reconcile"] + (keep ? ["--keep"] : []) + [directory + "/todo.txt"],
                                     environment: ["TODO_TEST_TIME": "1764410000", "TZ": "UTC"], io: io,
                                     fileSystem: FileSystem(syscalls: syscalls))
        return (status, String(decoding: out.withLock { $0 }, as: UTF8.self), String(decoding: err.withLock { $0 }, as: UTF8.self))
    }

    /// Starts `/bin/sh -c script copyPath`, a process of its own (a lease sees only other processes),
    /// on a thread of its own (`Subprocess.run` waits for it there); `wait()` waits for its exit.
    final class Shell: Sendable {
        private let exited = Mutex(false)

        init(_ script: String, _ path: String) {
            let thread = Thread { [self] in
                _ = Subprocess.run(["/bin/sh", "-c", script, "sh", path])
                self.exited.withLock { $0 = true }
            }
            thread.start()
        }

        func wait() {
            while !exited.withLock({ $0 }) { usleep(1_000) }
        }
    }

    /// Waits until the file at `path` holds `text` (at most 10 s).
    static func waitUntil(_ path: String, holds text: String) {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let data = FileManager.default.contents(atPath: path), String(decoding: data, as: UTF8.self).contains(text) { return }
            usleep(2_000)
        }
    }

    /// The lines of `path`, and the names beside it (hidden ones included).
    func state(_ directory: TemporaryDirectory) throws -> (lines: [String], names: [String]) {
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: directory.file("todo.txt"))), as: UTF8.self)
        return (text.split(separator: "\n").map(String.init),
                try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted())
    }

    @Test(arguments: [false, true])
    func aLineAppendedAndClosedBetweenReadAndRemovalIsMerged(keep: Bool) throws {
        let directory = try makeDirectory()
        let copy = directory.file(Self.copyName)
        let fired = Mutex(false)
        // An open/append/close writer (`echo … >> copy`) that runs and finishes at that step.
        let injector = FaultInjector([Fault(.createExclusive, occurrence: 1, .before {
            fired.withLock { $0 = true }
            Shell("printf 'late one uid:l1\\n' >> \"$1\"", copy).wait()
        })])
        let run = reconcile(directory.path, syscalls: injector.syscalls(), keep: keep)
        #expect(fired.withLock { $0 })
        #expect(run.status == 0, "\(run.err)")
        let (lines, names) = try state(directory)
        #expect(lines == ["call mom uid:a1", "water plants uid:c1", "late one uid:l1"], "\(lines)")
        #expect(names == (keep ? [Self.copyName + ".reconciled", "todo.txt"] : ["todo.txt"]), "\(names)")
        // What the copy held when read is reported first, then what was appended meanwhile.
        let said = run.out.split(separator: "\n").map(String.init)
        #expect(Array(said.dropFirst()) == ["  added from the conflict copy: water plants uid:c1",
                                            "  added from the conflict copy: late one uid:l1"], "\(said)")
        if keep {
            let kept = String(decoding: try Data(contentsOf: URL(fileURLWithPath: copy + ".reconciled")), as: UTF8.self)
            #expect(kept.hasSuffix("late one uid:l1\n"), "the kept copy is the file written to")
        }
    }

    @Test func aWriterHoldingTheCopyOpenIsWaitedForAndEveryLineMerged() throws {
        let directory = try makeDirectory()
        let copy = directory.file(Self.copyName)
        let writer = Mutex<Shell?>(nil)
        // A writer that opened the copy before it was set aside and writes again afterwards, 300 ms later.
        let injector = FaultInjector([Fault(.createExclusive, occurrence: 1, .before {
            let process = Shell("exec 3>>\"$1\"; printf 'late one uid:l1\\n' >&3; sleep 0.3; printf 'late two uid:l2\\n' >&3", copy)
            writer.withLock { $0 = process }
            Self.waitUntil(copy, holds: "late one")
        })])
        let run = reconcile(directory.path, syscalls: injector.syscalls())
        writer.withLock { $0 }?.wait()
        #expect(writer.withLock { $0 } != nil)
        #expect(run.status == 0, "\(run.err)")
        let (lines, names) = try state(directory)
        #expect(lines == ["call mom uid:a1", "water plants uid:c1", "late one uid:l1", "late two uid:l2"], "\(lines)")
        #expect(names == ["todo.txt"], "\(names)")
    }

    @Test func aCopyStillOpenForWritingAfterTheTimeoutIsPutBack() throws {
        let directory = try makeDirectory()
        let copy = directory.file(Self.copyName)
        let writer = Mutex<Shell?>(nil)
        let injector = FaultInjector([Fault(.createExclusive, occurrence: 1, .before {
            let process = Shell("exec 3>>\"$1\"; printf 'late one uid:l1\\n' >&3; sleep 2; printf 'late two uid:l2\\n' >&3", copy)
            writer.withLock { $0 = process }
            Self.waitUntil(copy, holds: "late one")
        })])
        let out = Mutex<[UInt8]>([]), err = Mutex<[UInt8]>([])
        let io = CommandIO(writeOutput: { bytes in out.withLock { $0 += bytes } },
                           writeError: { bytes in err.withLock { $0 += bytes } }, outputIsTerminal: false)
        let status = TodoCommand.run(arguments: ["todo", "reconcile", directory.file("todo.txt")],
                                     environment: ["TODO_LOCK_TIMEOUT": "0.2", "TZ": "UTC"], io: io,
                                     fileSystem: FileSystem(syscalls: injector.syscalls()))
        writer.withLock { $0 }?.wait()
        let message = String(decoding: err.withLock { $0 }, as: UTF8.self)
        #expect(status == 1)
        #expect(message.contains("merged \(Self.copyName) into todo.txt, but another program kept it open for writing"), "\(message)")
        // What was merged is still reported, though the copy stays.
        let said = String(decoding: out.withLock { $0 }, as: UTF8.self)
        #expect(said.contains("  added from the conflict copy: water plants uid:c1\n"), "\(said)")
        // The copy is back under its name with every line; a second run merges the rest.
        let back = String(decoding: try Data(contentsOf: URL(fileURLWithPath: copy)), as: UTF8.self)
        #expect(back == "call mom uid:a1\nwater plants uid:c1\nlate one uid:l1\nlate two uid:l2\n", "\(back)")
        let again = reconcile(directory.path, syscalls: .live)
        #expect(again.status == 0, "\(again.err)")
        let (lines, names) = try state(directory)
        #expect(lines == ["call mom uid:a1", "water plants uid:c1", "late one uid:l1", "late two uid:l2"], "\(lines)")
        #expect(names == ["todo.txt"], "\(names)")
    }
}
