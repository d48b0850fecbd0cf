import TodoFileSystem
// todo.sh's default `sort -f -k2` of a listing, in process.
extension TodoShListing {
    /// `env LC_COLLATE=C sort -f -k2` on the numbered lines: the text folded to upper case and compared
    /// bytewise; ties by the whole line (number, then raw text). Returns entry indices in order.
    ///
    /// A most-significant-first radix sort on 8-byte folded chunks: the entries are ordered by their
    /// first chunk (an 11-bit LSD radix sort of (chunk, index) keys, with scratch for half of them),
    /// then every run of equal chunks by the next chunk, and so on; small runs, and runs whose lines
    /// are all used up, are finished by the exact comparison. Complexity: O(n · k) for keys that
    /// differ within k chunks; memory 16 bytes a key, 8 for its scratch, 8 for its second chunk.
    static func sortedDefault(_ entries: [Entry], _ bytes: [UInt8]) -> [Int] {
        let count = entries.count
        guard count > 1 else { return Array(0..<count) }
        return bytes.withUnsafeBufferPointer { buffer -> [Int] in
            entries.withUnsafeBufferPointer { entryBuffer -> [Int] in
                // An empty byte buffer means every entry is empty: a 1-byte stand-in keeps pointers valid.
                let fallback: [UInt8] = [0]
                return fallback.withUnsafeBufferPointer { fallbackBuffer -> [Int] in
                    let source = buffer.baseAddress == nil ? fallbackBuffer : buffer
                    var sorter = ChunkSorter(bytes: source, entries: entryBuffer)
                    return sorter.sort()
                }
            }
        }
    }

    /// The machinery of `sortedDefault`.
    struct ChunkSorter {
        /// Sixteen bytes: the sort holds two arrays of them, at the memory peak of `ls`.
        struct Key {
            var chunk: UInt64
            /// The entry index (low 40 bits) and its length capped at 2^24 − 1 (high 24 bits). A
            /// capped length can only make a run look used up early, which sends it to the exact sort.
            var packed: UInt64

            init(chunk: UInt64, index: Int, length: Int) {
                self.chunk = chunk
                packed = UInt64(index) | UInt64(min(length, 0xFF_FFFF)) << 40
            }

            var index: Int { Int(truncatingIfNeeded: packed & 0xFF_FFFF_FFFF) }
            var cappedLength: Int { Int(truncatingIfNeeded: packed >> 40) }
        }

        let bytes: UnsafeBufferPointer<UInt8>
        let entries: UnsafeBufferPointer<Entry>
        private var counts: [Int] = []

        init(bytes: UnsafeBufferPointer<UInt8>, entries: UnsafeBufferPointer<Entry>) {
            self.bytes = bytes
            self.entries = entries
        }

        /// ASCII a–z to A–Z in each byte of `word`, branch-free.
        @inline(__always)
        static func fold(_ word: UInt64) -> UInt64 {
            let low = word & 0x7F7F_7F7F_7F7F_7F7F
            let atLeastA = low &+ 0x1F1F_1F1F_1F1F_1F1F   // high bit set where the byte is ≥ 0x61
            let pastZ = low &+ 0x0505_0505_0505_0505      // high bit set where the byte is ≥ 0x7B
            let lower = atLeastA & ~pastZ & ~word & 0x8080_8080_8080_8080
            return word &- (lower >> 2)
        }

