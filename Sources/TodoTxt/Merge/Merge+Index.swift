/// Line identities of the merges: the keys lines are matched by and the one table shared by all inputs.

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
    /// Key → entry.
    private var entryOfKey: MergeKeyTable
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
        // Most keys are on every side: about one entry per line of the largest input.
        entryOfKey = MergeKeyTable(expectedKeys: capacity / max(1, sideCount - 1))
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
    /// One hash of `key` (`MergeKeyTable`).
    /// `hint`: a guess at the entry (`MergeKeyTable.entry(for:inserting:hint:)`); any value is safe.
    mutating func entry(for key: MergeKey, side: Int, hint: Int? = nil) -> (entry: Int, previous: Int?) {
        let fresh = entryCount
        let entry = entryOfKey.entry(for: key, inserting: fresh, hint: hint)
        if entry == fresh { slots.append(contentsOf: repeatElement(-1, count: sideCount)) }
        let previous = slots[entry * sideCount + side]
        return (entry, previous < 0 ? nil : Int(previous))
    }

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
