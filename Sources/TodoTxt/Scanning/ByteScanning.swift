/// Byte-level helpers shared by the parser: Unicode whitespace on UTF-8 bytes, digit tests.
///
/// The parser works on raw bytes, never on `Character`, so that it is fast and so that invalid UTF-8
/// cannot change where words break. A multi-byte whitespace sequence is only recognised when it is a
/// complete, valid encoding starting at a lead byte; this is exactly what a lossy UTF-8 decoding followed
/// by `Unicode.Scalar.Properties.isWhitespace` would see, because a decoder resynchronises at every lead
/// byte.
enum ByteScanning {
    /// The length of the Unicode whitespace sequence starting at `index`, or 0 if there is none.
    ///
    /// Recognises U+0009–U+000D, U+0020, U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029,
    /// U+202F, U+205F and U+3000: the Unicode `White_Space` property.
    @inline(__always)
    static func whitespaceLength(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let b0 = bytes[index]
        if b0 < 0x80 {
            return (b0 == 0x20 || (b0 >= 0x09 && b0 <= 0x0D)) ? 1 : 0
        }
        let end = bytes.count
        switch b0 {
        case 0xC2:
            guard index + 1 < end else { return 0 }
            let b1 = bytes[index + 1]
            return (b1 == 0x85 || b1 == 0xA0) ? 2 : 0
        case 0xE1:
            guard index + 2 < end else { return 0 }
            return (bytes[index + 1] == 0x9A && bytes[index + 2] == 0x80) ? 3 : 0
        case 0xE2:
            guard index + 2 < end else { return 0 }
            let b1 = bytes[index + 1], b2 = bytes[index + 2]
            if b1 == 0x80 {
                return (b2 >= 0x80 && b2 <= 0x8A) || b2 == 0xA8 || b2 == 0xA9 || b2 == 0xAF ? 3 : 0
            }
            return (b1 == 0x81 && b2 == 0x9F) ? 3 : 0
        case 0xE3:
            guard index + 2 < end else { return 0 }
            return (bytes[index + 1] == 0x80 && bytes[index + 2] == 0x80) ? 3 : 0
        default:
            return 0
        }
    }

    /// Whether a word starts at `index` of `line`, looking backwards: at the end of the line's `lead`
    /// (its leading byte order marks, which `TodoItem.parseHeader` reads past), or right after a
    /// whitespace sequence. This agrees with a forward word split because no whitespace sequence can
    /// start inside another: their later bytes are UTF-8 continuation bytes, which never start one.
    @inline(__always)
    static func startsWord(_ line: UnsafeBufferPointer<UInt8>, at index: Int, lead: Int) -> Bool {
        if index == lead { return true }
        if index == 0 { return false }
        if whitespaceLength(line, at: index - 1) == 1 { return true }
        if index >= 2 && whitespaceLength(line, at: index - 2) == 2 { return true }
        return index >= 3 && whitespaceLength(line, at: index - 3) == 3
    }

    /// Whether every byte of `bytes` is Unicode whitespace (true for an empty buffer).
    static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index < bytes.count {
            let length = whitespaceLength(bytes, at: index)
            if length == 0 { return false }
            index += length
        }
        return true
    }

    /// For eight bytes loaded little-endian: the high bit of each byte lane set where the byte is
    /// outside 0x21...0x7F (below 0x21, or 0x80 and above), exact for the lowest such lane (higher
    /// lanes may hold false positives from a borrow, so use only `trailingZeroBitCount`). Zero when
    /// all eight bytes are printable ASCII or DEL.
    @inline(__always)
    static func bytesOutsidePrintable(_ word: UInt64) -> UInt64 {
        (word | ((word &- 0x2121_2121_2121_2121) & ~word)) & 0x8080_8080_8080_8080
    }

    @inline(__always)
    /// Whether every byte is below 0x80, tested eight bytes at a time.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= bytes.count {
            if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < bytes.count {
            if base[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    @inline(__always)
    static func isUppercaseLetter(_ byte: UInt8) -> Bool { byte &- 0x41 < 26 }
}

extension Array where Element == UInt8 {
    /// The UTF-8 bytes of `string`.
    init(utf8 string: String) { self = Array(string.utf8) }
}

/// Decodes bytes as UTF-8, replacing invalid sequences with U+FFFD (the "lossy decoding" of docs/format.md).

func lossyString<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
    String(decoding: bytes, as: UTF8.self)
}

