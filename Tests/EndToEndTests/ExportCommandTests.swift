import Foundation
import TodoTestSupport
import TodoTxt
import XCTest

/// `todo export` on a file large enough that the command converts it on two threads (ranges of
/// lines, docs/format.md section 7): the bytes on stdout are exactly the library's one-thread
/// export of the same file, in order, and `blocked` sees links across ranges.
final class ExportCommandTests: XCTestCase {
    func testALargeFileExportsAsTheOneThreadExportDoes() throws {
        let directory = Spawn.makeTemporaryDirectory("export-large")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        var random = SplitMix64(seed: 24)
        var bytes = Array("\u{FEFF}".utf8)
        let kinds = ["(A) call mom +family @phone due:2026-12-05", "x 2026-11-30 2026-11-01 paid rent",
                     "crème brûlée for the party +fête", "water plants rec:1w t:2026-12-01", "", "\t  ",
                     "fix bike spent:1h20m", "read the \"manual\" \\ twice", "K\u{212A} kelvin"]
        let lines = 60_000
        for number in 0..<lines {
            var line = kinds[Int(random.next() % UInt64(kinds.count))]
            if !line.isEmpty { line += " uid:u\(number)" }
            // Links across the whole file, so a range waits for tasks converted in another.
            if number % 7 == 0 { line += " after:u\(Int(random.next() % UInt64(lines)))" }
            bytes += Array(line.utf8) + (number % 11 == 0 ? [0x0D, 0x0A] : [0x0A])
        }
        bytes += [0xFF, 0xFE, 0x20, 0x61]
        Files.write(path, bytes)
        XCTAssertGreaterThan(bytes.count, 3 << 19, "at least three ranges, so the second thread takes part")

        let result = Spawn.todo(["-f", path, "export"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.err, "")
        let expected = TodoDocument(bytes: bytes).exportJSONLines()
        XCTAssertEqual(result.stdout.count, expected.count)
        XCTAssertTrue(result.stdout == expected, "the command's export differs from the library's one-thread export")
        XCTAssertTrue(result.out.contains("\"blocked\":true"), "some task waits for an open one")
        XCTAssertEqual(Files.read(path), bytes, "export writes nothing")
    }
}
