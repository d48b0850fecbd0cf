import Testing
import TodoTxt

/// The counts of a sync commit's message (`todo: 2 added, 1 done, 1 archived`).
@Suite struct TodoChangeSummaryTests {
    private func summary(_ oldTodo: String, _ oldDone: String, _ newTodo: String, _ newDone: String) -> String {
        TodoChangeSummary(oldTodo: TodoDocument(oldTodo), oldDone: TodoDocument(oldDone),
                          newTodo: TodoDocument(newTodo), newDone: TodoDocument(newDone)).description
    }

    @Test func addedDoneArchivedEditedRemovedAndReopened() {
        let old = "a uid:1\nb uid:2\nc uid:3\nd uid:4\nx 2026-12-01 e uid:5\nf uid:6\n"
        let new = "a uid:1\nx 2026-12-02 b uid:2\nc changed uid:3\ne uid:5\ng uid:7\nh uid:8\n"
        // d removed; f completed and archived; g and h added.
        #expect(summary(old, "", new, "x 2026-12-02 f uid:6\n") == "2 added, 2 done, 1 reopened, 1 edited, 1 archived, 1 removed")
    }

    @Test func linesWithoutUidsAreMatchedByTheirTextAfterTheHeader() {
        #expect(summary("(A) call mom\n", "", "x 2026-12-02 (A) call mom\n", "") == "1 done")
        #expect(summary("call mom\n", "", "call mom\ncall mom\n", "") == "1 added")
    }

    @Test func orderAndBlankLinesCountNothing() {
        let change = TodoChangeSummary(oldTodo: TodoDocument("a uid:1\nb uid:2\n"), oldDone: TodoDocument(),
                                       newTodo: TodoDocument("b uid:2\n\na uid:1\n"), newDone: TodoDocument())
        #expect(change.isEmpty)
        #expect(change.description == "")
    }

    @Test func archivingACompletedTaskIsArchivedOnly() {
        #expect(summary("x 2026-12-01 a uid:1\nb uid:2\n", "", "b uid:2\n", "x 2026-12-01 a uid:1\n") == "1 archived")
    }
}
