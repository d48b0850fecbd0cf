/// The compact merge's inputs and index: lines referred to by their byte offsets in the inputs'
/// own buffers, keys never copied out of them (docs/notes/speed-commands.md).
///
/// The general merge (`MergeSide`, `MergeIndex`) keeps per line a key (a uid String or a copy of
/// the line's bytes), an entry, line records and the result's units: several times the file. Here
/// a line costs a 4-byte entry number on OURS and THEIRS, and an entry 4 bytes per input plus a
/// 4-byte hash; keys are compared in place, in the input buffers.
///
/// It covers the inputs the merge sees nearly always: each under 4 GiB, every uid ASCII, and no uid
/// held by two lines of one input. Anything else (where the general merge's owner rules,
/// pairing with BASE's copies, or canonical equivalence of non-ASCII uids apply) makes `build`
/// return nil, and the caller runs the general merge, which gives the same results for these inputs
/// too (MergeCompactPropertyTests compares the two).

/// One input, scanned: its bytes and the facts about its lines the result's layout needs.
struct CompactInput {
    let bytes: [UInt8]
    /// Where the first line starts: after the byte order mark, if any.
    let begin: Int
    var hasByteOrderMark: Bool { begin == 3 }
    var lineCount = 0
    /// `TodoDocument.dominantTerminator`.
    var dominantTerminator: LineTerminator = .lf
    /// `TodoDocument.endsWithTerminator`.
    var endsWithTerminator = false
    /// `MergeSide.isPartitioned`: no open line after a completed task.
    var isPartitioned = true
    /// `MergeSide.hasCompletedTask`.
    var hasCompletedTask = false
    /// Where every `checkpointStride`-th line starts (lines 0, stride, 2 × stride …), when a walk
    /// over the lines noted it (`CompactAlignment`); else empty. Lets the work be cut in two at a
    /// known line without counting the line feeds before the cut.
    var checkpoints: [Int] = []
    static let checkpointStride = 1 << 14

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        begin = TodoDocument.startsWithByteOrderMark(bytes) ? 3 : 0
    }

    /// The line starting at `start` (a line start, before the end): where its content ends and where
    /// the next line starts (after its terminator: LF, CR LF, or none at the end of the file),
    /// exactly as `TodoDocument` splits lines.
    @inline(__always)
    static func line(_ base: UnsafePointer<UInt8>, at start: Int, count: Int) -> (contentEnd: Int, next: Int) {
        let feed = ByteSearch.firstIndex(of: 0x0A, in: base, from: start, to: count)
        if feed == count { return (count, count) }
        if feed > start && base[feed - 1] == 0x0D { return (feed - 1, feed + 1) }
        return (feed, feed + 1)
    }

    /// A line start near `offset` of a buffer of `count` bytes, and its line number: the nearest
    /// checkpoint after line 0, or the first line start at or after `offset` with its line feeds
    /// counted. `count` when no line starts there.
    static func split(_ base: UnsafePointer<UInt8>, near offset: Int, from begin: Int, count: Int,
                      checkpoints: [Int]) -> (start: Int, line: Int) {
        var best: (start: Int, line: Int)?
        for (number, start) in checkpoints.enumerated() where number > 0 && start < count {
            if best.map({ abs($0.start - offset) > abs(start - offset) }) ?? true { best = (start, number * checkpointStride) }
        }
        if let best { return best }
        let start = lineStart(base, near: offset, count: count)
        return (start, start < count ? lineFeeds(base, from: begin, to: start) : 0)
    }

    /// The start of the first line that starts at or after `offset` (`count` when none does).
    static func lineStart(_ base: UnsafePointer<UInt8>, near offset: Int, count: Int) -> Int {
        guard offset > 0 else { return 0 }
        let feed = ByteSearch.firstIndex(of: 0x0A, in: base, from: offset - 1, to: count)
        return feed == count ? count : feed + 1
    }

    /// The number of line feeds in `start..<end`, sixteen bytes a step (the feeds counted as the
    /// bits of a mask): from a line start to a line start, the number of lines between.
    static func lineFeeds(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        var feeds = 0, index = start
        let raw = UnsafeRawPointer(base)
        let lineFeed = SIMD16<UInt8>(repeating: 0x0A)
        while index + 16 <= end {
            feeds += ByteSearch.bitmask(raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self) .== lineFeed).nonzeroBitCount
            index += 16
        }
        while index < end {
            if base[index] == 0x0A { feeds += 1 }
            index += 1
        }
        return feeds
    }

    /// Where the line after the one at `offset` starts, when that line's content is exactly `line`
    /// (then its terminator, LF or CR LF, or the end follows); nil otherwise.
    @inline(__always)
    static func nextLine(_ base: UnsafePointer<UInt8>, count: Int, at offset: Int, ifHolding line: UnsafeBufferPointer<UInt8>) -> Int? {
        let end = offset + line.count
        guard end <= count else { return nil }
        let next: Int
        if end == count {
            next = count
        } else if base[end] == 0x0A {
            // A CR before the LF belongs to the terminator, not to the content.
            if line.last == 0x0D { return nil }
            next = end + 1
        } else if base[end] == 0x0D && end + 1 < count && base[end + 1] == 0x0A {
            next = end + 2
        } else {
            return nil
        }
        return CompactScanner.equalBytes(UnsafeBufferPointer(start: base + offset, count: line.count), line) ? next : nil
    }

    /// The terminator between a line's content end and the next line's start.
    @inline(__always)
    static func terminator(contentEnd: Int, next: Int) -> LineTerminator {
        switch next - contentEnd {
        case 0: .none
        case 1: .lf
        default: .crlf
        }
    }
}

