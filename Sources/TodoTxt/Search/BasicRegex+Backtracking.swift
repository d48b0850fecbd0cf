// The backtracking matcher: the only one that can match back-references.
extension BasicRegex {
    /// One text being matched: how a single node matches at a position (shared with the
    /// automaton), and the backtracking search with its captures and step budget.
    ///
    /// A class because the backtracking closures update the captures and the budget in place.
    final class Matcher {
        let text: [UInt8]
        let ignoreCase: Bool
        var captures: [Range<Int>?]

        /// Steps left before the backtracking matcher gives up (see `backtrackingBudget`).
        private var stepsLeft = BasicRegex.backtrackingBudget
        /// How many `match` calls are active, one inside the other.
        private var depth = 0
        /// How many empty iterations that only an anchor let be empty are on the current path: such
        /// a path may not end in an empty match (see `repeatMatch`).
        private var anchorOnlyIterations = 0
        /// Whether the budget or the depth limit ran out: every answer since is "no match", and the caller must not
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
                    if self.anchorOnlyIterations > 0 && end == position { return false }
                    result = end
                    return true
                }) { return result }
            }
            return nil
        }

        /// Matches `nodes` in sequence at `position`, then `next` at the end; backtracks on failure.
        func match(_ nodes: ArraySlice<Node>, at position: Int, _ next: (Int) -> Bool) -> Bool {
            guard let node = nodes.first else { return next(position) }
            let rest = nodes.dropFirst()
            return match(node, at: position) { end in self.match(rest, at: end, next) }
        }

        /// Matches one node at `position`, then `next` at its end. Every call is a step of the budget.
        func match(_ node: Node, at position: Int, _ next: (Int) -> Bool) -> Bool {
            stepsLeft -= 1
            guard stepsLeft > 0 else { return false }
            guard depth < BasicRegex.backtrackingDepthLimit else {
                stepsLeft = 0
                return false
            }
            depth += 1
            defer { depth -= 1 }
            switch node {
            case .repetition(let inner, let low, let high):
                return repeatMatch(inner, count: 0, low: low, high: high, at: position, next)
            case .group(let number, let branches):
                for branch in branches {
                    let saved = captures[number]
                    if match(branch[...], at: position, { end in
                        let inner = self.captures[number]
                        self.captures[number] = position..<end
                        if next(end) { return true }
                        self.captures[number] = inner
                        return false
                    }) { return true }
                    captures[number] = saved
                }
                return false
            default:
                guard let end = single(node, at: position) else { return false }
                return next(end)
            }
        }

        func repeatMatch(_ node: Node, count: Int, low: Int, high: Int?, at position: Int,
                         _ next: (Int) -> Bool) -> Bool {
            if high.map({ count < $0 }) ?? true {
                if match(node, at: position, { end in
                    // An empty iteration past the minimum ends the loop, keeping the captures it
                    // set, as grep does: `\(\|\)*\1` matches an empty line, `^\(a\|b*\)*c\1$`
                    // matches `aac` with `\1` empty. When only an anchor let it be empty, grep
                    // keeps its capture too (`\(\<\)*A\1` matches `A`), but never for a match that
                    // is empty as a whole (`\(\<\)*\1` matches nothing; the C library matches it).
                    guard end != position || count < low else {
                        if BasicRegex.matchesEmptyWithoutAnchors(node) { return next(end) }
                        self.anchorOnlyIterations += 1
                        defer { self.anchorOnlyIterations -= 1 }
                        return next(end)
                    }
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
}

extension BasicRegex {
    /// Whether `node` can match the empty string without an anchor (`\(\|\)`, `\(a*\)`), as
    /// opposed to only through one (`\(\<\)`, `\(^\)`); see `Matcher.repeatMatch`.
    static func matchesEmptyWithoutAnchors(_ node: Node) -> Bool {
        switch node {
        case .repetition(let inner, let low, _):
            return low == 0 || matchesEmptyWithoutAnchors(inner)
        case .group(_, let branches):
            return branches.contains { $0.allSatisfy(matchesEmptyWithoutAnchors) }
        case .literal, .any, .set, .backReference, .lineStart, .lineEnd, .wordBoundary, .wordStart, .wordEnd:
            return false
        }
    }
}
