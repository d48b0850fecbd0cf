import TodoTxt

/// The blocked marker of `todo ls` (docs/todo-command.md, "Dependencies"): on a terminal only (as
/// the escaping of control characters, `settings.escapeControls`), a task waiting for an open task
/// ends with `  [blocked]`; a pipe gets the file's bytes unchanged, so scripts see no difference.
extension TodoShListing {
    /// `  [blocked]`.
    static let blockedMarker: [UInt8] = Array("  [blocked]".utf8)

    /// The open uids of the listed lines when a marker may be shown: the `todo` name, on a
    /// terminal, and some line holding `after:`; else empty (and no line parsed).
    static func blockedMarkerUIDs(_ bytes: [UInt8], _ settings: TodoShSettings) -> Set<String> {
        guard settings.modernListing, settings.escapeControls, DependencyGraph.mayHaveLinks(bytes) else { return [] }
        return DependencyGraph.openUIDs(of: bytes.split(separator: 0x0A, omittingEmptySubsequences: true))
    }

    /// Whether the listing line `numbered` (`N text`) is an open task waiting for an open uid.
    static func isBlocked(_ numbered: [UInt8], openUIDs: Set<String>) -> Bool {
        guard let digit = numbered.firstIndex(where: { $0 != 0x20 }),
              let space = numbered[digit...].firstIndex(of: 0x20) else { return false }
        let item = TodoItem(numbered[(space + 1)...])
        return item.isTask && !item.isCompleted && DependencyGraph.isBlocked(after: item.afterUIDs, openUIDs: openUIDs)
    }
}