/// The inputs' bytes, valid together for the whole merge (`CompactBuffers.with`).
struct CompactBuffers {
    let all: [UnsafeBufferPointer<UInt8>]

    @inline(__always)
    subscript(side: Int) -> UnsafeBufferPointer<UInt8> { all[side] }

    /// Calls `body` with the buffers of `inputs`, all valid at once.
    static func with<R>(_ inputs: [[UInt8]], _ body: (CompactBuffers) -> R) -> R {
        func nest(_ rest: ArraySlice<[UInt8]>, _ views: [UnsafeBufferPointer<UInt8>]) -> R {
            guard let first = rest.first else { return body(CompactBuffers(all: views)) }
            return first.withUnsafeBufferPointer { nest(rest.dropFirst(), views + [$0]) }
        }
        return nest(inputs[...], [])
    }

    /// Whether the line at `offset` of input `side` has exactly the content `line`: its bytes, then
    /// its terminator or the end of the input (without looking for its end first).
    @inline(__always)
    func holds(_ side: Int, at offset: Int, _ line: UnsafeBufferPointer<UInt8>) -> Bool {
        let buffer = all[side]
        guard let base = buffer.baseAddress else { return false }
        return CompactInput.nextLine(base, count: buffer.count, at: offset, ifHolding: line) != nil
    }

    /// Whether the line at `offset` of input `side` has the uid `value` of `line`: it holds exactly
    /// `line`, or its uid has the same bytes (both ASCII: byte equality is String equality).
    @inline(__always)
    func holdsUID(_ side: Int, at offset: Int, _ value: UnsafeBufferPointer<UInt8>, of line: UnsafeBufferPointer<UInt8>) -> Bool {
        if holds(side, at: offset, line) { return true }
        let held = content(side, at: offset)
        guard let range = MergeSide.uidRange(of: held) else { return false }
        return CompactScanner.equalBytes(UnsafeBufferPointer(rebasing: held[range]), value)
    }

    /// The content of the line at `offset` of input `side`.
    @inline(__always)
    func content(_ side: Int, at offset: Int) -> UnsafeBufferPointer<UInt8> {
        let buffer = all[side]
        guard let base = buffer.baseAddress else { return buffer }
        let end = CompactInput.line(base, at: offset, count: buffer.count).contentEnd
        return UnsafeBufferPointer(rebasing: buffer[offset..<end])
    }
}

/// Key → entry, and entry → the line (its offset) of each input holding that key.
///
/// Keys are a uid (its bytes) or, for a line without one, the line's bytes; the k-th line with some
/// bytes in an input matches the k-th in another (`MergeKey.text`'s occurrence). Only first
/// occurrences are in the hash table; the later ones form a chain from there (`nextOccurrence`),
/// which each input walks in file order, so no occurrence number is stored or hashed.
struct CompactIndex {
    let sideCount: Int
    /// `entry * sideCount + side` → offset of the line of `side` holding the entry's key, or `absent`.
    private(set) var slots: [UInt32] = []
    /// Entry → its key's hash, with the key's kind in the two low bits (`Kind`).
    private var tags: [UInt32] = []
    /// Bucket → entry + 1 in the bits below `fragmentMask`, and the top bits of the entry's tag in
    /// those of `fragmentMask`; 0 is empty. Linear probing; the bucket of a key is `tag >> 2` masked.
    /// The fragment lets a probe pass most buckets holding other keys without reading their tags,
    /// each a cache miss in a table larger than the cache (docs/notes/speed-commands.md).
    private var buckets: [UInt32]
    /// The bits of a bucket that hold its entry's tag's top bits (the top byte, `widestFragmentMask`)
    /// while every entry + 1 fits in the others; none after (`insert` then rebuilds the buckets).
    private var fragmentMask: UInt32
    /// Entries in `buckets`.
    private var tableCount = 0
    /// Entry of an occurrence → entry of the next occurrence of the same bytes (any input's).
    private var nextOccurrence: [UInt32: UInt32] = [:]

