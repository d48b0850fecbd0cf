/// One input of a merge, indexed: its lines' keys, the pairing of repeated uids with BASE, the uid scan,
/// and the byte comparison of lines the merges share.

/// One input file, indexed for matching.
struct MergeSide {
    let document: TodoDocument
    /// The key of each line, by 0-based line index.
    let keys: [MergeKey]
    /// The `MergeIndex` entry of each line.
    let entries: [Int]
    /// This input's number in the `MergeIndex`.
    let side: Int

    /// Indexes `document` as input `side` of `index`: one scan of each line for its uid (no other
    /// field is parsed) and one hash per line. O(n) expected.
    ///
    /// A uid held by one line here (and at most one in BASE) matches by uid. The holders of a uid
    /// held by several lines are matched in one of two ways:
    /// - in OURS and THEIRS of a three-way merge, when BASE holds the uid: paired with BASE's holders
    ///   (`pairWithBase`); this also applies when only BASE repeats the uid;
    /// - otherwise (BASE itself, a uid BASE lacks, the two-way merge): the owner (docs/format.md section 4:
    ///   the only completed holder, else the first) matches by uid, the others by bytes.
    init(_ document: TodoDocument, side: Int, index: inout MergeIndex) {
        self.document = document
        self.side = side
        let count = document.lineCount
        var keys: [MergeKey] = []
        keys.reserveCapacity(count)
        var entries: [Int] = []
        entries.reserveCapacity(count)
        // uid → every line holding it, for the (rare) uids held by more than one line.
        var holders: [String: [Int]] = [:]
        // uid → every line holding it, for the (rare) uids BASE holds on several lines.
        var heldRepeatedlyInBase: [String: [Int]] = [:]
        let descends = side > 0 && index.pairsWithBase && index.base != nil
        var occurrences: [[UInt8]: Int] = [:]
        document.withLineBuffers { line, buffer in
            if let uid = MergeSide.uid(of: buffer) {
                let key = MergeKey.uid(uid)
                let (entry, previous) = index.entry(for: key, side: side, hint: entries.last.map { $0 + 1 })
                keys.append(key)
                entries.append(entry)
                if descends && index.baseRepeats(uid) { heldRepeatedlyInBase[uid, default: []].append(line) }
                if let previous {
                    holders[uid, default: [previous]].append(line)
                } else {
                    index.set(entry: entry, side: side, line: line)
                }
                return
            }
            let bytes = Array(buffer)
            let occurrence = occurrences[bytes, default: 0]
            occurrences[bytes] = occurrence + 1
            let key = MergeKey.text(bytes, occurrence)
            let entry = index.entry(for: key, side: side, hint: entries.last.map { $0 + 1 }).entry
            index.set(entry: entry, side: side, line: line)
            keys.append(key)
            entries.append(entry)
        }
        for (uid, lines) in heldRepeatedlyInBase {
            MergeSide.pairWithBase(uid, lines, document, side: side, index: &index, keys: &keys, entries: &entries)
        }
        for (uid, lines) in holders where heldRepeatedlyInBase[uid] == nil {
            // Every holder's key is still `.uid(uid)`, so the entry of the first is the uid's.
            if descends, let first = lines.first,
               !index.baseHolders(of: uid, entry: entries[first]).isEmpty {
                MergeSide.pairWithBase(uid, lines, document, side: side, index: &index, keys: &keys, entries: &entries)
                continue
            }
            // The owner keeps the uid key; the others match by bytes, occurrence by occurrence. Lines
            // with equal bytes hold the same uid, so these occurrences are counted among the holders
            // alone.
            let owner = MergeSide.owner(among: lines, in: document)
            index.set(entry: entries[owner], side: side, line: owner)
            var seen: [[UInt8]: Int] = [:]
            for line in lines where line != owner {
                let bytes = Array(document.content(at: line))
                let occurrence = seen[bytes, default: 0]
                seen[bytes] = occurrence + 1
                let key = MergeKey.text(bytes, occurrence)
                let entry = index.entry(for: key, side: side).entry
                index.set(entry: entry, side: side, line: line)
                keys[line] = key
                entries[line] = entry
            }
        }
        if side == 0 && index.pairsWithBase {
            var repeated: [String: [MergeIndex.BaseHolder]] = [:]
            for (uid, lines) in holders {
                repeated[uid] = lines.map { MergeIndex.BaseHolder(line: $0, entry: entries[$0]) }
            }
            index.recordBase(document, repeated: repeated)
        }
        self.keys = keys
        self.entries = entries
    }

