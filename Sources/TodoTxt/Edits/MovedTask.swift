/// Whether the destination of `todo move` already holds the task being moved.
///
/// A move writes the destination first and the source second, so a move stopped in between (a kill,
/// a source it could not rewrite, a full disk) leaves the task in both files. The retry asks this
/// question of the destination as it is at that moment: a task already there is not appended again,
/// only removed from the source (docs/todo-command.md, "Moving a task").
public enum MovedTaskPresence: Equatable, Sendable {
    /// The destination does not hold the task: it is appended.
    case absent
    /// Line `index` (0-based) is the task: the same text, the uid included. For a task without a
    /// uid, the identical line is the only evidence there is.
    case present(index: Int)
    /// Line `index` holds the task's uid with other text (one of the copies was edited since the
    /// first attempt): neither copy may be dropped without losing that edit.
    case conflicting(index: Int)
}

extension TodoDocument {
    /// Where `content` (the moved task's line, without its terminator) stands in this document.
    ///
    /// An identical line anywhere counts as the task, whether or not it has a uid; otherwise a line
    /// holding the task's uid is a conflict. Lines that merely mention the uid inside their text are
    /// not holders (the uid must be the line's own, as `TodoItem.uid` reads it).
    ///
    /// Complexity: one pass over the lines; the uid of a line is read only when its bytes contain
    /// the uid's value.
    public func presence(ofMovedTask content: some Collection<UInt8>) -> MovedTaskPresence {
        let moved = Array(content)
        let uid = TodoItem(moved).uid
        let uidBytes = uid.map { Array($0.utf8) }
        var conflict: Int?
        for index in 0..<lineCount {
            let line = self.content(at: index)
            if line.elementsEqual(moved) { return .present(index: index) }
            guard conflict == nil, let uid, let uidBytes, ArchivePlan.contains(line, uidBytes) else { continue }
            if TodoItem(line).uid == uid { conflict = index }
        }
        return conflict.map { .conflicting(index: $0) } ?? .absent
    }
}
