/// The two-way merge of a sync client's conflict copy into the file (docs/sync.md section 2).
///
/// Invariant: a version kept beside the one further along (the "leftover" line, marked with a
/// `conflict:` tag) is added only when no other line of either input already holds exactly those
/// bytes. Reconciling several copies one after another feeds the file, leftover lines included,
/// back in as the next merge's file; without this rule every copy carrying the same other version
/// would add the same marked line once more.
struct TwoWayMerger {
    let file: MergeSide
    let copy: MergeSide
    let index: MergeIndex
    let doneUIDs: Set<String>
    var reports: [MergeReport] = []
    /// How many lines of the file and of the copy hold each exact content, among the lines that
    /// hold `conflict:` (every marked version does); built on the first difference that cannot be
    /// merged, so a clean merge never pays for it, and over those lines only, so that it stays small
    /// however large the file.
    private var markedLineCounts: [ArraySlice<UInt8>: Int]?

    init(file: TodoDocument, copy: TodoDocument, doneUIDs: Set<String>) {
        var index = MergeIndex(sideCount: 2, capacity: file.lineCount + copy.lineCount)
        self.file = MergeSide(file, side: 0, index: &index)
        self.copy = MergeSide(copy, side: 1, index: &index)
        self.index = index
        self.doneUIDs = doneUIDs
    }

    mutating func run() -> MergeResult {
        let fileCount = file.document.lineCount
        var units: [MergeUnit?] = []
        units.reserveCapacity(fileCount)
        var onlyFile: [Bool] = []
        onlyFile.reserveCapacity(fileCount)
        for index in 0..<fileCount {
            let key = file.keys[index]
            let mine = file.content(index)
            let terminator = file.document.terminator(at: index)
            if let copyIndex = file.match(index, in: copy, self.index) {
                onlyFile.append(false)
                let other = copy.content(copyIndex)
                if sameBytes(mine, other) {
                    units.append(MergeUnit(line: mine, terminator: terminator))
                } else {
                    units.append(merge(key: key, file: mine, copy: other, terminator: terminator))
                }
            } else {
                onlyFile.append(true)
                units.append(MergeUnit(line: mine, terminator: terminator))
            }
        }
        var fates: [OtherLineFate] = []
        fates.reserveCapacity(copy.document.lineCount)
        for index in 0..<copy.document.lineCount {
            let key = copy.keys[index]
            if let fileIndex = copy.match(index, in: file, self.index) {
                fates.append(.matched(fileIndex))
                continue
            }
            let other = copy.content(index)
            let item = TodoItem(other)
            if case .uid(let uid) = key, doneUIDs.contains(uid) {
                reports.append(MergeReport(kind: .notResurrected, uid: uid, text: lossyString(other), fields: []))
                fates.append(.dropped)
                continue
            }
            if item.isTask {
                reports.append(MergeReport(kind: .addedFromCopy, uid: item.uid, text: lossyString(other), fields: []))
            }
            fates.append(.placed(MergeUnit(line: other, terminator: nil)))
        }
        let assembler = MergeAssembler(first: units, onlyFirst: onlyFile, otherFates: fates)
        let sorted = file.isPartitioned && file.hasCompletedTask
        let document = MergeAssembler.render(assembler.orderedUnits(sorted: sorted),
                                             layout: file.document, fallback: copy.document)
        return MergeResult(document: document, conflicts: [], reports: reports)
    }

    /// Two versions of one uid: merged, or the one further along plus the other marked.
    mutating func merge(key: MergeKey, file mine: ArraySlice<UInt8>, copy other: ArraySlice<UInt8>,
                        terminator: LineTerminator) -> MergeUnit {
        let uid: String? = if case .uid(let value) = key { value } else { nil }
        let fileItem = TodoItem(mine), copyItem = TodoItem(other)
        // Completed beats open; equally far along, the file's version leads.
        let copyLeads = copyItem.isCompleted && !fileItem.isCompleted
        let (leader, follower) = copyLeads ? (copyItem, fileItem) : (fileItem, copyItem)
        let followerSource = copyLeads ? "file" : "copy"
        let (target, unresolved) = MergeFields.twoWay(preferred: MergeFields(leader), other: MergeFields(follower))
        let merged = leader.rewritten(toMatch: target)
        if unresolved.isEmpty, let merged {
            let fields = MergeFields.changedFields(from: MergeFields(fileItem), to: target)
            reports.append(MergeReport(kind: .fieldsMerged, uid: uid, text: lossyString(merged), fields: fields))
            return MergeUnit(line: merged[...], terminator: terminator)
        }
        let kept = merged.map { $0[...] } ?? leader.content
        let marked = follower.settingTag("conflict", to: followerSource)[...]
        reports.append(MergeReport(kind: .keptBothVersions, uid: uid, text: lossyString(kept),
                                   fields: merged == nil ? [.line] : unresolved))
        if isElsewhere(marked, besides: [mine, other]) {
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
    private mutating func isElsewhere(_ content: ArraySlice<UInt8>, besides: [ArraySlice<UInt8>]) -> Bool {
        let own = besides.filter { sameBytes($0, content) }.count
        // A marked version holds its `conflict:` tag; lines without one cannot equal it.
        guard Self.holdsConflictTag(content) else { return countLines(where: { _ in true })[content, default: 0] > own }
        let counts = markedLineCounts ?? countLines(where: Self.holdsConflictTag)
        markedLineCounts = counts
        return counts[content, default: 0] > own
    }

    /// The content counts of the lines of both inputs that pass `include`.
    private func countLines(where include: (ArraySlice<UInt8>) -> Bool) -> [ArraySlice<UInt8>: Int] {
        var counts: [ArraySlice<UInt8>: Int] = [:]
        for side in [file, copy] {
            for line in 0..<side.document.lineCount where include(side.content(line)) {
                counts[side.content(line), default: 0] += 1
            }
        }
        return counts
    }

    private static let conflictTag: [UInt8] = Array("conflict:".utf8)

    /// Whether `content` holds the bytes `conflict:` (a vector search: it runs on every line once).
    private static func holdsConflictTag(_ content: ArraySlice<UInt8>) -> Bool {
        content.withUnsafeBufferPointer { line in
            conflictTag.withUnsafeBufferPointer { needle in
                guard let base = line.baseAddress else { return false }
                return ByteSearch.firstIndex(of: needle, in: base, from: 0, to: line.count) < line.count
            }
        }
    }
}
