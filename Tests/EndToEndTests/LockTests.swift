import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Writers serialise on `.todo.txt.lock`, and never wait forever (files.md section 2).
final class LockTests: XCTestCase {
    func testSortGivesUpAfterBoundedWaitThenSucceedsOnceReleased() {
        let directory = Spawn.makeTemporaryDirectory()
        let path = directory + "/todo.txt"
        Files.write(path, "x done\nopen\n")
        let descriptor = open(directory + "/.todo.txt.lock", O_RDWR | O_CREAT, 0o644)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        XCTAssertEqual(flock(descriptor, LOCK_EX), 0)
        let started = Date()
        let blocked = Spawn.todo(["sort", path], environment: ["TODO_LOCK_TIMEOUT": "0.3"])
        let waited = Date().timeIntervalSince(started)
        XCTAssertEqual(blocked.status, 1)
        XCTAssertTrue(blocked.err.contains("locked"), blocked.err)
        XCTAssertEqual(blocked.err.filter { $0 == "\n" }.count, 1, blocked.err)
        XCTAssertGreaterThanOrEqual(waited, 0.3)
        XCTAssertLessThan(waited, 5, "the wait must be bounded by TODO_LOCK_TIMEOUT")
        XCTAssertEqual(Files.text(path), "x done\nopen\n")
        flock(descriptor, LOCK_UN)
        close(descriptor)
        let released = Spawn.todo(["sort", path], environment: ["TODO_LOCK_TIMEOUT": "0.3"])
        XCTAssertEqual(released.status, 0, released.err)
        XCTAssertEqual(Files.text(path), "open\nx done\n")
    }
}
