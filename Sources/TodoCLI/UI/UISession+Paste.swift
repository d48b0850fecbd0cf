import TodoTerminal

extension UISession {
    /// Handles keys in order; false as soon as one quits.
    func handle(_ keys: [Key]) -> Bool {
        keys.allSatisfy { handle($0) }
    }

    /// Whether the status line is a field that takes typed (and pasted) text.
    var isTakingText: Bool {
        switch mode {
        case .adding, .editing, .filtering, .choosingView: return true
        case .list, .confirmingDelete, .choosingPriority, .offeringAdd, .resolvingEdit, .help: return false
        }
    }

    /// A paste where no field takes text: in the list it opens the add field holding it (nothing
    /// is added before Enter); at a question or the help it is ignored, so a paste never answers.
    /// Returns true (the UI goes on).
    func pasteOutsideField(_ text: String) -> Bool {
        guard case .list = mode else { return true }
        var editor = LineEditor()
        _ = editor.handle(.paste(text))
        mode = .adding(editor)
        return true
    }
}
