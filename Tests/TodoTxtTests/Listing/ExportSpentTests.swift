import Foundation
import Testing
import TodoTestSupport
@testable import TodoTxt

/// docs/format.md section 7: the export's `spent` field, whole minutes or null, the same bytes on the
/// ASCII fast path and the String path.
@Suite struct ExportSpentTests {
    static let pieces = ["spent:1h20m", "spent:45m", "spent:2h", "spent:xx", "spent:", "Spent:3m", "spents:4m",
                         "tracking:2026-12-02T14:00:00Z", "+work", "@desk", "x", "2026-03-01", "call", "uid:k3f9qz"]

    func spent(_ line: String) throws -> Any? {
        let output = TodoDocument(bytes: Array((line + "\n").utf8)).exportJSONLines()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.dropLast())) as? [String: Any])
        return object["spent"]
    }

    @Test func spentIsMinutesOrNullOnBothPaths() throws {
        for suffix in ["", " café"] {
            #expect(try spent("a spent:1h20m spent:5m\(suffix)") as? Int == 80, "the first spent: counts")
            #expect(try spent("a\(suffix)") is NSNull)
            #expect(try spent("a spent:1.5h\(suffix)") is NSNull, "not a duration")
        }
        #expect(String(decoding: TodoDocument(bytes: Array("\n".utf8)).exportJSONLines(), as: UTF8.self)
            .hasSuffix("\"effective_priority\":null,\"after\":[],\"blocked\":false,\"spent\":null}\n"), "a blank line")
    }

    @Test func asciiFastPathEqualsStringPathWithSpent() {
        let settings = PropertySettings(defaultSeed: 0x5BE7_7001, defaultCount: 2_000)
        var random = SplitMix64(seed: settings.seed)
        for _ in 0..<settings.count {
            let count = Int(random.next() % 7)
            let text = (0..<count).map { _ in Self.pieces[Int(random.next() % UInt64(Self.pieces.count))] }.joined(separator: " ")
            let document = TodoDocument(bytes: Array((text + "\n").utf8))
            var fast: [UInt8] = []
            document.exportJSONLines { fast += $0 }
            let slow = TodoDocument.jsonObject(for: document.item(at: 0), line: 1) + [0x0A]
            #expect(fast == slow, "seed \(settings.seed): line \(text.debugDescription)")
        }
    }
}
