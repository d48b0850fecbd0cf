import TodoTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// No writer leaves a helper file beside the todo file (issue 12): earlier versions left
/// `.todo.txt.lock`, `.done.txt.lock` and `.report.txt.lock`, which git listed, `git add -A`
/// committed and sync clients copied to every machine. Each writer runs in a fresh directory holding
/// only the files it needs; afterwards the listing, dot files included, shows the user's files alone.
final class NoLitterTests: XCTestCase {
    /// Something for every writer to change: a priority, a done task above open ones (sort, archive),
    /// a duplicate (deduplicate) and a task without a uid (uid --assign).
    static let content = "(A) first uid:aaaaaa\nx 2025-11-01 second uid:bbbbbb\nthird +p @c uid:cccccc\nthird +p @c uid:cccccc\nfourth\n"

    private var cleanUp: [String] = []

    override func tearDown() {
        for path in cleanUp { try? FileManager.default.removeItem(atPath: path) }
        cleanUp = []
        super.tearDown()
    }

    /// A fresh directory holding todo.txt (with `content`) and the `extra` files, empty.
    private func directory(_ label: String, extra: [String] = []) -> String {
        let directory = Spawn.makeTemporaryDirectory("no-litter-\(label)")
        cleanUp.append(directory)
        Files.write(directory + "/todo.txt", Self.content)
        for name in extra { Files.write(directory + "/" + name, "") }
        return directory
    }

    /// A fresh, empty HOME.
    private func freshHome() -> String {
        let home = Spawn.makeTemporaryDirectory("no-litter-home")
        cleanUp.append(home)
        return home
    }

    /// Every entry of `directory`, dot files included, sorted.
    private func listing(_ directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    // MARK: - the todo name

    func testEveryWriterOfTheTodoNameLeavesOnlyTheUsersFiles() {
        let home = freshHome()
        // (arguments, files the directory starts with besides todo.txt, the listing afterwards)
        let writers: [([String], [String], [String])] = [
            (["add", "new"], [], ["todo.txt"]),
            (["addm", "one\ntwo"], [], ["todo.txt"]),
            (["addto", "other.txt", "new"], ["other.txt"], ["other.txt", "todo.txt"]),
            (["append", "1", "more"], [], ["todo.txt"]),
            (["prepend", "1", "more"], [], ["todo.txt"]),
            (["replace", "1", "new"], [], ["todo.txt"]),
            (["pri", "3", "B"], [], ["todo.txt"]),
            (["depri", "1"], [], ["todo.txt"]),
            (["do", "1"], [], ["todo.txt"]),
            (["-A", "do", "1"], [], ["done.txt", "todo.txt"]),
            (["undo", "2"], [], ["todo.txt"]),
            (["--force", "del", "1"], [], ["todo.txt"]),
            (["archive"], [], ["done.txt", "todo.txt"]),
            (["sort"], [], ["todo.txt"]),
            (["uid", "--assign"], [], ["todo.txt"]),
            (["deduplicate"], [], ["todo.txt"]),
            (["--force", "move", "1", "other.txt"], ["other.txt"], ["other.txt", "todo.txt"]),
            (["report"], [], ["done.txt", "report.txt", "todo.txt"]),
        ]
        for (arguments, extra, expected) in writers {
            let directory = directory(arguments.joined(separator: "-").filter { $0.isLetter }, extra: extra)
            let path = directory + "/todo.txt"
            let result = Spawn.todo(["-f", path] + arguments, environment: ["HOME": home, "TODO_LOCK_TIMEOUT": "2"])
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.out) \(result.err)")
            let written = Files.text(path) != Self.content || extra.contains { !Files.read(directory + "/" + $0).isEmpty }
            XCTAssertTrue(written, "\(arguments) did not write, so it proves nothing")
            XCTAssertEqual(listing(directory), expected, "\(arguments) left a file behind")
        }
        XCTAssertEqual(listing(home), [], "nothing goes to HOME either")
    }