        /// Folded bytes `8·depth ..< 8·depth+8` of an entry's text, first byte most significant, zeros
        /// past the end of the text.
        @inline(__always)
        func chunk(_ entry: Entry, depth: Int) -> UInt64 {
            let offset = depth &* 8
            let remaining = entry.length &- offset
            if remaining <= 0 { return 0 }
            let position = entry.start &+ offset
            var word: UInt64
            if position &+ 8 <= bytes.count, let base = bytes.baseAddress {
                word = UInt64(bigEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
            } else {
                word = 0
                for index in 0..<min(8, bytes.count &- position) {
                    word |= UInt64(bytes[position &+ index]) << UInt64(56 &- 8 &* index)
                }
            }
            if remaining < 8 { word &= ~(UInt64.max >> UInt64(8 &* remaining)) }
            return ChunkSorter.fold(word)
        }

        /// The exact order: folded text (shorter first when one is a prefix), number, raw text, index.
        /// `from`: the chunks before it are known to be equal.
        func precedes(_ left: Int, _ right: Int, from: Int = 0) -> Bool {
            let a = entries[left], b = entries[right]
            let longest = max(a.length, b.length)
            var depth = from
            while depth &* 8 < longest {
                let x = chunk(a, depth: depth), y = chunk(b, depth: depth)
                if x != y { return x < y }
                depth += 1
            }
            if a.length != b.length { return a.length < b.length }
            if a.number != b.number { return a.number < b.number }
            if a.length > 0, let base = bytes.baseAddress {
                let raw = ProcessSpawning.compareBytes(base + a.start, base + b.start, a.length)
                if raw != 0 { return raw < 0 }
            }
            return left < right
        }

        mutating func sort() -> [Int] {
            let count = entries.count
            let keys = UnsafeMutablePointer<Key>.allocate(capacity: count)
            // Scratch for half the keys: a larger run is sorted as two halves, then merged.
            let spareCapacity = (count + 1) / 2
            let spare = UnsafeMutablePointer<Key>.allocate(capacity: spareCapacity)
            // Each entry's second chunk, by entry index: the first ties need it, and reading it
            // here, with the first, keeps the reads of the text in file order.
            let secondChunks = UnsafeMutablePointer<UInt64>.allocate(capacity: count)
            // The first two chunks in file order (sequential reads); deeper ones only for ties.
            for index in 0..<count {
                let entry = entries[index]
                (keys + index).initialize(to: Key(chunk: chunk(entry, depth: 0), index: index, length: entry.length))
                (secondChunks + index).initialize(to: chunk(entry, depth: 1))
            }
            counts = [Int](repeating: 0, count: 6 << 11)
            // Runs still to order: keys[low..<high] share their first `depth` chunks.
            var work: [(low: Int, high: Int, depth: Int)] = [(0, count, 0)]
            while let (low, high, depth) = work.popLast() {
                let size = high - low
                var exhausted = true
                let used = (depth + 1) * 8
                for position in low..<high {
                    if depth == 1 {
                        keys[position].chunk = secondChunks[keys[position].index]
                    } else if depth > 1 {
                        keys[position].chunk = chunk(entries[keys[position].index], depth: depth)
                    }
                    if keys[position].cappedLength > used { exhausted = false }
                }
                if size <= 24 {
                    insertionSort(keys + low, size, depth: depth)
                    continue
                }
                if size < 512 {
                    var run = UnsafeMutableBufferPointer(start: keys + low, count: size)
                    run.sort {
                        $0.chunk != $1.chunk ? $0.chunk < $1.chunk : $0.index < $1.index
                    }
                } else {
                    sortByChunk(keys + low, size, spare: spare, spareCapacity: spareCapacity)
                }
                var start = low
                while start < high {
                    var end = start + 1
                    let value = keys[start].chunk
                    while end < high && keys[end].chunk == value { end += 1 }
                    if end - start > 1 {
                        if exhausted {
                            var run = UnsafeMutableBufferPointer(start: keys + start, count: end - start)
                            run.sort {
                                precedes($0.index, $1.index, from: depth + 1)
                            }
                        } else {
                            work.append((start, end, depth + 1))
                        }
                    }
                    start = end
                }
            }
            // The scratch goes before the order is made: the order and the keys are the peak.
            spare.deallocate()
            secondChunks.deallocate()
            defer { keys.deallocate() }
            return (0..<count).map { keys[$0].index }
        }

        /// Keys sharing their first `depth` chunks, with chunk `depth` filled in: by that chunk, then exactly.
        func insertionSort(_ keys: UnsafeMutablePointer<Key>, _ count: Int, depth: Int) {
            guard count > 1 else { return }
            for position in 1..<count {
                let key = keys[position]
                var hole = position
                while hole > 0 {
                    let other = keys[hole - 1]
                    let before = key.chunk != other.chunk
                        ? key.chunk < other.chunk : precedes(key.index, other.index, from: depth + 1)
                    if !before { break }
                    keys[hole] = other
                    hole -= 1
                }
                keys[hole] = key
            }
        }

        /// Orders `keys[0..<count]` by chunk with scratch for only `spareCapacity` keys (at least
        /// half of `count`): a run that does not fit is radix-sorted as two halves, then merged
        /// with the left half moved into the scratch. Keys with equal chunks may end in any order:
        /// every run of them is ordered again, by the next chunk or exactly.
        mutating func sortByChunk(_ keys: UnsafeMutablePointer<Key>, _ count: Int, spare: UnsafeMutablePointer<Key>,
                                  spareCapacity: Int) {
            if count <= spareCapacity {
                radixSort(keys, spare, count)
                return
            }
            let half = count / 2
            radixSort(keys, spare, half)
            radixSort(keys + half, spare, count - half)
            spare.update(from: keys, count: half)
            // Writes never overtake the right half's next read: `out` = `left` + `right` - `half`.
            var left = 0, right = half, out = 0
            while left < half && right < count {
                if keys[right].chunk < spare[left].chunk {
                    keys[out] = keys[right]
                    right += 1
                } else {
                    keys[out] = spare[left]
                    left += 1
                }
                out += 1
            }
            while left < half {
                keys[out] = spare[left]
                left += 1
                out += 1
            }
        }

        /// Stable LSD radix sort of `keys[0..<count]` by chunk, 11 bits a pass; passes in which every
        /// key has the same digit are skipped. `spare` is scratch of the same size.
        mutating func radixSort(_ keys: UnsafeMutablePointer<Key>, _ spare: UnsafeMutablePointer<Key>, _ count: Int) {
            counts.withUnsafeMutableBufferPointer { counts in
                counts.update(repeating: 0)
                for position in 0..<count {
                    let chunk = keys[position].chunk
                    for pass in 0..<6 {
                        counts[pass << 11 | Int(truncatingIfNeeded: (chunk >> UInt64(pass * 11)) & 0x7FF)] += 1
                    }
                }
                var from = keys, to = spare
                for pass in 0..<6 {
                    let shift = UInt64(pass * 11)
                    let first = Int(truncatingIfNeeded: (from[0].chunk >> shift) & 0x7FF)
                    if counts[pass << 11 | first] == count { continue }
                    var sum = 0
                    for digit in 0..<2048 {
                        let here = counts[pass << 11 | digit]
                        counts[pass << 11 | digit] = sum
                        sum += here
                    }
                    for position in 0..<count {
                        let key = from[position]
                        let slot = pass << 11 | Int(truncatingIfNeeded: (key.chunk >> shift) & 0x7FF)
                        to[counts[slot]] = key
                        counts[slot] += 1
                    }
                    swap(&from, &to)
                }
                if from != keys { keys.update(from: from, count: count) }
            }
        }
    }
}
