#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TodoTestSupport
@testable import TodoFileSystem

/// Temporary files that a writer killed mid-write leaves beside the todo file are removed by the
/// next writer, and nothing else is.
@Suite struct AbandonedFilesTests {
    /// Sets the modification time of `path` to `secondsAgo` before `now`.
    static func age(_ path: String, by secondsAgo: Int, now: Int) {
        var times = [timespec(tv_sec: now - secondsAgo, tv_nsec: 0), timespec(tv_sec: now - secondsAgo, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW) == 0)
    }

    @Test func temporaryNamesAreRecognisedExactly() {
        #expect(FileSystem.isTemporaryName(".todo.txt.a1b2c3.tmp", for: "todo.txt"))
        #expect(!FileSystem.isTemporaryName(".todo.txt.a1b2c.tmp", for: "todo.txt"), "five characters")
        #expect(!FileSystem.isTemporaryName(".todo.txt.A1B2C3.tmp", for: "todo.txt"), "upper case is never generated")
        #expect(!FileSystem.isTemporaryName(".done.txt.a1b2c3.tmp", for: "todo.txt"), "another file's")
        #expect(!FileSystem.isTemporaryName("todo.txt.a1b2c3.tmp", for: "todo.txt"), "not hidden")
        #expect(!FileSystem.isTemporaryName(".todo.txt.lock", for: "todo.txt"))
        #expect(!FileSystem.isTemporaryName(".todo.txt.a1b2c3.tmp~", for: "todo.txt"))
    }

    @Test func oldTemporaryFilesGoAndEverythingElseStays() throws {
        let dir = TemporaryDirectory()
        let now = Int(time(nil))
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        for name in [".todo.txt.old001.tmp", ".todo.txt.new001.tmp", ".done.txt.old002.tmp", ".todo.txt.lock", "notes.tmp"] {
            Posix.write(dir.file(name), "x\n")
        }
        for name in [".todo.txt.old001.tmp", ".done.txt.old002.tmp", ".todo.txt.lock", "notes.tmp"] {
            Self.age(dir.file(name), by: 3_600, now: now)
        }
        // A directory and a symlink with a temporary name are not ours to remove.
        #expect(mkdir(dir.file(".todo.txt.dir003.tmp"), 0o755) == 0)
        #expect(symlink("todo.txt", dir.file(".todo.txt.lnk004.tmp")) == 0)
        Self.age(dir.file(".todo.txt.lnk004.tmp"), by: 3_600, now: now)

        let removed = FileSystem().removeAbandonedTemporaryFiles(beside: path, now: Int64(now))

        #expect(removed == [dir.file(".todo.txt.old001.tmp")])
        #expect(dir.entries() == [".done.txt.old002.tmp", ".todo.txt.dir003.tmp", ".todo.txt.lnk004.tmp", ".todo.txt.lock",
                                  ".todo.txt.new001.tmp", "notes.tmp", "todo.txt"])
        #expect(Posix.text(path) == "a\n")
    }

    @Test func temporaryFilesBesideASymlinkTargetAreFound() throws {
        let dir = TemporaryDirectory()
        let now = Int(time(nil))
        #expect(mkdir(dir.file("Dropbox"), 0o755) == 0)
        Posix.write(dir.file("Dropbox/todo.txt"), "a\n")
        #expect(symlink("Dropbox/todo.txt", dir.file("todo.txt")) == 0)
        Posix.write(dir.file("Dropbox/.todo.txt.zz9999.tmp"), "partial")
        Self.age(dir.file("Dropbox/.todo.txt.zz9999.tmp"), by: 700, now: now)

        let removed = FileSystem().removeAbandonedTemporaryFiles(beside: dir.file("todo.txt"), now: Int64(now))

        #expect(removed.count == 1)
        #expect(dir.entries("Dropbox") == ["todo.txt"])
    }

    @Test func aMissingDirectoryRemovesNothing() {
        #expect(FileSystem().removeAbandonedTemporaryFiles(beside: "/nonexistent-dir-for-todo/todo.txt", now: 0).isEmpty)
    }
}
