import Foundation
import Synchronization
import Testing
import TodoTestSupport
@testable import TodoCLI
@testable import TodoFileSystem

/// What `todo do` reads, counted through the syscall seam: the todo file is read once under the lock
/// (plus the compare-and-swap check), so at most twice its size; the done file is opened only when
/// a `rec:` task needs a fresh uid (docs/architecture.md, "The path of `todo do 3`").
struct TaskActionsReadCountTests {
    /// Bytes read and opens, per file name (the last path component), seen at the seam.
    final class ReadCounter: Sendable {
        struct Counts {
            var pathOfDescriptor: [Int32: String] = [:]
            var bytesRead: [String: Int] = [:]
            var opens: [String: Int] = [:]
        }
        let counts = Mutex(Counts())

        /// The live calls, with `open`, `read`, `pread` and `close` counted.
        func syscalls() -> Syscalls {
            let base = Syscalls.live
            var counted = base
            counted.open = { path, flags, permissions in
                let result = base.open(path, flags, permissions)
                if case .success(let fd) = result {
                    let name = String(path.split(separator: "/").last ?? Substring(path))
                    self.counts.withLock {
                        $0.pathOfDescriptor[fd.rawValue] = name
                        $0.opens[name, default: 0] += 1
                    }
                }
                return result
            }
            counted.read = { fd, buffer in self.count(fd, base.read(fd, buffer)) }
            counted.pread = { fd, buffer, offset in self.count(fd, base.pread(fd, buffer, offset)) }
            counted.close = { fd in
                _ = self.counts.withLock { $0.pathOfDescriptor.removeValue(forKey: fd.rawValue) }
                return base.close(fd)
            }
            return counted
        }

        private func count(_ fd: FileDescriptor, _ result: Result<Int, Errno>) -> Result<Int, Errno> {
            if case .success(let n) = result {
                counts.withLock { counts in
                    if let name = counts.pathOfDescriptor[fd.rawValue] { counts.bytesRead[name, default: 0] += n }
                }
            }
            return result
        }

        func bytesRead(_ name: String) -> Int { counts.withLock { $0.bytesRead[name] ?? 0 } }
        func opens(_ name: String) -> Int { counts.withLock { $0.opens[name] ?? 0 } }
    }

