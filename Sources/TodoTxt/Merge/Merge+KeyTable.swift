/// The merge's key → entry map: open addressing with linear probing over a power-of-two table of
/// entry numbers, the keys themselves kept once, in entry order.
///
/// Why not `Dictionary<MergeKey, Int>`: indexing three inputs of a million lines made its lookups
/// (SipHash of every key, large buckets holding key and value, probing far apart in memory) the
/// largest cost of `todo merge`. Here a bucket is four bytes and a key's hash is a few multiplies
/// over its bytes.
///
/// Equality is `MergeKey`'s own (`==`: String equality for uids, which is canonical equivalence,
/// and byte equality for text keys), so the table finds exactly the keys a Dictionary would. For
/// that, equal keys must hash alike: text keys and ASCII uids hash their bytes; but a uid with a
/// non-ASCII byte can equal another with different bytes (`é` composed or not, or the Kelvin sign
/// and `K`), so as soon as one is seen every uid is hashed with `String.hashValue`, which respects
/// canonical equivalence, and the table is rebuilt once.
struct MergeKeyTable {
    /// Bucket → entry + 1; 0 is an empty bucket.
    private var buckets: [Int32]
    /// Entry → its key.
    private var keys: [MergeKey] = []
    /// Entry → its hash (the rebuild and growth do not hash again).
    private var hashes: [UInt64] = []
    /// Whether uid keys are hashed with `String.hashValue` (see the type's comment).
    private var hashesUIDsAsStrings = false

    /// A table sized for about `expectedKeys` keys (it grows past that).
    init(expectedKeys: Int) {
        var size = 16
        while size < expectedKeys * 2 { size <<= 1 }
        buckets = [Int32](repeating: 0, count: size)
        keys.reserveCapacity(expectedKeys)
        hashes.reserveCapacity(expectedKeys)
    }

    /// The entry of `key`; when absent, `key` is added as entry `fresh`, which must be the number of
    /// keys held so far.
    ///
    /// `hint` is a guess at the entry (the entry after the previous line's: the inputs of a merge
    /// mostly hold the same lines in the same order). When the guessed entry's key is `key`, that is
    /// its entry (each key has one entry), found without hashing or probing.
    mutating func entry(for key: MergeKey, inserting fresh: Int, hint: Int? = nil) -> Int {
        if let hint, hint >= 0, hint < keys.count, keys[hint] == key { return hint }
        var (hashed, isNonASCIIUID) = hashAndCheck(key)
        if isNonASCIIUID && !hashesUIDsAsStrings {
            hashesUIDsAsStrings = true
            hashes = keys.map(hash)
            rebuild(size: buckets.count)
            hashed = hash(key)
        }
        let mask = buckets.count - 1
        var bucket = Int(truncatingIfNeeded: hashed) & mask
        while true {
            let held = Int(buckets[bucket])
            if held == 0 { break }
            if hashes[held - 1] == hashed && keys[held - 1] == key { return held - 1 }
            bucket = (bucket + 1) & mask
        }
        precondition(fresh == keys.count, "a new key's entry is the next number")
        buckets[bucket] = Int32(truncatingIfNeeded: fresh + 1)
        keys.append(key)
        hashes.append(hashed)
        if keys.count * 2 > buckets.count { rebuild(size: buckets.count * 2) }
        return fresh
    }

    /// Puts every key back into `size` buckets.
    private mutating func rebuild(size: Int) {
        buckets = [Int32](repeating: 0, count: size)
        let mask = size - 1
        for (entry, hashed) in hashes.enumerated() {
            var bucket = Int(truncatingIfNeeded: hashed) & mask
            while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
            buckets[bucket] = Int32(truncatingIfNeeded: entry + 1)
        }
    }

    /// The key's hash: of its bytes (and occurrence), or `String.hashValue` for uids once a non-ASCII
    /// uid has been seen.
    private func hash(_ key: MergeKey) -> UInt64 { hashAndCheck(key).hash }

    /// `hash(key)`, and whether the key is a uid with a byte outside ASCII (one pass over its bytes).
    private func hashAndCheck(_ key: MergeKey) -> (hash: UInt64, isNonASCIIUID: Bool) {
        switch key {
        case .uid(let uid):
            var text = uid
            let (bytesHash, isASCII) = text.withUTF8 {
                (MergeKeyTable.hashBytes($0, seed: 0x5555_AAAA_0F0F_F0F0), ByteScanning.isASCII($0))
            }
            if hashesUIDsAsStrings { return (UInt64(bitPattern: Int64(uid.hashValue)), !isASCII) }
            return (bytesHash, !isASCII)
        case .text(let bytes, let occurrence):
            return (bytes.withUnsafeBufferPointer { MergeKeyTable.hashBytes($0, seed: UInt64(truncatingIfNeeded: occurrence)) }, false)
        }
    }

    /// A 64-bit hash of `bytes`, eight at a time (multiply, rotate, and a final avalanche). Not
    /// keyed: collisions cost probing, never a wrong answer (keys are compared).
    static func hashBytes(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64) -> UInt64 {
        var state = seed ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
        guard let base = bytes.baseAddress else { return avalanche(state) }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            state = ((state ^ word) &* 0xBF58_476D_1CE4_E5B9)
            state = (state << 31) | (state >> 33)
            index += 8
        }
        // The last 0–7 bytes in two loads at most (uids are mostly that short): 4 to 7 as two
        // overlapping 4-byte words, 1 to 3 as their first, middle and last byte. With the length
        // already mixed in, either form determines the bytes.
        let remaining = bytes.count - index
        var tail: UInt64 = 0
        if remaining >= 4 {
            let low = raw.loadUnaligned(fromByteOffset: index, as: UInt32.self)
            let high = raw.loadUnaligned(fromByteOffset: index + remaining - 4, as: UInt32.self)
            tail = UInt64(low) | UInt64(high) << 32
        } else if remaining > 0 {
            tail = UInt64(base[index]) | UInt64(base[index + remaining / 2]) << 8 | UInt64(base[index + remaining - 1]) << 16
        }
        state = (state ^ tail) &* 0x94D0_49BB_1331_11EB
        return avalanche(state)
    }

    /// SplitMix64's finaliser: every input bit affects every output bit.
    private static func avalanche(_ value: UInt64) -> UInt64 {
        var mixed = value
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
