/// The search terms of a listing (`todo ls TERM… -TERM…`), as todo.sh's pipeline of `grep -i TERM`
/// and `grep -v -i TERM` means them: each TERM is a case-insensitive basic regular expression that
/// must match the listing line (`<padded number> <text>`); `-TERM` must not.
///
/// With `plainText` (the `todo` name), a term without regex metacharacters is matched as plain text
/// ignoring case and diacritics instead (`cafe` finds `Café`); see docs/todo-command.md.
///
/// With `typedTermsOn` (the `todo` name: the day relative dates count from), a word that is a
/// `TypedTerm` (`due:<=today`, `pri:A-C`, `due:<today|pri:A`) tests the task's fields instead of
/// its text, and `-` in front of one is its plain negation (`-due:<today`: every task that is not
/// overdue, undated ones included).
package struct TermFilter {
    var terms: [(regex: BasicRegex, exclude: Bool)] = []
    var plainTerms: [(needle: [UInt8], exclude: Bool)] = []
    var typedTerms: [(term: TypedTerm, exclude: Bool)] = []
    var today: TodoDate?

    package init(_ arguments: [String], plainText: Bool = false, typedTermsOn today: TodoDate? = nil) {
        self.today = today
        for argument in arguments {
            let exclude = argument.hasPrefix("-")
            let term = exclude ? String(argument.dropFirst()) : argument
            if let today, let typed = TypedTerm(term) {
                typedTerms.append((typed.resolved(today: today), exclude))
            } else if plainText, !term.isEmpty, !term.utf8.contains(where: { Self.metacharacters.contains($0) }) {
                plainTerms.append((TextFolding.folded(Array(term.utf8)), exclude))
            } else {
                terms.append((BasicRegex(term, ignoreCase: true), exclude))
            }
        }
    }

    /// `. [ ] * ^ $ \`: a term holding one keeps todo.sh's basic-regex meaning.
    package static let metacharacters: Set<UInt8> = Set(".[]*^$\\".utf8)

    package var isEmpty: Bool { terms.isEmpty && plainTerms.isEmpty && typedTerms.isEmpty }

    /// Whether there are terms that read the listing line's text (regex or plain); typed terms read
    /// only the task.
    package var readsText: Bool { !terms.isEmpty || !plainTerms.isEmpty }

    /// Whether `line` passes every term, `line` being the task's content itself.
    package func accepts(_ line: [UInt8]) -> Bool {
        acceptsTask(line[...]) && acceptsText(line)
    }

    /// Whether the task `content` passes every typed term (true when there are none).
    package func acceptsTask(_ content: ArraySlice<UInt8>) -> Bool {
        guard let today else { return true }
        for typed in typedTerms where typed.term.matches(content, today: today) == typed.exclude { return false }
        return true
    }

    /// Whether the listing line `line` passes every regex and plain-text term.
    package func acceptsText(_ line: [UInt8]) -> Bool {
        for term in terms where term.regex.matches(line) == term.exclude { return false }
        if !plainTerms.isEmpty {
            let folded = TextFolding.folded(line)
            for term in plainTerms where TextFolding.contains(folded, term.needle) == term.exclude { return false }
        }
        return true
    }
}