    /// The owner of a uid among `lines` (in file order, not empty) of `document`: the only completed
    /// one, else the first (docs/format.md section 4).
    static func owner(among lines: [Int], in document: TodoDocument) -> Int {
        let done = lines.filter { document.isCompletedLine($0) }
        return done.count == 1 ? done[0] : lines[0]
    }

    /// Pairs this side's holders of `uid` (`lines`, in file order, every one still keyed `.uid(uid)`)
    /// with BASE's holders, for a side that descends from BASE (OURS or THEIRS), when BASE or this
    /// side holds the uid on several lines.
    ///
    /// Why not by owner: the owner is a per-file notion. When a side deletes or completes BASE's owner,
    /// another copy becomes that side's owner, and matching owner with owner paired two different
    /// copies: the copy a side deleted came back, edited or not, as the "edit" of the other (issue 13).
    ///
    /// How: first by identical bytes, as a multiset (the k-th holder with some bytes here pairs with
    /// the k-th holder with those bytes in BASE): those are copies this side left unchanged. Then the
    /// owners (docs/format.md section 4) of what is left pair with each other: among BASE's holders, those
    /// this side did not keep; among this side's, those whose bytes no BASE holder has (an extra copy
    /// of a BASE line is an addition, not an edit). That is an edited copy, merged with the other
    /// side's version of the same BASE line. Every holder still unpaired is one this side added
    /// (BASE's unpaired ones, it deleted); it matches by bytes, numbered among this side's holders, so
    /// the other side's identical addition matches it and nothing of BASE does (this side has more
    /// lines with those bytes than BASE, so the number is at least BASE's count).
    ///
    /// Invariants: BASE's holders and this side's are paired one to one, and a paired line joins the
    /// BASE line's entry, so OURS and THEIRS lines paired with one BASE line match each other. A uid
    /// held once everywhere pairs its lines as the uid key would.
    static func pairWithBase(_ uid: String, _ lines: [Int], _ document: TodoDocument, side: Int,
                             index: inout MergeIndex, keys: inout [MergeKey], entries: inout [Int]) {
        guard let first = lines.first, let baseDocument = index.base else { return }
        let uidEntry = entries[first]
        let baseLines = index.baseHolders(of: uid, entry: uidEntry)
        // Who holds the uid's own entry here is decided below, like every other entry.
        index.clear(entry: uidEntry, side: side)
        var baseByBytes: [[UInt8]: [Int]] = [:]
        for (position, holder) in baseLines.enumerated() {
            baseByBytes[Array(baseDocument.content(at: holder.line)), default: []].append(position)
        }
        var basePaired = Array(repeating: false, count: baseLines.count)
        var pairs: [(line: Int, base: Int)] = []
        var unpaired: [(line: Int, bytes: [UInt8], occurrence: Int)] = []
        var seen: [[UInt8]: Int] = [:]
        for line in lines {
            let bytes = Array(document.content(at: line))
            let occurrence = seen[bytes, default: 0]
            seen[bytes] = occurrence + 1
            if let copies = baseByBytes[bytes], occurrence < copies.count {
                basePaired[copies[occurrence]] = true
                pairs.append((line, copies[occurrence]))
            } else {
                unpaired.append((line, bytes, occurrence))
            }
        }
        // A further copy of a BASE holder's bytes is an added copy, not an edit: it stays unpaired.
        let baseLeft = baseLines.indices.filter { !basePaired[$0] }
        let editedLeft = unpaired.filter { baseByBytes[$0.bytes] == nil }.map(\.line)
        if !baseLeft.isEmpty && !editedLeft.isEmpty {
            let baseOwner = owner(among: baseLeft.map { baseLines[$0].line }, in: baseDocument)
            let ownOwner = owner(among: editedLeft, in: document)
            if let position = baseLeft.first(where: { baseLines[$0].line == baseOwner }),
               let ownPosition = unpaired.firstIndex(where: { $0.line == ownOwner }) {
                pairs.append((ownOwner, position))
                unpaired.remove(at: ownPosition)
            }
        }
        for (line, position) in pairs {
            let entry = baseLines[position].entry
            index.set(entry: entry, side: side, line: line)
            keys[line] = .uid(uid)
            entries[line] = entry
        }
        for (line, bytes, occurrence) in unpaired {
            let key = MergeKey.text(bytes, occurrence)
            let entry = index.entry(for: key, side: side).entry
            index.set(entry: entry, side: side, line: line)
            keys[line] = key
            entries[line] = entry
        }
    }