    static let absent = UInt32.max

    enum Kind: UInt32 {
        case text = 0
        case uid = 1
        /// A later occurrence of a line's bytes: reached through the chain only, never equal to a
        /// key looked up.
        case chained = 2
    }

    /// The top byte: every entry + 1 below 2^24 fits under it.
    static let widestFragmentMask: UInt32 = 0xFF00_0000

    init(sideCount: Int, expectedKeys: Int, entryCapacity: Int, fragmentMask: UInt32 = widestFragmentMask) {
        self.sideCount = sideCount
        self.fragmentMask = fragmentMask
        var size = 16
        while size < expectedKeys + expectedKeys / 2 { size <<= 1 }
        buckets = [UInt32](repeating: 0, count: size)
        slots.reserveCapacity(entryCapacity * sideCount)
        tags.reserveCapacity(entryCapacity)
    }

    var entryCount: Int { tags.count }

    @inline(__always)
    func slot(_ entry: Int, _ side: Int) -> UInt32 { slots[entry &* sideCount &+ side] }

    @inline(__always)
    mutating func setSlot(_ entry: Int, _ side: Int, _ offset: Int) {
        slots[entry &* sideCount &+ side] = UInt32(truncatingIfNeeded: offset)
    }

    /// The table for `CompactAlignedPass.passOne`, which may run on two threads at once: each writes
    /// only the slots of its own lines, reads only the first input's, and adds no entry, so no
    /// array changes size or is read where another thread writes while they run.
    mutating func withReader<R>(firstSide: Int, _ body: (CompactTableReader) -> R) -> R {
        let (tags, buckets, fragmentMask, sideCount) = (self.tags, self.buckets, self.fragmentMask, self.sideCount)
        return tags.withUnsafeBufferPointer { tags in
            buckets.withUnsafeBufferPointer { buckets in
                slots.withUnsafeMutableBufferPointer { slots in
                    body(CompactTableReader(tags: tags, buckets: buckets, fragmentMask: fragmentMask, slots: slots,
                                            sideCount: sideCount, firstSide: firstSide))
                }
            }
        }
    }

    /// Drops the buckets once every input is scanned: `slot`, `isUIDEntry` and `holder` still work,
    /// `find` and `insert` may not be called again.
    mutating func releaseBuckets() {
        buckets = []
    }

    /// Whether `entry` is one of the table's (a key's own entry, not a later occurrence's).
    @inline(__always)
    func isTableEntry(_ entry: Int) -> Bool {
        entry >= 0 && entry < tags.count && tags[entry] & 3 != Kind.chained.rawValue
    }

    /// Whether the entry's key is a uid (not a line's bytes).
    @inline(__always)
    func isUIDEntry(_ entry: Int) -> Bool { tags[entry] & 3 == Kind.uid.rawValue }

    /// The tag of a key of `kind` with this hash.
    @inline(__always)
    static func tag(_ hash: UInt64, _ kind: Kind) -> UInt32 {
        (UInt32(truncatingIfNeeded: hash >> 32) & ~3) | kind.rawValue
    }

    private mutating func newEntry(tag: UInt32) -> Int {
        let entry = tags.count
        tags.append(tag)
        // One append per side: `append(contentsOf: repeatElement(…))` goes through a generic
        // sequence copy, costly on a path taken once per line of the first input.
        for _ in 0..<sideCount { slots.append(Self.absent) }
        return entry
    }

    /// The entry of the key with `tag` for which `isKey(entry)` holds, or the bucket where it goes
    /// (`insert`). `hint` is tried first (the entry after the previous line's: inputs hold mostly
    /// the same lines in the same order); it is safe whatever it is, since each key has one entry in
    /// the table.
    @inline(__always)
    func find(tag: UInt32, hint: Int, isKey: (Int) -> Bool) -> (entry: Int?, bucket: Int) {
        if hint < tags.count && tags[hint] == tag && isKey(hint) { return (hint, -1) }
        return buckets.withUnsafeBufferPointer { buckets in
            tags.withUnsafeBufferPointer { tags in
                Self.probe(tag: tag, buckets: buckets, tags: tags, fragmentMask: fragmentMask, isKey: isKey)
            }
        }
    }

