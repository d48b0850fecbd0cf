/// The three-way merge: docs/sync.md section 1's table, row by row.
struct ThreeWayMerger {
    let base: MergeSide
    let ours: MergeSide
    let theirs: MergeSide
    let index: MergeIndex
    /// The table's rows that need more than the keys, and what they record.
    var rules: ThreeWayRules

    init(base: TodoDocument, ours: TodoDocument, theirs: TodoDocument, options: ThreeWayOptions) {
        var index = MergeIndex(sideCount: 3, capacity: base.lineCount + ours.lineCount + theirs.lineCount)
        self.base = MergeSide(base, side: 0, index: &index)
        self.ours = MergeSide(ours, side: 1, index: &index)
        self.theirs = MergeSide(theirs, side: 2, index: &index)
        self.index = index
        self.rules = ThreeWayRules(options: options)
    }

    mutating func run() -> MergeResult {
        let oursCount = ours.document.lineCount
        var units: [MergeUnit?] = []
        units.reserveCapacity(oursCount)
        var onlyOurs: [Bool] = []
        onlyOurs.reserveCapacity(oursCount)
        for line in 0..<oursCount {
            let baseIndex = ours.match(line, in: base, index), theirsIndex = ours.match(line, in: theirs, index)
            units.append(decideOurs(line, ours.keys[line], baseIndex: baseIndex, theirsIndex: theirsIndex))
            // Not an anchor for THEIRS' lines: new here, and THEIRS lacks it or holds another version
            // (a uid both sides created), which is placed on its own.
            onlyOurs.append(baseIndex == nil && (theirsIndex.map { !sameBytes(theirs.content($0), ours.content(line)) } ?? true))
        }
        var fates: [OtherLineFate] = []
        fates.reserveCapacity(theirs.document.lineCount)
        for line in 0..<theirs.document.lineCount {
            fates.append(decideTheirs(line, theirs.keys[line], baseIndex: theirs.match(line, in: base, index),
                                      oursIndex: theirs.match(line, in: ours, index)))
        }
        let assembler = MergeAssembler(first: units, onlyFirst: onlyOurs, otherFates: fates)
        let sorted = ours.isPartitioned && (ours.hasCompletedTask || (base.hasCompletedTask && base.isPartitioned))
        let document = MergeAssembler.render(assembler.orderedUnits(sorted: sorted),
                                             layout: ours.document, fallback: theirs.document)
        return MergeResult(document: document, conflicts: rules.conflicts, reports: rules.reports)
    }

    /// The table's row for a line of OURS (nil: removed).
    mutating func decideOurs(_ index: Int, _ key: MergeKey, baseIndex: Int?, theirsIndex: Int?) -> MergeUnit? {
        let mine = ours.content(index)
        let terminator = ours.document.terminator(at: index)
        let keep = MergeUnit(line: mine, terminator: terminator)
        let uid: String? = if case .uid(let value) = key { value } else { nil }
        guard let baseIndex else {
            // – A –, – A A (once), – A B.
            guard let theirsIndex else { return rules.isArchivedComingBack(uid: uid, mine) ? nil : keep }
            let other = theirs.content(theirsIndex)
            if sameBytes(other, mine) { return keep }
            if rules.options.isDoneFile && uid != nil {
                // The same task archived on both sides: OURS' line only.
                rules.reports.append(MergeReport(kind: .archivedTwiceKeptOnce, uid: uid, text: lossyString(mine), fields: []))
                return keep
            }
            if uid != nil {
                // Both sides hold one task (same uid) that BASE lacks: a cherry-pick's history, or a
                // line copied to both. Two lines with one uid would make it ambiguous: a conflict
                // block for the user to settle (THEIRS' line is matched here, not placed again).
                return rules.conflictBlock(uid: uid, base: nil, ours: mine, theirs: other, fields: [.line], terminator: terminator)
            }
            rules.reports.append(MergeReport(kind: .duplicateUIDAdded, uid: uid, text: lossyString(mine), fields: []))
            return keep
        }
        let original = base.content(baseIndex)
        guard let theirsIndex else {
            // X X – removed; X A – kept and reported, unless THEIRS archived it (stays archived).
            if sameBytes(mine, original) { return nil }
            if rules.staysArchived(uid: uid, base: original, edited: mine) { return nil }
            rules.reports.append(MergeReport(kind: .keptEditedDeletedByThem, uid: uid, text: lossyString(mine), fields: []))
            return keep
        }
        let other = theirs.content(theirsIndex)
        if sameBytes(mine, other) || sameBytes(other, original) { return keep }
        if sameBytes(mine, original) { return MergeUnit(line: other, terminator: terminator) }
        return rules.fieldMerge(uid: uid, base: original, ours: mine, theirs: other, terminator: terminator)
    }

    /// A line of THEIRS: an anchor if OURS has it, else the table's rows for lines OURS lacks.
    mutating func decideTheirs(_ index: Int, _ key: MergeKey, baseIndex: Int?, oursIndex: Int?) -> OtherLineFate {
        let other = theirs.content(index)
        let uid: String? = if case .uid(let value) = key { value } else { nil }
        if let oursIndex {
            // Every key both sides hold is in the result; – A B also keeps THEIRS' version, except in
            // a done file, where the same task archived twice is kept once (OURS', reported there).
            if baseIndex == nil && !sameBytes(ours.content(oursIndex), other) {
                // A uid both hold is one unit (kept once in a done file, a conflict block in a todo file).
                if uid != nil { return .matched(oursIndex) }
                return .placed(MergeUnit(line: other, terminator: nil))
            }
            return .matched(oursIndex)
        }
        guard let baseIndex else {
            // – – A: new in THEIRS. An open task whose uid is archived in a done file comes back from
            // a clone that could not see the archive (an untracked done.txt): it is not resurrected,
            // as reconcile does, and said so.
            if rules.isArchivedComingBack(uid: uid, other) { return .dropped }
            return .placed(MergeUnit(line: other, terminator: nil))
        }
        if sameBytes(base.content(baseIndex), other) { return .dropped }
        if rules.staysArchived(uid: uid, base: base.content(baseIndex), edited: other) { return .dropped }
        rules.reports.append(MergeReport(kind: .keptEditedDeletedByUs, uid: uid, text: lossyString(other), fields: []))
        return .placed(MergeUnit(line: other, terminator: nil))
    }
}

extension MergeFields {
    /// The fields whose value differs between `old` and `new`, in the fixed field order.
    static func changedFields(from old: MergeFields, to new: MergeFields) -> [MergeField] {
        var changed: [MergeField] = []
        if old.completion != new.completion { changed.append(.completion) }
        if old.creationDate != new.creationDate { changed.append(.creationDate) }
        if old.priority != new.priority { changed.append(.priority) }
        for key in Set(old.tags.keys).union(new.tags.keys).sorted() where old.tags[key] != new.tags[key] {
            changed.append(.tag(key))
        }
        if old.projects != new.projects || old.contexts != new.contexts { changed.append(.projectsAndContexts) }
        if old.description != new.description { changed.append(.description) }
        return changed
    }
}
