/// What an interactive list shows (`todo ui`, or an app's list) and where the selection is: the tasks of the document in `todo sort`'s
/// partition (open ones in file order, then completed ones), without the hidden ones (`h:1`, a
/// future `t:`) unless asked, narrowed by the filter's terms (the rules of `todo ls`, typed terms
/// such as `due:<=today` included, judged on `today`).
///
/// A value: rebuilt from each new document, keeping the selection on the same task (by identity:
/// uid, else the same bytes) and the list scrolled so it stays in view.
public struct TaskList: Sendable {
    public private(set) var document: TodoDocument
    /// The visible tasks' line indices, in display order.
    public private(set) var rows: [Int] = []
    /// How many of `rows` are open tasks (they come first).
    public private(set) var openCount = 0
    /// The selected row (an index into `rows`), 0 when the list is empty.
    public private(set) var selected = 0
    /// The first row on screen.
    public private(set) var top = 0
    public let today: TodoDate
    public let showHidden: Bool
    /// The filter as typed ("" for none).
    public private(set) var filterText = ""
    /// The line indices of the open tasks that wait for an open task (`after:`, docs/todo-command.md,
    /// "Dependencies"): what a list marks as blocked. Empty when no listed open line holds `after:`
    /// (found from the bytes, without parsing); otherwise the file's open uids are read once per
    /// rebuild.
    public private(set) var blocked: Set<Int> = []

    public init(document: TodoDocument, today: TodoDate, showHidden: Bool) {
        self.document = document
        self.today = today
        self.showHidden = showHidden
        rebuild(keeping: nil)
    }

    /// The selected task, or nil when the list is empty.
    public var selectedTask: TaskIdentity? {
        rows.isEmpty ? nil : TaskIdentity(index: rows[selected], in: document)
    }

    /// A new version of the file: the same task stays selected when it is still there.
    public mutating func replaceDocument(_ new: TodoDocument, select task: TaskIdentity? = nil) {
        let keep = task ?? selectedTask
        let row = selected
        document = new
        rebuild(keeping: keep, otherwiseRow: row)
    }

    public mutating func setFilter(_ text: String) {
        filterText = text
        rebuild(keeping: selectedTask, otherwiseRow: 0)
    }

    /// Moves the selection by `delta` rows (clamped).
    public mutating func move(by delta: Int) {
        guard !rows.isEmpty else { return }
        selected = min(max(0, selected + delta), rows.count - 1)
    }

    public mutating func moveToFirst() { selected = 0 }
    public mutating func moveToLast() { selected = max(0, rows.count - 1) }

    /// Keeps the selection within the `height` rows shown from `top`.
    public mutating func scroll(height: Int) {
        guard height > 0 else { return }
        if selected < top { top = selected }
        if selected >= top + height { top = selected - height + 1 }
        top = max(0, min(top, max(0, rows.count - height)))
    }

    /// The rows again, from the document; the selection on `task` if it is listed, else on the
    /// row at `otherwiseRow` (clamped).
    private mutating func rebuild(keeping task: TaskIdentity?, otherwiseRow: Int = 0) {
        var filter = TermFilter(filterText.split(separator: " ").map(String.init), plainText: true, typedTermsOn: today)
        let current = document
        // The file's open uids, read (parsing every line) only when a `blocked:` term or a listed
        // line holding `after:` needs them, and then once.
        var openUIDs: Set<String>?
        func fileOpenUIDs() -> Set<String> {
            if let openUIDs { return openUIDs }
            let uids = DependencyGraph.openUIDs(of: (0..<current.lineCount).map { current.content(at: $0) })
            openUIDs = uids
            return uids
        }
        if filter.needsOpenUIDs { filter.setOpenUIDs(fileOpenUIDs()) }
        var open: [Int] = [], done: [Int] = [], linked: [Int] = []
        for index in 0..<document.lineCount {
            // Most lines are decided from their bytes: blank, `x `, and whether an `h:` or `t:`
            // could be in them; only those are parsed (a first screen on 100k tasks).
            let content = document.content(at: index)
            let kind = TodoItem.classify(content)
            guard !kind.isBlank else { continue }
            if !showHidden && Self.mayBeHidden(content) && document.item(at: index).isHidden(on: today) { continue }
            if !filter.isEmpty && !filter.accepts(Array(content)) { continue }
            if kind.isCompleted {
                done.append(index)
            } else {
                open.append(index)
                if content.withUnsafeBufferPointer({ DependencyGraph.mayHaveLinks($0) }) { linked.append(index) }
            }
        }
        blocked = []
        if !linked.isEmpty {
            let uids = fileOpenUIDs()
            for index in linked where DependencyGraph.isBlocked(after: current.item(at: index).afterUIDs, openUIDs: uids) {
                blocked.insert(index)
            }
        }
        rows = open + done
        openCount = open.count
        if let task, let index = task.locate(in: document), let row = rows.firstIndex(of: index) {
            selected = row
        } else {
            selected = rows.isEmpty ? 0 : min(max(0, otherwiseRow), rows.count - 1)
        }
    }

    /// Whether `content` holds `h:` or `t:` after a space or at its start: only then can the task
    /// be hidden.
    static func mayBeHidden(_ content: ArraySlice<UInt8>) -> Bool {
        var previous: UInt8 = 0x20
        var beforePrevious: UInt8 = 0x20
        for byte in content {
            if byte == 0x3A, previous == 0x68 || previous == 0x74, beforePrevious == 0x20 || beforePrevious == 0x09 { return true }
            beforePrevious = previous
            previous = byte
        }
        return false
    }
}