    /// `find`'s walk over the buckets, on the table's arrays as given (`CompactTableReader` reads
    /// them from two threads at once).
    @inline(__always)
    static func probe(tag: UInt32, buckets: UnsafeBufferPointer<UInt32>, tags: UnsafeBufferPointer<UInt32>,
                      fragmentMask: UInt32, isKey: (Int) -> Bool) -> (entry: Int?, bucket: Int) {
        let mask = buckets.count - 1
        let fragment = tag & fragmentMask
        var bucket = Int(tag >> 2) & mask
        while true {
            let value = buckets[bucket]
            if value == 0 { return (nil, bucket) }
            if value & fragmentMask == fragment {
                let held = Int(value & ~fragmentMask) - 1
                if tags[held] == tag && isKey(held) { return (held, bucket) }
            }
            bucket = (bucket + 1) & mask
        }
    }

    /// The bucket a key with `tag` is looked for first, read ahead of the lookup: a key going into a
    /// fresh table is a cache miss on that bucket, and reading the buckets of several lines in a row
    /// lets their misses overlap (docs/notes/speed-commands.md, "Round three").
    @inline(__always)
    func readAhead(_ tag: UInt32) -> UInt32 {
        buckets[Int(tag >> 2) & (buckets.count - 1)]
    }

    /// Adds a key with `tag` at the empty `bucket` `find` gave; returns its entry.
    mutating func insert(tag: UInt32, bucket: Int) -> Int {
        let entry = newEntry(tag: tag)
        tableCount += 1
        if UInt32(truncatingIfNeeded: tags.count) & fragmentMask != 0 {
            // Entry numbers no longer fit below the fragment: buckets without fragments from now on.
            fragmentMask = 0
            rebuildBuckets(count: buckets.count)
        } else if tableCount * 5 > buckets.count * 3 {
            rebuildBuckets(count: buckets.count * 2)
        } else {
            buckets[bucket] = (tag & fragmentMask) | UInt32(truncatingIfNeeded: entry + 1)
        }
        return entry
    }

    /// Fresh buckets, `count` of them, holding every entry that is in the table (chained ones never
    /// are), `entry`'s included.
    private mutating func rebuildBuckets(count: Int) {
        buckets = [UInt32](repeating: 0, count: count)
        let mask = count - 1
        for (held, heldTag) in tags.enumerated() where heldTag & 3 != Kind.chained.rawValue {
            var slot = Int(heldTag >> 2) & mask
            while buckets[slot] != 0 { slot = (slot + 1) & mask }
            buckets[slot] = (heldTag & fragmentMask) | UInt32(truncatingIfNeeded: held + 1)
        }
    }

    /// The entry for `side`'s next occurrence of the bytes whose first occurrence is `first`, after
    /// `previous` (the entry of `side`'s last one); a new entry at the chain's end when no other
    /// input has that many.
    mutating func nextOccurrence(after previous: Int) -> Int {
        if let next = nextOccurrence[UInt32(truncatingIfNeeded: previous)] { return Int(next) }
        let entry = newEntry(tag: Kind.chained.rawValue)
        nextOccurrence[UInt32(truncatingIfNeeded: previous)] = UInt32(truncatingIfNeeded: entry)
        return entry
    }

    /// Whether the entry's key is the text key of `line`'s bytes.
    @inline(__always)
    func holdsBytes(_ line: UnsafeBufferPointer<UInt8>, entry: Int, _ buffers: CompactBuffers) -> Bool {
        let (side, offset) = holder(entry)
        return buffers.holds(side, at: offset, line)
    }

    /// Whether the entry's key is the uid `value` (of `line`): the holder's line is the same line,
    /// or its uid has the same bytes (both ASCII: byte equality is String equality).
    @inline(__always)
    func holdsUID(_ value: UnsafeBufferPointer<UInt8>, line: UnsafeBufferPointer<UInt8>, entry: Int,
                  _ buffers: CompactBuffers) -> Bool {
        let (side, offset) = holder(entry)
        return buffers.holdsUID(side, at: offset, value, of: line)
    }

    /// `hint`, when it is an entry in the table whose line holds exactly the bytes of `line`.
    @inline(__always)
    func entry(holding line: UnsafeBufferPointer<UInt8>, hint: Int, _ buffers: CompactBuffers) -> Int? {
        guard hint < tags.count, tags[hint] & 3 != Kind.chained.rawValue else { return nil }
        let (side, offset) = holder(hint)
        return buffers.holds(side, at: offset, line) ? hint : nil
    }

    /// Any input's line holding the entry's key (the input that created the entry always does).
    @inline(__always)
    func holder(_ entry: Int) -> (side: Int, offset: Int) {
        for side in 0..<sideCount {
            let offset = slot(entry, side)
            if offset != Self.absent { return (side, Int(offset)) }
        }
        preconditionFailure("CompactIndex: an entry without a holder")
    }
}

