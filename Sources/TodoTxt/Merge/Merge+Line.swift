/// What merging one task line gives (`TodoMerge.threeWayLine`).
public enum LineMergeResult: Sendable, Equatable {
    /// The two changes combined (or the one change, when the other side changed nothing): the line
    /// to write.
    case merged([UInt8])
    /// Both sides changed `fields` differently, or every field merged but the line could not be
    /// rebuilt exactly (`fields` is then `[.line]`). `preferringOurs` is the line with OURS' value for
    /// those fields and every other field merged as in a clean merge; nil when that line cannot be
    /// rebuilt exactly either.
    case conflict(fields: [MergeField], preferringOurs: [UInt8]?)
}

extension TodoMerge {
    /// Merges two changes of one task line, OURS and THEIRS, both made from BASE: the rules
    /// `threeWay` applies to a task both sides changed (docs/sync.md section 1, "Field merge"), for
    /// a program that holds one task's edit while the file changes under it (`todo ui`'s edit
    /// field: BASE the line when the field opened, OURS that line with the user's text, THEIRS the
    /// line as the file holds it now).
    ///
    /// Byte-exact shortcuts first: OURS equal to THEIRS, or THEIRS equal to BASE, gives OURS; OURS
    /// equal to BASE gives THEIRS. Otherwise field by field: the side that changed a field wins,
    /// projects and contexts are merged name by name, and the merged line keeps the layout of the side
    /// whose description it has (the other side's additions are appended to it).
    public static func threeWayLine(base: some Collection<UInt8>, ours: some Collection<UInt8>,
                                    theirs: some Collection<UInt8>) -> LineMergeResult {
        let base = Array(base), ours = Array(ours), theirs = Array(theirs)
        if ours == theirs || theirs == base { return .merged(ours) }
        if ours == base { return .merged(theirs) }
        let oursItem = TodoItem(ours), theirsItem = TodoItem(theirs)
        let oursFields = MergeFields(oursItem), theirsFields = MergeFields(theirsItem)
        // For an unresolved field `target` holds OURS' value, so the same rebuild gives both the
        // clean merge and the line that prefers OURS.
        let (target, unresolved) = MergeFields.threeWay(base: MergeFields(TodoItem(base)), ours: oursFields,
                                                        theirs: theirsFields)
        let oursCarries = target.description == oursFields.description
        let carrier = oursCarries ? oursItem : theirsItem
        let rebuilt = carrier.rewritten(toMatch: target, from: oursCarries ? oursFields : theirsFields)
        guard unresolved.isEmpty else { return .conflict(fields: unresolved, preferringOurs: rebuilt) }
        guard let rebuilt else { return .conflict(fields: [.line], preferringOurs: nil) }
        return .merged(rebuilt)
    }
}
