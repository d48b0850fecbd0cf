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
    /// The merge of two versions and what it records.
    var rules = TwoWayRules()

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
        let sides = [file, copy]
        let countLines = { (include: (UnsafeBufferPointer<UInt8>) -> Bool) in TwoWayMerger.countLines(of: sides, where: include) }
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
                    let uid: String? = if case .uid(let value) = key { value } else { nil }
                    units.append(rules.merge(uid: uid, file: mine, copy: other, terminator: terminator, countLines: countLines))
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
                rules.reports.append(MergeReport(kind: .notResurrected, uid: uid, text: lossyString(other), fields: []))
                fates.append(.dropped)
                continue
            }
            if item.isTask {
                rules.reports.append(MergeReport(kind: .addedFromCopy, uid: item.uid, text: lossyString(other), fields: []))
            }
            fates.append(.placed(MergeUnit(line: other, terminator: nil)))
        }
        let assembler = MergeAssembler(first: units, onlyFirst: onlyFile, otherFates: fates)
        let sorted = file.isPartitioned && file.hasCompletedTask
        let document = MergeAssembler.render(assembler.orderedUnits(sorted: sorted),
                                             layout: file.document, fallback: copy.document)
        return MergeResult(document: document, conflicts: [], reports: rules.reports)
    }

    /// The content counts of the lines of both inputs that pass `include`.
    static func countLines(of sides: [MergeSide], where include: (UnsafeBufferPointer<UInt8>) -> Bool) -> [ArraySlice<UInt8>: Int] {
        var counts: [ArraySlice<UInt8>: Int] = [:]
        for side in sides {
            for line in 0..<side.document.lineCount where side.content(line).withUnsafeBufferPointer(include) {
                counts[side.content(line), default: 0] += 1
            }
        }
        return counts
    }
}
