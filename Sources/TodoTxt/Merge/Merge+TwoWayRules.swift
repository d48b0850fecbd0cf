/// The two-way merge of two versions of one task (docs/sync.md section 2) and what it records;
/// shared by the general merge (`TwoWayMerger`) and the compact one (`CompactTwoWay`).
struct TwoWayRules {
    var reports: [MergeReport] = []
    /// How many lines of the file and of the copy hold each exact content, among the lines that
    /// hold `conflict:` (every marked version does); built on the first difference that cannot be
    /// merged, so a clean merge never pays for it, and over those lines only, so that it stays small
    /// however large the file.
    private var markedLineCounts: [ArraySlice<UInt8>: Int]?

    /// Two versions of one uid: merged, or the one further along plus the other marked.
    /// `countLines` counts the lines of both inputs that pass a test, by content.
    mutating func merge(uid: String?, file mine: ArraySlice<UInt8>, copy other: ArraySlice<UInt8>, terminator: LineTerminator,
                        countLines: ((UnsafeBufferPointer<UInt8>) -> Bool) -> [ArraySlice<UInt8>: Int]) -> MergeUnit {
        let fileItem = TodoItem(mine), copyItem = TodoItem(other)
        // Completed beats open; equally far along, the file's version leads.
        let copyLeads = copyItem.isCompleted && !fileItem.isCompleted
        let (leader, follower) = copyLeads ? (copyItem, fileItem) : (fileItem, copyItem)
        let followerSource = copyLeads ? "file" : "copy"
        let fileFields = MergeFields(fileItem), copyFields = MergeFields(copyItem)
        let (leaderFields, followerFields) = copyLeads ? (copyFields, fileFields) : (fileFields, copyFields)
        let (target, unresolved) = MergeFields.twoWay(preferred: leaderFields, other: followerFields)
        let merged = leader.rewritten(toMatch: target, from: leaderFields)
        if unresolved.isEmpty, let merged {
            let fields = MergeFields.changedFields(from: fileFields, to: target)
            reports.append(MergeReport(kind: .fieldsMerged, uid: uid, text: lossyString(merged), fields: fields))
            return MergeUnit(line: merged[...], terminator: terminator)
        }
        let kept = merged.map { $0[...] } ?? leader.content
        let marked = follower.settingTag("conflict", to: followerSource)[...]
        reports.append(MergeReport(kind: .keptBothVersions, uid: uid, text: lossyString(kept),
                                   fields: merged == nil ? [.line] : unresolved))
        if isElsewhere(marked, besides: [mine, other], countLines: countLines) {
            // Already there (an earlier copy left it, or the copy carries it too): once is enough.
            return MergeUnit(line: kept, terminator: terminator)
        }
        return MergeUnit([MergeLine(content: kept, terminator: terminator), MergeLine(content: marked, terminator: nil)],
                         isCompleted: leader.isCompleted)
    }

    /// Whether a line of the file or of the copy, other than the two being merged (`besides`), holds
    /// exactly `content`. Such a line ends up in the result on its own: a file line always does, and a
    /// copy line with these bytes either matches an identical file line or is added (a line keyed by
    /// its bytes is never dropped as archived).
    private mutating func isElsewhere(_ content: ArraySlice<UInt8>, besides: [ArraySlice<UInt8>],
                                      countLines: ((UnsafeBufferPointer<UInt8>) -> Bool) -> [ArraySlice<UInt8>: Int]) -> Bool {
        let own = besides.filter { sameBytes($0, content) }.count
        // A marked version holds its `conflict:` tag; lines without one cannot equal it.
        guard Self.holdsConflictTag(content) else { return countLines({ _ in true })[content, default: 0] > own }
        let counts = markedLineCounts ?? countLines(Self.holdsConflictTag(_:))
        markedLineCounts = counts
        return counts[content, default: 0] > own
    }

    private static let conflictTag: [UInt8] = Array("conflict:".utf8)

    /// Whether `content` holds the bytes `conflict:` (a vector search: it runs on every line once).
    private static func holdsConflictTag(_ content: ArraySlice<UInt8>) -> Bool {
        content.withUnsafeBufferPointer { holdsConflictTag($0) }
    }

    /// `holdsConflictTag` of a line's bytes in place.
    private static func holdsConflictTag(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        conflictTag.withUnsafeBufferPointer { needle in
            guard let base = line.baseAddress else { return false }
            return ByteSearch.firstIndex(of: needle, in: base, from: 0, to: line.count) < line.count
        }
    }
}
