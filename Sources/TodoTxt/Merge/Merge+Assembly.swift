/// The machinery both merges share: line identities, result units, placement of the other side's
/// lines, the sorted partition and rendering.

/// What a line is matched by.
enum MergeKey: Hashable {
    /// A holder of a uid matched as that uid's task: the owner (docs/format.md section 4), or, in a
    /// three-way merge where BASE holds the uid, the line paired with one of BASE's holders (see
    /// `MergeSide.pairWithBase`).
    case uid(String)
    /// Any other line: its bytes, and which occurrence of those bytes it is in file order (for a holder
    /// of a repeated uid, counted among that uid's holders only).
    case text([UInt8], Int)
}

/// Which line of each input holds each key, for two or three inputs at once.
///
/// Every line of every input is hashed exactly once, into one table shared by all inputs: the table
/// maps a key to an entry, and the entry records, for each input, the line holding that key. Lookups
/// during the merge are then array reads, not hash lookups.
///
/// Invariant: an entry holds at most one line of each input, and a line belongs to one entry. Two
/// lines of different inputs in one entry are the same task (or the same text line) to the merge.
/// Usually an entry is one key (keys are unique within an input: a uid has one owner, and text keys
/// count occurrences); the holders of a uid BASE holds on several lines are grouped by
/// `MergeSide.pairWithBase` instead, under BASE's entries.
struct MergeIndex {
    /// The inputs' numbers: BASE, OURS, THEIRS for the three-way merge; the file and the copy for the
    /// two-way merge.
    let sideCount: Int
    /// `entry * sideCount + side` → the line of `side` holding the entry's key, or -1.
    private var slots: [Int32] = []
    private var entryOfKey: [MergeKey: Int] = [:]
    /// Three-way only: BASE (input 0), kept so that OURS and THEIRS can pair their holders of a
    /// repeated uid with BASE's holders by bytes. A copy-on-write reference, not a copy of the lines.
    private(set) var base: TodoDocument?
    /// Three-way only: uid → BASE's holders, in file order, for each uid BASE holds on several lines.
    private var repeatedInBase: [String: [BaseHolder]] = [:]

    /// A line of BASE holding a uid, with its entry.
    struct BaseHolder {
        let line: Int
        let entry: Int
    }

    init(sideCount: Int, capacity: Int) {
        self.sideCount = sideCount
        slots.reserveCapacity(capacity * sideCount)
        entryOfKey.reserveCapacity(capacity)
    }

    /// Whether input 0 is the common ancestor of the others (the three-way merge), so that lines of
    /// the others descend from its lines. The two-way merge has no ancestor and keeps owner matching.
    var pairsWithBase: Bool { sideCount == 3 }

    /// Records BASE once it is indexed: the document and the holders of its repeated uids.
    mutating func recordBase(_ document: TodoDocument, repeated: [String: [BaseHolder]]) {
        base = document
        repeatedInBase = repeated
    }

    /// Whether BASE holds `uid` on several lines (a hash lookup only when BASE repeats any uid).
    func baseRepeats(_ uid: String) -> Bool {
        !repeatedInBase.isEmpty && repeatedInBase[uid] != nil
    }

    /// BASE's holders of `uid`, in file order; `entry` is the entry of the key `.uid(uid)`, which
    /// leads to BASE's only holder when BASE does not repeat the uid. Empty when BASE lacks it.
    func baseHolders(of uid: String, entry: Int) -> [BaseHolder] {
        if let repeated = repeatedInBase[uid] { return repeated }
        guard let line = line(entry: entry, side: 0) else { return [] }
        return [BaseHolder(line: line, entry: entry)]
    }

    private var entryCount: Int { slots.count / sideCount }

    /// The entry of `key` (created if new), with the line `side` already had for it, if any.
    /// One hash of `key`.
    mutating func entry(for key: MergeKey, side: Int) -> (entry: Int, previous: Int?) {
        let fresh = entryCount
        let entry = MergeIndex.insertingDefault(&entryOfKey[key, default: fresh])
        if entry == fresh { slots.append(contentsOf: repeatElement(-1, count: sideCount)) }
        let previous = slots[entry * sideCount + side]
        return (entry, previous < 0 ? nil : Int(previous))
    }

    /// Reads a value through the dictionary's `default:` modify accessor, which inserts the default
    /// when the key is absent: a lookup and an insertion for the price of one hash.
    private static func insertingDefault(_ value: inout Int) -> Int { value }

    /// Records `line` of `side` as the holder of `entry`'s key.
    mutating func set(entry: Int, side: Int, line: Int) {
        slots[entry * sideCount + side] = Int32(truncatingIfNeeded: line)
    }

    /// Records that `side` holds no line for `entry`.
    mutating func clear(entry: Int, side: Int) {
        slots[entry * sideCount + side] = -1
    }

