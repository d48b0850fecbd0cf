/// The typed term `blocked:yes|no` (docs/todo-command.md, "Typed terms"): whether the task waits
/// for an open task (`DependencyGraph`). Unlike the other typed terms it needs the whole file, so
/// the listing computes the file's open uids once (`readOpenUIDs`) and each line only looks its
/// `after:` uids up in that set.
extension TermFilter {
    /// `true` for `blocked:yes`, `false` for `blocked:no`, nil for any other word.
    static func blockedTerm(_ word: String) -> Bool? {
        switch word {
        case "blocked:yes": return true
        case "blocked:no": return false
        default: return nil
        }
    }

    /// Whether the listing must call `readOpenUIDs` before testing lines.
    package var needsOpenUIDs: Bool { !blockedTerms.isEmpty }

    /// Sets `openUIDs` from the listed file's lines (each a line's content), once.
    package mutating func readOpenUIDs<Lines: Sequence>(_ lines: Lines) where Lines.Element == ArraySlice<UInt8> {
        openUIDs = DependencyGraph.openUIDs(of: lines)
    }

    /// Sets `openUIDs` to the file's open uids, read already by the caller (`TaskList`).
    package mutating func setOpenUIDs(_ uids: Set<String>) {
        openUIDs = uids
    }

    /// Whether `content` passes every `blocked:` term (true when there are none).
    func blockedTermsAccept(_ content: ArraySlice<UInt8>) -> Bool {
        guard !blockedTerms.isEmpty else { return true }
        let item = TodoItem(content)
        let blocked = item.isTask && !item.isCompleted && DependencyGraph.isBlocked(after: item.afterUIDs, openUIDs: openUIDs)
        return blockedTerms.allSatisfy { ($0.blocked == blocked) != $0.exclude }
    }
}
