import Foundation
import TodoTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `todo watch` against real writer processes saving the way editors and sync clients do
/// (docs/files.md section 3): every save pattern is re-sorted within a second of the writer's exit.
final class WatchSavePatternTests: XCTestCase {
    /// One way of saving: the file before, the shell command that saves, the sorted result.
    struct SavePattern: Sendable {
        let name: String
        let before: String
        let script: String
        let after: String
    }

    static let inPlace = SavePattern(
        name: "in place (truncate + write)", before: "open a\nx done a\n",
        script: "printf 'x done a\\nopen a\\nopen b\\n' > todo.txt",
        after: "open a\nopen b\nx done a\n")
    static let temporaryFileRenamedOver = SavePattern(
        name: "temp file + rename over (Syncthing, VS Code)", before: "open a\nx done a\n",
        script: "printf 'x done a\\nopen a\\nopen b\\n' > .syncthing.todo.txt.tmp && mv .syncthing.todo.txt.tmp todo.txt",
        after: "open a\nopen b\nx done a\n")
    static let vim = SavePattern(
        name: "vim (backup rename, new file, backup removed)", before: "open a\nx done a\n",
        script: "mv todo.txt todo.txt~ && printf 'x done a\\nopen a\\nopen b\\n' > todo.txt && rm todo.txt~",
        after: "open a\nopen b\nx done a\n")
    static let deleteThenRecreate = SavePattern(
        name: "delete then recreate (Dropbox)", before: "open a\nx done a\n",
        script: "rm todo.txt && printf 'x done a\\nopen a\\nopen b\\n' > todo.txt",
        after: "open a\nopen b\nx done a\n")
    static let sedInPlace = SavePattern(
        name: "sed -i", before: "open a\nopen b\nx done a\n",
        script: "sed -i 's/^open a$/x done z/' todo.txt",
        after: "open b\nx done z\nx done a\n")
    static let append = SavePattern(
        name: "append with >>", before: "open a\nx done a\n",
        script: "echo 'open b' >> todo.txt",
        after: "open a\nopen b\nx done a\n")

    func testInPlaceSaveIsResortedWithinOneSecond() throws { try checkResortedWithinOneSecond(Self.inPlace) }
    func testTemporaryFileRenamedOverIsResortedWithinOneSecond() throws {
        try checkResortedWithinOneSecond(Self.temporaryFileRenamedOver)
    }
    func testVimSaveIsResortedWithinOneSecond() throws { try checkResortedWithinOneSecond(Self.vim) }
    func testDeleteThenRecreateIsResortedWithinOneSecond() throws { try checkResortedWithinOneSecond(Self.deleteThenRecreate) }
    func testSedInPlaceIsResortedWithinOneSecond() throws { try checkResortedWithinOneSecond(Self.sedInPlace) }
    func testAppendIsResortedWithinOneSecond() throws { try checkResortedWithinOneSecond(Self.append) }

    /// The file saved the pattern's way while `todo watch` runs is sorted within a second of the
    /// writer's exit, logged once, and no temporary file is left.
    private func checkResortedWithinOneSecond(_ pattern: SavePattern) throws {
        let directory = Spawn.makeTemporaryDirectory("watch-save")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, pattern.before)
        let watch = try XCTUnwrap(WatchProcess([path]))
        XCTAssertTrue(watch.waitUntilWatching(), "watcher did not start: \(watch.log)")

        let writer = shell(pattern.script, in: directory)
        let written = Date()
        XCTAssertEqual(writer.status, 0, "\(writer.err)")
        let sorted = eventually(timeout: 1) { Files.text(path) == pattern.after }
        let latency = Date().timeIntervalSince(written)
        XCTAssertTrue(sorted, "not sorted within 1 s: \(Files.text(path).debugDescription); log: \(watch.log)")
        XCTAssertLessThan(latency, 1)
        // The log line follows the rename.
        XCTAssertTrue(eventually(timeout: 1) { watch.sortLines == ["sorted \(path): 1 completed task moved"] }, "\(watch.log)")
        XCTAssertTrue(watch.isRunning)
        XCTAssertTrue(temporaryFiles(in: directory).isEmpty)
    }

    func testSymlinkedFileIsSortedAndTheLinkKept() throws {
        let directory = Spawn.makeTemporaryDirectory("watch-link")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/real", withIntermediateDirectories: false)
        let target = directory + "/real/todo.txt"
        let link = directory + "/todo.txt"
        Files.write(target, "open a\nx done a\n")
        XCTAssertEqual(symlink(target, link), 0)
        let watch = try XCTUnwrap(WatchProcess([link]))
        XCTAssertTrue(watch.waitUntilWatching(), "\(watch.log)")

        // Written through the link in place, then replaced in the target's directory.
        shell("printf 'x done a\\nopen a\\nopen b\\n' > todo.txt", in: directory)
        XCTAssertTrue(eventually(timeout: 1) { Files.text(target) == "open a\nopen b\nx done a\n" }, "\(watch.log)")
        XCTAssertTrue(eventually(timeout: 1) { watch.sortLines.count == 1 }, "\(watch.log)")
        shell("printf 'x done b\\nopen a\\nopen b\\nx done a\\n' > .todo.new && mv .todo.new todo.txt", in: directory + "/real")
        XCTAssertTrue(eventually(timeout: 1) { Files.text(target) == "open a\nopen b\nx done b\nx done a\n" }, "\(watch.log)")

        var info = stat()
        XCTAssertEqual(lstat(link, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFLNK, "the symlink must stay a symlink")
        XCTAssertTrue(eventually(timeout: 1) { watch.sortLines.count == 2 }, "\(watch.log)")
        XCTAssertTrue(temporaryFiles(in: directory + "/real").isEmpty)
    }

    func testFileRemovedForTwoSecondsThenRestored() throws {
        let directory = Spawn.makeTemporaryDirectory("watch-gone")
        let elsewhere = Spawn.makeTemporaryDirectory("watch-gone-aside")
        defer {
            try? FileManager.default.removeItem(atPath: directory)
            try? FileManager.default.removeItem(atPath: elsewhere)
        }
        let path = directory + "/todo.txt"
        Files.write(path, "open a\nx done a\n")
        let watch = try XCTUnwrap(WatchProcess([path]))
        XCTAssertTrue(watch.waitUntilWatching(), "\(watch.log)")

        XCTAssertEqual(rename(path, elsewhere + "/todo.txt"), 0)
        XCTAssertTrue(eventually(timeout: 1) { watch.log.contains("\(path) removed; waiting for it to come back") }, "\(watch.log)")
        usleep(2_000_000)
        XCTAssertTrue(watch.isRunning, "\(watch.log)")
        // Restored, with an edit made meanwhile.
        let restore = shell("printf 'x done a\\nopen a\\nopen b\\n' > todo.txt && mv todo.txt '\(path)'", in: elsewhere)
        XCTAssertEqual(restore.status, 0, "\(restore.err)")
        XCTAssertTrue(eventually(timeout: 1) { Files.text(path) == "open a\nopen b\nx done a\n" }, "\(watch.log)")
        XCTAssertTrue(eventually(timeout: 1) {
            watch.logLines == ["watching \(path)", "\(path) removed; waiting for it to come back", "\(path) is back",
                               "sorted \(path): 1 completed task moved"]
        }, "\(watch.log)")
    }
}