    /// The line of `side` holding `entry`'s key, if any.
    func line(entry: Int, side: Int) -> Int? {
        let line = slots[entry * sideCount + side]
        return line < 0 ? nil : Int(line)
    }
}

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
                let (entry, previous) = index.entry(for: key, side: side)
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
            let entry = index.entry(for: key, side: side).entry
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
        var uuid: String?
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
            let value = lossyString(UnsafeBufferPointer(rebasing: line[(found + 1)..<wordEnd]))
            if isUID { return value }
            uuid = value
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
func sameBytes(_ first: ArraySlice<UInt8>, _ second: ArraySlice<UInt8>) -> Bool {
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

/// One line of the result; a nil terminator means "the result's dominant one".
struct MergeLine {
    var content: ArraySlice<UInt8>
    var terminator: LineTerminator?
}

/// A piece of the result that moves as a whole: one line, a conflict block, or a task with its marked
/// other version.
struct MergeUnit {
    var lines: [MergeLine]
    /// Sinks in a sorted result.
    var isCompleted: Bool

    init(_ lines: [MergeLine], isCompleted: Bool) {
        self.lines = lines
        self.isCompleted = isCompleted
    }

    /// A single line; completed iff it starts with `x ` (after a line's own byte order marks, as
    /// `TodoItem` reads it).
    init(line content: ArraySlice<UInt8>, terminator: LineTerminator?) {
        self.lines = [MergeLine(content: content, terminator: terminator)]
        var first = content.startIndex
        while content.endIndex - first >= 3 && content[first] == 0xEF && content[first + 1] == 0xBB && content[first + 2] == 0xBF {
            first += 3
        }
        self.isCompleted = content.endIndex - first >= 2 && content[first] == 0x78 && content[first + 1] == 0x20
    }
}

/// What became of a line of the second side (THEIRS, or the copy).
enum OtherLineFate {
    /// Matched a line of the first side that is in the result (at its index): it anchors what follows.
    case matched(Int)
    /// Only this side has it and it stays: placed after its anchor.
    case placed(MergeUnit)
    /// Not in the result.
    case dropped
}

/// Builds the merged document from the decisions of a merge.
///
/// - `first`: a unit (or nil: removed) for each line of the first side, in its order.
/// - `onlyFirst`: whether each first-side line is one only that side has (skipped past when placing).
/// - `otherFates`: the fate of each line of the second side, in its order.
struct MergeAssembler {
    var first: [MergeUnit?]
    var onlyFirst: [Bool]
    var otherFates: [OtherLineFate]

    /// The units in result order: the first side's order, the second side's placed lines after their
    /// nearest preceding anchor (past lines only the first side has), optionally stably partitioned.
    func orderedUnits(sorted: Bool) -> [MergeUnit] {
        var atStart: [MergeUnit] = []
        var after: [Int: [MergeUnit]] = [:]
        var anchor: Int?
        for fate in otherFates {
            switch fate {
            case .matched(let index): anchor = index
            case .placed(let unit):
                if let anchor { after[anchor, default: []].append(unit) } else { atStart.append(unit) }
            case .dropped: break
            }
        }
        var result: [MergeUnit] = []
        result.reserveCapacity(first.count + otherFates.count)
        var pending = atStart
        for (index, unit) in first.enumerated() {
            guard let unit else { continue }
            if !onlyFirst[index] && !pending.isEmpty {
                result.append(contentsOf: pending)
                pending.removeAll()
            }
            result.append(unit)
            if let placed = after[index] { pending.append(contentsOf: placed) }
        }
        result.append(contentsOf: pending)
        guard sorted else { return result }
        return result.filter { !$0.isCompleted } + result.filter(\.isCompleted)
    }

    /// Renders units with the layout of `layout` (OURS or the file), falling back to `fallback`'s when
    /// the layout file has no lines.
    ///
    /// Invariant: the rendered document has exactly one line per unit line. The final newline follows
    /// the layout, except that an empty last line always gets a terminator: without one it would render
    /// as nothing and vanish when read back, dropping a blank line a side kept or added (as
    /// `TodoDocument.reorder` does, the line count wins over the final-newline state).
    static func render(_ units: [MergeUnit], layout: TodoDocument, fallback: TodoDocument) -> TodoDocument {
        let source = layout.lineCount > 0 ? layout : fallback
        let dominant = source.dominantTerminator
        let endsWithTerminator = source.lineCount > 0 ? source.endsWithTerminator : true
        let byteOrderMark = layout.hasByteOrderMark || (layout.lineCount == 0 && fallback.hasByteOrderMark)
        var out: [UInt8] = byteOrderMark ? TodoDocument.byteOrderMark : []
        let lines = units.flatMap(\.lines)
        for (position, line) in lines.enumerated() {
            out.append(contentsOf: line.content)
            let isLast = position == lines.count - 1
            if isLast && !endsWithTerminator && !line.content.isEmpty { break }
            var terminator = line.terminator ?? dominant
            if terminator == .none { terminator = dominant }
            if terminator == .lf && line.content.last == 0x0D { terminator = .crlf }
            out.append(contentsOf: terminator.bytes)
        }
        return TodoDocument(bytes: out)
    }
}
