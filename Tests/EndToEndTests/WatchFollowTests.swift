import Foundation
import TodoFileSystem
import TodoTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `todo watch` never goes silent (docs/notes/watch.md, "Following the path" and "Retrying a failed
/// sort"): a folder above the file moved, a sort that failed for a passing reason, the file replaced
/// by a symlink.
final class WatchFollowTests: XCTestCase {
    private func temporaryDirectory(_ label: String) -> String { Spawn.makeTemporaryDirectory(label) }

    // MARK: - A folder above the file moved (issue 24, item 6)

    /// `mv Sync Sync.old` two levels above the file: the path leads to no directory, so the watcher
    /// exits 1 with one line (before: alive and silent, watching `Sync.old/todo`).
    func testMovingAFolderAboveTheFileExitsOneWithOneLine() throws {
        let parent = temporaryDirectory("watch-above")
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let directory = parent + "/Sync/todo"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/todo.txt"
        Files.write(path, "open a\n")
        let watch = try XCTUnwrap(WatchProcess([path]))
        XCTAssertTrue(watch.waitUntilWatching(), "\(watch.log)")

        XCTAssertEqual(shell("mv Sync Sync.old", in: parent).status, 0)
        XCTAssertEqual(watch.waitForExit(timeout: 2), 1, "still running, silent: \(watch.log)")
        XCTAssertEqual(watch.logLines, ["watching \(path)",
                                        "todo: watch: the directory of \(path) (\(directory)) was removed, renamed or unmounted; stopping"])
    }

    /// The folder above moved and at once recreated with the file in it (within the settle time):
    /// the watcher follows the path, says so, and sorts the new file.
    func testAFolderAboveReplacedAtOnceIsFollowed() throws {
        let parent = temporaryDirectory("watch-above-back")
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let directory = parent + "/Sync/todo"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let path = directory + "/todo.txt"
        Files.write(path, "open a\n")
        let watch = try XCTUnwrap(WatchProcess([path], settle: "0.5"))
        XCTAssertTrue(watch.waitUntilWatching(), "\(watch.log)")

        shell("mv Sync Sync.old && mkdir -p Sync/todo && printf 'x done\\nopen new\\n' > Sync/todo/todo.txt", in: parent)
        XCTAssertTrue(eventually(timeout: 3) { Files.text(path) == "open new\nx done\n" }, "\(watch.log)")
        XCTAssertEqual(Files.text(parent + "/Sync.old/todo/todo.txt"), "open a\n")
        XCTAssertTrue(watch.logLines.contains { $0.hasPrefix("\(path) now leads to ") && $0.hasSuffix("/Sync/todo/todo.txt; watching it there") },
                      "\(watch.log)")
        XCTAssertTrue(watch.isRunning)
        // It watches the new folder: a later save there is sorted too.
        shell("printf 'x done 2\\nopen new\\nx done\\n' > Sync/todo/todo.txt", in: parent)
        XCTAssertTrue(eventually(timeout: 2) { Files.text(path) == "open new\nx done 2\nx done\n" }, "\(watch.log)")
    }

    // MARK: - A failed sort is retried (issue 24, item 7)

    /// The writers' lock held past the lock timeout: the failure is reported once, the sort retried
    /// until the lock is free, and the recovery logged (before: unsorted until the next change).
    func testASortBlockedByTheLockIsRetriedUntilItWorks() throws {
        let directory = temporaryDirectory("watch-retry-lock")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "x done\nopen a\n")
        let lock = try FileLock(for: path, timeout: .seconds(2))
        let watch = try XCTUnwrap(WatchProcess([path], environment: ["TODO_LOCK_TIMEOUT": "0.2"]))
        XCTAssertTrue(eventually(timeout: 3) { watch.log.contains("locked") }, "\(watch.log)")
        usleep(1_200_000)  // at least one retry fails meanwhile
        lock.release()
        XCTAssertTrue(eventually(timeout: 3) { Files.text(path) == "open a\nx done\n" }, "never retried: \(watch.log)")
        XCTAssertTrue(eventually(timeout: 1) { watch.sortLines.count == 1 }, "\(watch.log)")
        let lines = watch.logLines
        XCTAssertEqual(lines.filter { $0.hasPrefix("todo: ") }.count, 1, "the failure is reported once: \(watch.log)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("todo: ") && $0.contains("locked") && $0.hasSuffix("; trying again until it works") },
                      "\(watch.log)")
        let recovery = try XCTUnwrap(lines.first { $0.hasPrefix("\(path): sorting works again (after ") }, "\(watch.log)")
        XCTAssertFalse(recovery.contains("after 1 failed attempt)"), "the lock was held across a retry: \(watch.log)")
        XCTAssertTrue(watch.isRunning)
    }

    /// `chmod 000` (no write bit: refused even for root), then `chmod 644`: a mode change alone is no
    /// event, so only the retry sorts the file.
    func testASortRefusedForPermissionIsRetriedAfterChmod() throws {
        let directory = temporaryDirectory("watch-retry-mode")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "x done\nopen a\n")
        XCTAssertEqual(chmod(path, 0o000), 0)
        let watch = try XCTUnwrap(WatchProcess([path]))
        XCTAssertTrue(eventually(timeout: 3) { watch.log.contains("no write permission") }, "\(watch.log)")
        XCTAssertEqual(Files.text(path), "x done\nopen a\n")
        XCTAssertEqual(chmod(path, 0o644), 0)
        XCTAssertTrue(eventually(timeout: 3) { Files.text(path) == "open a\nx done\n" }, "never retried: \(watch.log)")
        XCTAssertTrue(eventually(timeout: 1) { watch.logLines.contains { $0.hasPrefix("\(path): sorting works again") } }, "\(watch.log)")
        XCTAssertEqual(watch.logLines.filter { $0.hasPrefix("todo: ") }.count, 1, "\(watch.log)")
    }

    // MARK: - The file replaced by a symlink (issue 24, item 8)

    func testFileReplacedByASymlinkIsFollowedToItsTarget() throws {
        try checkSymlinkIsFollowed(arguments: [])
    }

    func testFileReplacedByASymlinkIsFollowedWhenPolling() throws {
        try checkSymlinkIsFollowed(arguments: ["--poll", "0.05"])
    }

    /// `todo.txt` replaced by a link to `../other/real.txt`, then re-pointed to `../other/second.txt`:
    /// a later rewrite of the link's current target is sorted each time (before: never).
    private func checkSymlinkIsFollowed(arguments: [String]) throws {
        let parent = temporaryDirectory("watch-link")
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let directory = parent + "/lists"
        let other = parent + "/other"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: false)
        let path = directory + "/todo.txt"
        Files.write(path, "open a\n")
        Files.write(other + "/real.txt", "open real\n")
        Files.write(other + "/second.txt", "open second\n")
        let watch = try XCTUnwrap(WatchProcess(arguments + [path]))
        XCTAssertTrue(eventually(timeout: 3) { watch.logLines == ["watching \(path)"] }, "\(watch.log)")
        usleep(300_000)

        XCTAssertEqual(shell("ln -sf ../other/real.txt todo.txt", in: directory).status, 0)
        XCTAssertTrue(eventually(timeout: 2) { watch.log.contains("now leads to ") && watch.log.contains("/other/real.txt") }, "\(watch.log)")
        shell("printf 'x done\\nopen real\\n' > real.txt", in: other)
        XCTAssertTrue(eventually(timeout: 2) { Files.text(other + "/real.txt") == "open real\nx done\n" }, "\(watch.log)")
        XCTAssertTrue(watch.isSymlink(path), "the link is kept")

        XCTAssertEqual(shell("ln -sfn ../other/second.txt todo.txt", in: directory).status, 0)
        XCTAssertTrue(eventually(timeout: 2) { watch.log.contains("/other/second.txt; watching it there") }, "\(watch.log)")
        shell("printf 'x done 2\\nopen second\\n' > second.txt", in: other)
        XCTAssertTrue(eventually(timeout: 2) { Files.text(other + "/second.txt") == "open second\nx done 2\n" }, "\(watch.log)")
        XCTAssertTrue(watch.isRunning)
    }
}

private extension WatchProcess {
    /// Whether `path` is a symbolic link (lstat).
    func isSymlink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
    }
}
