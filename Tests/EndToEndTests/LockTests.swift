import TodoTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Writers serialise on a write lock on the todo file itself, and never wait forever (docs/files.md,
/// "The writers' lock"). The tests hold that lock as another writer would: open the file for writing
/// and take an open-file-description write lock on it.
final class LockTests: XCTestCase {
    /// Opens `path` for writing and takes an OFD write lock (`F_OFD_SETLK`, 37 on Linux) over the
    /// whole file; -1 on failure. Closing the descriptor releases it.
    static func lockFile(_ path: String) -> Int32 {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard descriptor >= 0 else { return -1 }
        var request = flock()
        request.l_type = Int16(F_WRLCK)
        request.l_whence = Int16(SEEK_SET)
        guard fcntl(descriptor, 37, &request) == 0 else {
            close(descriptor)
            return -1
        }
        return descriptor
    }

    func testSortGivesUpAfterBoundedWaitThenSucceedsOnceReleased() {
        let directory = Spawn.makeTemporaryDirectory()
        let path = directory + "/todo.txt"
        Files.write(path, "x done\nopen\n")
        let descriptor = Self.lockFile(path)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        let started = Date()
        let blocked = Spawn.todo(["sort", path], environment: ["TODO_LOCK_TIMEOUT": "0.3"])
        let waited = Date().timeIntervalSince(started)
        XCTAssertEqual(blocked.status, 1)
        XCTAssertTrue(blocked.err.contains("\(path) is locked by another process that can write it (waited"), blocked.err)
        XCTAssertEqual(blocked.err.filter { $0 == "\n" }.count, 1, blocked.err)
        XCTAssertGreaterThanOrEqual(waited, 0.3)
        XCTAssertLessThan(waited, 5, "the wait must be bounded by TODO_LOCK_TIMEOUT")
        XCTAssertEqual(Files.text(path), "x done\nopen\n")
        close(descriptor)
        let released = Spawn.todo(["sort", path], environment: ["TODO_LOCK_TIMEOUT": "0.3"])
        XCTAssertEqual(released.status, 0, released.err)
        XCTAssertEqual(Files.text(path), "open\nx done\n")
    }

    /// Every writer of the `todo` name waits at most `TODO_LOCK_TIMEOUT` for another process's lock,
    /// fails with one line, and leaves the file as it was. (Before, `add`, `do`, `del`, `pri`,
    /// `append` and the other todo.sh-derived writers always waited 5 s.)
    func testEveryWriterHonoursTheLockTimeout() {
        let directory = Spawn.makeTemporaryDirectory()
        let path = directory + "/todo.txt"
        let original = "(A) first uid:aaaaaa\nx 2025-11-01 second uid:bbbbbb\nthird +p @c uid:cccccc\nthird +p @c uid:cccccc\n"
        Files.write(path, original)
        Files.write(directory + "/other.txt", "")
        let descriptor = Self.lockFile(path)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        defer { close(descriptor) }
        let writers: [[String]] = [["add", "new"], ["addm", "one\ntwo"], ["do", "1"], ["undo", "2"], ["pri", "3", "B"],
                                   ["depri", "1"], ["append", "1", "more"], ["prepend", "1", "more"],
                                   ["replace", "1", "new"], ["--force", "del", "1"], ["del", "3", "+p"], ["archive"],
                                   ["sort"], ["uid", "--assign"], ["deduplicate"], ["--force", "move", "1", "other.txt"]]
        for writer in writers {
            let started = Date()
            let result = Spawn.todo(["-f", path] + writer, environment: ["TODO_LOCK_TIMEOUT": "0.2", "HOME": directory])
            let waited = Date().timeIntervalSince(started)
            XCTAssertEqual(result.status, 1, "\(writer): \(result.out) \(result.err)")
            XCTAssertTrue(result.err.hasPrefix("todo: ") && result.err.contains("locked by another process that can write it"),
                          "\(writer): \(result.err)")
            XCTAssertEqual(result.err.filter { $0 == "\n" }.count, 1, "\(writer): \(result.err)")
            XCTAssertLessThan(waited, 2.5, "\(writer) waited \(waited) s, not TODO_LOCK_TIMEOUT")
            XCTAssertEqual(Files.text(path), original, "\(writer) changed the file")
        }
    }
}
