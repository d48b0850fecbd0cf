extension BasicRegex {
    /// Why GNU grep (in a UTF-8 locale) refuses `pattern` as a basic regular expression, in grep's
    /// own words; nil when grep accepts it.
    ///
    /// Why: the matcher never fails (it reads a malformed piece as literal text), but todo.sh's grep
    /// does, and a term that grep refuses is a typing mistake. Under `todo` such a term is a usage
    /// error naming the problem, never a silently empty or wrong listing.
    ///
    /// The rules are grep's in the C.UTF-8 locale: a trailing `\`; `[` without its `]` (a `]` first
    /// in the set is a member); an unknown `[:class:]`; a collating element `[.x.]`/`[=x=]` or a range
    /// end that is not one ASCII character (that locale collates ASCII only); a range whose end comes
    /// before its start or is a class; `[:space:]` outside a set;
    /// `\(` and `\)` that do not pair; a back-reference to a group not yet closed; an interval
    /// `\{m,n\}` that is not closed, not numbers, decreasing, or above 32767. An interval, `*`, `\+`
    /// or `\?` with nothing before it is literal text, as in grep.
    package static func syntaxError(_ pattern: [UInt8], ignoreCase: Bool) -> String? {
        var validator = SyntaxValidator(pattern: pattern, ignoreCase: ignoreCase)
        return validator.firstError()
    }

    /// grep's own complaint about a set spelt like a class (`[:space:]`), which the C library
    /// accepts as a set of colons and letters.
    package static let misspeltClassMessage = "character class syntax is [[:space:]], not [:space:]"

    /// The character class names of POSIX, the only ones the C.UTF-8 locale knows.
    static let classNames: Set<String> = ["alpha", "upper", "lower", "digit", "xdigit", "space", "print",
                                          "punct", "graph", "cntrl", "blank", "alnum"]

    private struct SyntaxValidator {
        let pattern: [UInt8]
        var index = 0
        var groupCount = 0
        /// The groups closed so far on the path through the alternatives that leads here: a
        /// back-reference may name only those (`\(a\)\|\1` is invalid).
        var closedGroups: Set<Int> = []
        /// Per open group, innermost last (the whole pattern first): its number, the groups closed
        /// when it opened, and those closed in its finished alternatives.
        var frames: [(group: Int, initial: Set<Int>, accumulated: Set<Int>)] = [(0, [], [])]
        /// Whether a repetition here would repeat something (else `\{` is literal text).
        var afterAtom = false
        /// Whether nothing has been read yet in this branch: only there is `^` an anchor.
        var atBranchStart = true
        /// Whether only anchors have been read in this branch. grep's own parser reads `\{` as
        /// text only there; after an anchor elsewhere (`a\b\{`) it reads an interval, which must be
        /// well formed, while the C library (which matches) reads text.
        var onlyAnchorsInBranch = true

        static let unmatchedBracket = "Unmatched [, [^, [:, [., or [="

        /// Ignoring case, a range's ends are compared in uppercase (`[a-\`]` is valid with `-i`).
        let ignoreCase: Bool
        /// grep's own complaints (a set spelt like a class, `[:space:]`; an escape inside an interval
        /// other than `\}`): the first is reported only when the C library, which reads the pattern
        /// first, finds nothing wrong.
        var deferred: String?

        init(pattern: [UInt8], ignoreCase: Bool) {
            self.pattern = pattern
            self.ignoreCase = ignoreCase
        }

        func byte(_ offset: Int) -> UInt8? {
            index + offset < pattern.count ? pattern[index + offset] : nil
        }

        mutating func firstError() -> String? {
            while let current = byte(0) {
                let branchStart = atBranchStart
                atBranchStart = false
                switch current {
                case 0x5C:
                    if let error = escape() { return error }
                case 0x5B:
                    if let error = bracket() { return error }
                    afterAtom = true
                    onlyAnchorsInBranch = false
                case 0x5E where branchStart:
                    // `^` at the start of a branch is an anchor: a repetition after it is literal.
                    index += 1
                default:
                    index += 1
                    afterAtom = true
                    onlyAnchorsInBranch = false
                }
            }
            return frames.count == 1 ? deferred : "Unmatched ( or \\("
        }

        /// At a `\`.
        private mutating func escape() -> String? {
            guard let next = byte(1) else { return "Trailing backslash" }
            switch next {
            case 0x28:
                groupCount += 1
                frames.append((groupCount, closedGroups, []))
                afterAtom = false
                atBranchStart = true
                onlyAnchorsInBranch = true
                index += 2
                return nil
            case 0x29:
                guard frames.count > 1, let frame = frames.popLast() else { return "Unmatched ) or \\)" }
                closedGroups.formUnion(frame.accumulated)
                closedGroups.insert(frame.group)
                afterAtom = true
            case 0x31...0x39:
                guard closedGroups.contains(Int(next - 0x30)) else { return "Invalid back reference" }
                afterAtom = true
            case 0x7B where afterAtom:
                onlyAnchorsInBranch = false
                return interval()
            case 0x7B where !onlyAnchorsInBranch:
                // Text to the C library, an interval to grep's parser (see `onlyAnchorsInBranch`).
                if deferred == nil { deferred = grepIntervalProblem() }
                afterAtom = true
            case 0x62, 0x42, 0x3C, 0x3E, 0x60, 0x27:
                // An anchor (`\b`, `\B`, `\<`, `\>`, `` \` ``, `\'`): nothing to repeat after it.
                afterAtom = false
                index += 2
                return nil
            case 0x7C:
                // A new alternative starts from what was closed where its group opened.
                let innermost = frames.count - 1
                frames[innermost].accumulated.formUnion(closedGroups)
                closedGroups = frames[innermost].initial
                afterAtom = false
                atBranchStart = true
                onlyAnchorsInBranch = true
                index += 2
                return nil
            default:
                afterAtom = true
            }
            onlyAnchorsInBranch = false
            index += 2
            return nil
        }

        /// At the `\` of a `\{` that grep's own parser reads as an interval and the C library as
        /// text: grep's complaint when it is not `\{M\}`, `\{M,\}`, `\{,N\}`, `\{,\}` or
        /// `\{M,N\}` with M ≤ N, or when a count is too big; nil when it is well formed.
        private func grepIntervalProblem() -> String? {
            var position = index + 2
            var low = -1, high = -1
            while position < pattern.count, pattern[position] >= 0x30, pattern[position] <= 0x39 {
                low = min((low < 0 ? 0 : low) * 10 + Int(pattern[position] - 0x30), 32768)
                position += 1
            }
            if position < pattern.count {
                if pattern[position] != 0x2C {
                    high = low
                } else {
                    if low < 0 { low = 0 }
                    position += 1
                    while position < pattern.count, pattern[position] >= 0x30, pattern[position] <= 0x39 {
                        high = min((high < 0 ? 0 : high) * 10 + Int(pattern[position] - 0x30), 32768)
                        position += 1
                    }
                }
            }
            let closed = position + 1 < pattern.count && pattern[position] == 0x5C && pattern[position + 1] == 0x7D
            guard closed, low >= 0, high < 0 || low <= high else { return "invalid content of \\{\\}" }
            return max(low, high) > 32767 ? "regular expression too big" : nil
        }

        /// At the `\` of `\{` after an atom. Read as the C library reads an interval: a number is
        /// read up to `,`, `\}` or the end, and any other character spoils it; the end of the
        /// pattern before `\}` makes the interval unmatched, anything else invalid content.
        private mutating func interval() -> String? {
            var position = index + 2
            enum Stop { case comma, close, end }
            /// The number up to the next stop: nil when there were no digits, -1 when spoiled.
            func number() -> (Int?, Stop) {
                var value: Int?
                while position < pattern.count {
                    let current = pattern[position]
                    if current == 0x5C, position + 1 < pattern.count {
                        if pattern[position + 1] == 0x7D { position += 2; return (value, .close) }
                        // grep's own parser refuses any other escape here; the C library reads
                        // `\,` as a comma, `\0` as the digit 0 (`\1` to `\9` are back-references
                        // to it) and any other as a character that is no digit.
                        if deferred == nil { deferred = "invalid content of \\{\\}" }
                        position += 2
                        let escaped = pattern[position - 1]
                        if escaped == 0x2C { return (value, .comma) }
                        if escaped == 0x30, value != -1 {
                            value = min((value ?? 0) * 10, 32768)
                        } else {
                            value = -1
                        }
                        continue
                    }
                    position += 1
                    if current == 0x2C { return (value, .comma) }
                    if current >= 0x30, current <= 0x39, value != -1 {
                        // Capped: past the limit only "too big" matters.
                        value = min((value ?? 0) * 10 + Int(current - 0x30), 32768)
                    } else {
                        value = -1
                    }
                }
                return (-1, .end)
            }
            let (low, stopAfterLow) = number()
            var high = low
            var stop = stopAfterLow
            if low != -1, stop == .comma {
                (high, stop) = number()
            }
            if low == -1 || high == -1 || stop != .close || (low == nil && stopAfterLow == .close) {
                return stop == .end ? "Unmatched \\{" : "Invalid content of \\{\\}"
            }
            if let low, let high, low > high { return "Invalid content of \\{\\}" }
            if (high ?? low ?? 0) > 32767 { return "Regular expression too big" }
            index = position
            afterAtom = true
            return nil
        }

        /// At a `[`: checks the set and moves past its `]`.
        private mutating func bracket() -> String? {
            var position = index + 1
            if position < pattern.count, pattern[position] == 0x5E { position += 1 }
            guard position < pattern.count else { return "Invalid regular expression" }
            let contentStart = position
            var first = true
            /// Whether the set holds a range or a `[:…:]`, `[.….]`, `[=…=]` element: then it is no
            /// misspelt class (`[:a-z:]` is a set of colons and letters).
            var hasStructure = false
            while position < pattern.count {
                let current = pattern[position]
                if current == 0x5D, !first { break }
                first = false
                if current == 0x5B, position + 1 < pattern.count, [0x3A, 0x2E, 0x3D].contains(pattern[position + 1]) {
                    let kind = pattern[position + 1]
                    var close = position + 2
                    while close + 1 < pattern.count, !(pattern[close] == kind && pattern[close + 1] == 0x5D) { close += 1 }
                    // The C library reads at most 31 bytes of a name before giving up on the set.
                    guard close + 1 < pattern.count, close - (position + 2) < 32 else { return Self.unmatchedBracket }
                    let name = Array(pattern[(position + 2)..<close])
                    hasStructure = true
                    if kind == 0x3A {
                        guard let text = String(validating: name, as: UTF8.self), BasicRegex.classNames.contains(text) else {
                            return "Invalid character class name"
                        }
                    } else if name.count != 1 || name[0] >= 0x80 {
                        // The C.UTF-8 locale collates ASCII only: one ASCII character is all it names.
                        return "Invalid collation character"
                    }
                    position = close + 2
                    // A class or an equivalence class cannot start a range; a collating element can.
                    // After one, a `-` must close the set (`[[=e=]-]`); anything else, the pattern's
                    // end included, is an invalid range end to the C library.
                    if kind != 0x2E, position < pattern.count, pattern[position] == 0x2D,
                       position + 1 == pattern.count || pattern[position + 1] != 0x5D {
                        return "Invalid range end"
                    }
                    continue
                }
                let (low, length) = BasicRegex.scalar(in: pattern, at: position)
                position += length
                guard position + 1 < pattern.count, pattern[position] == 0x2D, pattern[position + 1] != 0x5D else { continue }
                // A range: its end is a character or a collating element, and not before its start.
                position += 1
                hasStructure = true
                var high: UInt32
                if pattern[position] == 0x5B, position + 1 < pattern.count, [0x3A, 0x2E, 0x3D].contains(pattern[position + 1]) {
                    let kind = pattern[position + 1]
                    var close = position + 2
                    while close + 1 < pattern.count, !(pattern[close] == kind && pattern[close + 1] == 0x5D) { close += 1 }
                    guard close + 1 < pattern.count, close - (position + 2) < 32 else { return Self.unmatchedBracket }
                    // Only a collating element `[.x.]` can end a range; a class or `[=x=]` cannot.
                    guard kind == 0x2E else { return "Invalid range end" }
                    let name = Array(pattern[(position + 2)..<close])
                    guard name.count == 1, name[0] < 0x80 else { return "Invalid collation character" }
                    high = BasicRegex.scalar(in: name, at: 0).0
                    position = close + 2
                } else {
                    let (value, size) = BasicRegex.scalar(in: pattern, at: position)
                    high = value
                    position += size
                }
                // A range is a span of the locale's collation, which in C.UTF-8 has ASCII only.
                if low >= 0x80 || high >= 0x80 { return "Invalid collation character" }
                if ignoreCase ? BasicRegex.uppercased(low) > BasicRegex.uppercased(high) : low > high {
                    return "Invalid range end"
                }
                // A range cannot start another one (`[a-c-e]`, also `[a-c-` at the very end).
                if position < pattern.count, pattern[position] == 0x2D,
                   position + 1 == pattern.count || pattern[position + 1] != 0x5D {
                    return "Invalid range end"
                }
            }
            guard position < pattern.count else { return Self.unmatchedBracket }
            let content = pattern[contentStart..<position]
            // grep's test: starts and ends with `:` and holds something else (`[:::]` is colons).
            if content.count > 2, content.first == 0x3A, content.last == 0x3A, content.contains(where: { $0 != 0x3A }),
               !hasStructure, deferred == nil {
                deferred = BasicRegex.misspeltClassMessage
            }
            index = position + 1
            return nil
        }
    }
}
