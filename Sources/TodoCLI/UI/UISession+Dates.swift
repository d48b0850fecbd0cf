import TodoTerminal
import TodoTxt

extension UISession {
    /// The add or edit field's text with the relative dates typed in it resolved, as `todo add`
    /// resolves them (`RelativeDateTags`; off with `TODO_RELATIVE_DATES=0`); the date tags of
    /// `kept` (the task's line before the edit) stay as they are. Nil when a value is not a date:
    /// the reason is on the status line, nothing is written, and the caller keeps the field in
    /// `refusedField`, so that `a` (or `e` on that task) opens it again as typed, to be corrected.
    func resolvingRelativeDates(_ text: String, keeping kept: [UInt8] = []) -> String? {
        guard TodoNameActions.settings(for: invocation).relativeDates else { return text }
        do throws(RelativeDateError) {
            let resolved = try RelativeDateTags.resolving(Array(text.utf8), today: today, keeping: kept)
            return String(decoding: resolved, as: UTF8.self)
        } catch {
            message = error.description
            return nil
        }
    }

    /// `a`: the add field, holding a refused add's text when there is one.
    func openAddField() {
        if case .adding(let editor) = refusedField {
            refusedField = nil
            mode = .adding(editor)
        } else {
            mode = .adding(LineEditor())
        }
    }

    /// `e` or Enter on `task`: its edit field, holding a refused edit of this task when there is one.
    func openEditField(_ task: TaskIdentity) {
        if case .editing(let edit) = refusedField, edit.task.locate(in: list.document) == task.index {
            refusedField = nil
            mode = .editing(edit)
        } else {
            mode = .editing(UIEdit(task, in: list.document))
        }
    }
}
