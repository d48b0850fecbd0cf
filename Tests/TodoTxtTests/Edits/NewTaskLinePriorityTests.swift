import Testing
import TodoTxt

/// The add priority (`TODOTXT_PRIORITY_ON_ADD`), the rule `todo add` and TodoStore's `add` share.
struct NewTaskLinePriorityTests {
    let date = TodoDate(year: 2026, month: 12, day: 2)
    let b = Priority("B")

    func line(_ text: String, uid: String? = "k3f9qz") -> String {
        String(decoding: TodoItem.newTaskLine(Array(text.utf8), creationDate: date, uid: uid, priority: b), as: UTF8.self)
    }

    @Test func aTaskWithoutPriorityGetsTheAddPriorityInFront() {
        #expect(line("call mom") == "(B) 2026-12-02 call mom uid:k3f9qz")
    }

    @Test func aTextsOwnPriorityWins() {
        #expect(line("(a) call mom") == "(A) 2026-12-02 call mom uid:k3f9qz")
    }

    @Test func aDoneTextGetsNoPriority() {
        #expect(line("x 2026-12-01 called mom", uid: nil) == "x 2026-12-01 called mom")
    }

    @Test func withoutAnAddPriorityItIsTheOldRule() {
        let text = Array("call mom".utf8)
        #expect(TodoItem.newTaskLine(text, creationDate: date, uid: nil, priority: nil)
                == TodoItem.newTaskLine(text, creationDate: date, uid: nil))
    }
}
