import Foundation
import Synchronization
import Testing
import TodoTestSupport
@testable import TodoCLI
@testable import TodoFileSystem
#if canImport(Glibc)
import Glibc
#endif

/// `todo move` run in process on a file system whose Nth write, sync or rename fails, while another
/// program appends to both files at every sync (the syscall seam's `.before` hook): whichever call
/// fails, running the move again leaves the task in the destination exactly once, gone from the
/// source, and every other line, the concurrent writer's included, exactly once where it was put.
/// (Before: a move whose second write failed, run again, appended the task a second time.)
struct MoveFaultTests {
    static let todo = ["(A) 2026-01-01 call mom uid:k3f9qz", "pay rent uid:r7p4cd", "", "water plants", "buy milk uid:m2x8ab"]
    static let someday = ["learn the banjo uid:b4nj0a", "x 2026-01-02 paid uid:p4idaa"]
    static let moved = "pay rent uid:r7p4cd"

    /// The files' lines (LF-terminated) as written.
    static func lines(_ path: String) -> [String] {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// A fresh directory holding todo.txt and someday.txt.
    func makeDirectory() throws -> TemporaryDirectory {
        let directory = TemporaryDirectory("todo-move-fault")
        try (Self.todo.joined(separator: "\n") + "\n").write(toFile: directory.file("todo.txt"), atomically: false, encoding: .utf8)
        try (Self.someday.joined(separator: "\n") + "\n").write(toFile: directory.file("someday.txt"), atomically: false, encoding: .utf8)
        return directory
    }

    /// Appends `line` and LF to `path` with O_APPEND, as `echo line >> path` does.
    static func append(_ line: String, to path: String) {
        let descriptor = open(path, O_WRONLY | O_APPEND)
        guard descriptor >= 0 else { return }
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }

    /// Runs `todo -f DIR/todo.txt --force move r7p4cd someday.txt` in process on `syscalls`.
    func move(in directory: String, syscalls: Syscalls) -> (status: Int32, err: String) {
        let errBuffer = Mutex<[UInt8]>([])
        let io = CommandIO(writeOutput: { _ in }, writeError: { bytes in errBuffer.withLock { $0 += bytes } },
                           outputIsTerminal: false)
        let status = TodoCommand.run(arguments: ["todo", "-f", directory + "/todo.txt", "--force", "move", "r7p4cd", "someday.txt"],
                                     environment: ["TODO_TEST_TIME": "1764410000", "TZ": "UTC"], io: io,
                                     fileSystem: FileSystem(syscalls: syscalls))
        return (status, String(decoding: errBuffer.withLock { $0 }, as: UTF8.self))
    }

    @Test(arguments: [SyscallKind.write, .fsync, .createExclusive, .renameExchange, .rename])
    func aMoveFailingAtAnyCallThenRunAgainKeepsEveryLineOnce(kind: SyscallKind) throws {
        let clean = try makeDirectory()
        let recorder = FaultInjector()
        let done = move(in: clean.path, syscalls: recorder.syscalls())
        #expect(done.status == 0, "\(done.err)")
        #expect(Self.lines(clean.file("someday.txt")) == Self.someday + [Self.moved])
        let calls = recorder.calls.filter { $0 == kind }.count
        guard calls > 0 else { return }
        var retried = 0, appended = 0
        for occurrence in 1...calls {
            let temporary = try makeDirectory()
            let todoPath = temporary.file("todo.txt"), somedayPath = temporary.file("someday.txt")
            let markers = Mutex(0)
            // The concurrent writer: at every sync (or, when syncs are what fails, every write), one
            // more line at the end of each file.
            let hook = Fault(kind == .fsync ? .write : .fsync, occurrence: nil, .before({
                let number = markers.withLock { count -> Int in
                    count += 1
                    return count
                }
                Self.append("appended to todo \(number)", to: todoPath)
                Self.append("appended to someday \(number)", to: somedayPath)
            }))
            let injector = FaultInjector([Fault(kind, occurrence: occurrence, .fail(.noSpace)), hook])
            let failed = move(in: temporary.path, syscalls: injector.syscalls())
            let label = "\(kind) #\(occurrence)"
            if failed.status != 0 {
                #expect(failed.status == 1, "\(label)")
                #expect(failed.err.split(separator: "\n").count == 1, "\(label): \(failed.err)")
                retried += 1
                let again = move(in: temporary.path, syscalls: .live)
                #expect(again.status == 0, "\(label), run again: \(again.err)")
            }
            let count = markers.withLock { $0 }
            appended += count
            let todoLines = Self.lines(todoPath), somedayLines = Self.lines(somedayPath)
            #expect(somedayLines.filter { $0 == Self.moved }.count == 1, "\(label): \(somedayLines)")
            #expect(!todoLines.contains(Self.moved), "\(label): \(todoLines)")
            for line in Self.todo where line != Self.moved && !line.isEmpty {
                #expect(todoLines.filter { $0 == line }.count == 1, "\(label): \(line) in \(todoLines)")
            }
            for line in Self.someday {
                #expect(somedayLines.filter { $0 == line }.count == 1, "\(label): \(line) in \(somedayLines)")
            }
            for number in stride(from: 1, through: count, by: 1) {
                #expect(todoLines.filter { $0 == "appended to todo \(number)" }.count == 1, "\(label): marker \(number) in \(todoLines)")
                #expect(somedayLines.filter { $0 == "appended to someday \(number)" }.count == 1,
                        "\(label): marker \(number) in \(somedayLines)")
            }
        }
        print("MoveFault \(kind): \(calls) calls, \(retried) failed moves run again, \(appended) lines appended meanwhile")
    }
}
