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
/// runs as an automaton (BasicRegex+Automaton.swift), in time linear in the text; only a pattern
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
        superset = program == nil ? Program(alternatives, backReferencesMatchAnything: true) : nil
    }

    /// The most steps the backtracking matcher takes on one text. Back-references make matching
    /// NP-hard, so some patterns take exponential time; past the budget the answer is undecided.
    static let backtrackingBudget = 200_000

    /// Whether the pattern matches anywhere in `text`. A line on which a back-reference pattern
    /// stays undecided (see `matchOutcome`) counts as matching: a listing shows a line too many
    /// rather than hide one (docs/todo-command.md, "Search terms").
    package func matches(_ text: [UInt8]) -> Bool { matchOutcome(text) ?? true }

    /// Whether the pattern matches anywhere in `text`; nil when a pattern with back-references
    /// needs more than `backtrackingBudget` steps to tell.
    package func matchOutcome(_ text: [UInt8]) -> Bool? {
        if let plainText {
            return text.withUnsafeBufferPointer { BasicRegex.contains($0, plainText, ignoreCase: ignoreCase) }
        }
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
    func removingMatches(from text: [UInt8]) -> [UInt8] { replacingMatches(in: text, with: []) }

    /// `sed 's/PATTERN/REPLACEMENT/g'` with a literal replacement.
    func replacingMatches(in text: [UInt8], with replacement: [UInt8]) -> [UInt8] {
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
    func matchesWhole(_ text: [UInt8]) -> Bool {
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

    /// The scalars `scalar` matches when case is ignored, itself first: its simple uppercase form,
    /// and the lowercase form of that when it maps back to it, as GNU grep's `-i` reads a character
    /// in a UTF-8 locale (`é` and `É`; `ß` has no single-character uppercase and matches itself). An
    /// invalid byte (see `scalar(in:at:)`) has no variants.
    static func caseVariants(_ scalar: UInt32) -> [UInt32] {
        if scalar < 0x80 {
            if scalar >= 0x41 && scalar <= 0x5A { return [scalar, scalar + 0x20] }
            if scalar >= 0x61 && scalar <= 0x7A { return [scalar, scalar - 0x20] }
            return [scalar]
        }
        guard let character = Unicode.Scalar(scalar) else { return [scalar] }
        func single(_ mapping: String) -> Unicode.Scalar? {
            var scalars = mapping.unicodeScalars.makeIterator()
            guard let first = scalars.next(), scalars.next() == nil else { return nil }
            return first
        }
        let upper = single(character.properties.uppercaseMapping) ?? character
        var variants = [scalar]
        if upper != character { variants.append(upper.value) }
        if let lower = single(upper.properties.lowercaseMapping), lower != upper, lower != character,
           (single(lower.properties.uppercaseMapping) ?? lower) == upper {
            variants.append(lower.value)
        }
        return variants
    }

    /// A word character of `\w`, `\<`, `\>` and `\b`: a letter, a digit or `_` (grep's `[_[:alnum:]]`).
    /// The simple uppercase form of `scalar` (itself when it has none of one character).
    static func uppercased(_ scalar: UInt32) -> UInt32 {
        if scalar < 0x80 { return scalar >= 0x61 && scalar <= 0x7A ? scalar - 0x20 : scalar }
        guard let character = Unicode.Scalar(scalar) else { return scalar }
        var mapped = character.properties.uppercaseMapping.unicodeScalars.makeIterator()
        guard let first = mapped.next(), mapped.next() == nil else { return scalar }
        return first.value
    }

    static func isWordScalar(_ scalar: UInt32) -> Bool { scalar == 0x5F || inClass("alnum", scalar) }

    // MARK: Parsing

    private struct Parser {
        let pattern: [UInt8]
        let ignoreCase: Bool
        var index = 0
        var groupCount = 0

        init(pattern: [UInt8], ignoreCase: Bool) {
            self.pattern = pattern
            self.ignoreCase = ignoreCase
        }

        func peek(_ offset: Int = 0) -> UInt8? {
            index + offset < pattern.count ? pattern[index + offset] : nil
        }

        mutating func parseAlternatives(topLevel: Bool) -> [[Node]] {
            var alternatives: [[Node]] = [parseSequence()]
            while peek() == 0x5C && peek(1) == 0x7C {
                index += 2
                alternatives.append(parseSequence())
            }
            return alternatives
        }

        /// One branch: up to `\|`, `\)` or the end.
        mutating func parseSequence() -> [Node] {
            var nodes: [Node] = []
            let branchStart = index
            while let byte = peek() {
                if byte == 0x5C, let next = peek(1), next == 0x7C || next == 0x29 { break }
                let atStart = index == branchStart
                switch byte {
                case 0x5E where atStart:
                    index += 1
                    nodes.append(.lineStart)
                    continue
                case 0x24 where isEndPosition(index + 1):
                    index += 1
                    nodes.append(.lineEnd)
                    continue
                case 0x2A where nodes.isEmpty || endsWithAnchor(nodes):
                    index += 1
                    nodes.append(.literal(0x2A))
                    continue
                case 0x2A:
                    index += 1
                    applyRepetition(&nodes, min: 0, max: nil)
                    continue
                default:
                    break
                }
                if byte == 0x5C, let next = peek(1) {
                    switch next {
                    case 0x2B where !nodes.isEmpty && !endsWithAnchor(nodes),
                         0x3F where !nodes.isEmpty && !endsWithAnchor(nodes):
                        index += 2
                        applyRepetition(&nodes, min: next == 0x2B ? 1 : 0, max: next == 0x2B ? nil : 1)
                        continue
                    case 0x7B where !nodes.isEmpty && !endsWithAnchor(nodes):
                        if let (low, high) = parseInterval() {
                            applyRepetition(&nodes, min: low, max: high)
                            continue
                        }
                    default:
                        break
                    }
                }
                nodes.append(parseAtom())
            }
            return nodes
        }

        /// Whether a repetition here has nothing to repeat: at the start of a branch or right after
        /// an anchor (`^`, `\b`, `\<`…), where grep reads `*`, `\+`, `\?` and `\{` as literal text.
        func endsWithAnchor(_ nodes: [Node]) -> Bool {
            switch nodes.last {
            case .lineStart?, .lineEnd?, .wordBoundary?, .wordStart?, .wordEnd?: return true
            default: return false
            }
        }

        /// `$` is an anchor at the end of the pattern, before `\)` and before `\|`.
        func isEndPosition(_ position: Int) -> Bool {
            if position >= pattern.count { return true }
            if pattern[position] == 0x5C, position + 1 < pattern.count {
                return pattern[position + 1] == 0x29 || pattern[position + 1] == 0x7C
            }
            return false
        }

        mutating func applyRepetition(_ nodes: inout [Node], min: Int, max: Int?) {
            guard let last = nodes.popLast() else { return }
            nodes.append(.repetition(last, min: min, max: max))
        }

        /// `\{m\}`, `\{m,\}`, `\{m,n\}`, `\{,n\}` starting at `index` (which points at the backslash).
        mutating func parseInterval() -> (Int, Int?)? {
            var position = index + 2
            func number() -> Int? {
                var value: Int?
                while position < pattern.count, pattern[position] >= 0x30, pattern[position] <= 0x39 {
                    // Capped past grep's limit (32767): a longer run of digits must not overflow.
                    value = min((value ?? 0) * 10 + Int(pattern[position] - 0x30), 32768)
                    position += 1
                }
                return value
            }
            let low = number()
            var high: Int?
            if position < pattern.count, pattern[position] == 0x2C {
                position += 1
                high = number()
            } else {
                high = low
            }
            guard position + 1 < pattern.count, pattern[position] == 0x5C, pattern[position + 1] == 0x7D else {
                return nil
            }
            index = position + 2
            return (low ?? 0, high)
        }

        mutating func parseAtom() -> Node {
            let byte = pattern[index]
            index += 1
            switch byte {
            case 0x2E: return .any
            case 0x5B: return parseBracket()
            case 0x5C:
                guard let next = peek() else { return .literal(0x5C) }
                index += 1
                switch next {
                case 0x28:
                    groupCount += 1
                    let number = groupCount
                    let inner = parseAlternatives(topLevel: false)
                    if peek() == 0x5C && peek(1) == 0x29 { index += 2 }
                    return .group(number, inner)
                case 0x31...0x39: return .backReference(Int(next - 0x30))
                case 0x3C: return .wordStart
                case 0x3E: return .wordEnd
                case 0x62: return .wordBoundary(true)
                case 0x42: return .wordBoundary(false)
                case 0x77: return .set(BracketSet(classes: ["_word"]))
                case 0x57: return .set(BracketSet(classes: ["_word"], negated: true))
                case 0x73: return .set(BracketSet(classes: ["space"]))
                case 0x53: return .set(BracketSet(classes: ["space"], negated: true))
                case 0x60: return .lineStart
                case 0x27: return .lineEnd
                default: return .literal(next)
                }
            default:
                guard byte >= 0x80 else { return .literal(byte) }
                // A character of several bytes is one atom (`é*` repeats `é`), matched as a scalar and,
                // ignoring case, as any of its case variants.
                index -= 1
                let (scalar, length) = BasicRegex.scalar(in: pattern, at: index)
                index += length
                return .set(BracketSet(scalars: ignoreCase ? BasicRegex.caseVariants(scalar) : [scalar]))
            }
        }

        /// A bracket expression; `index` is just past the `[`.
        mutating func parseBracket() -> Node {
            let start = index
            var set = BracketSet()
            if peek() == 0x5E { set.negated = true; index += 1 }
            var first = true
            while let byte = peek() {
                if byte == 0x5D && !first { index += 1; return .set(set) }
                first = false
                if byte == 0x5B, let kind = peek(1), kind == 0x3A || kind == 0x3D || kind == 0x2E {
                    // [:class:], [=x=], [.x.]
                    var end = index + 2
                    while end + 1 < pattern.count && !(pattern[end] == kind && pattern[end + 1] == 0x5D) { end += 1 }
                    if end + 1 < pattern.count {
                        let name = String(decoding: pattern[(index + 2)..<end], as: UTF8.self)
                        if kind == 0x3A { set.classes.append(name) } else { set.scalars += name.unicodeScalars.map(\.value) }
                        index = end + 2
                        continue
                    }
                }
                let low = decodeScalar()
                if peek() == 0x2D, let after = peek(1), after != 0x5D {
                    index += 1
                    let high = decodeScalar()
                    // Ignoring case, the C library compares a range's ends in uppercase (`[a-\`]` is
                    // A to \`), and so matches it.
                    let (start, end) = ignoreCase ? (BasicRegex.uppercased(low), BasicRegex.uppercased(high)) : (low, high)
                    if start <= end { set.ranges.append(start...end) }
                } else {
                    set.scalars.append(low)
                }
            }
            // No closing bracket: the `[` is a literal.
            index = start
            return .literal(0x5B)
        }

        mutating func decodeScalar() -> UInt32 {
            let (scalar, length) = BasicRegex.scalar(in: pattern, at: index)
            index += length
            return scalar
        }
    }

    /// The UTF-8 scalar at `position` and its length; an invalid byte is its own "scalar" (0xDC00 + b,
    /// a surrogate, so it can never equal a real scalar).
    static func scalar(in text: [UInt8], at position: Int) -> (UInt32, Int) {
        scalar(in: text[...], at: position)
    }

    /// Whether `scalar` stands for a byte that is not valid UTF-8 (see `scalar(in:at:)`).
    static func isEncodingError(_ scalar: UInt32) -> Bool { scalar >= 0xDC80 && scalar <= 0xDCFF }

    /// The scalar that ends just before `position`, or nil at the start or after an encoding error.
    static func scalar(endingAt position: Int, in text: [UInt8]) -> UInt32? {
        var start = position - 1
        while start >= 0, start > position - 4, text[start] & 0xC0 == 0x80 { start -= 1 }
        guard start >= 0 else { return nil }
        let (value, length) = scalar(in: text, at: start)
        return start + length == position && !isEncodingError(value) ? value : nil
    }

    static func scalar(in text: ArraySlice<UInt8>, at position: Int) -> (UInt32, Int) {
        let lead = text[position]
        if lead < 0x80 { return (UInt32(lead), 1) }
        let length: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; value = UInt32(lead & 0x07)
        default: return (0xDC00 + UInt32(lead), 1)
        }
        guard position + length <= text.count else { return (0xDC00 + UInt32(lead), 1) }
        // The second byte's range rules out overlong forms, surrogates and values past U+10FFFF.
        let second = text[position + 1]
        let secondRange: ClosedRange<UInt8> = switch lead {
        case 0xE0: 0xA0...0xBF
        case 0xED: 0x80...0x9F
        case 0xF0: 0x90...0xBF
        case 0xF4: 0x80...0x8F
        default: 0x80...0xBF
        }
        guard secondRange.contains(second) else { return (0xDC00 + UInt32(lead), 1) }
        for offset in 1..<length {
            let byte = text[position + offset]
            guard byte & 0xC0 == 0x80 else { return (0xDC00 + UInt32(lead), 1) }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        return (value, length)
    }

    // MARK: Matching

    final class Matcher {
        let text: [UInt8]
        let ignoreCase: Bool
        var captures: [Range<Int>?]

        /// Steps left before the backtracking matcher gives up (see `backtrackingBudget`).
        private var stepsLeft = BasicRegex.backtrackingBudget
        /// Whether the budget ran out: every answer since is "no match", and the caller must not
        /// trust it.
        var isExhausted: Bool { stepsLeft <= 0 }

        init(text: [UInt8], ignoreCase: Bool, groupCount: Int) {
            self.text = text
            self.ignoreCase = ignoreCase
            captures = Array(repeating: nil, count: groupCount + 1)
        }

        func matchTop(_ alternatives: [[Node]], at position: Int, requireEnd: Bool = false) -> Int? {
            var result: Int?
            for branch in alternatives {
                if match(branch[...], at: position, { end in
                    if requireEnd && end != self.text.count { return false }
                    result = end
                    return true
                }) { return result }
            }
            return nil
        }

        func match(_ nodes: ArraySlice<Node>, at position: Int, _ next: (Int) -> Bool) -> Bool {
            stepsLeft -= 1
            guard stepsLeft > 0 else { return false }
            guard let node = nodes.first else { return next(position) }
            let rest = nodes.dropFirst()
            switch node {
            case .repetition(let inner, let low, let high):
                return repeatMatch(inner, count: 0, low: low, high: high, at: position) { end in
                    self.match(rest, at: end, next)
                }
            case .group(let number, let branches):
                for branch in branches {
                    let saved = captures[number]
                    if match(branch[...], at: position, { end in
                        let inner = self.captures[number]
                        self.captures[number] = position..<end
                        if self.match(rest, at: end, next) { return true }
                        self.captures[number] = inner
                        return false
                    }) { return true }
                    captures[number] = saved
                }
                return false
            default:
                guard let end = single(node, at: position) else { return false }
                return match(rest, at: end, next)
            }
        }

        func repeatMatch(_ node: Node, count: Int, low: Int, high: Int?, at position: Int,
                         _ next: (Int) -> Bool) -> Bool {
            if high.map({ count < $0 }) ?? true {
                if match([node][...], at: position, { end in
                    guard end != position || count < low else { return false }
                    return self.repeatMatch(node, count: count + 1, low: low, high: high, at: end, next)
                }) { return true }
            }
            return count >= low && next(position)
        }

        /// Matches a node that is neither a group nor a repetition; returns the end.
        func single(_ node: Node, at position: Int) -> Int? {
            switch node {
            case .literal(let byte):
                guard position < text.count else { return nil }
                let actual = text[position]
                if actual == byte { return position + 1 }
                if ignoreCase && BasicRegex.fold(actual) == BasicRegex.fold(byte) { return position + 1 }
                return nil
            case .any:
                guard position < text.count else { return nil }
                let (scalar, length) = BasicRegex.scalar(in: text, at: position)
                return BasicRegex.isEncodingError(scalar) ? nil : position + length
            case .set(let set):
                guard position < text.count else { return nil }
                let (scalar, length) = BasicRegex.scalar(in: text, at: position)
                // An encoding error is no character: only the same invalid byte in the pattern matches it.
                if BasicRegex.isEncodingError(scalar) {
                    return !set.negated && set.scalars.contains(scalar) ? position + length : nil
                }
                return contains(set, scalar) != set.negated ? position + length : nil
            case .lineStart:
                return position == 0 ? position : nil
            case .lineEnd:
                return position == text.count ? position : nil
            case .wordBoundary(let wanted):
                return isBoundary(position) == wanted ? position : nil
            case .wordStart:
                return isWord(position) && !isWordBefore(position) ? position : nil
            case .wordEnd:
                return !isWord(position) && isWordBefore(position) ? position : nil
            case .backReference(let number):
                guard number < captures.count, let range = captures[number] else { return nil }
                let length = range.count
                guard position + length <= text.count else { return nil }
                for offset in 0..<length {
                    var left = text[range.lowerBound + offset], right = text[position + offset]
                    if ignoreCase { left = BasicRegex.fold(left); right = BasicRegex.fold(right) }
                    if left != right { return nil }
                }
                return position + length
            case .group, .repetition:
                return nil
            }
        }

        /// Whether the character starting at `position` is a word character.
        func isWord(_ position: Int) -> Bool {
            guard position >= 0, position < text.count else { return false }
            return BasicRegex.isWordScalar(BasicRegex.scalar(in: text, at: position).0)
        }

        /// Whether the character ending just before `position` is a word character.
        func isWordBefore(_ position: Int) -> Bool {
            BasicRegex.scalar(endingAt: position, in: text).map(BasicRegex.isWordScalar) ?? false
        }

        func isBoundary(_ position: Int) -> Bool { isWord(position) != isWordBefore(position) }

        func contains(_ set: BracketSet, _ scalar: UInt32) -> Bool {
            let candidates = ignoreCase ? BasicRegex.caseVariants(scalar) : [scalar]
            for candidate in candidates {
                if set.scalars.contains(candidate) { return true }
                if set.ranges.contains(where: { $0.contains(candidate) }) { return true }
                for name in set.classes where BasicRegex.inClass(name, candidate) { return true }
            }
            return false
        }
    }

    /// Whether `scalar` is in the POSIX class `name`, as the C.UTF-8 locale's character classes say:
    /// `digit` and `xdigit` are ASCII only (POSIX requires it), every other class takes in the rest of
    /// Unicode by its general category. An encoding error is in no class.
    static func inClass(_ name: String, _ scalar: UInt32) -> Bool {
        if name == "_word" { return isWordScalar(scalar) }
        if scalar < 0x80 {
            let isUpper = scalar >= 0x41 && scalar <= 0x5A
            let isLower = scalar >= 0x61 && scalar <= 0x7A
            let isDigit = scalar >= 0x30 && scalar <= 0x39
            switch name {
            case "alpha": return isUpper || isLower
            case "upper": return isUpper
            case "lower": return isLower
            case "digit": return isDigit
            case "alnum": return isUpper || isLower || isDigit
            case "space": return scalar == 0x20 || (scalar >= 0x09 && scalar <= 0x0D)
            case "blank": return scalar == 0x20 || scalar == 0x09
            case "punct": return scalar > 0x20 && scalar < 0x7F && !(isUpper || isLower || isDigit)
            case "print": return scalar >= 0x20 && scalar != 0x7F
            case "graph": return scalar > 0x20 && scalar != 0x7F
            case "cntrl": return scalar < 0x20 || scalar == 0x7F
            case "xdigit": return isDigit || (scalar >= 0x41 && scalar <= 0x46) || (scalar >= 0x61 && scalar <= 0x66)
            default: return false
            }
        }
        guard let character = Unicode.Scalar(scalar) else { return false }
        let properties = character.properties
        let category = properties.generalCategory
        // No-break spaces separate nothing, so they are not `space`.
        let isSpace = [.spaceSeparator, .lineSeparator, .paragraphSeparator].contains(category)
            && ![0x00A0, 0x2007, 0x202F].contains(scalar)
        let isAlpha = properties.isAlphabetic || category == .decimalNumber
        let isPrint = ![.control, .unassigned, .surrogate, .lineSeparator, .paragraphSeparator].contains(category)
        switch name {
        case "alpha", "alnum": return isAlpha
        case "upper": return caseVariants(scalar).count > 1 && properties.lowercaseMapping != String(character)
        case "lower": return caseVariants(scalar).count > 1 && properties.uppercaseMapping != String(character)
        case "space": return isSpace
        case "blank": return isSpace && category == .spaceSeparator
        case "punct": return isPrint && !isSpace && !isAlpha
        case "print": return isPrint
        case "graph": return isPrint && !isSpace
        case "cntrl": return category == .control || category == .lineSeparator || category == .paragraphSeparator
        default: return false
        }
    }
}
