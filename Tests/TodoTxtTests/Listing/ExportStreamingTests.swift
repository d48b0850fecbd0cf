import Testing
import TodoTestSupport
@testable import TodoTxt

/// The streamed export (`exportJSONLines(chunkBytes:_:)`) and its ASCII fast path give exactly the
/// bytes of the String path (`TodoDocument.jsonObject(for:line:)`), line for line.
@Suite struct ExportStreamingTests {
    /// Pieces an ASCII line is drawn from: header tokens, words, projects, contexts and tags with
    /// repeats (deduplication and grouping), JSON's escapes and controls, empty-valued tags.
    static let pieces = ["x", "(A)", "(b)", "2026-03-01", "2026-13-40", "call", "mom", "+mom", "+mom", "+Mom", "@phone",
                         "@phone", "+", "@", "due:2026-03-05", "k:1", "k:2", "K:3", "k:", ":v", "a:b:c", "uid:k3f9qz",
                         "uid:second", "uuid:u1", "pri:A", "\"quoted\"", "back\\slash", "tab\there", "\u{01}", "\u{1F}",
                         "\u{7F}", "cr\r", "\u{0B}", "#", "x", " ", "  ", "after:k3f9qz", "after:zz", "after:k3f9qz",
                         "after:", "after:\"q"]

    static func randomLine(_ random: inout SplitMix64) -> String {
        let count = Int(random.next() % 9)
        return (0..<count).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined(separator: " ")
    }

    @Test func asciiFastPathEqualsStringPath() {
        let settings = PropertySettings(defaultSeed: 0xE4_0A7F, defaultCount: 3_000)
        var random = SplitMix64(seed: settings.seed)
        for _ in 0..<settings.count {
            let text = Self.randomLine(&random)
            let document = TodoDocument(bytes: Array((text + "\n").utf8))
            var fast: [UInt8] = []
            document.exportJSONLines { fast += $0 }
            let slow = TodoDocument.jsonObject(for: document.item(at: 0), line: 1,
                                               openUIDs: DependencyGraph(todo: document).openUIDs) + [0x0A]
            #expect(fast == slow, "line \(text.debugDescription)")
        }
    }

    /// Chunks end on whole lines and together are the whole export, mixed ASCII and non-ASCII lines
    /// (which take the String path) included.
    @Test func chunksAreWholeLinesOfTheWholeExport() {
        let settings = PropertySettings(defaultSeed: 0xC4_0A7F, defaultCount: 50)
        var random = SplitMix64(seed: settings.seed)
        for _ in 0..<settings.count {
            var text = ""
            for _ in 0..<(1 + Int(random.next() % 40)) {
                text += Self.randomLine(&random) + (random.next() % 5 == 0 ? " café +Ünï" : "") + "\n"
            }
            let document = TodoDocument(bytes: Array(text.utf8))
            var expected: [UInt8] = []
            let open = DependencyGraph(todo: document).openUIDs
            for index in 0..<document.lineCount {
                expected += TodoDocument.jsonObject(for: document.item(at: index), line: index + 1, openUIDs: open) + [0x0A]
            }
            var chunks: [[UInt8]] = []
            document.exportJSONLines(chunkBytes: 1 + Int(random.next() % 700)) { chunks.append($0) }
            #expect(chunks.allSatisfy { $0.last == 0x0A })
            #expect(chunks.flatMap { $0 } == expected)
            #expect(document.exportJSONLines() == expected)
        }
    }
}
