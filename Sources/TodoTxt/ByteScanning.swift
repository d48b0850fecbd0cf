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
    static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

    @inline(__always)
    static func isUppercaseLetter(_ byte: UInt8) -> Bool { byte &- 0x41 < 26 }
}

extension Array where Element == UInt8 {
    /// The UTF-8 bytes of `string`.
    init(utf8 string: String) { self = Array(string.utf8) }
}

/// Decodes bytes as UTF-8, replacing invalid sequences with U+FFFD (the "lossy decoding" of format.md).

func lossyString<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
    String(decoding: bytes, as: UTF8.self)
}

/// Finding one byte value in a buffer, eight bytes at a time: the scan behind line splitting in the
/// todo.sh listing, the uid scan of merge and the binary-file check of `todo sort`, so that each does
/// not carry its own copy of the word trick.
public enum ByteSearch {
    /// The index of the first `byte` in `base[from..<end]`, or `end` when there is none.
    ///
    /// Each word is XORed with the byte repeated, so matches become zero bytes; the classic
    /// "has a zero byte" test flags them, and its lowest flagged byte is always a real match (borrows
    /// only run upwards). Complexity: O(n), no allocation.
    @inline(__always)
    public static func firstIndex(of byte: UInt8, in base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int {
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let pattern = ones &* UInt64(byte)
        var index = from
        while index + 8 <= end {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) ^ pattern
            let found = (word &- ones) & ~word & highs
            if found != 0 { return index + found.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < end {
            if base[index] == byte { return index }
            index += 1
        }
        return end
    }
}