/// Scanning the inputs into a `CompactIndex`.
struct CompactScanner {
    var index: CompactIndex
    /// Per input: the first occurrence's entry → this input's last occurrence's entry, for the
    /// bytes it holds on several lines.
    var lastOccurrence: [[UInt32: UInt32]]
    /// The buckets read ahead (`CompactIndex.readAhead`), summed: kept so that the reads are not
    /// optimised away; nothing reads it.
    private var readAheadSum: UInt32 = 0

    /// The index, moved out: the scanner keeps an empty one, so that the caller's copy is the only
    /// reference and goes away with it.
    mutating func takeIndex() -> CompactIndex {
        let taken = index
        index = CompactIndex(sideCount: index.sideCount, expectedKeys: 0, entryCapacity: 0)
        return taken
    }

    /// Sized for inputs of `lineCounts` lines. `fragmentMask` is `CompactIndex`'s (a narrower one
    /// lets tests reach the change to buckets without fragments on small inputs).
    init(lineCounts: [Int], fragmentMask: UInt32 = CompactIndex.widestFragmentMask) {
        let largest = lineCounts.max() ?? 0
        let others = lineCounts.reduce(0, +) - largest
        index = CompactIndex(sideCount: lineCounts.count, expectedKeys: largest + largest / 16,
                             entryCapacity: largest + min(others, largest / 8), fragmentMask: fragmentMask)
        lastOccurrence = Array(repeating: [:], count: lineCounts.count)
    }

