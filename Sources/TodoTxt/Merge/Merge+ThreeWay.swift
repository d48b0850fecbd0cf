/// The three-way merge: docs/sync.md section 1's table, row by row.
struct ThreeWayMerger {
    let base: MergeSide
    let ours: MergeSide
    let theirs: MergeSide
    let index: MergeIndex
    let options: ThreeWayOptions
    var markerSize: Int { options.markerSize }
    var conflicts: [MergeConflict] = []
    var reports: [MergeReport] = []

    init(base: TodoDocument, ours: TodoDocument, theirs: TodoDocument, options: ThreeWayOptions) {
        var index = MergeIndex(sideCount: 3, capacity: base.lineCount + ours.lineCount + theirs.lineCount)
        self.base = MergeSide(base, side: 0, index: &index)
        self.ours = MergeSide(ours, side: 1, index: &index)
        self.theirs = MergeSide(theirs, side: 2, index: &index)
        self.index = index
        self.options = options
    }

    /// X A – or X – A where the deleting side archived the task: it stays archived (the edited
    /// version is dropped). A text edit, or an open version of a task BASE has completed, is reported:
    /// such a "reopen" cannot be told from a cherry-pick whose BASE is not an ancestor of the other
    /// side (that side never saw the completion), and the task is safe in the done file either way.
    mutating func staysArchived(uid: String?, base original: ArraySlice<UInt8>, edited: ArraySlice<UInt8>) -> Bool {
        guard let uid, options.archivedUIDs.contains(uid) else { return false }
        let before = TodoItem(original), after = TodoItem(edited)
        let reopened = before.isCompleted && !after.isCompleted
        if reopened || MergeFields(before).description != MergeFields(after).description {
            reports.append(MergeReport(kind: .archivedTextEditDropped, uid: uid, text: lossyString(edited), fields: [.description]))
        }
        return true
    }

    /// – A – or – – A: a task new on one side only. When it is open and its uid is archived in a done
    /// file, it is that task coming back (from a clone that could not see the archive, or through a
    /// cherry-pick that gave the two sides different histories): not resurrected, and said so.
    mutating func isArchivedComingBack(uid: String?, _ line: ArraySlice<UInt8>) -> Bool {
        guard let uid, options.archivedUIDs.contains(uid), !TodoItem(line).isCompleted else { return false }
        reports.append(MergeReport(kind: .notResurrected, uid: uid, text: lossyString(line), fields: []))
        return true
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
        return MergeResult(document: document, conflicts: conflicts, reports: reports)
    }

    /// The table's row for a line of OURS (nil: removed).
    mutating func decideOurs(_ index: Int, _ key: MergeKey, baseIndex: Int?, theirsIndex: Int?) -> MergeUnit? {
        let mine = ours.content(index)
        let terminator = ours.document.terminator(at: index)
        let keep = MergeUnit(line: mine, terminator: terminator)
        let uid: String? = if case .uid(let value) = key { value } else { nil }
        guard let baseIndex else {
            // – A –, – A A (once), – A B.
            guard let theirsIndex else { return isArchivedComingBack(uid: uid, mine) ? nil : keep }
            let other = theirs.content(theirsIndex)
            if sameBytes(other, mine) { return keep }
            if options.isDoneFile && uid != nil {
                // The same task archived on both sides: OURS' line only.
                reports.append(MergeReport(kind: .archivedTwiceKeptOnce, uid: uid, text: lossyString(mine), fields: []))
                return keep
            }
            if uid != nil {
                // Both sides hold one task (same uid) that BASE lacks: a cherry-pick's history, or a
                // line copied to both. Two lines with one uid would make it ambiguous: a conflict
                // block for the user to settle (THEIRS' line is matched here, not placed again).
                return conflictBlock(uid: uid, base: nil, ours: mine, theirs: other, fields: [.line], terminator: terminator)
            }
            reports.append(MergeReport(kind: .duplicateUIDAdded, uid: uid, text: lossyString(mine), fields: []))
            return keep
        }
        let original = base.content(baseIndex)
        guard let theirsIndex else {
            // X X – removed; X A – kept and reported, unless THEIRS archived it (stays archived).
            if sameBytes(mine, original) { return nil }
            if staysArchived(uid: uid, base: original, edited: mine) { return nil }
            reports.append(MergeReport(kind: .keptEditedDeletedByThem, uid: uid, text: lossyString(mine), fields: []))
            return keep
        }
        let other = theirs.content(theirsIndex)
        if sameBytes(mine, other) || sameBytes(other, original) { return keep }
        if sameBytes(mine, original) { return MergeUnit(line: other, terminator: terminator) }
        return fieldMerge(uid: uid, base: original, ours: mine, theirs: other, terminator: terminator)
    }

