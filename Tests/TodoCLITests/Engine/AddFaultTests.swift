import Foundation
import Synchronization
import Testing
import TodoTestSupport
@testable import TodoCLI
@testable import TodoFileSystem

/// `todo add` run in process whose write or sync fails at the instant another process appends with
/// `>>` (docs/files.md, "Appending"): the command fails with one line naming the file, the other
/// process's line is kept exactly once, and nothing of the failed task is left.
struct AddFaultTests {
    static let original = "(A) call mom uid:k3f9qz\nbuy milk uid:m2x8ab\n"

    /// Runs `todo -f PATH ARGUMENTS` in process on `syscalls`.
    func run(_ arguments: [String], path: String, syscalls: Syscalls) -> (status: Int32, err: String) {
        let errBuffer = Mutex<[UInt8]>([])
        let io = CommandIO(writeOutput: { _ in }, writeError: { bytes in errBuffer.withLock { $0 += bytes } },
                           outputIsTerminal: false)
        let status = TodoCommand.run(arguments: ["todo", "-f", path] + arguments,
                                     environment: ["TODO_TEST_TIME": "1764410000", "TZ": "UTC"], io: io,
                                     fileSystem: FileSystem(syscalls: syscalls))
        return (status, String(decoding: errBuffer.withLock { $0 }, as: UTF8.self))
    }

    /// Live calls whose first `fsync` (or second `write`, after a first one of 5 bytes) lets `other`
    /// be appended to `path` by another descriptor and then fails with `errno`.
    func failing(_ kind: SyscallKind, _ errno: Errno, path: String, other: @escaping @Sendable () -> Void) -> Syscalls {
        let count = SoakState()
        var calls = Syscalls.live
        let liveWrite = Syscalls.live.write, liveFsync = Syscalls.live.fsync
        calls.write = { fd, buffer in
            let n = kind == .write ? count.calls.add(1, ordering: .relaxed).newValue : 0
            if n == 2 { other(); return .failure(errno) }
            return liveWrite(fd, UnsafeRawBufferPointer(rebasing: buffer.prefix(n == 1 ? 5 : buffer.count)))
        }
        calls.fsync = { fd in
            let n = kind == .fsync ? count.calls.add(1, ordering: .relaxed).newValue : 0
            if n == 1 { other(); return .failure(errno) }
            return liveFsync(fd)
        }
        return calls
    }

    @Test(arguments: [(SyscallKind.fsync, Errno.ioError), (.write, .noSpace), (.write, Errno(rawValue: EFBIG))])
    func aFailedAddKeepsWhatAnotherProcessAppendedMeanwhile(kind: SyscallKind, errno: Errno) throws {
        let directory = TemporaryDirectory("todo-add-fault")
        let path = directory.file("todo.txt")
        try Data(Self.original.utf8).write(to: URL(fileURLWithPath: path))
        let calls = failing(kind, errno, path: path) {
            let handle = FileHandle(forWritingAtPath: path)!
            handle.seekToEndOfFile()
            handle.write(Data("echoed meanwhile\n".utf8))
            handle.closeFile()
        }
        let failed = run(["add", "water the plants"], path: path, syscalls: calls)
        #expect(failed.status == 1)
        #expect(failed.err == "todo: cannot append to \(path): \(errno.message)\n")
        let after = try String(contentsOfFile: path, encoding: .utf8)
        #expect(after == Self.original + "echoed meanwhile\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["todo.txt"])
    }

    /// The race version: a shell appends numbered lines with `echo >>` in quick bursts while
    /// `todo add` runs over and over, every other run failing at its `fsync`. The numbers appended
    /// are all there, each once; every add that succeeded is there once, none that failed.
    /// 1 s, or `TODO_SOAK_SECONDS`.
    @Test func soakFailedAddsNeverCutAConcurrentAppender() throws {
        let seconds = ProcessInfo.processInfo.environment["TODO_SOAK_SECONDS"].flatMap(Double.init) ?? 1
        let directory = TemporaryDirectory("todo-add-soak")
        let path = directory.file("todo.txt")
        try Data(Self.original.utf8).write(to: URL(fileURLWithPath: path))
        let appender = Process()
        appender.executableURL = URL(fileURLWithPath: "/bin/sh")
        // Bursts of five lines, then a pause, so the file stays small enough for many adds.
        appender.arguments = ["-c", "i=0; while :; do for j in 1 2 3 4 5; do echo \"echo $i\" >> \"$0\"; i=$((i+1)); done; sleep 0.002; done", path]
        try appender.run()
        defer { if appender.isRunning { appender.terminate() } }
        let deadline = Date().addingTimeInterval(seconds)
        var round = 0, succeeded: [Int] = [], failed: [Int] = []
        while Date() < deadline {
            round += 1
            var calls = Syscalls.live
            if round % 2 == 0 { calls = failing(.fsync, .ioError, path: path) { usleep(200) } }
            let result = run(["add", "task \(round) of the soak"], path: path, syscalls: calls)
            if result.status == 0 { succeeded.append(round) } else { failed.append(round) }
        }
        appender.terminate()
        appender.waitUntilExit()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "")
        let echoes = lines.filter { $0.hasPrefix("echo ") }
        // Each number once, none missing. Not necessarily in order: a line appended to the old file
        // just after a repair's rename is carried over after the ones appended to the new file.
        let numbers = echoes.compactMap { Int($0.dropFirst(5)) }.sorted()
        #expect(numbers.count == echoes.count && numbers == Array(0..<numbers.count), "every appended line kept once")
        for round in succeeded { #expect(lines.filter { $0.contains(" task \(round) of the soak ") }.count == 1) }
        for round in failed { #expect(!lines.contains { $0.contains(" task \(round) of the soak ") }) }
        let known = Set(Self.original.split(separator: "\n"))
        #expect(lines.dropLast().allSatisfy { known.contains($0) || $0.hasPrefix("echo ") || $0.contains(" of the soak uid:") })
        print("AddFault soak: \(succeeded.count) adds, \(failed.count) failed adds, \(echoes.count) lines appended meanwhile")
    }
}

/// A call counter shared by the closures `failing` builds.
private final class SoakState: Sendable {
    let calls = Atomic(0)
}
