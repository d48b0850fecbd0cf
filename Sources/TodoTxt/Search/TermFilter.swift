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
    var terms: [RegexTerm] = []
    var plainTerms: [PlainTerm] = []
    var typedTerms: [(term: TypedTerm, exclude: Bool)] = []
    /// `blocked:yes` (true) and `blocked:no` (false), each maybe `-`negated: terms that need the
    /// whole file's open uids (`openUIDs`, TermFilter+Dependencies.swift).
    var blockedTerms: [(blocked: Bool, exclude: Bool)] = []
    /// The uids of the listed file's open tasks, set once per listing when `needsOpenUIDs`.
    package var openUIDs: Set<String> = []
    var today: TodoDate?

    package init(_ arguments: [String], plainText: Bool = false, typedTermsOn today: TodoDate? = nil) {
        self.today = today
        for argument in arguments {
            let exclude = argument.hasPrefix("-")
            let term = exclude ? String(argument.dropFirst()) : argument
            if today != nil, let wanted = Self.blockedTerm(term) {
                blockedTerms.append((wanted, exclude))
            } else if let today, let typed = TypedTerm(term) {
                typedTerms.append((typed.resolved(today: today), exclude))
            } else if plainText, !term.isEmpty, !term.utf8.contains(where: { Self.metacharacters.contains($0) }) {
                plainTerms.append(PlainTerm(folded: TextFolding.folded(Array(term.utf8)), exclude: exclude))
            } else {
                terms.append(RegexTerm(regex: BasicRegex(term, ignoreCase: true), exclude: exclude))
            }
        }
        needsListingLine = !terms.isEmpty || plainTerms.contains { !$0.matchesTextOnly }
    }

    /// `. [ ] * ^ $ \`: a term holding one keeps todo.sh's basic-regex meaning.
    package static let metacharacters: Set<UInt8> = Set(".[]*^$\\".utf8)

    package var isEmpty: Bool { terms.isEmpty && plainTerms.isEmpty && typedTerms.isEmpty && blockedTerms.isEmpty }

    /// Whether `line` passes every term, `line` being the task's content itself.
    package func accepts(_ line: [UInt8]) -> Bool {
        guard acceptsTask(line[...]) else { return false }
        guard regexTermsAccept(line) else { return false }
        guard !plainTerms.isEmpty else { return true }
        var scratch: [UInt8] = []
        return line.withUnsafeBufferPointer { buffer in
            plainTerms.allSatisfy { $0.occurs(in: buffer, scratch: &scratch) != $0.exclude }
        }
    }

    /// Whether the task `content` passes every typed term (true when there are none). Typed terms
    /// read the task's fields from its bytes, never the listing line.
    package func acceptsTask(_ content: ArraySlice<UInt8>) -> Bool {
        guard let today else { return true }
        for typed in typedTerms where typed.term.matches(content, today: today) == typed.exclude { return false }
        return blockedTermsAccept(content)
    }

    // MARK: Listings: typed terms and the task's text first, the whole listing line only when a term needs it

    /// Whether some term must see the whole listing line (`<padded number> <text>`): a regex term,
    /// or a plain term holding a digit or a space. When false, `acceptsText` alone decides, and a
    /// listing need not build the line.
    package private(set) var needsListingLine = false

    /// For a listing: whether the task's `text` passes every plain term that can only match within
    /// the text (`PlainTerm.matchesTextOnly`). `scratch` is the caller's, reused from line to line.
    /// A line passes all terms when this and `acceptsListingLine` both say so.
    package func acceptsText(_ text: UnsafeBufferPointer<UInt8>, scratch: inout [UInt8]) -> Bool {
        for term in plainTerms where term.matchesTextOnly && term.occurs(in: text, scratch: &scratch) == term.exclude {
            return false
        }
        return true
    }

    /// For a listing: whether the whole listing `line` passes every term that `acceptsText` leaves out.
    package func acceptsListingLine(_ line: [UInt8], scratch: inout [UInt8]) -> Bool {
        guard regexTermsAccept(line) else { return false }
        return line.withUnsafeBufferPointer { buffer in
            plainTerms.allSatisfy { $0.matchesTextOnly || $0.occurs(in: buffer, scratch: &scratch) != $0.exclude }
        }
    }

    /// Whether `line` passes every regex term.
    private func regexTermsAccept(_ line: [UInt8]) -> Bool {
        for term in terms where !term.passes(line) { return false }
        return true
    }
}

/// A regex term, held by reference: a listing tests it on every line, and copying a `BasicRegex`
/// (as iterating an array of them by value does) retains each of its tables, per line (a quarter
/// of a regex listing's profile).
final class RegexTerm {
    let regex: BasicRegex
    let exclude: Bool

    init(regex: BasicRegex, exclude: Bool) {
        self.regex = regex
        self.exclude = exclude
    }

    /// Whether `line` passes the term: the regex matches it, or for `-TERM` does not.
    func passes(_ line: [UInt8]) -> Bool { regex.matches(line) != exclude }
}