/// Finding one byte value in a buffer with 16-byte vector compares: the scan behind line splitting
/// in the todo.sh listing, the uid scan of merge, the line ends of `todo sort` and its binary-file
/// check, so that each does not carry its own copy of the trick.
package enum ByteSearch {
    /// The index of the first `byte` in `base[from..<end]`, or `end` when there is none.
    ///
    /// 64 bytes per step (four compares folded into one test) while nothing matches, then 16 at a
    /// time to find the match, then byte by byte for the last few. Complexity: O(n), no allocation;
    /// more than twice the speed of the eight-byte word trick it replaced (docs/notes/speed.md).
    @inline(__always)
    package static func firstIndex(of byte: UInt8, in base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int {
        let raw = UnsafeRawPointer(base)
        let pattern = SIMD16<UInt8>(repeating: byte)
        var index = from
        while index + 64 <= end {
            let a = raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
            let b = raw.loadUnaligned(fromByteOffset: index + 16, as: SIMD16<UInt8>.self)
            let c = raw.loadUnaligned(fromByteOffset: index + 32, as: SIMD16<UInt8>.self)
            let d = raw.loadUnaligned(fromByteOffset: index + 48, as: SIMD16<UInt8>.self)
            if anyLane((a .== pattern) .| (b .== pattern) .| (c .== pattern) .| (d .== pattern)) { break }
            index += 64
        }
        while index + 16 <= end {
            let bits = bitmask(raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self) .== pattern)
            if bits != 0 { return index + bits.trailingZeroBitCount }
            index += 16
        }
        while index < end {
            if base[index] == byte { return index }
            index += 1
        }
        return end
    }

    /// The index of the first occurrence of `needle` in `base[from..<end]`, or `end` when there is
    /// none (also for an empty needle).
    ///
    /// Each step compares sixteen positions at once with the needle's first byte, and the sixteen
    /// bytes `needle.count - 1` further on with its last byte; only a position where both agree is
    /// compared in full. So a needle whose first byte is common (`u` of `uid:`) still costs one
    /// full comparison per real candidate, not per `u`. Complexity: O(n) vector steps, no allocation.
    package static func firstIndex(of needle: UnsafeBufferPointer<UInt8>, in base: UnsafePointer<UInt8>,
                                  from: Int, to end: Int) -> Int {
        guard let needleBase = needle.baseAddress, needle.count > 0, end - from >= needle.count else { return end }
        let lastOffset = needle.count - 1
        // A match must start before `limit`.
        let limit = end - lastOffset
        @inline(__always) func matches(at index: Int) -> Bool {
            var offset = 0
            while offset < needle.count {
                if base[index + offset] != needleBase[offset] { return false }
                offset += 1
            }
            return true
        }
        let raw = UnsafeRawPointer(base)
        let first = SIMD16<UInt8>(repeating: needleBase[0]), last = SIMD16<UInt8>(repeating: needleBase[lastOffset])
        var index = from
        // Thirty-two positions a step, one test for all of them; then sixteen for the rest.
        while index + 32 <= limit {
            let low = (raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self) .== first)
                .& (raw.loadUnaligned(fromByteOffset: index + lastOffset, as: SIMD16<UInt8>.self) .== last)
            let high = (raw.loadUnaligned(fromByteOffset: index + 16, as: SIMD16<UInt8>.self) .== first)
                .& (raw.loadUnaligned(fromByteOffset: index + 16 + lastOffset, as: SIMD16<UInt8>.self) .== last)
            if anyLane(low .| high) {
                var bits = UInt32(bitmask(low)) | UInt32(bitmask(high)) << 16
                while bits != 0 {
                    let candidate = index + bits.trailingZeroBitCount
                    if matches(at: candidate) { return candidate }
                    bits &= bits &- 1
                }
            }
            index += 32
        }
        while index + 16 <= limit {
            let heads = raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self) .== first
            let tails = raw.loadUnaligned(fromByteOffset: index + lastOffset, as: SIMD16<UInt8>.self) .== last
            let both = heads .& tails
            if anyLane(both) {
                var bits = bitmask(both)
                while bits != 0 {
                    let candidate = index + bits.trailingZeroBitCount
                    if matches(at: candidate) { return candidate }
                    bits &= bits &- 1
                }
            }
            index += 16
        }
        while index < limit {
            if matches(at: index) { return index }
            index += 1
        }
        return end
    }

    /// Whether any lane is true. The standard library's `any(_:)` is a generic reduction that the
    /// optimizer left as a call per vector (it showed in a `todo sort` profile); two 64-bit halves ORed
    /// together are one instruction more than the compare.
    @inline(__always)
    static func anyLane(_ mask: SIMDMask<SIMD16<Int8>>) -> Bool {
        let halves = unsafeBitCast(mask, to: SIMD2<UInt64>.self)
        return halves[0] | halves[1] != 0
    }

    /// One bit per lane, lane 0 in the lowest bit (the `pmovmskb` of SSE2, spelled portably): each
    /// true lane is reduced to its own bit value, and a multiplication adds the eight lanes of each
    /// half into its top byte (distinct bits never carry).
    @inline(__always)
    static func bitmask(_ mask: SIMDMask<SIMD16<Int8>>) -> UInt16 {
        let weights = SIMD16<UInt8>(1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128)
        let lanes = unsafeBitCast(mask, to: SIMD16<UInt8>.self) & weights
        let low = UInt64(littleEndian: unsafeBitCast(lanes.lowHalf, to: UInt64.self)) &* 0x0101_0101_0101_0101
        let high = UInt64(littleEndian: unsafeBitCast(lanes.highHalf, to: UInt64.self)) &* 0x0101_0101_0101_0101
        return UInt16(truncatingIfNeeded: low >> 56) | UInt16(truncatingIfNeeded: high >> 56) << 8
    }
}
