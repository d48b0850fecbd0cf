import Testing
import TodoTxt

/// The three-way merge in its settling form (`ThreeWayOptions.settlement`, what `todo sync` runs the
/// driver with): a conflict becomes both versions, the one further along first, the other tagged,
/// never markers (docs/sync.md section 3).
@Suite struct MergeSettlementTests {
    private let settling = ThreeWayOptions(settlement: ConflictSettlement(oursTag: "laptop", theirsTag: "remote"))

    private func merge(_ base: String, _ ours: String, _ theirs: String) -> (lines: [String], result: MergeResult) {
        let result = TodoMerge.threeWay(base: TodoDocument(base), ours: TodoDocument(ours), theirs: TodoDocument(theirs),
                                        options: settling)
        return (String(decoding: result.bytes, as: UTF8.self).split(separator: "\n").map(String.init), result)
    }

    @Test func aTextConflictKeepsOursFirstAndTagsTheirs() {
        let (lines, result) = merge("buy milk uid:k1\npay rent uid:k2\n", "buy oat milk uid:k1\npay rent uid:k2\n",
                                    "buy soy milk uid:k1\npay rent uid:k2\n")
        #expect(lines == ["buy oat milk uid:k1", "buy soy milk uid:k1 conflict:remote", "pay rent uid:k2"])
        #expect(result.isClean)
        #expect(ConflictMarkers.firstBlockLine(in: result.bytes) == nil)
        #expect(result.reports.map(\.kind) == [.keptBothVersions])
    }

    @Test func theCompletedVersionLeadsAndOursIsTaggedWithTheHost() {
        let (lines, _) = merge("call mom uid:k1\n", "call mum uid:k1\n", "x 2026-12-01 call mother uid:k1\n")
        #expect(lines == ["x 2026-12-01 call mother uid:k1", "call mum uid:k1 conflict:laptop"])
    }

    @Test func twoDifferentPrioritiesKeepBothVersions() {
        let (lines, result) = merge("(C) call mom uid:k1\n", "(A) call mom uid:k1\n", "(B) call mom uid:k1\n")
        #expect(lines == ["(A) call mom uid:k1", "(B) call mom uid:k1 conflict:remote"])
        #expect(result.isClean)
    }

    @Test func whatTheTwoWayRulesCanMergeIsOneLine() {
        // One side removed the due date, the other moved it: a conflict for the three-way merge;
        // for the two-way rules a value beats none, so one line holds the moved date.
        let (lines, result) = merge("pay rent due:2026-12-01 uid:k1\n", "pay rent uid:k1\n", "pay rent due:2026-12-05 uid:k1\n")
        #expect(lines == ["pay rent due:2026-12-05 uid:k1"] || lines == ["pay rent uid:k1 due:2026-12-05"])
        #expect(result.reports.map(\.kind) == [.fieldsMerged])
    }

    @Test func withoutASettlementTheConflictStaysABlock() {
        let result = TodoMerge.threeWay(base: TodoDocument("buy milk uid:k1\n"), ours: TodoDocument("buy oat milk uid:k1\n"),
                                        theirs: TodoDocument("buy soy milk uid:k1\n"))
        #expect(!result.isClean)
        #expect(ConflictMarkers.firstBlockLine(in: result.bytes) == 1)
    }

    @Test func bothSidesAddingOneUidWithDifferentTextIsSettledToo() {
        let (lines, result) = merge("", "buy milk uid:k1\n", "buy bread uid:k1\n")
        #expect(lines == ["buy milk uid:k1", "buy bread uid:k1 conflict:remote"])
        #expect(result.isClean)
    }
}
