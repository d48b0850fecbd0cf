import Testing
import TodoTestSupport
import TodoTxt
@testable import TodoCLI

/// `todo export`'s two-thread writer (`ExportAction.writeJSONLines`) gives exactly the bytes of the
/// one-thread export (`TodoDocument.exportJSONLines()`), in order, on random documents cut into
/// many small ranges, including `blocked`, which depends on open tasks in other ranges.
struct ExportTwoThreadsTests {
    static let words = ["call", "mom", "+home", "+home", "@phone", "due:2026-03-05", "t:2026-02-01", "k:1", "k:2",
                        "spent:1h30m", "pri:B", "\"q\"", "back\\slash", "tab\there", "\u{01}", "\u{7F}", "café",
                        "+Ünï", "K", "\u{212A}", "e\u{0301}", "12:30", "a:b:c", "after:", "#"]

    static func randomLine(_ random: inout SplitMix64, number: Int, lines: Int) -> String {
        var words = (0..<Int.random(in: 0...6, using: &random)).map { _ in Self.words.randomElement(using: &random) ?? "" }
        if Int.random(in: 0..<3, using: &random) == 0 { words.append("uid:u\(number)") }
        if Int.random(in: 0..<3, using: &random) == 0 { words.append("after:u\(Int.random(in: 0..<lines, using: &random))") }
        let body = words.joined(separator: " ")
        switch Int.random(in: 0..<8, using: &random) {
        case 0: return ""
        case 1: return "x 2026-03-02 2026-03-01 " + body
        case 2: return "(A) 2026-01-01 " + body
        default: return body
        }
    }

    @Test func twoThreadsGiveTheOneThreadBytes() {
        let settings = PropertySettings(defaultCount: 60)
        var random = SplitMix64(seed: settings.seed)
        for round in 0..<settings.count {
            let lines = Int.random(in: 0...300, using: &random)
            var bytes: [UInt8] = Int.random(in: 0..<10, using: &random) == 0 ? [0xEF, 0xBB, 0xBF] : []
            for number in 0..<lines {
                bytes += Array(Self.randomLine(&random, number: number, lines: lines).utf8)
                if Int.random(in: 0..<20, using: &random) == 0 { bytes += [0xFF, 0xC2] }
                if number + 1 < lines || Bool.random(using: &random) {
                    bytes += Int.random(in: 0..<5, using: &random) == 0 ? [0x0D, 0x0A] : [0x0A]
                }
            }
            var document = TodoDocument(bytes: bytes)
            // The document may hold a line fewer than were generated (an empty last one without a
            // terminator is no line): the edited line is one it holds.
            if document.lineCount > 0, Bool.random(using: &random) {
                // An edited line lies in the edit buffer, not in the bytes read.
                document.replaceContent(at: Int.random(in: 0..<document.lineCount, using: &random),
                                        with: Array("edited after:u1 uid:u\(lines)".utf8))
            }
            let rangeBytes = Int.random(in: 1...400, using: &random)
            var written: [UInt8] = []
            ExportAction.writeJSONLines(document, rangeBytes: rangeBytes) { written += $0 }
            #expect(written == document.exportJSONLines(),
                    "seed \(settings.seed) round \(round): \(lines) lines, ranges of \(rangeBytes) bytes")
        }
    }

    /// The ranges cover every line once, in order, each non-empty.
    @Test func rangesCoverEveryLineInOrder() {
        let settings = PropertySettings(defaultCount: 100)
        var random = SplitMix64(seed: settings.seed)
        for round in 0..<settings.count {
            let lines = Int.random(in: 0...200, using: &random)
            let text = (0..<lines).map { Self.randomLine(&random, number: $0, lines: lines) + "\n" }.joined()
            let export = JSONLinesExport(TodoDocument(bytes: Array(text.utf8)))
            let ranges = export.ranges(ofBytes: Int.random(in: 1...500, using: &random))
            #expect(ranges.allSatisfy { !$0.isEmpty }, "seed \(settings.seed) round \(round)")
            #expect(ranges.flatMap { Array($0) } == Array(0..<lines), "seed \(settings.seed) round \(round)")
        }
    }
}