    /// X A B: merge field by field, or leave a conflict block.
    mutating func fieldMerge(uid: String?, base original: ArraySlice<UInt8>, ours mine: ArraySlice<UInt8>,
                             theirs other: ArraySlice<UInt8>, terminator: LineTerminator) -> MergeUnit {
        let oursItem = TodoItem(mine), theirsItem = TodoItem(other)
        let oursFields = MergeFields(oursItem)
        let (target, unresolved) = MergeFields.threeWay(base: MergeFields(TodoItem(original)),
                                                        ours: oursFields, theirs: MergeFields(theirsItem))
        var fields = unresolved
        if unresolved.isEmpty {
            let carrier = target.description == oursFields.description ? oursItem : theirsItem
            if let merged = carrier.rewritten(toMatch: target) {
                let changed = MergeFields.changedFields(from: MergeFields(TodoItem(original)), to: target)
                reports.append(MergeReport(kind: .fieldsMerged, uid: uid, text: lossyString(merged), fields: changed))
                return MergeUnit(line: merged[...], terminator: terminator)
            }
            fields = [.line]
        }
        return conflictBlock(uid: uid, base: original, ours: mine, theirs: other, fields: fields, terminator: terminator)
    }

    /// Both versions between conflict markers (OURS' first), recorded and reported.
    mutating func conflictBlock(uid: String?, base original: ArraySlice<UInt8>?, ours mine: ArraySlice<UInt8>,
                                theirs other: ArraySlice<UInt8>, fields: [MergeField], terminator: LineTerminator) -> MergeUnit {
        if let settlement = options.settlement {
            return settled(uid: uid, ours: mine, theirs: other, fields: fields, terminator: terminator, tags: settlement)
        }
        conflicts.append(MergeConflict(uid: uid, base: original.map { Array($0) }, ours: Array(mine), theirs: Array(other),
                                       fields: fields))
        reports.append(MergeReport(kind: .conflict, uid: uid, text: lossyString(mine), fields: fields))
        func marker(_ character: UInt8, _ label: String) -> MergeLine {
            let bytes = Array(repeating: character, count: markerSize) + (label.isEmpty ? [] : [0x20] + Array(label.utf8))
            return MergeLine(content: bytes[...], terminator: nil)
        }
        return MergeUnit([marker(0x3C, options.oursLabel), MergeLine(content: mine, terminator: nil), marker(0x3D, ""),
                          MergeLine(content: other, terminator: nil), marker(0x3E, options.theirsLabel)],
                         isCompleted: TodoItem(mine).isCompleted)
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
            if isArchivedComingBack(uid: uid, other) { return .dropped }
            return .placed(MergeUnit(line: other, terminator: nil))
        }
        if sameBytes(base.content(baseIndex), other) { return .dropped }
        if staysArchived(uid: uid, base: base.content(baseIndex), edited: other) { return .dropped }
        reports.append(MergeReport(kind: .keptEditedDeletedByUs, uid: uid, text: lossyString(other), fields: []))
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
