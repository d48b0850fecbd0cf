/// A GNU grep/sed *basic* regular expression, matched on bytes: what todo.sh's `grep -i TERM`,
/// `sed s/TERM//` and the sigil patterns mean.
///
/// Supported: literals, `.`, `[...]` (ranges, negation, `[:class:]`), `*`, `\{m,n\}`, the GNU
/// extensions `\+`, `\?`, `\|`, `\<`, `\>`, `\b`, `\B`, `\w`, `\W`, `\s`, `\S`, groups `\(…\)` and
/// back-references `\1`–`\9`; `^`/`$` are anchors where POSIX says so and literals elsewhere. `.` and
/// bracket expressions consume one UTF-8 character; a byte that is not valid UTF-8 matches only
/// itself. Matches start where characters start. Ignoring case and the character classes follow
/// the C.UTF-8 locale (`é` matches `É`; `[[:alpha:]]` matches `é`), as grep does in UTF-8 locales.
///
/// A pattern without metacharacters is searched as a plain substring; one without back-references
/// runs as an automaton (BasicRegex+Automaton.swift), in time linear in the text, and whether it
/// matches at all is mostly a table walk (BasicRegex+SearchAutomaton.swift); only a pattern
/// with back-references backtracks.
package struct BasicRegex: Sendable {
    indirect enum Node: Sendable {
        case literal(UInt8)
        case any
        case set(BracketSet)
        case lineStart, lineEnd
        case wordBoundary(Bool), wordStart, wordEnd
        case group(Int, [[Node]])
        case backReference(Int)
        case repetition(Node, min: Int, max: Int?)
    }

    struct BracketSet: Sendable {
        var scalars: [UInt32] = []
        var ranges: [ClosedRange<UInt32>] = []
        var classes: [String] = []
        var negated = false
    }

    private let alternatives: [[Node]]
    private let ignoreCase: Bool
    private let groupCount: Int
    /// The pattern as an automaton, when it has no back-reference and fits the size limit: then
    /// matching takes time linear in the text, whatever the pattern (`.**` or `\(a*\)*b` made the
    /// backtracking matcher exponential).
    private let program: Program?
    /// `program` determinised for "matches anywhere?" (BasicRegex+SearchAutomaton.swift), when it has
    /// no assertion and is small enough: what a listing asks of every line.
    private let automaton: SearchAutomaton?
    /// For a pattern with back-references: an automaton that reads each one as any text, so it
    /// matches wherever the pattern could. A line it rejects needs no backtracking (grep's own
    /// shortcut); on the others, the backtracking matcher decides within `backtrackingBudget`.
    private let superset: Program?
    /// The pattern's bytes when it holds no metacharacter at all (fast path).
    private let plainText: [UInt8]?

    /// Compiles `pattern`; never fails (malformed pieces are read as literals, as GNU grep mostly does).
    package init(_ pattern: String, ignoreCase: Bool) {
        self.init(bytes: Array(pattern.utf8), ignoreCase: ignoreCase)
    }

    package init(bytes pattern: [UInt8], ignoreCase: Bool) {
        self.ignoreCase = ignoreCase
        let special: Set<UInt8> = [0x2E, 0x5B, 0x5C, 0x2A, 0x5E, 0x24]
        // The byte fast path folds ASCII only, and finds a match only where a character starts when
        // the pattern is valid UTF-8; other patterns go through the matcher.
        let fastPathFits = !pattern.contains { $0 >= 0x80 } || (!ignoreCase && String(validating: pattern, as: UTF8.self) != nil)
        if fastPathFits, !pattern.contains(where: { special.contains($0) }) {
            plainText = ignoreCase ? pattern.map(BasicRegex.fold) : pattern
        } else {
            plainText = nil
        }
        var parser = Parser(pattern: pattern, ignoreCase: ignoreCase)
        alternatives = parser.parseAlternatives(topLevel: true)
        groupCount = parser.groupCount
        program = Program(alternatives)
        automaton = program.flatMap { SearchAutomaton($0, ignoreCase: ignoreCase) }
        superset = program == nil ? Program(alternatives, backReferencesMatchAnything: true) : nil
    }

    /// The most steps the backtracking matcher takes on one text. Back-references make matching
    /// NP-hard, so some patterns take exponential time; past the budget the answer is undecided.
    static let backtrackingBudget = 20_000

    /// The deepest the backtracking matcher nests (each matched node calls the rest of the match
    /// from inside itself): past it the answer is undecided, like past the budget. It keeps the
    /// recursion far inside a thread's stack however the pattern and the line nest (the `filter`
    /// fuzz target overflowed the stack under the address sanitizer, whose frames are larger);
    /// lines of task text stay far below it.
    static let backtrackingDepthLimit = 2_000

    /// Whether the pattern matches anywhere in `text`. A line on which a back-reference pattern
    /// stays undecided (see `matchOutcome`) counts as matching: a listing shows a line too many
    /// rather than hide one (docs/todo-command.md, "Search terms").
    package func matches(_ text: [UInt8]) -> Bool { matchOutcome(text) ?? true }

    /// Whether the pattern matches anywhere in `text`; nil when a pattern with back-references
    /// needs more than `backtrackingBudget` steps (or `backtrackingDepthLimit` nesting) to tell.
    package func matchOutcome(_ text: [UInt8]) -> Bool? {
        if let plainText {
            return text.withUnsafeBufferPointer { BasicRegex.contains($0, plainText, ignoreCase: ignoreCase) }
        }
        if let automaton { return automaton.matches(text) }
        if let program {
            return program.firstMatch(Matcher(text: text, ignoreCase: ignoreCase, groupCount: 0), from: 0, longest: false) != nil
        }
        if let superset, superset.firstMatch(Matcher(text: text, ignoreCase: ignoreCase, groupCount: 0), from: 0, longest: false) == nil {
            return false
        }
        let matcher = Matcher(text: text, ignoreCase: ignoreCase, groupCount: groupCount)
        let found = backtrackingMatch(matcher, from: 0) != nil
        return matcher.isExhausted ? nil : found
    }

    /// The leftmost match at or after `start`, as a byte range of `text`.
    package func firstMatch(in text: [UInt8], from start: Int) -> Range<Int>? {
        if let plainText {
            guard !plainText.isEmpty else { return start..<start }
            var position = start
            while position + plainText.count <= text.count {
                var equal = true
                for offset in 0..<plainText.count {
                    let byte = ignoreCase ? BasicRegex.fold(text[position + offset]) : text[position + offset]
                    if byte != plainText[offset] { equal = false; break }
                }
                if equal { return position..<(position + plainText.count) }
                position += 1
            }
            return nil
        }
        if let program {
            return program.firstMatch(Matcher(text: text, ignoreCase: ignoreCase, groupCount: 0), from: start, longest: true)
        }
        let matcher = Matcher(text: text, ignoreCase: ignoreCase, groupCount: groupCount)
        let found = backtrackingMatch(matcher, from: start)
        // Undecided: no match, so an edit made with it (sed's `s///`) leaves the text as it was.
        return matcher.isExhausted ? nil : found
    }

    /// Whether the pattern runs as an automaton (it has no back-reference and fits the size limit).
    package var runsAsAutomaton: Bool { program != nil }

    /// Whether the backtracking matcher finds a match in `text` (nil when past its budget),
    /// whatever the pattern: the reference the automaton is tested against.
    package func backtrackingOutcome(_ text: [UInt8]) -> Bool? {
        let matcher = Matcher(text: text, ignoreCase: ignoreCase, groupCount: groupCount)
        let found = backtrackingMatch(matcher, from: 0) != nil
        return matcher.isExhausted ? nil : found
    }

    private func backtrackingMatch(_ matcher: Matcher, from start: Int) -> Range<Int>? {
        var position = start
        while position <= matcher.text.count, !matcher.isExhausted {
            if let end = matcher.matchTop(alternatives, at: position) { return position..<end }
            // A match starts where a character does, never inside one (as in grep's UTF-8 locales).
            position += position < matcher.text.count ? BasicRegex.scalar(in: matcher.text, at: position).1 : 1
        }
        return nil
    }

    /// `sed 's/PATTERN//g'`: every non-overlapping match removed.
    package func removingMatches(from text: [UInt8]) -> [UInt8] { replacingMatches(in: text, with: []) }

    /// `sed 's/PATTERN/REPLACEMENT/g'` with a literal replacement.
    package func replacingMatches(in text: [UInt8], with replacement: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var position = 0
        var copied = 0
        while position <= text.count, let range = firstMatch(in: text, from: position) {
            result.append(contentsOf: text[copied..<range.lowerBound])
            result.append(contentsOf: replacement)
            copied = range.upperBound
            if range.isEmpty {
                // Past one whole character, so the next search starts where a character does.
                let length = range.lowerBound < text.count ? BasicRegex.scalar(in: text, at: range.lowerBound).1 : 1
                if range.lowerBound < text.count { result.append(contentsOf: text[range.lowerBound..<(range.lowerBound + length)]) }
                copied = range.lowerBound + length
                position = range.lowerBound + length
            } else {
                position = range.upperBound
            }
        }
        if copied < text.count { result.append(contentsOf: text[copied...]) }
        return result
    }

    /// Whether the whole of `text` matches (an anchored match).
    package func matchesWhole(_ text: [UInt8]) -> Bool {
        if let program { return program.matchesWhole(Matcher(text: text, ignoreCase: ignoreCase, groupCount: 0)) }
        let matcher = Matcher(text: text, ignoreCase: ignoreCase, groupCount: groupCount)
        return matcher.matchTop(alternatives, at: 0, requireEnd: true) != nil && !matcher.isExhausted
    }

    // MARK: Helpers

    static func fold(_ byte: UInt8) -> UInt8 { byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte }

    static func contains(_ text: UnsafeBufferPointer<UInt8>, _ needle: [UInt8], ignoreCase: Bool) -> Bool {
        guard !needle.isEmpty else { return true }
        guard text.count >= needle.count else { return false }
        let first = needle[0]
        let last = text.count - needle.count
        var position = 0
        while position <= last {
            let byte = ignoreCase ? fold(text[position]) : text[position]
            if byte == first {
                var offset = 1
                while offset < needle.count {
                    let other = ignoreCase ? fold(text[position + offset]) : text[position + offset]
                    if other != needle[offset] { break }
                    offset += 1
                }
                if offset == needle.count { return true }
            }
            position += 1
        }
        return false
    }
}
