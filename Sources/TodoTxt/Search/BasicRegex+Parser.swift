// Reading a pattern into the nodes both matchers run.
extension BasicRegex {
    struct Parser {
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
                case 0x80...:
                    // A stray `\` before a character of several bytes: that character, one atom.
                    index -= 1
                    return character()
                default: return .literal(next)
                }
            default:
                guard byte >= 0x80 else { return .literal(byte) }
                index -= 1
                return character()
            }
        }

        /// The character starting at `index`, of several bytes: one atom (`é*` repeats `é`), matched
        /// as a scalar and, ignoring case, as any of its case variants.
        mutating func character() -> Node {
            let (scalar, length) = BasicRegex.scalar(in: pattern, at: index)
            index += length
            return .set(BracketSet(scalars: ignoreCase ? BasicRegex.caseVariants(scalar) : [scalar]))
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
}
