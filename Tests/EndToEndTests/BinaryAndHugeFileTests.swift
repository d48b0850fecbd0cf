import TodoTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A binary file or a huge one given by mistake is refused by every command, quickly, with one line,
/// and left exactly as it was. (Before: `uid --assign`, `do`, `pri`, `append`, `archive`, `add`
/// rewrote binaries; `do 1` on a 2 GB sparse file ran 68 s, used 10.5 GB and wrote 2 GB.)
final class BinaryAndHugeFileTests: XCTestCase {
    static let writers: [[String]] = [
        ["add", "new task"], ["addm", "one\ntwo"], ["do", "1"], ["undo", "1"], ["pri", "1", "A"], ["depri", "1"],
        ["append", "1", "more"], ["prepend", "1", "more"], ["replace", "1", "new"], ["--force", "del", "1"],
        ["del", "1", "task"], ["archive"], ["sort"], ["uid", "--assign"], ["deduplicate"],
        ["--force", "move", "1", "other.txt"],
    ]

    /// (size, mtime in ns, inode): enough to see that nothing wrote the file.
    static func identity(_ path: String) -> [Int] {
        var info = stat()
        guard stat(path, &info) == 0 else { return [] }
        return [Int(info.st_size), Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec), Int(info.st_ino)]
    }

    func testEveryWriterRefusesAFileHoldingNUL() {
        let directory = Spawn.makeTemporaryDirectory("binary")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        let bytes: [UInt8] = Array("x 2026-01-01 task one\n(A) task two\n".utf8) + [0x7F, 0x45, 0x4C, 0x46, 0x00, 0x00, 0x0A]
            + Array("task three\n".utf8)
        Files.write(path, bytes)
        Files.write(directory + "/other.txt", "")
        let before = Self.identity(path)
        for writer in Self.writers {
            let result = Spawn.todo(["-f", path] + writer, environment: ["HOME": directory])
            XCTAssertEqual(result.status, 1, "\(writer): \(result.out)")
            XCTAssertTrue(result.err.contains("line 3: NUL byte"), "\(writer): \(result.err)")
            XCTAssertEqual(result.err.filter { $0 == "\n" }.count, 1, "\(writer): \(result.err)")
            XCTAssertEqual(Files.read(path), bytes, "\(writer) changed the file")
            XCTAssertEqual(Self.identity(path), before, "\(writer) wrote the file")
        }
        XCTAssertEqual(Files.text(directory + "/other.txt"), "", "move appended a line from a binary file")
    }

    func testEveryCommandRefusesAHugeSparseFileQuickly() throws {
        let directory = Spawn.makeTemporaryDirectory("huge")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "task one\n")
        try XCTSkipUnless(truncate(path, 2 << 30) == 0, "the file system cannot hold a 2 GiB sparse file")
        Files.write(directory + "/other.txt", "")
        let before = Self.identity(path)
        for command in Self.writers + [["ls"], ["lsa"], ["listproj"], ["export"], ["sort", "--check"], ["uid"]] {
            let started = Date()
            let result = Spawn.todo(["-f", path] + command, environment: ["HOME": directory])
            let seconds = Date().timeIntervalSince(started)
            XCTAssertEqual(result.status, 1, "\(command): \(result.out)")
            XCTAssertTrue(result.err.contains("more than the limit of 1073741824"), "\(command): \(result.err)")
            XCTAssertEqual(result.err.filter { $0 == "\n" }.count, 1, "\(command): \(result.err)")
            XCTAssertLessThan(seconds, 2, "\(command) took \(seconds) s: it must refuse before reading")
            XCTAssertEqual(Self.identity(path), before, "\(command) wrote the file")
        }
        // The limit can be raised (or lowered) for one run.
        let lowered = Spawn.todo(["-f", directory + "/other.txt", "add", "x"], environment: ["HOME": directory, "TODO_MAX_FILE_SIZE": "1"])
        XCTAssertEqual(lowered.status, 0, "an empty file is within any limit: \(lowered.err)")
        let refused = Spawn.todo(["-f", directory + "/other.txt", "ls"], environment: ["HOME": directory, "TODO_MAX_FILE_SIZE": "1"])
        XCTAssertEqual(refused.status, 1, refused.out)
        XCTAssertTrue(refused.err.contains("more than the limit of 1 "), refused.err)
    }
}
