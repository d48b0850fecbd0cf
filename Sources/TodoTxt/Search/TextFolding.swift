/// Case- and diacritic-insensitive matching of plain search terms (docs/todo-command.md: `cafe` finds `Café`).
///
/// Folding works on UTF-8 bytes without Foundation: ASCII letters are lower-cased, and the Latin
/// letters with diacritics of Latin-1 Supplement and Latin Extended-A (U+00C0–U+017F, which cover
/// the languages written with them in Western, Central and Northern Europe) map to their base
/// letter (`É` → `e`, `ß` → `ss`, `Ł` → `l`, `Œ` → `oe`). Other characters compare as they are.
package enum TextFolding {
    /// Base letters for U+00C0…U+017F, one entry per code point ("" keeps the character).
    private static let latinBases: [String] = {
        let latin1 = "a a a a a a ae c e e e e i i i i d n o o o o o  o u u u u y th ss a a a a a a ae c e e e e i i i i d n o o o o o  o u u u u y th y"
        let extendedA = "a a a a a a c c c c c c c c d d d d e e e e e e e e e e g g g g g g g g h h h h i i i i i i i i i i ij ij j j k k k l l l l l l l l l l n n n n n n n n n o o o o o o oe oe r r r r r r s s s s s s s s t t t t t t u u u u u u u u u u u u w w y y y z z z z z z s"
        var bases = latin1.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        bases += extendedA.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        return bases
    }()

    /// `latinBases` as bytes, for folding without a String per character.
    private static let latinBaseBytes: [[UInt8]] = latinBases.map { Array($0.utf8) }

    /// `bytes` folded: ASCII lower-cased, Latin diacritics removed.
    package static func folded(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let input = Array(bytes)
        var out: [UInt8] = []
        input.withUnsafeBufferPointer { fold($0, into: &out) }
        return out
    }

    /// Replaces the contents of `out` with `input` folded (as `folded`), reusing its storage: the
    /// form for folding line after line without an allocation per line.
    static func fold(_ input: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte < 0x80 {
                out.append(byte &- 0x41 < 26 ? byte + 0x20 : byte)
                index += 1
                continue
            }
            // Two-byte sequences C3 80 … C5 BF are U+00C0 … U+017F.
            if (0xC3...0xC5).contains(byte), index + 1 < input.count, input[index + 1] & 0xC0 == 0x80 {
                let scalar = (Int(byte & 0x1F) << 6) | Int(input[index + 1] & 0x3F)
                let position = scalar - 0xC0
                if position >= 0, position < latinBaseBytes.count, !latinBaseBytes[position].isEmpty {
                    out += latinBaseBytes[position]
                    index += 2
                    continue
                }
            }
            out.append(byte)
            index += 1
        }
    }

    /// Whether `needle` occurs in `haystack` (both already folded).
    package static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        let first = needle[0]
        for start in 0...(haystack.count - needle.count) where haystack[start] == first {
            var matched = true
            for offset in 1..<needle.count where haystack[start + offset] != needle[offset] {
                matched = false
                break
            }
            if matched { return true }
        }
        return false
    }
}
