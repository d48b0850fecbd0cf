import Foundation
import Synchronization
import Testing
import TodoTestSupport
@testable import TodoCLI
@testable import TodoFileSystem

/// `todo do` run in process on a file system whose every write, sync or rename can be made to fail:
/// whichever call fails, the command fails with one line naming the file, the file keeps every byte
/// and no temporary file is left beside it.
struct CommandFaultTests {
    static let original = Array("(A) 2026-01-01 call mom uid:k3f9qz\nbuy milk uid:m2x8ab\r\n\nx 2026-01-02 paid uid:r7p4cd\n".utf8)

    /// A fresh directory holding todo.txt with `original`.
    func makeDirectory() throws -> TemporaryDirectory {
        let directory = TemporaryDirectory("todo-fault")
        try Data(Self.original).write(to: URL(fileURLWithPath: directory.file("todo.txt")))
        return directory
    }

    /// Runs `todo -f DIR/todo.txt ARGUMENTS` in process on `syscalls`.
    func run(_ arguments: [String], in directory: String, syscalls: Syscalls) -> (status: Int32, err: String) {
        let errBuffer = Mutex<[UInt8]>([])
        let io = CommandIO(writeOutput: { _ in }, writeError: { bytes in errBuffer.withLock { $0 += bytes } },
                           outputIsTerminal: false)
        let status = TodoCommand.run(arguments: ["todo", "-f", directory + "/todo.txt"] + arguments,
                                     environment: ["TODO_TEST_TIME": "1764410000", "TZ": "UTC"], io: io,
                                     fileSystem: FileSystem(syscalls: syscalls))
        return (status, String(decoding: errBuffer.withLock { $0 }, as: UTF8.self))
    }

    @Test(arguments: [SyscallKind.write, .fsync, .createExclusive, .renameExchange, .rename])
    func aFailureAtAnyCallOfTodoDoLeavesTheFileByteIdentical(kind: SyscallKind) throws {
        // A clean run first, counting the calls of this kind.
        let clean = try makeDirectory()
        let recorder = FaultInjector()
        let done = run(["do", "2"], in: clean.path, syscalls: recorder.syscalls())
        #expect(done.status == 0, "\(done.err)")
        let calls = recorder.calls.filter { $0 == kind }.count
        guard calls > 0 else { return }
        for occurrence in 1...calls {
            let temporary = try makeDirectory()
            let directory = temporary.path
            let injector = FaultInjector([Fault(kind, occurrence: occurrence, .fail(.noSpace))])
            let failed = run(["do", "2"], in: directory, syscalls: injector.syscalls())
            let after = try [UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/todo.txt")))
            let lines = failed.err.split(separator: "\n")
            if failed.status == 0 {
                // A sync of the directory after the rename may fail without undoing the edit: the
                // command then warns, and the file holds the completed task.
                #expect(after != Self.original, "\(kind) #\(occurrence): success reported, nothing written")
                continue
            }
            #expect(failed.status == 1, "\(kind) #\(occurrence)")
            #expect(lines.count == 1, "\(kind) #\(occurrence): \(failed.err)")
            #expect(failed.err.contains(directory + "/todo.txt"), "\(kind) #\(occurrence): \(failed.err)")
            #expect(after == Self.original, "\(kind) #\(occurrence): the file changed")
            let left = try FileManager.default.contentsOfDirectory(atPath: directory)
            #expect(left == ["todo.txt"], "\(kind) #\(occurrence): \(left)")
        }
    }

    @Test func todoShStartUpMakesItsDirectoryThroughTheSeam() throws {
        // todo.sh's start-up creates TODO_DIR (`mkdir -p`) and its three files: through the file
        // system the command is given, so a refused mkdir is todo.sh's own complaint, not a crash
        // or a directory made behind the test's back.
        let temporary = TemporaryDirectory("todo-fault-startup")
        let todoDirectory = temporary.path + "/missing/tasks"
        let config = temporary.file("config")
        try Data("export TODO_DIR=\"\(todoDirectory)\"\n".utf8).write(to: URL(fileURLWithPath: config))
        let injector = FaultInjector([Fault(.makeDirectory, occurrence: nil, .fail(.permissionDenied))])
        let output = Mutex<[UInt8]>([])
        let io = CommandIO(writeOutput: { bytes in output.withLock { $0 += bytes } },
                           writeError: { bytes in output.withLock { $0 += bytes } }, outputIsTerminal: false)
        let environment = ["TODOTXT_CFG_FILE": config, "HOME": temporary.path,
                           "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        let status = TodoCommand.run(arguments: ["todo.sh", "ls"], environment: environment, io: io,
                                     fileSystem: FileSystem(syscalls: injector.syscalls()))
        let text = String(decoding: output.withLock { $0 }, as: UTF8.self)
        #expect(status == 1)
        #expect(text == "Fatal Error: \(todoDirectory) is not a directory\n")
        #expect(injector.calls.contains(.makeDirectory))
        #expect(!FileManager.default.fileExists(atPath: temporary.path + "/missing"))
    }
}
