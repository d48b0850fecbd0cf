import Testing
import TodoTestSupport
@testable import TodoTxt

/// The fast search of plain terms (`PlainTerm`: case-blind on the raw bytes, the fold only for a
/// line with bytes from 0x80 up) gives exactly the answer of its definition, the folded term in
/// the folded line; and a listing's split of the work (`acceptsText` on the task's text, then
/// `acceptsListingLine` only when `needsListingLine`) gives the answer of `accepts` on the line.
@Suite struct PlainTermSearchTests {
    /// Pieces of lines: ASCII in both cases, digits and spaces (the listing prefix's bytes), Latin
    /// letters with diacritics precomposed and combining, the Kelvin sign, `ß`, CJK, C1 controls,
    /// Unicode spaces and bytes that are not UTF-8.
    static let pieces: [[UInt8]] = ["garden", "GARDEN", "gArDeN", "gärden", "+garden", "Café", "CAFÉ", "cafe\u{301}", "\u{212A}",
                                    "k", "K", "Straße", "STRASSE", "ŁÓDŹ", "lodz", "Œuvre", "oe", "日本", "12", "007", "1 2",
                                    " ", "  ", "\t", "x", "(A)", "due:2026-01-01", "uid:k3f9", "\u{85}", "\u{A0}", "\u{2028}",
                                    "@phone", "+Home"].map { Array($0.utf8) } + [[0xFF], [0xC3], [0xC2, 0x80], [0xE2, 0x80]]
    static let terms = ["garden", "GARDEN", "Gärden", "cafe", "CAFÉ", "café", "k", "K", "strasse", "ss", "lodz", "oe", "日本",
                        "12", "1 2", "x ", "due:2026", "e", "-garden", "-cafe", "-1 2", "uid", "+home", "@PHONE"]

    static func randomLine(_ random: inout SplitMix64) -> [UInt8] {
        var line: [UInt8] = []
        for index in 0..<Int(random.next() % 10) {
            if index > 0 && random.next() % 3 != 0 { line.append(0x20) }
            line += pieces[Int(random.next() % UInt64(pieces.count))]
        }
        return line
    }

    @Test func plainTermsAnswerAsTheFoldedLineDoes() {
        let settings = PropertySettings(defaultSeed: 0x9A_17E5, defaultCount: 4_000)
        var random = SplitMix64(seed: settings.seed)
        for _ in 0..<settings.count {
            let line = Self.randomLine(&random)
            let term = Self.terms[Int(random.next() % UInt64(Self.terms.count))]
            let exclude = term.hasPrefix("-")
            let needle = TextFolding.folded(Array((exclude ? String(term.dropFirst()) : term).utf8))
            let expected = TextFolding.contains(TextFolding.folded(line), needle) != exclude
            #expect(TermFilter([term], plainText: true).accepts(line) == expected, "term \(term) on \(line)")
        }
    }

    @Test func listingSplitAnswersAsTheWholeLine() {
        let settings = PropertySettings(defaultSeed: 0x5B_117, defaultCount: 2_000)
        var random = SplitMix64(seed: settings.seed)
        let regexTerms = ["ga.den", "^ *1", "-caf.", "2$"]
        for _ in 0..<settings.count {
            let text = Self.randomLine(&random)
            let number = Int(random.next() % 2_000)
            let width = 1 + Int(random.next() % 5)
            let digits = String(number)
            let line = Array((String(repeating: " ", count: max(0, width - digits.count)) + digits + " ").utf8) + text
            var arguments: [String] = []
            for _ in 0..<(1 + Int(random.next() % 3)) {
                let pool = random.next() % 4 == 0 ? regexTerms : Self.terms
                arguments.append(pool[Int(random.next() % UInt64(pool.count))])
            }
            let filter = TermFilter(arguments, plainText: true)
            var scratch: [UInt8] = []
            let textPasses = text.withUnsafeBufferPointer { filter.acceptsText($0, scratch: &scratch) }
            let split = textPasses && (!filter.needsListingLine || filter.acceptsListingLine(line, scratch: &scratch))
            #expect(split == filter.accepts(line), "terms \(arguments) on \(line)")
        }
    }

    /// `ByteSearch.firstIndex(ofFolded:)` against a plain loop, on lengths that take each of its
    /// paths (32 and 16 positions a step, the last few one by one).
    @Test func foldedSearchFindsTheFirstCaseBlindMatch() {
        let settings = PropertySettings(defaultSeed: 0xF0_1DED, defaultCount: 3_000)
        var random = SplitMix64(seed: settings.seed)
        let alphabet = Array("aAbB:@+ \u{7F}".utf8) + [0x00, 0x9B, 0xC1, 0xE1]
        for _ in 0..<settings.count {
            let haystack = (0..<Int(random.next() % 80)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            let needle = (0..<(1 + Int(random.next() % 4))).map { _ in Array("ab:@+ ".utf8)[Int(random.next() % 6)] }
            func fold(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }
            var expected = haystack.count
            if haystack.count >= needle.count {
                for start in 0...(haystack.count - needle.count)
                where (0..<needle.count).allSatisfy({ fold(haystack[start + $0]) == needle[$0] }) {
                    expected = start
                    break
                }
            }
            let found = haystack.withUnsafeBufferPointer { buffer in
                needle.withUnsafeBufferPointer { needleBuffer in
                    buffer.baseAddress.map { ByteSearch.firstIndex(ofFolded: needleBuffer, in: $0, from: 0, to: buffer.count) } ?? 0
                }
            }
            #expect(found == expected, "\(needle) in \(haystack)")
        }
    }
}
