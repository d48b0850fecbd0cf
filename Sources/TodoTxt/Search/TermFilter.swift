/// The search terms of a listing (`todo ls TERM… -TERM…`), as todo.sh's pipeline of `grep -i TERM`
/// and `grep -v -i TERM` means them: each TERM is a case-insensitive basic regular expression that
/// must match the listing line (`<padded number> <text>`); `-TERM` must not.
///
/// With `plainText` (the `todo` name), a term without regex metacharacters is matched as plain text
/// ignoring case and diacritics instead (`cafe` finds `Café`); see docs/todo-command.md.
package struct TermFilter {
    var terms: [(regex: BasicRegex, exclude: Bool)] = []
    var plainTerms: [(needle: [UInt8], exclude: Bool)] = []

    package init(_ arguments: [String], plainText: Bool = false) {
        for argument in arguments {
            let exclude = argument.hasPrefix("-")
            let term = exclude ? String(argument.dropFirst()) : argument
            if plainText, !term.isEmpty, !term.utf8.contains(where: { Self.metacharacters.contains($0) }) {
                plainTerms.append((TextFolding.folded(Array(term.utf8)), exclude))
            } else {
                terms.append((BasicRegex(term, ignoreCase: true), exclude))
            }
        }
    }

    /// `. [ ] * ^ $ \`: a term holding one keeps todo.sh's basic-regex meaning.
    package static let metacharacters: Set<UInt8> = Set(".[]*^$\\".utf8)

    package var isEmpty: Bool { terms.isEmpty && plainTerms.isEmpty }

    /// Whether `line` passes every term.
    package func accepts(_ line: [UInt8]) -> Bool {
        for term in terms where term.regex.matches(line) == term.exclude { return false }
        if !plainTerms.isEmpty {
            let folded = TextFolding.folded(line)
            for term in plainTerms where TextFolding.contains(folded, term.needle) == term.exclude { return false }
        }
        return true
    }
}
