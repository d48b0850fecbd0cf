import TodoFileSystem
import TodoTerminal
import TodoTxt

/// The list's one-key changes: done and not done, add, priority, delete, sort, undo; each one
/// compare-and-swap write through `change` (UISession.swift).
extension UISession {
    func toggle(_ task: TaskIdentity) {
        let now = nowSeconds
        var what = ""
        change(what) { (document: inout TodoDocument, record: inout ChangeRecord) throws(LiveEditError) in
            // Set on every run: a compare-and-swap retry runs this again on the file as it is then.
            what = "marked done"
            let index = try file.locate(task, in: document)
            var item = document.item(at: index)
            if item.isCompleted {
                what = "marked not done"
                guard let line = item.uncompleted() else { return nil }
                record.replace(at: index, with: line, in: &document)
                return TaskIdentity(index: index, in: document)
            }
            // A tracked task is stopped first, in the same write (docs/todo-command.md, "Time tracking").
            item = try stoppingTracking(item, number: index + 1, at: now)
            guard let line = item.completed(on: today) else { return nil }
            record.replace(at: index, with: line, in: &document)
            if item.recurrence.value != nil {
                // The done file only now: only a recurring task needs a fresh uid.
                let done = invocation.files.documentIfReadable(invocation.doneFilePath(forTodoFile: file.path))
                let uid = UID.generate(using: &uids, unusedIn: document, and: done)
                if let next = item.nextRecurrence(completedOn: today, uid: uid) {
                    let added = record.append(next, in: &document)
                    what = "marked done; the next one added as task \(added + 1)"
                }
            }
            return TaskIdentity(index: index, in: document)
        }
    }

    /// Adds `typed` as `todo add` would (its relative dates resolved, `resolvingRelativeDates`): the same line (`AddActions.newLine`), a uid unused in the
    /// todo and done files; a text that is only a header (`(A)`) is as empty as none.
    func add(_ typed: String) {
        let creationDate = addsCreationDate ? today : nil
        guard let text = resolvingRelativeDates(typed) else {
            refusedField = .adding(LineEditor(typed))
            return
        }
        guard TodoItem(AddActions.newLine(Array(text.utf8), creationDate: creationDate, uid: nil, priorityOnAdd: nil)).hasDescription else {
            message = "the task text is empty; nothing added"
            return
        }
        let done = addsUID ? invocation.files.documentIfReadable(invocation.doneFilePath(forTodoFile: file.path)) : nil
        change("added") { (document: inout TodoDocument, record: inout ChangeRecord) throws(LiveEditError) in
            let uid = addsUID ? UID.generate(using: &uids, unusedIn: document, and: done) : nil
            let line = AddActions.newLine(Array(text.utf8), creationDate: creationDate, uid: uid, priorityOnAdd: priorityOnAdd)
            let index = record.append(line, in: &document)
            return TaskIdentity(index: index, in: document)
        }
    }

    func prioritize(_ task: TaskIdentity, _ priority: Priority?) {
        change(priority.map { "priority \(Character(Unicode.Scalar($0.letter)))" } ?? "priority removed") { (document: inout TodoDocument, record: inout ChangeRecord) throws(LiveEditError) in
            let index = try file.locate(task, in: document)
            let item = document.item(at: index)
            let line: [UInt8]
            do throws(TaskEditError) { line = try item.prioritized(priority) } catch { throw .edit(error) }
            guard !line.elementsEqual(item.content) else { return nil }
            record.replace(at: index, with: line, in: &document)
            return TaskIdentity(index: index, in: document)
        }
    }

    func delete(_ task: TaskIdentity) {
        change("deleted") { (document: inout TodoDocument, record: inout ChangeRecord) throws(LiveEditError) in
            let index = try file.locate(task, in: document)
            record.remove(at: index, in: &document)
            return nil
        }
    }

    func sort() {
        var what = ""
        change(what) { (document: inout TodoDocument, record: inout ChangeRecord) throws(LiveEditError) in
            what = "sorted"
            let order = document.sortedOrder()
            if order.elementsEqual(0..<document.lineCount) {
                what = "already sorted"
                return list.selectedTask
            }
            record.reorder(&document, by: order)
            return list.selectedTask
        }
    }

    /// Takes back the last change made here: each changed line found again by its new bytes and
    /// given its old ones, an added line removed, a deleted one put back where it was.
    func undo() {
        guard let step = undoSteps.popLast() else {
            message = "nothing to undo"
            return
        }
        let undone = change("undone: \(step.what)") { (document: inout TodoDocument, _: inout ChangeRecord) throws(LiveEditError) in
            do throws(UndoError) {
                try document.undo(step.record)
            } catch {
                switch error {
                case .lineGone(let index, let content):
                    throw .taskGone(path: file.path, task: TaskIdentity(index: index, content: content, uid: nil))
                case .changedSinceReordering:
                    throw .changedMeanwhile(path: file.path)
                }
            }
            return nil
        }
        // `change` recorded nothing for the undo itself; a failed undo stays undoable.
        if !undone { undoSteps.append(step) }
    }
}
