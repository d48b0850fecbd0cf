import TodoTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `todo sort` in place, as cron runs it: silent, safe, writes only on change (docs/files.md section 2).
final class SortInPlaceTests: XCTestCase {
    private func inode(_ path: String) -> (ino: UInt64, mtime: Int, nsec: Int, mode: UInt32) {
        var info = stat()
        XCTAssertEqual(stat(path, &info), 0)
        return (UInt64(info.st_ino), info.st_mtim.tv_sec, info.st_mtim.tv_nsec, UInt32(info.st_mode & 0o7777))
    }

    func testSortsInPlaceSilently() {
        let path = Spawn.makeTemporaryDirectory() + "/todo.txt"
        Files.write(path, "x 2026-01-02 paid rent\r\n(A) call mom\r\nwater plants")
        let result = Spawn.todo(["sort", path])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.stdout, [])
        XCTAssertEqual(result.stderr, [])
        XCTAssertEqual(Files.text(path), "(A) call mom\r\nwater plants\r\nx 2026-01-02 paid rent")
    }

    func testAlreadySortedFileIsNotWritten() {
        let path = Spawn.makeTemporaryDirectory() + "/todo.txt"
        Files.write(path, "open\nx 2026-01-01 done\n")
        let before = inode(path)
        usleep(20_000)
        XCTAssertEqual(Spawn.todo(["sort", path]).status, 0)
        let after = inode(path)
        XCTAssertEqual(before.ino, after.ino)
        XCTAssertEqual(before.mtime, after.mtime)
        XCTAssertEqual(before.nsec, after.nsec)
        XCTAssertEqual(Files.text(path), "open\nx 2026-01-01 done\n")
    }

    func testModeAndSymlinkAreKept() {
        let directory = Spawn.makeTemporaryDirectory()
        let real = directory + "/real"
        XCTAssertEqual(mkdir(real, 0o755), 0)
        let target = real + "/todo.txt"
        Files.write(target, "x done\nopen\n")
        XCTAssertEqual(chmod(target, 0o640), 0)
        let link = directory + "/todo.txt"
        XCTAssertEqual(symlink(target, link), 0)
        let result = Spawn.todo(["sort", link])
        XCTAssertEqual(result.status, 0, result.err)
        var info = stat()
        XCTAssertEqual(lstat(link, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFLNK, "the symlink must stay a symlink")
        XCTAssertEqual(Files.text(target), "open\nx done\n")
        XCTAssertEqual(inode(target).mode, 0o640)
    }

    func testBadInputsGiveOneLineErrorsAndChangeNothing() {
        let directory = Spawn.makeTemporaryDirectory()
        let cases: [(String, () -> Void)] = [
            ("missing.txt", {}),
            ("adir", { mkdir(directory + "/adir", 0o755) }),
            ("binary.txt", { Files.write(directory + "/binary.txt", [0x78, 0x20, 0x00, 0x01, 0x0A, 0x61, 0x0A]) }),
            // Already in order, yet still refused: nothing to write is no reason to call it fine.
            ("sorted-binary.txt", { Files.write(directory + "/sorted-binary.txt", [0x61, 0x00, 0x0A, 0x78, 0x20, 0x62, 0x0A]) }),
        ]
        for (name, setUp) in cases {
            setUp()
            let path = directory + "/" + name
            let before = Files.read(path)
            let result = Spawn.todo(["sort", path])
            XCTAssertEqual(result.status, 1, name)
            XCTAssertTrue(result.err.hasPrefix("todo: "), "\(name): \(result.err)")
            XCTAssertTrue(result.err.contains(name), "\(name): \(result.err)")
            XCTAssertEqual(result.err.filter { $0 == "\n" }.count, 1, "\(name): \(result.err)")
            XCTAssertEqual(Files.read(path), before, name)
        }
    }

    func testEdgeInputsSortCorrectly() {
        let directory = Spawn.makeTemporaryDirectory()
        let path = directory + "/todo.txt"
        Files.write(path, "")
        XCTAssertEqual(Spawn.todo(["sort", path]).status, 0)
        XCTAssertEqual(Files.read(path), [])
        let invalid: [UInt8] = [0x78, 0x20, 0xFF, 0xFE, 0x0A, 0x6F, 0xC3, 0x28, 0x0A, 0x6E, 0x6F, 0x20, 0x6E, 0x6C]
        Files.write(path, invalid)
        XCTAssertEqual(Spawn.todo(["sort", path]).status, 0)
        XCTAssertEqual(Files.read(path), [0x6F, 0xC3, 0x28, 0x0A, 0x6E, 0x6F, 0x20, 0x6E, 0x6C, 0x0A, 0x78, 0x20, 0xFF, 0xFE])
    }

    /// Runs `todo` as the unprivileged user `nobody` (root ignores file permissions).
    private func todoAsNobody(_ arguments: [String]) throws -> ProcessResult {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") && geteuid() == 0,
                          "needs root and setpriv to drop privileges")
        return Spawn.run(["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", Spawn.todo] + arguments)
    }

    /// Reading commands under `todo` fail on a file they cannot read, as writers do: an empty listing
    /// with exit 0 would tell the user their tasks are gone. (Before: `0 of 0 tasks shown`, exit 0.)
    func testUnreadableFileFailsEveryReadingCommand() throws {
        let directory = Spawn.makeTemporaryDirectory()
        chmod(directory, 0o777)
        let path = directory + "/todo.txt"
        Files.write(path, "(A) secret task +p @c\n")
        chmod(path, 0o000)
        for action in [["ls"], ["lsa"], ["lsp"], ["listproj"], ["listcon"], ["ls", "secret"], ["uid"], ["export"],
                       ["sort", "--check"], ["do", "1"]] {
            let result = try todoAsNobody(["-f", path] + action)
            XCTAssertEqual(result.status, 1, "\(action): \(result.out) \(result.err)")
            XCTAssertTrue(result.err.hasPrefix("todo: ") && result.err.contains("todo.txt: Permission denied"), "\(action): \(result.err)")
            XCTAssertEqual(result.err.filter { $0 == "\n" }.count, 1, "\(action): \(result.err)")
            XCTAssertFalse(result.out.contains("tasks shown"), "\(action) printed a listing: \(result.out)")
        }
    }

    func testReadOnlyFileFailsCleanly() throws {
        let directory = Spawn.makeTemporaryDirectory()
        chmod(directory, 0o777)
        let path = directory + "/todo.txt"
        Files.write(path, "x done\nopen\n")
        chmod(path, 0o444)
        let result = try todoAsNobody(["sort", path])
        XCTAssertEqual(result.status, 1, result.err)
        XCTAssertTrue(result.err.hasPrefix("todo: ") && result.err.contains("todo.txt"), result.err)
        XCTAssertEqual(result.err.filter { $0 == "\n" }.count, 1, result.err)
        XCTAssertEqual(Files.text(path), "x done\nopen\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), ["todo.txt"], "no temp file may be left")
    }

    func testReadOnlyDirectoryFailsCleanly() throws {
        let directory = Spawn.makeTemporaryDirectory()
        let path = directory + "/todo.txt"
        Files.write(path, "x done\nopen\n")
        chmod(path, 0o666)
        chmod(directory, 0o555)
        defer { chmod(directory, 0o755) }
        let result = try todoAsNobody(["sort", path])
        XCTAssertEqual(result.status, 1, result.err)
        XCTAssertTrue(result.err.hasPrefix("todo: ") && result.err.contains("todo.txt"), result.err)
        XCTAssertEqual(result.err.filter { $0 == "\n" }.count, 1, result.err)
        XCTAssertEqual(Files.text(path), "x done\nopen\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory), ["todo.txt"], "no temp file may be left")
    }
}

/// docs/files.md section 2: "a 100 MB single line" is handled, with nothing lost.
final class HugeLineTests: XCTestCase {
    func testHundredMegabyteSingleLineSortsWithoutLoss() {
        let directory = Spawn.makeTemporaryDirectory()
        let path = directory + "/todo.txt"
        var bytes = Array("x 2026-01-01 huge ".utf8)
        bytes += [UInt8](repeating: 0x61, count: 100_000_000)
        bytes += Array("\nopen task".utf8)
        Files.write(path, bytes)
        let result = Spawn.todo(["sort", path])
        XCTAssertEqual(result.status, 0, result.err)
        let sorted = Files.read(path)
        XCTAssertEqual(sorted.count, bytes.count + 0, "same size: the newline moves with the lines")
        XCTAssertEqual(Array(sorted.prefix(10)), Array("open task\n".utf8))
        XCTAssertEqual(Array(sorted.suffix(3)), [0x61, 0x61, 0x61])
    }
}