    func testWatchLeavesOnlyTheTodoFile() throws {
        let directory = directory("watch")
        let path = directory + "/todo.txt"
        Files.write(path, "open a\nx 2025-11-01 done a\n")
        let watch = try XCTUnwrap(WatchProcess([path]))
        XCTAssertTrue(watch.waitUntilWatching(), watch.log)
        // One change, appended in place as `>>` does (no temporary file of the test's own).
        shell("printf 'x 2025-11-02 done b\\nopen b\\n' >> todo.txt", in: directory)
        XCTAssertTrue(eventually(timeout: 3) { Files.text(path) == "open a\nopen b\nx 2025-11-01 done a\nx 2025-11-02 done b\n" },
                      watch.log)
        watch.send(SIGTERM)
        XCTAssertNotNil(watch.waitForExit(timeout: 5), "watch did not stop on SIGTERM")
        XCTAssertEqual(watch.sortLines.count, 1, watch.log)
        XCTAssertEqual(listing(directory), ["todo.txt"], "watch left a file behind")
    }

    // MARK: - the todo.sh name

    func testEveryWriterOfTheTodoShNameLeavesOnlyTheUsersFiles() {
        let writers: [[String]] = [["add", "new"], ["do", "1"], ["archive"], ["-f", "del", "1"]]
        for arguments in writers {
            let directory = directory("sh-" + arguments.joined(separator: "-").filter { $0.isLetter })
            let home = freshHome()
            Files.write(home + "/todo.cfg", "export TODO_DIR=\"\(directory)\"\n")
            let environment = ["HOME": home, "TODO_TEST_TIME": "1234567890", "TZ": "UTC", "LC_ALL": "C",
                               "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
            let result = Spawn.run([Spawn.todo] + arguments, environment: environment, argv0: "todo.sh")
            XCTAssertEqual(result.status, 0, "todo.sh \(arguments): \(result.out) \(result.err)")
            XCTAssertNotEqual(Files.text(directory + "/todo.txt"), Self.content, "todo.sh \(arguments) did not write")
            // todo.sh creates a missing done.txt and report.txt, as the original does: user files.
            let left = listing(directory)
            XCTAssertTrue(left.contains("todo.txt"), "todo.sh \(arguments): \(left)")
            XCTAssertEqual(left.filter { !["todo.txt", "done.txt", "report.txt"].contains($0) }, [],
                           "todo.sh \(arguments) left a file behind")
            XCTAssertEqual(listing(home), ["todo.cfg"], "todo.sh \(arguments) left a file in HOME")
        }
    }

    // MARK: - earlier versions' lock files

    /// Lock files an earlier version left are removed by the next writer of their file.
    func testEarlierVersionsLockFileIsRemovedByTheNextWriter() {
        let directory = directory("migrate", extra: [".todo.txt.lock"])
        let path = directory + "/todo.txt"
        let result = Spawn.todo(["-f", path, "add", "new"], environment: ["HOME": freshHome()])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(listing(directory), ["todo.txt"])

        // `report` writes all three files, so it removes all three lock files.
        let reporting = self.directory("migrate-report", extra: [".todo.txt.lock", ".done.txt.lock", ".report.txt.lock"])
        let report = Spawn.todo(["-f", reporting + "/todo.txt", "report"], environment: ["HOME": freshHome()])
        XCTAssertEqual(report.status, 0, report.err)
        XCTAssertEqual(listing(reporting), ["done.txt", "report.txt", "todo.txt"])
    }

    /// An older todo process still holding its lock file is waited for (it is mid-write), and the file
    /// is removed once it lets go.
    func testEarlierVersionHoldingItsLockFileIsWaitedFor() {
        let directory = directory("migrate-held")
        let path = directory + "/todo.txt"
        let descriptor = open(directory + "/.todo.txt.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        XCTAssertEqual(flock(descriptor, LOCK_EX), 0)
        let environment = ["HOME": freshHome(), "TODO_LOCK_TIMEOUT": "0.2"]
        let blocked = Spawn.todo(["-f", path, "add", "new"], environment: environment)
        XCTAssertEqual(blocked.status, 1, blocked.err)
        XCTAssertTrue(blocked.err.contains("locked by another process holding \(directory)/.todo.txt.lock"), blocked.err)
        XCTAssertEqual(Files.text(path), Self.content)
        XCTAssertEqual(listing(directory), [".todo.txt.lock", "todo.txt"])
        close(descriptor)
        let released = Spawn.todo(["-f", path, "add", "new"], environment: environment)
        XCTAssertEqual(released.status, 0, released.err)
        XCTAssertEqual(listing(directory), ["todo.txt"])
    }
}