    /// A todo file of `lines` tasks (task 3 with `third`), and a done file of completed ones.
    func makeFiles(lines: Int, third: String) throws -> (TemporaryDirectory, Int) {
        let directory = TemporaryDirectory("todo-read-count")
        var text = ""
        for number in 1...lines {
            text += number == 3 ? third + "\n" : "(B) 2026-01-01 task number \(number) +project @context uid:u\(number)\n"
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: directory.file("todo.txt")))
        try Data("x 2026-01-02 an old task uid:old001\n".utf8).write(to: URL(fileURLWithPath: directory.file("done.txt")))
        return (directory, text.utf8.count)
    }

    func run(_ arguments: [String], in directory: TemporaryDirectory, syscalls: Syscalls) -> (status: Int32, err: String) {
        let errors = Mutex<[UInt8]>([])
        let io = CommandIO(writeOutput: { _ in }, writeError: { bytes in errors.withLock { $0 += bytes } }, outputIsTerminal: false)
        let status = TodoCommand.run(arguments: ["todo", "-f", directory.file("todo.txt")] + arguments,
                                     environment: ["TODO_TEST_TIME": "1764410000", "TZ": "UTC", "HOME": directory.path],
                                     io: io, fileSystem: FileSystem(syscalls: syscalls))
        return (status, String(decoding: errors.withLock { $0 }, as: UTF8.self))
    }

    @Test func doReadsTheTodoFileAtMostTwiceAndNeverOpensTheDoneFile() throws {
        let (directory, size) = try makeFiles(lines: 20_000, third: "buy milk uid:milk01")
        let counter = ReadCounter()
        let result = run(["do", "3"], in: directory, syscalls: counter.syscalls())
        #expect(result.status == 0, "\(result.err)")
        let todo = try String(contentsOfFile: directory.file("todo.txt"), encoding: .utf8)
        #expect(todo.split(separator: "\n")[2] == "x 2025-11-29 buy milk uid:milk01")
        // One read under the lock, one compare-and-swap check: not the third read of a snapshot
        // taken before the lock.
        #expect(counter.bytesRead("todo.txt") <= 2 * size, "read \(counter.bytesRead("todo.txt")) bytes of a \(size)-byte file")
        #expect(counter.bytesRead("todo.txt") >= size, "the file was not read at all?")
        #expect(counter.opens("done.txt") == 0, "a plain do opened the done file")
    }

    @Test func doOfARecurringTaskReadsTheDoneFileOnce() throws {
        let (directory, size) = try makeFiles(lines: 2_000, third: "2026-01-01 water plants rec:1w uid:plant1")
        let counter = ReadCounter()
        let result = run(["do", "3"], in: directory, syscalls: counter.syscalls())
        #expect(result.status == 0, "\(result.err)")
        let lines = try String(contentsOfFile: directory.file("todo.txt"), encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2_001)
        #expect(lines.last?.contains("water plants rec:1w") == true, "\(lines.last ?? "")")
        #expect(counter.bytesRead("todo.txt") <= 2 * size)
        #expect(counter.opens("done.txt") == 1)
    }

    @Test func anAddressResolvedUnderTheLockFailsWithNothingWrittenAndNoDoneFileRead() throws {
        let (directory, _) = try makeFiles(lines: 10, third: "buy milk uid:milk01")
        let before = try Data(contentsOf: URL(fileURLWithPath: directory.file("todo.txt")))
        let counter = ReadCounter()
        let result = run(["do", "3", "99"], in: directory, syscalls: counter.syscalls())
        #expect(result.status == 1)
        #expect(result.err.contains("todo.txt"), "\(result.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: directory.file("todo.txt"))) == before)
        #expect(counter.opens("done.txt") == 0)
        // Read once under the lock; nothing changed, so no compare-and-swap check either.
        #expect(counter.bytesRead("todo.txt") == before.count)
    }

    @Test func archiveReadsTheTodoFileOnceBesidesItsCompareAndSwapCheck() throws {
        let (directory, size) = try makeFiles(lines: 5_000, third: "x 2026-01-03 done already uid:done03")
        let counter = ReadCounter()
        let result = run(["archive"], in: directory, syscalls: counter.syscalls())
        #expect(result.status == 0, "\(result.err)")
        let done = try String(contentsOfFile: directory.file("done.txt"), encoding: .utf8)
        #expect(done.hasSuffix("x 2026-01-03 done already uid:done03\n"), "\(done)")
        #expect(!(try String(contentsOfFile: directory.file("todo.txt"), encoding: .utf8)).contains("done already"))
        #expect(counter.bytesRead("todo.txt") <= 2 * size, "read \(counter.bytesRead("todo.txt")) bytes of a \(size)-byte file")
    }
}

/// The addresses of `todo do` are resolved once, on the file as read under the lock; when an editor
/// saves between that read and the rename, the edit runs again on the editor's file and finds the
/// same task there by its bytes, not whatever line its number holds now.
struct TaskActionsRetryTests {
    @Test func aRetriedDoCompletesTheTaskItResolvedNotTheLineNumber() throws {
        let directory = TemporaryDirectory("todo-do-retry")
        let path = directory.file("todo.txt")
        try Data("first\nsecond\nthird\nfourth\n".utf8).write(to: URL(fileURLWithPath: path))
        // The editor's save puts a new task on top right as the first attempt makes its temporary
        // file: `third` is line 4 of the file the retry reads.
        let injector = FaultInjector([Fault(.createExclusive, occurrence: 1, .before {
            let temporary = directory.file(".editor-save")
            try? Data("new on top\nfirst\nsecond\nthird\nfourth\n".utf8).write(to: URL(fileURLWithPath: temporary))
            _ = rename(temporary, path)
        })])
        let errors = Mutex<[UInt8]>([])
        let output = Mutex<[UInt8]>([])
        let io = CommandIO(writeOutput: { bytes in output.withLock { $0 += bytes } },
                           writeError: { bytes in errors.withLock { $0 += bytes } }, outputIsTerminal: false)
        let status = TodoCommand.run(arguments: ["todo", "-f", path, "do", "3"],
                                     environment: ["TODO_TEST_TIME": "1764410000", "TZ": "UTC", "HOME": directory.path],
                                     io: io, fileSystem: FileSystem(syscalls: injector.syscalls()))
        #expect(status == 0, "\(String(decoding: errors.withLock { $0 }, as: UTF8.self))")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new on top\nfirst\nsecond\nx 2025-11-29 third\nfourth\n")
        #expect(String(decoding: output.withLock { $0 }, as: UTF8.self).hasPrefix("4 x 2025-11-29 third\n"))
    }
}
