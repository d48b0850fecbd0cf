/// A plain search term of the `todo` name (no regex metacharacters): it must occur in the listing
/// line once both are folded (`TextFolding`: ASCII case, Latin diacritics).
///
/// The search runs on the line's own bytes first, ignoring ASCII case: a match there is a match in
/// the folded line too (ASCII bytes fold one to one and stay together), and for an all-ASCII line,
/// whose fold is its ASCII lower-casing, no match there is the final answer. Only a line with
/// bytes from 0x80 up that did not match is folded (into scratch the caller reuses) and searched
/// again, so the Unicode fold still decides wherever it could change the answer.
struct PlainTerm {
    /// The term folded: what must occur in the folded line.
    let needle: [UInt8]
    let exclude: Bool
    /// No digit and no space in the needle: it cannot overlap the `<padded number> ` a listing line
    /// starts with (those fold to themselves), so it can be searched in the task's text alone.
    let matchesTextOnly: Bool
    /// Every byte of the needle below 0x80. A needle with other bytes cannot occur in the fold of
    /// an all-ASCII line.
    let isASCII: Bool

    init(folded needle: [UInt8], exclude: Bool) {
        self.needle = needle
        self.exclude = exclude
        matchesTextOnly = !needle.contains { $0 == 0x20 || ByteScanning.isDigit($0) }
        isASCII = needle.allSatisfy { $0 < 0x80 }
    }

    /// Whether the needle occurs in the fold of `text`; `scratch` receives the fold when one is needed.
    func occurs(in text: UnsafeBufferPointer<UInt8>, scratch: inout [UInt8]) -> Bool {
        guard let base = text.baseAddress else { return false }
        if isASCII {
            let found = needle.withUnsafeBufferPointer {
                ByteSearch.firstIndex(ofFolded: $0, in: base, from: 0, to: text.count)
            }
            if found != text.count { return true }
        }
        if ByteScanning.isASCII(text) { return false }
        TextFolding.fold(text, into: &scratch)
        return scratch.withUnsafeBufferPointer { folded in
            guard let foldedBase = folded.baseAddress else { return false }
            return needle.withUnsafeBufferPointer {
                ByteSearch.firstIndex(of: $0, in: foldedBase, from: 0, to: folded.count) != folded.count
            }
        }
    }
}

extension ByteSearch {
    /// The index of the first place in `base[from..<end]` whose ASCII lower-casing equals `needle`,
    /// or `end` when there is none (also for an empty needle). `needle` must be ASCII with no
    /// upper-case letter (a folded term); a byte from 0x80 up never matches.
    ///
    /// `firstIndex(of:in:from:to:)` with each compare made case-blind where the needle has a letter:
    /// sixteen positions at a time are tested against the needle's first byte and the bytes
    /// `needle.count - 1` further on against its last, with 0x20 ORed into the line's bytes for a
    /// letter (A–Z and a–z are the only bytes that OR to a–z); candidates are compared in full.
    package static func firstIndex(ofFolded needle: UnsafeBufferPointer<UInt8>, in base: UnsafePointer<UInt8>,
                                   from: Int, to end: Int) -> Int {
        guard let needleBase = needle.baseAddress, needle.count > 0, end - from >= needle.count else { return end }
        let lastOffset = needle.count - 1
        let limit = end - lastOffset
        @inline(__always) func isLower(_ byte: UInt8) -> Bool { byte &- 0x61 < 26 }
        @inline(__always) func matches(at index: Int) -> Bool {
            var offset = 0
            while offset < needle.count {
                let byte = base[index + offset]
                if (byte &- 0x41 < 26 ? byte | 0x20 : byte) != needleBase[offset] { return false }
                offset += 1
            }
            return true
        }
        let firstByte = needleBase[0], lastByte = needleBase[lastOffset]
        let first = SIMD16<UInt8>(repeating: firstByte), last = SIMD16<UInt8>(repeating: lastByte)
        let firstCase = SIMD16<UInt8>(repeating: isLower(firstByte) ? 0x20 : 0)
        let lastCase = SIMD16<UInt8>(repeating: isLower(lastByte) ? 0x20 : 0)
        let raw = UnsafeRawPointer(base)
        @inline(__always) func candidates(_ index: Int) -> SIMDMask<SIMD16<Int8>> {
            let heads = raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self) | firstCase
            let tails = raw.loadUnaligned(fromByteOffset: index + lastOffset, as: SIMD16<UInt8>.self) | lastCase
            return (heads .== first) .& (tails .== last)
        }
        var index = from
        while index + 32 <= limit {
            let low = candidates(index), high = candidates(index + 16)
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
            let both = candidates(index)
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
}
