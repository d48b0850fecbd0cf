import TodoTestSupport
import XCTest

/// A listing bigger than one output chunk and one megabyte of output: the in-process sort and the
/// chunked, streamed rendering print exactly what the same listing prints through `sh -c` (todo.sh's
/// own sort command, and a final filter, which hold the whole output), under both names.
final class LargeListingTests: XCTestCase {
    /// Seeded task lines: priorities, completed tasks, mixed case, repeated texts (ties for the
    /// sort), some long lines.
    private func sampleFile(lines: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        let words = ["call", "Mom", "buy", "milk", "+garden", "@phone", "pay", "rent", "due:2026-03-01", "Zebra", "apple"]
        var text = ""
        for index in 0..<lines {
            switch random.next() % 6 {
            case 0: text += "x 2026-01-0\(1 + random.next() % 9) "
            case 1: text += "(\(["A", "B", "C"][Int(random.next() % 3)])) "
            default: break
            }
            let count = index % 97 == 0 ? 60 : 1 + Int(random.next() % 8)
            text += (0..<count).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " ")
            text += "\n"
        }
        return Array(text.utf8)
    }

    func testChunkedListingMatchesTheShellPipeline() {
        let seed = propertySeed()
        let home = Spawn.makeTemporaryDirectory("large-listing")
        let data = home + "/data"
        try? FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        Files.write(home + "/.todo.cfg", "export TODO_DIR=\"\(data)\"\n")
        let lines = 40_000
        Files.write(data + "/todo.txt", sampleFile(lines: lines, seed: seed))
        let base = ["HOME": home, "TODO_TEST_TIME": "1764410000", "TZ": "UTC", "TODOTXT_CFG_FILE": "",
                    "TODO_DIR": "", "TODO_FILE": "", "LC_ALL": "C.UTF-8"]
        for name in ["todo.sh", "todo"] {
            let inProcess = Spawn.todo(["ls"], environment: base, asName: name)
            XCTAssertEqual(inProcess.status, 0, "seed \(seed): \(inProcess.err)")
            XCTAssertGreaterThan(inProcess.stdout.count, 1 << 20, "seed \(seed): the output is more than a megabyte")
            XCTAssertTrue(inProcess.out.hasSuffix("--\nTODO: \(lines) of \(lines) tasks shown\n"),
                          "seed \(seed) \(name): \(inProcess.out.suffix(80))")
            var shellSort = base
            shellSort["TODOTXT_SORT_COMMAND"] = "env LC_COLLATE=C sort -f -k2"
            let sorted = Spawn.todo(["ls"], environment: shellSort, asName: name)
            XCTAssertEqual(sorted.status, 0, "seed \(seed): \(sorted.err)")
            XCTAssertTrue(sorted.stdout == inProcess.stdout, "seed \(seed) \(name): the in-process sort differs from sort(1)")
            var filtered = base
            filtered["TODOTXT_FINAL_FILTER"] = "sed -n p"
            let throughFilter = Spawn.todo(["ls"], environment: filtered, asName: name)
            XCTAssertEqual(throughFilter.status, 0, "seed \(seed): \(throughFilter.err)")
            XCTAssertTrue(throughFilter.stdout == inProcess.stdout, "seed \(seed) \(name): the streamed output differs from the filtered one")
        }
    }
}
