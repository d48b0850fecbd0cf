/// How an unattended merge (`todo sync`) settles what would otherwise be a conflict block: as
/// `todo reconcile` settles a conflict copy (docs/sync.md section 2), both versions kept.
public struct ConflictSettlement: Sendable, Equatable {
    /// The `conflict:` tag's value on OURS' version when it is the one kept second.
    public var oursTag: String
    /// The `conflict:` tag's value on THEIRS' version when it is the one kept second.
    public var theirsTag: String

    public init(oursTag: String = "local", theirsTag: String = "remote") {
        self.oursTag = oursTag
        self.theirsTag = theirsTag
    }
}

extension ThreeWayRules {
    /// A task both sides changed so that the field merge cannot combine them, settled without
    /// markers: the version further along leads (completed beats open; equally far, OURS'), every
    /// field the two-way rules can merge is merged into it, and when a difference remains the other
    /// version follows it unchanged but for a `conflict:` tag naming its side. The second line keeps
    /// the uid; the first owns it (docs/format.md section 4). Reported as `keptBothVersions`, or as
    /// `fieldsMerged` when the two-way rules settle every field (a value beats none, done beats open).
    mutating func settled(uid: String?, ours mine: ArraySlice<UInt8>, theirs other: ArraySlice<UInt8>,
                          fields: [MergeField], terminator: LineTerminator, tags: ConflictSettlement) -> MergeUnit {
        let oursItem = TodoItem(mine), theirsItem = TodoItem(other)
        let theirsLeads = theirsItem.isCompleted && !oursItem.isCompleted
        let (leader, follower) = theirsLeads ? (theirsItem, oursItem) : (oursItem, theirsItem)
        let leaderFields = MergeFields(leader)
        let (target, unresolved) = MergeFields.twoWay(preferred: leaderFields, other: MergeFields(follower))
        let merged = leader.rewritten(toMatch: target, from: leaderFields)
        if unresolved.isEmpty, let merged {
            reports.append(MergeReport(kind: .fieldsMerged, uid: uid, text: lossyString(merged), fields: fields))
            return MergeUnit(line: merged[...], terminator: terminator)
        }
        let kept = merged.map { $0[...] } ?? leader.content
        let marked = follower.settingTag("conflict", to: theirsLeads ? tags.oursTag : tags.theirsTag)
        reports.append(MergeReport(kind: .keptBothVersions, uid: uid, text: lossyString(kept),
                                   fields: merged == nil ? [.line] : unresolved))
        return MergeUnit([MergeLine(content: kept, terminator: terminator), MergeLine(content: marked[...], terminator: nil)],
                         isCompleted: leader.isCompleted)
    }
}
