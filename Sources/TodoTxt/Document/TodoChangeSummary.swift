/// What changed between two versions of a todo file and its done file, counted by task: the words
/// of a sync commit's message (`todo: 2 added, 1 done, 1 archived`, docs/sync.md section 3).
///
/// Tasks are matched by uid; a line without one by its text after the header (completion, priority,
/// dates), so that completing it is still the same task. Blank lines are not tasks. A task that
/// left the todo file and arrived in the done file is archived (and done, when it was open before);
/// one that left the todo file for nowhere is removed.
public struct TodoChangeSummary: Sendable, Equatable, CustomStringConvertible {
    public var added = 0
    public var completed = 0
    public var reopened = 0
    public var edited = 0
    public var archived = 0
    public var removed = 0

    public init() {}

    /// The changes from the old pair of files to the new one (an empty document for a file that
    /// did not exist).
    public init(oldTodo: TodoDocument, oldDone: TodoDocument, newTodo: TodoDocument, newDone: TodoDocument) {
        let before = Self.tasks(oldTodo), after = Self.tasks(newTodo)
        let doneBefore = Self.tasks(oldDone), doneAfter = Self.tasks(newDone)
        for key in Set(before.keys).union(after.keys) {
            let old = before[key] ?? [], new = after[key] ?? []
            for (was, now) in zip(old, new) {
                if !was.isCompleted && now.isCompleted { completed += 1 }
                else if was.isCompleted && !now.isCompleted { reopened += 1 }
                else if !was.content.elementsEqual(now.content) { edited += 1 }
            }
            if new.count > old.count { added += new.count - old.count }
            if old.count > new.count {
                let gone = old[new.count...]
                let arrived = max(0, (doneAfter[key]?.count ?? 0) - (doneBefore[key]?.count ?? 0))
                let moved = min(gone.count, arrived)
                completed += gone.prefix(moved).filter { !$0.isCompleted }.count
                removed += gone.count - moved
            }
        }
        for (key, now) in doneAfter { archived += max(0, now.count - (doneBefore[key]?.count ?? 0)) }
    }

    /// Nothing counted (the files differ only in order, blank lines or line endings).
    public var isEmpty: Bool { self == TodoChangeSummary() }

    /// `2 added, 1 done, 1 archived`, in a fixed order, zero counts left out; empty when nothing counted.
    public var description: String {
        [(added, "added"), (completed, "done"), (reopened, "reopened"), (edited, "edited"), (archived, "archived"),
         (removed, "removed")].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
    }

    private enum Key: Hashable {
        case uid(String)
        case text([UInt8])
    }

    /// The tasks of `document` by identity, in file order.
    private static func tasks(_ document: TodoDocument) -> [Key: [TodoItem]] {
        var tasks: [Key: [TodoItem]] = [:]
        for index in 0..<document.lineCount {
            let item = document.item(at: index)
            guard item.isTask else { continue }
            tasks[item.uid.map(Key.uid) ?? .text(Array(item.bodyBytes)), default: []].append(item)
        }
        return tasks
    }
}