    /// The number of lines of `bytes` (from `begin`), as `TodoDocument` counts them.
    static func lineCount(_ bytes: [UInt8], begin: Int) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, begin < buffer.count else { return 0 }
            return CompactInput.lineFeeds(base, from: begin, to: buffer.count) + (base[buffer.count - 1] == 0x0A ? 0 : 1)
        }
    }

    /// Indexes `input` (whose `lineCount` is set, `lineCount(_:begin:)`) as input `side`: every line's key into the table, the layout facts into
    /// `input`. Returns each line's entry (when `keepEntries`), or nil when the input is outside the
    /// compact merge's reach (see the file's comment).
    ///
    /// `aligned`, when given, is `CompactAlignment.lines` of this input against the first one
    /// (whose line k is entry k): a line aligned to a table entry takes it without its bytes being
    /// compared again, and the array is reused for the entries returned.
    mutating func scan(_ input: inout CompactInput, side: Int, _ buffers: CompactBuffers, keepEntries: Bool,
                       aligned: consuming [UInt32] = []) -> [UInt32]? {
        guard input.bytes.count < Int(UInt32.max) else { return nil }
        let prealigned = keepEntries && !aligned.isEmpty && aligned.count == input.lineCount
        var entries: [UInt32] = prealigned ? aligned : []
        if keepEntries && !prealigned { entries.reserveCapacity(input.lineCount) }
        var lineCount = 0
        var sawLF = false, sawCRLF = false, seenCompleted = false
        var lastTerminator = LineTerminator.none
        var hint = 0
        var within = true
        var occurrences = lastOccurrence[side]
        // While lines miss their hints one after the other (all of the first input's do: its keys go
        // into a fresh table), the next lines are split and keyed a window at a time and their buckets
        // read in one tight loop, so that the cache misses overlap instead of coming one per line.
        var window: [(start: Int, contentEnd: Int, next: Int, key: (tag: UInt32, uid: Range<Int>?)?)] = []
        window.reserveCapacity(Self.windowSize)
        var windowPosition = 0
        var previousMissed = false
        var readAheadSum = self.readAheadSum
        let buffer = buffers[side]
        if let base = buffer.baseAddress {
            let count = buffer.count
            var start = input.begin
            while start < count {
                let inWindow = windowPosition < window.count && window[windowPosition].start == start
                let (contentEnd, next) = inWindow ? (window[windowPosition].contentEnd, window[windowPosition].next)
                    : CompactInput.line(base, at: start, count: count)
                let lineIndex = lineCount
                lineCount += 1
                let terminator = CompactInput.terminator(contentEnd: contentEnd, next: next)
                if terminator == .lf { sawLF = true } else if terminator == .crlf { sawCRLF = true }
                lastTerminator = terminator
                if CompletedLine.isCompleted(base, lineStart: start, end: contentEnd) {
                    seenCompleted = true
                    input.hasCompletedTask = true
                } else if seenCompleted {
                    input.isPartitioned = false
                }
                let line = UnsafeBufferPointer(start: base + start, count: contentEnd - start)
                // Most lines of OURS and THEIRS are BASE's, unchanged and in order: when the hint's
                // line holds exactly these bytes, its entry is this line's key (equal bytes, equal
                // key), found without the uid scan or a hash.
                var uidEntry: Int?, firstOccurrence: Int?
                let alignedEntry = prealigned && lineIndex < entries.count ? Int(entries[lineIndex]) : Int(CompactIndex.absent)
                if index.isTableEntry(alignedEntry) {
                    // Equal bytes to the first input's line of that entry, found before the scan.
                    if index.isUIDEntry(alignedEntry) { uidEntry = alignedEntry } else { firstOccurrence = alignedEntry }
                    previousMissed = false
                } else if let known = index.entry(holding: line, hint: hint, buffers) {
                    if index.isUIDEntry(known) { uidEntry = known } else { firstOccurrence = known }
                    previousMissed = false
                } else {
                    let key: (tag: UInt32, uid: Range<Int>?)?
                    if inWindow {
                        key = window[windowPosition].key
                    } else if previousMissed {
                        window.removeAll(keepingCapacity: true)
                        windowPosition = 0
                        var lineStart = start
                        while lineStart < count && window.count < Self.windowSize {
                            let bounds = CompactInput.line(base, at: lineStart, count: count)
                            window.append((lineStart, bounds.contentEnd, bounds.next,
                                           Self.tableKey(UnsafeBufferPointer(start: base + lineStart, count: bounds.contentEnd - lineStart))))
                            lineStart = bounds.next
                        }
                        for ahead in window { if let aheadKey = ahead.key { readAheadSum &+= index.readAhead(aheadKey.tag) } }
                        key = window[0].key
                    } else {
                        key = Self.tableKey(line)
                    }
                    previousMissed = true
                    guard let key else { within = false; break }
                    (uidEntry, firstOccurrence) = lookUp(key, line: line, hint: hint, buffers)
                }
                guard let entry = takeEntry(uidEntry: uidEntry, firstOccurrence: firstOccurrence, side: side,
                                            occurrences: &occurrences) else { within = false; break }
                index.setSlot(entry, side, start)
                if prealigned {
                    entries[lineIndex] = UInt32(truncatingIfNeeded: entry)
                } else if keepEntries {
                    entries.append(UInt32(truncatingIfNeeded: entry))
                }
                hint = entry + 1
                if inWindow || (windowPosition < window.count && window[windowPosition].start == start) { windowPosition += 1 }
                start = next
            }
        }
        self.readAheadSum = readAheadSum
        guard within else { return nil }
        lastOccurrence[side] = occurrences
        input.lineCount = lineCount
        input.dominantTerminator = sawLF || !sawCRLF ? .lf : .crlf
        input.endsWithTerminator = lineCount > 0 && lastTerminator != .none
        return entries
    }

    /// The table's entry for the key of `line` (`tableKey`), inserted when new: the uid's entry, or
    /// the entry of the first occurrence of the line's bytes.
    @inline(__always)
    mutating func lookUp(_ key: (tag: UInt32, uid: Range<Int>?), line: UnsafeBufferPointer<UInt8>, hint: Int,
                         _ buffers: CompactBuffers) -> (uidEntry: Int?, firstOccurrence: Int?) {
        if let uid = key.uid {
            let value = UnsafeBufferPointer(rebasing: line[uid])
            let found = index.find(tag: key.tag, hint: hint) { candidate in
                index.holdsUID(value, line: line, entry: candidate, buffers)
            }
            return (found.entry ?? index.insert(tag: key.tag, bucket: found.bucket), nil)
        }
        let found = index.find(tag: key.tag, hint: hint) { candidate in
            index.holdsBytes(line, entry: candidate, buffers)
        }
        return (nil, found.entry ?? index.insert(tag: key.tag, bucket: found.bucket))
    }

    /// The entry a line of `side` takes, given its key's entry (`uidEntry`, or `firstOccurrence` for
    /// a line keyed by its bytes): that entry, or for a later copy of the same bytes in this input
    /// the next entry of their chain (`occurrences`: this input's last one per chain). Nil for a uid
    /// already on another line of this input: the general merge's owner rules apply.
    @inline(__always)
    mutating func takeEntry(uidEntry: Int?, firstOccurrence: Int?, side: Int, occurrences: inout [UInt32: UInt32]) -> Int? {
        if let uidEntry {
            return index.slot(uidEntry, side) == CompactIndex.absent ? uidEntry : nil
        }
        guard let first = firstOccurrence else { preconditionFailure("CompactScanner: a line without a key") }
        if index.slot(first, side) == CompactIndex.absent { return first }
        let key = UInt32(truncatingIfNeeded: first)
        let entry = index.nextOccurrence(after: Int(occurrences[key] ?? key))
        occurrences[key] = UInt32(truncatingIfNeeded: entry)
        return entry
    }

    /// Lines keyed ahead at a time (`scan`): enough cache misses in flight at once to cover most of
    /// their latency, few enough that the window's keys stay in the first-level cache.
    static let windowSize = 16

    /// The table key of a line that missed its hint: a uid's tag and where the uid is, or the line's
    /// bytes' tag; nil when its uid holds a non-ASCII byte (outside the compact merge's reach).
    @inline(__always)
    static func tableKey(_ line: UnsafeBufferPointer<UInt8>) -> (tag: UInt32, uid: Range<Int>?)? {
        if let uid = MergeSide.uidRange(of: line) {
            let value = UnsafeBufferPointer(rebasing: line[uid])
            guard ByteScanning.isASCII(value) else { return nil }
            return (uidTag(value), uid)
        }
        return (CompactIndex.tag(MergeKeyTable.hashBytes(line, seed: 0), .text), nil)
    }

    /// The tag of the uid key `value` (ASCII bytes).
    @inline(__always)
    static func uidTag(_ value: UnsafeBufferPointer<UInt8>) -> UInt32 {
        CompactIndex.tag(MergeKeyTable.hashBytes(value, seed: 0x5555_AAAA_0F0F_F0F0), .uid)
    }

    /// Byte equality, eight bytes at a time.
    @inline(__always)
    static func equalBytes(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>) -> Bool {
        guard first.count == second.count else { return false }
        guard let a = first.baseAddress, let b = second.baseAddress, a != b else { return true }
        let rawA = UnsafeRawPointer(a), rawB = UnsafeRawPointer(b)
        var index = 0
        while index + 8 <= first.count {
            if rawA.loadUnaligned(fromByteOffset: index, as: UInt64.self) != rawB.loadUnaligned(fromByteOffset: index, as: UInt64.self) {
                return false
            }
            index += 8
        }
        while index < first.count {
            if a[index] != b[index] { return false }
            index += 1
        }
        return true
    }
}

