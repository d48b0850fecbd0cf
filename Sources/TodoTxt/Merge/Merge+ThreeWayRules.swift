/// The rows of the three-way table (docs/sync.md section 1) that look into a task beyond its key and
/// bytes: archived tasks, the field merge and conflict blocks; shared by the general merge
/// (`ThreeWayMerger`) and the compact one (`CompactThreeWay`), which record through it in the same order.
struct ThreeWayRules {
    let options: ThreeWayOptions
    var markerSize: Int { options.markerSize }
    var conflicts: [MergeConflict] = []
    var reports: [MergeReport] = []

    init(options: ThreeWayOptions) {
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

    /// – A – or – – A: a task new on one side only. When its uid is archived in a done file, it is
    /// that task coming back (from a clone that could not see the archive, or through a cherry-pick
    /// that gave the two sides different histories): not resurrected, and said so. Completed too:
    /// kept beside its done copy, the next `todo archive` would put it in the done file a second
    /// time. Never in a done file's own merge, whose lines are all archived tasks.
    mutating func isArchivedComingBack(uid: String?, _ line: ArraySlice<UInt8>) -> Bool {
        guard let uid, !options.isDoneFile, options.archivedUIDs.contains(uid) else { return false }
        reports.append(MergeReport(kind: .notResurrected, uid: uid, text: lossyString(line), fields: []))
        return true
    }

    /// X A B: merge field by field, or leave a conflict block.
    mutating func fieldMerge(uid: String?, base original: ArraySlice<UInt8>, ours mine: ArraySlice<UInt8>,
                             theirs other: ArraySlice<UInt8>, terminator: LineTerminator) -> MergeUnit {
        let oursItem = TodoItem(mine), theirsItem = TodoItem(other)
        let baseFields = MergeFields(TodoItem(original)), oursFields = MergeFields(oursItem), theirsFields = MergeFields(theirsItem)
        let (target, unresolved) = MergeFields.threeWay(base: baseFields, ours: oursFields, theirs: theirsFields)
        var fields = unresolved
        if unresolved.isEmpty {
            let oursCarries = target.description == oursFields.description
            let carrier = oursCarries ? oursItem : theirsItem
            if let merged = carrier.rewritten(toMatch: target, from: oursCarries ? oursFields : theirsFields) {
                let changed = MergeFields.changedFields(from: baseFields, to: target)
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
}
