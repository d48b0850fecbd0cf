import Foundation
import Observation
import Testing
import TodoStore
import TodoTestSupport
#if canImport(Glibc)
import Glibc
#endif

// The model of the article "A SwiftUI to-do list on a todo.txt file"
// (Sources/TodoStore/TodoStore.docc/SwiftUIToDoList.md), verbatim: everything of the app but its
// SwiftUI views, compiled and run here (SwiftUI is not on Linux).

/// What the list screen holds besides the store: the text being typed, the task being edited, and
/// the last problem to show.
@MainActor @Observable
final class TodoListModel {
    let store: TodoStore
    var draft = ""
    var editing: TodoTask?
    var editedText = ""
    var problem: String?

    init(path: String) throws {
        store = try TodoStore(path: path)
    }

    /// The return key in the text field: a new task, as `todo add` writes it.
    func addDraft() async {
        let text = draft
        draft = ""
        await attempt { _ = try await store.add(text) }
    }

    /// A tap on a row: done (it sinks below the open tasks) or open again.
    func tap(_ task: TodoTask) async {
        await attempt { try await store.toggle(task) }
    }

    /// A swipe to delete (`onDelete`): the offsets are those of `store.tasks`, the list's rows.
    func delete(at offsets: IndexSet) async {
        await attempt { try await store.remove(atOffsets: offsets) }
    }

    /// A long press: edit the task's text (without its dates, priority and uid, which are kept).
    func beginEditing(_ task: TodoTask) {
        editing = task
        editedText = task.text
    }

    func commitEdit() async {
        guard let task = editing else { return }
        editing = nil
        await attempt { try await store.rename(task, to: editedText) }
    }

    /// Shake to undo.
    func undo() async {
        await attempt { try await store.undo() }
    }

    /// Every write throws a `TodoStoreError` worded for the user; the file is unchanged then.
    private func attempt(_ change: () async throws -> Void) async {
        do {
            try await change()
            problem = nil
        } catch {
            problem = error.localizedDescription
        }
    }
}

/// The article's model doing what the article says it does.
@MainActor struct ArticleModelTests {
    let directory = TemporaryDirectory("article")
    var path: String { directory.file("todo.txt") }

    @Test func theListScreensIntents() async throws {
        writeFile(path, "call mom\n")
        let model = try TodoListModel(path: path)
        let live = Task { await model.store.follow() }
        defer { live.cancel() }

        model.draft = "Buy milk @shop"
        await model.addDraft()
        #expect(model.draft.isEmpty && model.store.tasks.map(\.text) == ["call mom", "Buy milk @shop"])

        let milk = model.store.tasks[1]
        await model.tap(try #require(model.store.tasks.first))
        #expect(model.store.tasks.map(\.text) == ["Buy milk @shop", "call mom"], "the done task sank")
        #expect(model.store.tasks[1].isDone)

        model.beginEditing(milk)
        #expect(model.editedText == "Buy milk @shop")
        model.editedText = "Buy oat milk @shop"
        await model.commitEdit()
        #expect(model.store.tasks.first?.id == milk.id && model.store.tasks.first?.text == "Buy oat milk @shop")

        await model.delete(at: IndexSet([1]))
        #expect(model.store.tasks.map(\.text) == ["Buy oat milk @shop"])
        await model.undo()
        #expect(model.store.tasks.count == 2)

        // Live updates: a line added in a shell shows up.
        writeFile(path, "from a shell\n", flags: O_WRONLY | O_APPEND)
        // Chances rather than a deadline (see LiveStoreTests.eventually).
        for _ in 0..<3_000 where !model.store.tasks.contains(where: { $0.text == "from a shell" }) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(model.store.tasks.contains { $0.text == "from a shell" })

        model.draft = "   "
        await model.addDraft()
        #expect(model.problem == "That can't be saved: the task text is empty.")
    }
}