/// The first input of a compact merge scanned on its own, into a fresh table sized for inputs as
/// large as it: the one step of the merge that needs none of the other inputs, so a caller can run
/// it while they are still being read (`TodoMerge.prepareBase`, `prepareCopy`). Lines of the first
/// input all miss their hints (the table is empty), which makes this the merge's costliest scan.
struct CompactFirstScan: Sendable {
    var input: CompactInput
    var scanner: CompactScanner
    /// Each line's entry, when asked for (`keepEntries`); else empty.
    let entries: [UInt32]

    /// Inputs up to this size are counted exactly before the scan; larger ones are estimated from
    /// samples (`estimatedLineCount`).
    static let countedSize = 1 << 20
    static let sampleSize = 1 << 17

    /// The number of lines of `bytes`, counted, or for a large input estimated from three samples
    /// (its start, middle and end) at the densest one's rate, a fiftieth more: the tables sized from
    /// it then hold any file whose lines are about as long throughout, and grow (at some cost,
    /// never a wrong result) for one whose samples miss a stretch of much shorter lines.
    static func estimatedLineCount(_ bytes: [UInt8], begin: Int) -> Int {
        let size = bytes.count - begin
        guard size > countedSize else { return CompactScanner.lineCount(bytes, begin: begin) }
        return bytes.withUnsafeBufferPointer { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            let starts = [begin, begin + size / 2 - sampleSize / 2, buffer.count - sampleSize]
            let densest = starts.map { CompactInput.lineFeeds(base, from: $0, to: $0 + sampleSize) }.max() ?? 0
            let estimate = size * densest / sampleSize
            return estimate + estimate / 50 + 64
        }
    }

    /// `bytes` scanned as input `side` of `sideCount`; nil when it is outside the compact merge's
    /// reach (`CompactIndex`).
    init?(_ bytes: [UInt8], side: Int, sideCount: Int, keepEntries: Bool,
          fragmentMask: UInt32 = CompactIndex.widestFragmentMask) {
        var input = CompactInput(bytes)
        // Only for sizing the table and the entries (the scan sets the exact count): an estimate
        // spares a pass over the whole input on the step the other inputs wait for.
        input.lineCount = Self.estimatedLineCount(bytes, begin: input.begin)
        var scanner = CompactScanner(lineCounts: Array(repeating: input.lineCount, count: sideCount), fragmentMask: fragmentMask)
        // The other inputs' buffers are empty: until they are scanned no entry has a line of theirs.
        var arrays = Array(repeating: [UInt8](), count: sideCount)
        arrays[side] = bytes
        guard let entries = CompactBuffers.with(arrays, { buffers in
            scanner.scan(&input, side: side, buffers, keepEntries: keepEntries)
        }) else { return nil }
        self.input = input
        self.scanner = scanner
        self.entries = entries
    }
}

