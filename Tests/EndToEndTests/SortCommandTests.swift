import TodoTestSupport
import XCTest

/// `todo sort` and `todo export` run as the real binary on real files.
final class SortCommandTests: XCTestCase {
    func testDryRunPrintsSortedFileAndWritesNothing() throws {
        let directory = Spawn.makeTemporaryDirectory()
        let path = directory + "/todo.txt"
        let original = "x 2026-01-02 paid rent\n(A) call mom\n\nwater plants\n"
        Files.write(path, original)
        let result = Spawn.todo(["sort", "--dry-run", path])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.out, "(A) call mom\n\nwater plants\nx 2026-01-02 paid rent\n")
        XCTAssertEqual(Files.text(path), original)
    }

    func testCheckExitsOneWhenUnsortedAndZeroWhenSorted() {
        let directory = Spawn.makeTemporaryDirectory()
        let path = directory + "/todo.txt"
        Files.write(path, "x done\nopen\n")
        XCTAssertEqual(Spawn.todo(["sort", "--check", path]).status, 1)
        Files.write(path, "open\nx done\n")
        let sorted = Spawn.todo(["sort", "--check", path])
        XCTAssertEqual(sorted.status, 0)
        XCTAssertEqual(sorted.stdout, [])
        XCTAssertEqual(sorted.stderr, [])
    }

    /// A `todo sort` killed mid-write (cron's timeout, a reboot) leaves its temporary file; the next
    /// writer removes it once it is ten minutes old, and leaves a fresh one (it could be live).
    func testAbandonedTemporaryFileIsRemovedByTheNextWriter() throws {
        let directory = Spawn.makeTemporaryDirectory()
        let path = directory + "/todo.txt"
        Files.write(path, "x 2026-01-02 paid rent\ncall mom\n")
        let abandoned = directory + "/.todo.txt.k9x2m4.tmp", fresh = directory + "/.todo.txt.f7r3sh.tmp"
        Files.write(abandoned, "x 2026-01-02 paid rent\ncall")
        Files.write(fresh, "partial")
        let hourAgo = Date().addingTimeInterval(-3_600)
        try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: abandoned)

        let result = Spawn.todo(["sort", path])

        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.stdout, [], "silent, for cron")
        XCTAssertEqual(Files.text(path), "call mom\nx 2026-01-02 paid rent\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: abandoned))
        XCTAssertTrue(FileManager.default.fileExists(atPath: fresh))
    }

    func testMissingFileIsOneLineErrorExitOne() {
        let directory = Spawn.makeTemporaryDirectory()
        let result = Spawn.todo(["sort", "--dry-run", directory + "/absent.txt"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.err.hasPrefix("todo: "), result.err)
        XCTAssertTrue(result.err.contains("absent.txt"), result.err)
        XCTAssertEqual(result.err.filter { $0 == "\n" }.count, 1, result.err)
    }

    func testUnknownActionIsUsageErrorExitTwo() {
        let result = Spawn.todo(["frobnicate"])
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.err.contains("unknown action 'frobnicate'"), result.err)
    }

    func testExportEmitsOneJSONObjectPerLine() throws {
        let directory = Spawn.makeTemporaryDirectory()
        let path = directory + "/todo.txt"
        Files.write(path, "(A) 2026-01-01 call +family @phone due:2026-02-01 uid:k3f9qz\n\n")
        let result = Spawn.todo(["export", path])
        XCTAssertEqual(result.status, 0, result.err)
        let lines = result.out.split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        let first = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        XCTAssertEqual(first["priority"] as? String, "A")
        XCTAssertEqual(first["creation_date"] as? String, "2026-01-01")
        XCTAssertEqual(first["projects"] as? [String], ["family"])
        XCTAssertEqual(first["contexts"] as? [String], ["phone"])
        XCTAssertEqual(first["uid"] as? String, "k3f9qz")
        XCTAssertEqual((first["tags"] as? [String: [String]])?["due"], ["2026-02-01"])
        let second = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        XCTAssertEqual(second["is_task"] as? Bool, false)
    }
}
