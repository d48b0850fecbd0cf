import Testing
@testable import TodoTxt

/// What `todo ui` lists: open tasks first, then completed ones; hidden ones only when asked; the
/// filter's terms as `todo ls` reads them; the selection kept on its task across new versions.
struct TaskListTests {
    let today = TodoDate(year: 2026, month: 12, day: 2)!

    func view(_ text: String, showHidden: Bool = false) -> TaskList {
        TaskList(document: TodoDocument(text), today: today, showHidden: showHidden)
    }

    @Test func openTasksFirstThenCompletedBlankLinesSkipped() {
        let list = view("x 2026-01-01 paid\n\n(A) call\nbuy milk\n")
        #expect(list.rows == [2, 3, 0])
    }

    @Test func hiddenTasksOnlyWhenAsked() {
        let text = "a h:1\nb t:2027-01-01\nc t:2026-01-01\n"
        #expect(view(text).rows == [2])
        #expect(view(text, showHidden: true).rows == [0, 1, 2])
    }

    @Test func theFilterReadsTermsAsTodoLsDoes() {
        var list = view("call mom +family\nbuy milk @shop\nCafé visit\n")
        list.setFilter("milk")
        #expect(list.rows == [1])
        list.setFilter("mil")
        #expect(list.rows == [0, 1], "+family holds mil too")
        list.setFilter("cafe")
        #expect(list.rows == [2], "plain terms ignore case and accents")
        list.setFilter("-mom")
        #expect(list.rows == [1, 2])
        list.setFilter("")
        #expect(list.rows == [0, 1, 2])
    }

    @Test func theSelectionStaysOnItsTaskInANewVersion() {
        var list = view("call mom\nbuy milk uid:m2x8ab\n")
        list.move(by: 1)
        list.replaceDocument(TodoDocument("first\ncall mom\nbuy oat milk uid:m2x8ab\n"))
        #expect(list.selectedTask?.uid == "m2x8ab")
        #expect(list.rows[list.selected] == 2)
    }
}
