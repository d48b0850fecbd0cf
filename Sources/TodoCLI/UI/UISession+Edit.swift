import TodoFileSystem
import TodoTerminal
import TodoTxt

/// A task's text being edited in `todo ui` (`e`): an edit of the task as it was when the field was
/// filled, applied on Enter to the task as it is then (docs/todo-command.md, `todo ui`).
struct UIEdit {
    /// The task, found again in each new version of the file that arrives while the field is open.
    var task: TaskIdentity
    /// The task's line the field's text is an edit of (the merge's base).
    let base: [UInt8]
    var editor: LineEditor
    /// The field as it was filled from `base`, while it still shows the task's own text: as long
    /// as `editor` equals it nothing was typed, and a change made elsewhere refills the field. Nil
    /// when the field holds the user's text (an edit taken up again after a conflict).
    let filled: LineEditor?

    /// The field filled with `task`'s text as `document` holds it.
    init(_ task: TaskIdentity, in document: TodoDocument) {
        let line = Array(document.content(at: task.index))
        self.init(task: task, base: line, text: String(decoding: TodoItem(line).editableDescription, as: UTF8.self), typed: false)
    }

    init(task: TaskIdentity, base: [UInt8], text: String, typed: Bool) {
        self.task = task
        self.base = base
        editor = LineEditor(text)
        filled = typed ? nil : editor
    }

    /// Nothing typed yet: the field still shows the task's own text.
    var isUntouched: Bool { filled == editor }
}

/// An edit whose change and a change made elsewhere meanwhile touch the same field differently:
/// nothing is written until the user says which one stays.
struct UIEditConflict {
    /// The task as the file held it when the question was asked.
    let task: TaskIdentity
    /// That line: what saving the edit now is a change of.
    let base: [UInt8]
    /// The line saving the edit writes: the user's value for the fields in `fields`, every other
    /// field merged.
    let edited: [UInt8]
    /// The fields both changed.
    let fields: [MergeField]

    /// `edited` as the edit field shows it.
    var text: String { String(decoding: TodoItem(edited).editableDescription, as: UTF8.self) }

    /// The status line's question; the row above shows the task as it is now.
    var question: String {
        "task changed elsewhere too (\(fields.map(\.description).joined(separator: ", "))): y save yours, n keep that, e edit again"
    }
}

extension UISession {
    /// Keys while a task's text is being edited: Enter saves, Escape drops the edit.
    func handleEditing(_ key: Key, _ edit: UIEdit) {
        var edit = edit
        switch key {
        case .enter:
            mode = .list
            save(edit)
        case .escape: mode = .list
        default:
            _ = edit.editor.handle(key)
            mode = .editing(edit)
        }
    }

    /// The answer to `UIEditConflict.question`: y writes the edit (on the task as it is then), n and
    /// Escape keep the other change and drop the edit, e opens the field again on the task as it is
    /// now with the user's text in it. Any other key leaves the question open.
    func resolveEdit(_ key: Key, _ conflict: UIEditConflict) {
        switch key {
        case .character("y"), .character("Y"):
            mode = .list
            write(conflict.task, base: conflict.base, edited: conflict.edited, text: conflict.text)
        case .character("n"), .character("N"), .escape:
            mode = .list
            message = "kept the change made elsewhere; your edit is not saved"
        case .character("e"), .character("E"):
            mode = .editing(UIEdit(task: conflict.task, base: conflict.base, text: conflict.text, typed: true))
        default:
            break
        }
    }

    /// A new version of the file has arrived (`list.document`): an edit in progress follows its
    /// task, and while nothing was typed its field is refilled with the task as it is now.
    func followEdit() {
        guard case .editing(var edit) = mode, let index = edit.task.locate(in: list.document) else { return }
        edit.task = TaskIdentity(index: index, in: list.document)
        if edit.isUntouched && !list.document.content(at: index).elementsEqual(edit.base) {
            edit = UIEdit(edit.task, in: list.document)
        }
        mode = .editing(edit)
    }

    /// Enter in the edit field: the task's line with the field's text (its newly typed relative
    /// dates resolved), as a change of the line the field was filled from.
    func save(_ edit: UIEdit) {
        // Only what was typed is resolved: a date tag already in the task stays as it was.
        guard let text = resolvingRelativeDates(edit.editor.text, keeping: edit.base) else {
            refusedField = .editing(edit)
            return
        }
        let edited: [UInt8]
        do throws(TaskEditError) {
            edited = try TodoItem(edit.base).replacingDescription(with: Array(text.utf8))
        } catch {
            message = error.description
            return
        }
        write(edit.task, base: edit.base, edited: edited, text: text)
    }

    /// Writes the change from `base` to `edited` onto the task as the file holds it at that
    /// moment, merged field by field with what changed there since `base` (`TodoMerge.threeWayLine`,
    /// the rules of `todo merge`). When both changed one field differently nothing is written and
    /// the user is asked (`UIEditConflict`); when the task is gone, offered to add `text` (the
    /// field's) as a new task.
    func write(_ task: TaskIdentity, base: [UInt8], edited: [UInt8], text: String) {
        var gone = false
        var conflict: UIEditConflict?
        var what = ""
        change(what) { (document: inout TodoDocument, record: inout ChangeRecord) throws(LiveEditError) in
            // Set on every run: a compare-and-swap retry runs this again on the file as it is then.
            conflict = nil
            what = "edited"
            guard let index = task.locate(in: document) else {
                gone = true
                throw .taskGone(path: file.path, task: task)
            }
            let current = Array(document.content(at: index))
            let line: [UInt8]
            switch TodoMerge.threeWayLine(base: base, ours: edited, theirs: current) {
            case .merged(let merged): line = merged
            case .conflict(let fields, let preferringOurs):
                conflict = UIEditConflict(task: TaskIdentity(index: index, in: document), base: current,
                                          edited: preferringOurs ?? edited, fields: fields)
                return nil
            }
            if current != base { what = "edited; what changed elsewhere meanwhile is kept" }
            guard line != current else { return nil }
            record.replace(at: index, with: line, in: &document)
            return TaskIdentity(index: index, in: document)
        }
        if gone {
            mode = .offeringAdd(text)
        } else if let conflict {
            message = ""
            mode = .resolvingEdit(conflict)
        }
    }
}
