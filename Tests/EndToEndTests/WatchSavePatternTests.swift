import Foundation
import Testing
import TodoTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `todo watch` against real writer processes saving the way editors and sync clients do
/// (docs/files.md section 3): every save pattern is re-sorted within a second of the writer's exit.
@Suite struct WatchSavePatternTests {
    /// One way of saving: the file before, the shell command that saves, the sorted result.
    struct SavePattern: Sendable, CustomTestStringConvertible {
        let name: String
        let before: String
        let script: String
        let after: String
        var testDescription: String { name }
    }

    static let patterns: [SavePattern] = [
        SavePattern(name: "in place (truncate + write)", before: "open a\nx done a\n",
                    script: "printf 'x done a\\nopen a\\nopen b\\n' > todo.txt",
                    after: "open a\nopen b\nx done a\n"),
        SavePattern(name: "temp file + rename over (Syncthing, VS Code)", before: "open a\nx done a\n",
                    script: "printf 'x done a\\nopen a\\nopen b\\n' > .syncthing.todo.txt.tmp && mv .syncthing.todo.txt.tmp todo.txt",
                    after: "open a\nopen b\nx done a\n"),
        SavePattern(name: "vim (backup rename, new file, backup removed)", before: "open a\nx done a\n",
                    script: "mv todo.txt todo.txt~ && printf 'x done a\\nopen a\\nopen b\\n' > todo.txt && rm todo.txt~",
                    after: "open a\nopen b\nx done a\n"),
        SavePattern(name: "delete then recreate (Dropbox)", before: "open a\nx done a\n",
                    script: "rm todo.txt && printf 'x done a\\nopen a\\nopen b\\n' > todo.txt",
                    after: "open a\nopen b\nx done a\n"),
        SavePattern(name: "sed -i", before: "open a\nopen b\nx done a\n",
                    script: "sed -i 's/^open a$/x done z/' todo.txt",
                    after: "open b\nx done z\nx done a\n"),
        SavePattern(name: "append with >>", before: "open a\nx done a\n",
                    script: "echo 'open b' >> todo.txt",
                    after: "open a\nopen b\nx done a\n"),
    ]

    @Test(arguments: patterns)
    func savePatternIsResortedWithinOneSecond(_ pattern: SavePattern) throws {
        let directory = Spawn.makeTemporaryDirectory("watch-save")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, pattern.before)
        let watch = try #require(WatchProcess([path]))
        #expect(watch.waitUntilWatching(), "watcher did not start: \(watch.log)")

        let writer = shell(pattern.script, in: directory)
        let written = Date()
        #expect(writer.status == 0, "\(writer.err)")
        let sorted = eventually(timeout: 1) { Files.text(path) == pattern.after }
        let latency = Date().timeIntervalSince(written)
        #expect(sorted, "not sorted within 1 s: \(Files.text(path).debugDescription); log: \(watch.log)")
        #expect(latency < 1)
        // The log line follows the rename.
        #expect(eventually(timeout: 1) { watch.sortLines == ["sorted \(path): 1 completed task moved"] }, "\(watch.log)")
        #expect(watch.isRunning)
        #expect(temporaryFiles(in: directory).isEmpty)
    }

    @Test func symlinkedFileIsSortedAndTheLinkKept() throws {
        let directory = Spawn.makeTemporaryDirectory("watch-link")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/real", withIntermediateDirectories: false)
        let target = directory + "/real/todo.txt"
        let link = directory + "/todo.txt"
        Files.write(target, "open a\nx done a\n")
        #expect(symlink(target, link) == 0)
        let watch = try #require(WatchProcess([link]))
        #expect(watch.waitUntilWatching(), "\(watch.log)")

        // Written through the link in place, then replaced in the target's directory.
        shell("printf 'x done a\\nopen a\\nopen b\\n' > todo.txt", in: directory)
        #expect(eventually(timeout: 1) { Files.text(target) == "open a\nopen b\nx done a\n" }, "\(watch.log)")
        #expect(eventually(timeout: 1) { watch.sortLines.count == 1 }, "\(watch.log)")
        shell("printf 'x done b\\nopen a\\nopen b\\nx done a\\n' > .todo.new && mv .todo.new todo.txt", in: directory + "/real")
        #expect(eventually(timeout: 1) { Files.text(target) == "open a\nopen b\nx done b\nx done a\n" }, "\(watch.log)")

        var info = stat()
        #expect(lstat(link, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFLNK, "the symlink must stay a symlink")
        #expect(eventually(timeout: 1) { watch.sortLines.count == 2 }, "\(watch.log)")
        #expect(temporaryFiles(in: directory + "/real").isEmpty)
    }

    @Test func fileRemovedForTwoSecondsThenRestored() throws {
        let directory = Spawn.makeTemporaryDirectory("watch-gone")
        let elsewhere = Spawn.makeTemporaryDirectory("watch-gone-aside")
        defer {
            try? FileManager.default.removeItem(atPath: directory)
            try? FileManager.default.removeItem(atPath: elsewhere)
        }
        let path = directory + "/todo.txt"
        Files.write(path, "open a\nx done a\n")
        let watch = try #require(WatchProcess([path]))
        #expect(watch.waitUntilWatching(), "\(watch.log)")

        #expect(rename(path, elsewhere + "/todo.txt") == 0)
        #expect(eventually(timeout: 1) { watch.log.contains("\(path) removed; waiting for it to come back") }, "\(watch.log)")
        usleep(2_000_000)
        #expect(watch.isRunning, "\(watch.log)")
        // Restored, with an edit made meanwhile.
        let restore = shell("printf 'x done a\\nopen a\\nopen b\\n' > todo.txt && mv todo.txt '\(path)'", in: elsewhere)
        #expect(restore.status == 0, "\(restore.err)")
        #expect(eventually(timeout: 1) { Files.text(path) == "open a\nopen b\nx done a\n" }, "\(watch.log)")
        #expect(eventually(timeout: 1) {
            watch.logLines == ["\(path) removed; waiting for it to come back", "\(path) is back",
                               "sorted \(path): 1 completed task moved"]
        }, "\(watch.log)")
    }
}
