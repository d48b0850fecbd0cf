import Testing
import TodoTestSupport
@testable import TodoTxt

@Suite struct ByteScanningTests {
    func whitespaceLength(_ bytes: [UInt8], at index: Int = 0) -> Int {
        bytes.withUnsafeBufferPointer { ByteScanning.whitespaceLength($0, at: index) }
    }

    /// Every Unicode scalar, encoded alone: the byte scanner agrees with `isWhitespace`.
    @Test func agreesWithUnicodeWhiteSpaceForEveryScalar() {
        var mismatches: [UInt32] = []
        var whitespaceCount = 0
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4)
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            bytes.removeAll(keepingCapacity: true)
            UTF8.encode(scalar) { bytes.append($0) }
            let expected = scalar.properties.isWhitespace
            if expected { whitespaceCount += 1 }
            if whitespaceLength(bytes) != (expected ? bytes.count : 0) { mismatches.append(value) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.map { String($0, radix: 16) })")
        #expect(whitespaceCount == 25)
    }

    @Test func truncatedSequencesAreNotWhitespace() {
        #expect(whitespaceLength([0xC2]) == 0)
        #expect(whitespaceLength([0xE3, 0x80]) == 0)
        #expect(whitespaceLength([0xE2, 0x80]) == 0)
        #expect(whitespaceLength([0xE1, 0x9A]) == 0)
        #expect(whitespaceLength([0x61, 0xE3, 0x80, 0x80], at: 1) == 3)
    }

    @Test func isBlank() {
        let cases: [([UInt8], Bool)] = [([], true), (b(" \t\u{3000}"), true), (b(" a"), false), ([0xC2], false),
                                        ([0x00], false), (b("\u{200B}"), false)]
        for (bytes, blank) in cases {
            #expect(bytes.withUnsafeBufferPointer { ByteScanning.isBlank($0) } == blank, "\(show(bytes))")
        }
    }

    @Test func digitsAndLetters() {
        for byte in UInt8(0)...255 {
            #expect(ByteScanning.isDigit(byte) == (byte >= 0x30 && byte <= 0x39))
            #expect(ByteScanning.isUppercaseLetter(byte) == (byte >= 0x41 && byte <= 0x5A))
        }
    }

    /// Seeded property: the words the byte scanner finds are exactly the words of the lossy decoding
    /// split on `isWhitespace`, for random bytes (invalid UTF-8 included).
    @Test func wordsMatchLossyDecodingSplit() {
        let settings = PropertySettings(defaultSeed: 0xB17E_5CA7, defaultCount: 20_000)
        var generator = TodoTextGenerator(rng: SplitMix64(seed: settings.seed))
        let pieces: [[UInt8]] = [[0x20], [0x09], [0xC2, 0xA0], [0xC2, 0x85], [0xE3, 0x80, 0x80], [0xE2, 0x80, 0x8A],
                                 [0xE2, 0x80, 0xA8], [0xE1, 0x9A, 0x80], [0xE2, 0x81, 0x9F], [0xC2], [0xE3], [0xE3, 0x80],
                                 [0x80], [0xFF], [0x61], [0xC3, 0xA9], [0xF0, 0x9F, 0x99, 0x82], [0xF0, 0x9F], [0xED, 0xA0, 0x80]]
        var failures = 0
        for _ in 0..<settings.count {
            var bytes: [UInt8] = []
            for _ in 0..<generator.int(12) { bytes += generator.pick(pieces) }
            var scanned: [String] = []
            bytes.withUnsafeBufferPointer { buffer in
                TodoItem.forEachWord(in: buffer, from: 0) { start, end in
                    scanned.append(String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<end]), as: UTF8.self))
                }
            }
            let decoded = String(decoding: bytes, as: UTF8.self)
            let expected = decoded.unicodeScalars.split(whereSeparator: { $0.properties.isWhitespace }).map { String($0) }
            if scanned != expected {
                failures += 1
                if failures <= 3 { Issue.record("seed \(settings.seed): \(show(bytes)): \(scanned) != \(expected)") }
            }
        }
        #expect(failures == 0, "seed \(settings.seed)")
    }
}

@Suite struct ByteSearchTests {
    @Test(arguments: [UInt8(0x00), 0x0A, 0x3A, 0x80, 0xFF])
    func findsTheFirstMatchAtEveryPositionAndRange(target: UInt8) {
        let filler: UInt8 = target == 0x61 ? 0x62 : 0x61
        for length in 0..<34 {
            let clean = [UInt8](repeating: filler, count: length)
            clean.withUnsafeBufferPointer { buffer in
                if let base = buffer.baseAddress {
                    #expect(ByteSearch.firstIndex(of: target, in: base, from: 0, to: length) == length)
                }
            }
            for position in 0..<length {
                var bytes = clean
                bytes[position] = target
                if position + 3 < length { bytes[position + 3] = target }
                bytes.withUnsafeBufferPointer { buffer in
                    guard let base = buffer.baseAddress else { return }
                    #expect(ByteSearch.firstIndex(of: target, in: base, from: 0, to: length) == position)
                    #expect(ByteSearch.firstIndex(of: target, in: base, from: position + 1, to: length)
                            == (position + 3 < length ? position + 3 : length))
                }
            }
        }
    }
}

@Suite struct NeedleSearchTests {
    /// The first index of `needle` in `haystack[from..<to]` by plain comparison: the reference.
    func naiveIndex(of needle: [UInt8], in haystack: [UInt8], from: Int, to end: Int) -> Int {
        guard !needle.isEmpty, end - from >= needle.count else { return end }
        for index in from...(end - needle.count) where Array(haystack[index..<(index + needle.count)]) == needle {
            return index
        }
        return end
    }

    /// Seeded property: over a two-letter alphabet (so partial matches, overlapping matches and
    /// matches across the sixteen-byte steps are common), every range of every haystack gives the
    /// reference's answer.
    @Test func agreesWithPlainComparison() {
        let settings = PropertySettings(defaultSeed: 0x5EED_2EED, defaultCount: 3_000)
        var random = SplitMix64(seed: settings.seed)
        var failures = 0
        for _ in 0..<settings.count {
            let haystack = (0..<Int(random.next() % 70)).map { _ in UInt8(0x61 + random.next() % 2) }
            let needle = (0..<Int(random.next() % 6)).map { _ in UInt8(0x61 + random.next() % 2) }
            let from = haystack.isEmpty ? 0 : Int(random.next() % UInt64(haystack.count))
            let to = from + Int(random.next() % UInt64(haystack.count - from + 1))
            let found = haystack.withUnsafeBufferPointer { buffer -> Int in
                guard let base = buffer.baseAddress else { return to }
                return needle.withUnsafeBufferPointer { ByteSearch.firstIndex(of: $0, in: base, from: from, to: to) }
            }
            let expected = naiveIndex(of: needle, in: haystack, from: from, to: to)
            if found != expected {
                failures += 1
                if failures <= 3 { Issue.record("seed \(settings.seed): \(show(needle)) in \(show(haystack))[\(from)..<\(to)]: \(found) != \(expected)") }
            }
        }
        #expect(failures == 0, "seed \(settings.seed)")
    }
}
