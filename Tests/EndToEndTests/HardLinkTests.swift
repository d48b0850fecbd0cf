import TodoTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A todo file with other names (hard links): a safe replacement writes a new file, so the other
/// names keep the old content. That is said once on stderr, never silently (before: silent).
final class HardLinkTests: XCTestCase {
    func testDetachingHardLinksIsSaidOnceUnderBothNames() {
        let directory = Spawn.makeTemporaryDirectory("hardlink")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt", other = directory + "/b.txt"
        Files.write(path, "x 2026-01-01 done\nopen uid:aaaaaa\n")
        XCTAssertEqual(link(path, other), 0)
        let sorted = Spawn.todo(["sort", path])
        XCTAssertEqual(sorted.status, 0, sorted.err)
        XCTAssertEqual(sorted.err, "todo: \(path): the file had 2 hard links; it was written as a new file, so its other names still show the old content\n")
        XCTAssertEqual(Files.text(path), "open uid:aaaaaa\nx 2026-01-01 done\n")
        XCTAssertEqual(Files.text(other), "x 2026-01-01 done\nopen uid:aaaaaa\n", "the other name keeps the old content")
        // Now a file of its own: the next writes are silent.
        let done = Spawn.todo(["-f", path, "do", "aaaaaa"], environment: ["TODO_TEST_TIME": "1764410000", "TZ": "UTC", "HOME": directory])
        XCTAssertEqual(done.status, 0, done.err)
        XCTAssertEqual(done.err, "")
        // Under the name todo.sh too.
        XCTAssertEqual(link(path, directory + "/c.txt"), 0)
        Files.write(directory + "/todo.cfg", "export TODO_DIR=\"\(directory)\"\n")
        let todoSh = Spawn.run([Spawn.todo, "-d", directory + "/todo.cfg", "-f", "pri", "1", "A"], environment: ["HOME": directory, "PATH": "/usr/bin:/bin"], argv0: "todo.sh")
        XCTAssertEqual(todoSh.status, 0, todoSh.err)
        XCTAssertTrue(todoSh.err.contains("had 2 hard links"), todoSh.err)
    }
}