/// A merge input lined up against the first input before that one is indexed (`TodoMerge.prepareSide`):
/// the step of the scan that compares a line with the first input's line at the same place in the
/// two files' shared order, done by walking both files, so that it can run while the first input is
/// indexed on another thread (docs/notes/speed-commands.md, "Round four").
///
/// Invariant: `lines[i]`, when not `CompactIndex.absent`, is a line of the first input whose content
/// has exactly the bytes of this input's line `i`. Equal bytes are an equal key, so the scan may take
/// that line's entry (the first input's line k is entry k: scanned into an empty table, each of its
/// lines makes one entry, in order) wherever it is the key's own entry. Where the walk loses the
/// common order, lines are left absent and the scan finds them through the table as before.
struct CompactAlignment: Sendable {
    var input: CompactInput
    var lines: [UInt32]
    /// The first input it was lined up against, held (not copied) so that `isAligned(with:)` can
    /// tell it by its storage.
    let first: [UInt8]

    /// Whether `bytes` is the very array this was lined up against (the same storage, so the same
    /// bytes): only then do `lines` name its lines. Any other array, even with equal bytes, is
    /// refused, at the cost of a merge that compares every line again.
    func isAligned(with bytes: [UInt8]) -> Bool {
        guard first.count == bytes.count else { return false }
        return first.withUnsafeBufferPointer { mine in bytes.withUnsafeBufferPointer { other in mine.baseAddress == other.baseAddress } }
    }

    /// Lines the walk searches ahead in the first input once two lines in a row found no partner
    /// where expected (a block removed there); doubled after each search that fails, up to
    /// `widestSearch`. The walk never goes back, so it does not search far: a line that matches
    /// far ahead (a block moved up from there) would leave every line between behind it.
    static let firstSearch = 32
    static let widestSearch = 1 << 10
    /// The shortest line a search ahead may match: blank and short lines repeat too often to say
    /// where the common order resumes.
    static let shortestSearchedLine = 12

    init(_ bytes: [UInt8], against first: [UInt8]) {
        var input = CompactInput(bytes)
        // Sized from an estimate (`CompactFirstScan.estimatedLineCount`), not a count: the walk
        // below finds every line anyway, and a count would be a pass of its own over the input.
        let estimate = CompactFirstScan.estimatedLineCount(bytes, begin: input.begin)
        var lines: [UInt32] = []
        lines.reserveCapacity(estimate)
        let firstBegin = TodoDocument.startsWithByteOrderMark(first) ? 3 : 0
        bytes.withUnsafeBufferPointer { own in
            first.withUnsafeBufferPointer { other in
                guard let ownBase = own.baseAddress, let otherBase = other.baseAddress else { return }
                var expected = 0, expectedStart = firstBegin
                var misses = 0, search = Self.firstSearch
                // Lines looked at beyond the two expected ones, over the whole walk: at most one per
                // line of this input, so a file whose order differs throughout costs a bounded effort.
                var budget = estimate
                var start = input.begin, line = 0
                while start < own.count {
                    if line & (CompactInput.checkpointStride - 1) == 0 { input.checkpoints.append(start) }
                    lines.append(CompactIndex.absent)
                    let bounds = CompactInput.line(ownBase, at: start, count: own.count)
                    let content = UnsafeBufferPointer(start: ownBase + start, count: bounds.contentEnd - start)
                    // The expected partner, the one after it (the expected one removed or edited
                    // here), then, once the order is lost, a short search ahead.
                    var candidate = expected, candidateStart = expectedStart, found = false
                    let limit = misses >= 2 && budget > 0 ? min(search, budget + 2) : 2
                    var looked = 0
                    while looked < limit && candidateStart < other.count {
                        // The usual case first: the candidate holds these bytes, told without
                        // looking for its end.
                        if looked < 2 || content.count >= Self.shortestSearchedLine,
                           let next = CompactInput.nextLine(otherBase, count: other.count, at: candidateStart, ifHolding: content) {
                            found = true
                            lines[line] = UInt32(truncatingIfNeeded: candidate)
                            expected = candidate + 1
                            expectedStart = next
                            break
                        }
                        candidate += 1
                        candidateStart = CompactInput.line(otherBase, at: candidateStart, count: other.count).next
                        looked += 1
                    }
                    budget -= max(0, looked - 2)
                    if found {
                        misses = 0
                        search = Self.firstSearch
                    } else {
                        if limit > 2 { search = min(search * 2, Self.widestSearch) }
                        misses += 1
                    }
                    start = bounds.next
                    line += 1
                }
            }
        }
        input.lineCount = lines.count
        self.input = input
        self.lines = lines
        self.first = first
    }
}