    /// The line's uid, exactly as `TodoItem(line).uid` reads it (the first `uid:` tag's value, else the
    /// first `uuid:` tag's), without parsing any other field.
    ///
    /// Instead of splitting every word, it jumps from colon to colon (eight bytes at a time) and looks
    /// only at words that start with `uid:` or `uuid:`; that a word starts there is decided looking
    /// backwards (`ByteScanning.startsWord`). Header tokens (`x`, `(A)`, dates) hold no colon, so the
    /// line's header needs no parsing either.
    static func uid(of line: UnsafeBufferPointer<UInt8>) -> String? {
        uidRange(of: line).map { lossyString(UnsafeBufferPointer(rebasing: line[$0])) }
    }

    /// Where in `line` its uid's value is (`uid(of:)`'s bytes), without making a String of it.
    static func uidRange(of line: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        var uuid: Range<Int>?
        let end = line.count
        let lead = TodoItem.leadingMarkLength(line)
        var colon = 0
        while let found = nextColon(in: line, from: colon) {
            colon = found + 1
            let start: Int
            let isUID: Bool
            if found >= 3 && line[found - 3] == 0x75 && line[found - 2] == 0x69 && line[found - 1] == 0x64
                && ByteScanning.startsWord(line, at: found - 3, lead: lead) {
                start = found - 3
                isUID = true
            } else if uuid == nil && found >= 4 && line[found - 4] == 0x75 && line[found - 3] == 0x75
                        && line[found - 2] == 0x69 && line[found - 1] == 0x64 && ByteScanning.startsWord(line, at: found - 4, lead: lead) {
                start = found - 4
                isUID = false
            } else {
                continue
            }
            var wordEnd = found + 1
            while wordEnd < end && ByteScanning.whitespaceLength(line, at: wordEnd) == 0 { wordEnd += 1 }
            guard let tagColon = TodoItem.tagColon(line, start, wordEnd), tagColon == found else { continue }
            if isUID { return (found + 1)..<wordEnd }
            uuid = (found + 1)..<wordEnd
        }
        return uuid
    }

    /// The index of the next `:` at or after `from`.
    @inline(__always)
    static func nextColon(in line: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard let base = line.baseAddress else { return nil }
        let found = ByteSearch.firstIndex(of: 0x3A, in: base, from: from, to: line.count)
        return found < line.count ? found : nil
    }

    /// The entry's line on `other`, if `other` holds this line's key.
    func match(_ line: Int, in other: MergeSide, _ index: MergeIndex) -> Int? {
        index.line(entry: entries[line], side: other.side)
    }

    func content(_ index: Int) -> ArraySlice<UInt8> { document.content(at: index) }

    /// Whether the file is stably partitioned: no open line (task or blank) after a completed task.
    var isPartitioned: Bool {
        var seenCompleted = false
        for index in 0..<document.lineCount {
            if document.isCompletedLine(index) { seenCompleted = true } else if seenCompleted { return false }
        }
        return true
    }

    /// Whether any line is a completed task.
    var hasCompletedTask: Bool { (0..<document.lineCount).contains { document.isCompletedLine($0) } }
}

/// Whether two lines hold the same bytes: lengths first, then eight bytes at a time.
///
/// The merge compares whole lines of the three inputs constantly; this keeps that a few loads per
/// line instead of a generic element-by-element comparison.
@inline(__always)
package func sameBytes(_ first: ArraySlice<UInt8>, _ second: ArraySlice<UInt8>) -> Bool {
    guard first.count == second.count else { return false }
    return first.withUnsafeBufferPointer { left in
        second.withUnsafeBufferPointer { right in
            guard let a = left.baseAddress, let b = right.baseAddress, a != b else { return true }
            let count = left.count
            let rawA = UnsafeRawPointer(a), rawB = UnsafeRawPointer(b)
            var index = 0
            while index + 8 <= count {
                if rawA.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    != rawB.loadUnaligned(fromByteOffset: index, as: UInt64.self) { return false }
                index += 8
            }
            while index < count {
                if a[index] != b[index] { return false }
                index += 1
            }
            return true
        }
    }
}
