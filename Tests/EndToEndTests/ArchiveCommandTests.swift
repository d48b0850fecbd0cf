import TodoTestSupport
import XCTest

/// `todo archive`: completed tasks move to done.txt; nothing is lost.
final class ArchiveCommandTests: XCTestCase {
    func testMovesCompletedTasksToDoneFile() {
        let directory = Spawn.makeTemporaryDirectory()
        let todo = directory + "/todo.txt", done = directory + "/done.txt"
        Files.write(todo, "x 2026-01-02 paid rent\n(A) call mom\n\nx 2026-01-03 fed cat\nwater plants\n")
        Files.write(done, "x 2025-12-31 old task")
        let result = Spawn.todo(["archive", todo])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(Files.text(todo), "(A) call mom\n\nwater plants\n")
        XCTAssertEqual(Files.text(done), "x 2025-12-31 old task\nx 2026-01-02 paid rent\nx 2026-01-03 fed cat\n")
    }

    func testNothingToArchiveWritesNothing() {
        let directory = Spawn.makeTemporaryDirectory()
        let todo = directory + "/todo.txt"
        Files.write(todo, "open\n")
        let result = Spawn.todo(["archive", todo])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(Files.text(todo), "open\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/done.txt"))
    }
}
