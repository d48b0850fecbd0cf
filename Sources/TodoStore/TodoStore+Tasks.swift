import Foundation
import TodoFileSystem

/// The changes an app makes, each one write (docs/store.md, "Writes"), each with the `todo`
/// command's rules (docs/todo-command.md): the edits are TodoTxt's.
extension TodoStore {
    /// Adds a task at the end of the file, as `todo add` does: CR and LF become spaces, `(a)` is
    /// upper-cased, today's date goes in as the creation date and a fresh uid at the end (see
    /// `Options`). Returns the task as written (it may be filtered out of `tasks`).
    ///
    /// Relative dates in `due:`, `t:` and `until:` are written as the dates they name
    /// (`Options.resolvesRelativeDates`).
    ///
    /// Throws `invalidText` for a text that is blank or only a header, that names a uid another
    /// task holds, or whose date tag is neither a date nor a relative date.
    @discardableResult
    public func add(_ text: String) async throws(TodoStoreError) -> TodoTask {
        let bytes = try resolvingDates(Array(text.utf8))
        let creationDate = options.addsCreationDate ? TodoDate.today(in: options.timeZone) : nil
        let priority = options.priorityOnAdd, addsUID = options.addsUID, path = path
        guard bytes.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }),
              TodoItem(TodoItem.newTaskLine(bytes, creationDate: creationDate, uid: nil, priority: priority)).hasDescription else {
            throw .invalidText(reason: "the task text is empty")
        }
        let given = TodoItem.identity(inFragment: bytes)
        let localID = makeLocalID()
        let written = try await perform(needsDoneFile: addsUID || given != nil) { (document: inout TodoDocument, done: TodoDocument) throws(LiveEditError) in
            if let given, UIDIndex(document).holders[given] != nil || UIDIndex(done).holders[given] != nil {
                throw .refused("uid \(given) is already another task's in \(TodoStoreError.name(path)); leave it out for a fresh one")
            }
            var uid: String?
            if addsUID, given == nil {
                var random = SystemRandomNumberGenerator()
                uid = UID.generate(using: &random, unusedIn: document, and: done)
            }
            let line = TodoItem.newTaskLine(bytes, creationDate: creationDate, uid: uid, priority: priority)
            var outcome = WriteOutcome()
            let index = outcome.record.append(line, in: &document)
            outcome.pins[index] = TodoItem(line).uid.map { "uid:" + $0 } ?? localID
            outcome.focus = index
            return outcome
        }
        return task(at: written.outcome.focus ?? 0, of: written.document, pinned: written.outcome.pins)
    }

    /// Sets the priority of an open task (`todo pri`), or with nil removes it (`todo depri`).
    /// Throws `invalidText` for a done task (its kept `pri:` is what reopening restores).
    public func setPriority(_ task: TodoTask, _ priority: Priority?) async throws(TodoStoreError) {
        try await edit(task) { item throws(TaskEditError) in try item.prioritized(priority) }
    }

    /// `setPriority(_:_:)` with the letter as text: `"A"` to `"Z"` (a lower-case letter is
    /// upper-cased, as `todo pri` does); anything else is `invalidText`.
    public func setPriority(_ task: TodoTask, _ letter: String) async throws(TodoStoreError) {
        guard let priority = Priority(letter.uppercased()) else {
            throw .invalidText(reason: "'\(letter)' is not a priority (a letter from A to Z)")
        }
        try await setPriority(task, priority)
    }

    /// Replaces the task's text, as `todo replace` does: completion and its date, the creation
    /// date, the priority and the uid are kept unless the text gives its own header. `TodoTask.text`
    /// is the text to start an edit from.
    public func rename(_ task: TodoTask, to text: String) async throws(TodoStoreError) {
        let bytes = try resolvingDates(Array(text.utf8))
        try await edit(task) { item throws(TaskEditError) in try item.replacingDescription(with: bytes) }
    }

    /// Marks an open task done (`todo do`: today's completion date, its priority kept as `pri:`,
    /// and for a `rec:` task its next instance added at the end with a fresh uid), or reopens a done
    /// one (`todo undo`'s un-done: the priority restored from `pri:`). A done task sinks in `tasks`
    /// below the open ones; its line stays where it is in the file.
    public func toggle(_ task: TodoTask) async throws(TodoStoreError) {
        let identity = identity(of: task), id = task.id, path = path
        let today = TodoDate.today(in: options.timeZone)
        let nextID = makeLocalID()
        try await perform(needsDoneFile: TodoItem(identity.content).recurrence != .absent) {
            (document: inout TodoDocument, done: TodoDocument) throws(LiveEditError) in
            let index = try document.locate(identity, path: path)
            let item = document.item(at: index)
            var outcome = WriteOutcome()
            outcome.before[Array(item.content)] = id
            outcome.pins[index] = id
            if let reopened = item.uncompleted() {
                outcome.record.replace(at: index, with: reopened, in: &document)
                return outcome
            }
            guard let completed = item.completed(on: today) else { throw .edit(.notATask) }
            outcome.record.replace(at: index, with: completed, in: &document)
            if item.recurrence != .absent {
                var random = SystemRandomNumberGenerator()
                let uid = UID.generate(using: &random, unusedIn: document, and: done)
                if case .next(let next, _) = item.recurrence(completedOn: today, uid: uid) {
                    let added = outcome.record.append(next, in: &document)
                    outcome.pins[added] = TodoItem(next).uid.map { "uid:" + $0 } ?? nextID
                }
            }
            return outcome
        }
    }

    /// Deletes the task's line (the lines after it move up one).
    public func remove(_ task: TodoTask) async throws(TodoStoreError) {
        try await removeTasks([task])
    }

    /// Deletes the tasks at `offsets` in `tasks` (SwiftUI's `onDelete`), in one write: all of them
    /// or, when one is gone, none.
    public func remove(atOffsets offsets: IndexSet) async throws(TodoStoreError) {
        let listed = tasks
        try await removeTasks(offsets.filter { listed.indices.contains($0) }.map { listed[$0] })
    }

    /// Takes back the last change this store made that is not undone yet, on the file as it is
    /// now: lines it changed get their old text, lines it added go, lines it removed come back where
    /// they were. Changes made elsewhere since are kept. Throws `nothingToUndo`, or
    /// `undoNoLongerApplies` when a line the change made has been edited or removed elsewhere
    /// (nothing written; the change stays undoable).
    public func undo() async throws(TodoStoreError) {
        guard let entry = undoStack.popLast() else { throw .nothingToUndo }
        let path = path
        do {
            try await perform(needsDoneFile: false, undoable: false, retired: entry.ids) {
                (document: inout TodoDocument, _: TodoDocument) throws(LiveEditError) in
                do throws(UndoError) { try document.undo(entry.record) } catch { throw .changedMeanwhile(path: path) }
                return WriteOutcome()
            }
        } catch {
            undoStack.append(entry)
            throw error
        }
    }

    /// One task's line changed by `change` (a TodoTxt edit of the task as it is in the file now).
    func edit(_ task: TodoTask, _ change: @escaping @Sendable (TodoItem) throws(TaskEditError) -> [UInt8]) async throws(TodoStoreError) {
        let identity = identity(of: task), id = task.id, path = path
        try await perform(needsDoneFile: false) { (document: inout TodoDocument, _: TodoDocument) throws(LiveEditError) in
            let index = try document.locate(identity, path: path)
            let item = document.item(at: index)
            let new: [UInt8]
            do throws(TaskEditError) { new = try change(item) } catch { throw .edit(error) }
            var outcome = WriteOutcome()
            outcome.pins[index] = id
            guard !item.content.elementsEqual(new) else { return outcome }
            outcome.before[Array(item.content)] = id
            outcome.record.replace(at: index, with: new, in: &document)
            return outcome
        }
    }

    func removeTasks(_ removed: [TodoTask]) async throws(TodoStoreError) {
        guard !removed.isEmpty else { return }
        let identities = removed.map { (identity: identity(of: $0), id: $0.id) }
        let path = path
        try await perform(needsDoneFile: false) { (document: inout TodoDocument, _: TodoDocument) throws(LiveEditError) in
            var found: [(index: Int, id: String)] = []
            for entry in identities {
                found.append((try document.locate(entry.identity, path: path), entry.id))
            }
            var outcome = WriteOutcome()
            for entry in found.sorted(by: { $0.index > $1.index }) where !outcome.before.values.contains(entry.id) {
                outcome.before[Array(document.content(at: entry.index))] = entry.id
                outcome.record.remove(at: entry.index, in: &document)
            }
            return outcome
        }
    }

    /// The task at line `index` of `document` (the version just written), with the id the store
    /// gave it.
    func task(at index: Int, of document: TodoDocument, pinned: [Int: String]) -> TodoTask {
        let id = state.document.lineCount > index && state.ids.ids.indices.contains(index)
            && TaskIds.sameBytes(state.document.content(at: index), document.content(at: index))
            ? state.ids.ids[index] : (pinned[index] ?? "")
        return TodoTask(id: id, line: index + 1, bytes: document.content(at: index))
    }

    /// `text` with its relative date values written as dates (today in the store's time zone), as
    /// `todo add` and `todo replace` write them (docs/todo-command.md, "Dates relative to today").
    func resolvingDates(_ text: [UInt8]) throws(TodoStoreError) -> [UInt8] {
        guard options.resolvesRelativeDates else { return text }
        do throws(RelativeDateError) {
            return try RelativeDateTags.resolving(text, today: TodoDate.today(in: options.timeZone))
        } catch {
            throw .invalidText(reason: error.description)
        }
    }
}
