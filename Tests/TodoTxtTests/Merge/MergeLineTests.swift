import Testing
import TodoTxt

/// `TodoMerge.threeWayLine`: one task's edit merged with a change made elsewhere to the same task
/// (what `todo ui` writes on Enter when the task changed while its text was being edited).
@Suite struct MergeLineTests {
    private func merge(_ base: String, _ ours: String, _ theirs: String) -> LineMergeResult {
        TodoMerge.threeWayLine(base: Array(base.utf8), ours: Array(ours.utf8), theirs: Array(theirs.utf8))
    }

    private func merged(_ text: String) -> LineMergeResult { .merged(Array(text.utf8)) }

    @Test func oneSideUnchangedGivesTheOtherByteForByte() {
        // Only spacing changed on one side: still that side's bytes, not a rebuilt line.
        #expect(merge("buy milk uid:m1", "buy  milk uid:m1", "buy milk uid:m1") == merged("buy  milk uid:m1"))
        #expect(merge("buy milk uid:m1", "buy milk uid:m1", "(A) buy milk uid:m1") == merged("(A) buy milk uid:m1"))
        #expect(merge("buy milk uid:m1", "(B) buy milk uid:m1", "(B) buy milk uid:m1") == merged("(B) buy milk uid:m1"))
    }

    @Test func theIssuesCaseKeepsTheAppendAndThePriority() {
        // The edit field said `buy milk`, the user typed ` today`; elsewhere `todo append` and
        // `todo pri A` ran. Everything stays: the user's text, the priority, the project, the due date.
        let result = merge("buy milk uid:milk01", "buy milk today uid:milk01", "(A) buy milk +shop due:2026-12-05 uid:milk01")
        #expect(result == merged("(A) buy milk today uid:milk01 due:2026-12-05 +shop"))
    }

    @Test func theOtherSidesTextWithOurPriorityCarriesTheirLayout() {
        let result = merge("call mom @phone uid:k1", "(A) call mom @phone uid:k1", "call mom tonight @phone uid:k1")
        #expect(result == merged("(A) call mom tonight @phone uid:k1"))
    }

    @Test func bothRemovingAndAddingProjectsMergeNameByName() {
        let result = merge("fix bike +garage +home uid:k1", "fix bike +home +tools uid:k1", "fix bike +garage uid:k1 due:2026-01-02")
        #expect(result == merged("fix bike +tools uid:k1 due:2026-01-02"))
    }

    @Test func bothChangingTheTextIsAConflictThatCanPreferOurs() {
        let result = merge("(B) buy milk +shop uid:k1", "(B) buy oat milk +shop uid:k1", "(A) buy soy milk +shop uid:k1")
        // Ours' text; their priority (only they changed it) merged in.
        #expect(result == .conflict(fields: [.description], preferringOurs: Array("(A) buy oat milk +shop uid:k1".utf8)))
    }

    @Test func bothChangingOneTagAndThePriorityListsEveryField() {
        let result = merge("pay rent due:2026-01-01 uid:k1", "(A) pay rent due:2026-01-03 uid:k1", "(C) pay rent due:2026-01-02 uid:k1")
        #expect(result == .conflict(fields: [.priority, .tag("due")], preferringOurs: Array("(A) pay rent due:2026-01-03 uid:k1".utf8)))
    }

    @Test func completionOnOneSideAndATextEditOnTheOther() {
        let result = merge("water plants uid:k1", "water the plants uid:k1", "x 2026-12-02 water plants uid:k1")
        #expect(result == merged("x 2026-12-02 water the plants uid:k1"))
        // Completed on different days on both sides: the completion field conflicts.
        let twice = merge("water plants uid:k1", "x 2026-12-01 water plants uid:k1", "x 2026-12-02 water plants uid:k1")
        #expect(twice == .conflict(fields: [.completion], preferringOurs: Array("x 2026-12-01 water plants uid:k1".utf8)))
    }

    @Test func aMergeTheLineCannotBeRebuiltForIsAConflictNotAnOddLine() {
        // Two pri: tags on a completed line: the first is its priority, the second a tag. Ours drops
        // the second, theirs edits the text: every field merges, but on their line the tag cannot be
        // removed without the priority, so no line is guessed at.
        let result = merge("x 2026-12-01 call mom pri:A pri:B uid:k1", "x 2026-12-01 call mom pri:A uid:k1",
                           "x 2026-12-01 call dad pri:A pri:B uid:k1")
        #expect(result == .conflict(fields: [.line], preferringOurs: nil))
    }

    @Test func agreesWithTheWholeFileMergeOnEveryChangedTask() {
        let cases = [("buy milk uid:m1", "buy milk today uid:m1", "(A) buy milk +shop due:2026-12-05 uid:m1"),
                     ("call mom @phone uid:k1", "(A) call mom @phone uid:k1", "call mom tonight @phone uid:k1"),
                     ("fix bike +garage +home uid:k1", "fix bike +home +tools uid:k1", "fix bike +garage uid:k1 due:2026-01-02")]
        for (base, ours, theirs) in cases {
            let file = TodoMerge.threeWay(base: TodoDocument(base + "\n"), ours: TodoDocument(ours + "\n"),
                                          theirs: TodoDocument(theirs + "\n"))
            let whole = String(decoding: file.bytes, as: UTF8.self)
            #expect(merge(base, ours, theirs) == merged(String(whole.dropLast())), "\(base)")
        }
    }
}
