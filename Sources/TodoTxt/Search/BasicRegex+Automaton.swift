extension BasicRegex {
    /// A pattern without back-references, compiled to an automaton and run by simulating every
    /// thread at once (Thompson's construction, Pike's simulation).
    ///
    /// Why: a backtracking matcher takes exponential time on nested repetitions (`.**`,
    /// `\(a*\)*b`), and a listing's search term is typed by the user. Here each text position is
    /// visited once per instruction, so a match costs at most text length × program length steps.
    ///
    /// Invariant: every consuming instruction consumes exactly one character (an ASCII literal, or
    /// the UTF-8 scalar that `.` and sets read), so all threads advance in step, and positions are
    /// always where characters start.
    struct Program: Sendable {
        enum Instruction: Sendable {
            /// Matches one character with the node (a literal, `.` or a set).
            case consume(Node)
            /// Matches any one character or byte (a back-reference read as any text).
            case consumeAnything
            /// Matches the empty string where the node (an anchor or word boundary) holds.
            case assert(Node)
            /// Continues at both targets.
            case split(Int, Int)
            case jump(Int)
            case match
        }

        /// The most instructions compiled before falling back to backtracking: an interval such as
        /// `\{32767\}` repeats its atom that many times.
        static let sizeLimit = 20_000

        let code: [Instruction]

        /// Nil when the pattern has a back-reference (which no automaton can match) or compiles to
        /// more than `sizeLimit` instructions. With `backReferencesMatchAnything`, a back-reference
        /// reads as any text: the automaton then matches a superset of what the pattern matches.
        init?(_ alternatives: [[Node]], backReferencesMatchAnything: Bool = false) {
            var code: [Instruction] = []
            let compiler = Compiler(backReferencesMatchAnything: backReferencesMatchAnything)
            guard compiler.emit(alternatives, into: &code) else { return nil }
            code.append(.match)
            self.code = code
        }

        /// The leftmost match at or after `start`: with `longest`, its longest extent (POSIX, as sed
        /// replaces); without, the first end found (enough to know that there is a match).
        func firstMatch(_ matcher: Matcher, from start: Int, longest: Bool, anchored: Bool = false) -> Range<Int>? {
            let text = matcher.text
            var current = ThreadList(capacity: code.count)
            var next = ThreadList(capacity: code.count)
            var found: Range<Int>?
            var position = start
            while position <= text.count {
                // A new thread starts at every character until a match has been found (at the first
                // one only when anchored).
                if found == nil, !anchored || position == start { add(0, start: position, at: position, to: &current, matcher) }
                if current.isEmpty { break }
                let step = position < text.count ? BasicRegex.scalar(in: text, at: position).1 : 1
                for (pc, threadStart) in zip(current.pcs, current.starts) {
                    switch code[pc] {
                    case .match:
                        guard found == nil || threadStart == found?.lowerBound else { continue }
                        if !longest { return threadStart..<position }
                        if found.map({ position > $0.upperBound }) ?? true { found = threadStart..<position }
                    case .consume(let node):
                        // Threads that started after the leftmost match are of no more use.
                        if let found, threadStart > found.lowerBound { continue }
                        if position < text.count, matcher.single(node, at: position) != nil {
                            add(pc + 1, start: threadStart, at: position + step, to: &next, matcher)
                        }
                    case .consumeAnything:
                        if let found, threadStart > found.lowerBound { continue }
                        if position < text.count { add(pc + 1, start: threadStart, at: position + step, to: &next, matcher) }
                    case .assert, .split, .jump:
                        continue
                    }
                }
                swap(&current, &next)
                next.clear()
                position += step
            }
            return found
        }

        /// Whether the whole of `matcher.text` matches.
        func matchesWhole(_ matcher: Matcher) -> Bool {
            firstMatch(matcher, from: 0, longest: true, anchored: true)?.upperBound == matcher.text.count
        }

        /// Adds the thread at `pc` and every thread reachable from it without consuming, in order.
        private func add(_ pc: Int, start: Int, at position: Int, to list: inout ThreadList, _ matcher: Matcher) {
            var pending = [pc]
            while let pc = pending.popLast() {
                guard list.insert(pc, start: start) else { continue }
                switch code[pc] {
                case .jump(let target):
                    pending.append(target)
                case .split(let first, let second):
                    // Popped last-in-first-out: `first` is followed first.
                    pending.append(second)
                    pending.append(first)
                case .assert(let node):
                    if matcher.single(node, at: position) != nil { pending.append(pc + 1) }
                case .consume, .consumeAnything, .match:
                    break
                }
            }
        }
    }

    /// The threads at one text position: at most one per instruction, kept in the order added
    /// (earlier starts first, so the leftmost match claims an instruction before later starts).
    struct ThreadList {
        private(set) var pcs: [Int] = []
        private(set) var starts: [Int] = []
        private var present: [Bool]

        init(capacity: Int) { present = Array(repeating: false, count: capacity) }

        var isEmpty: Bool { pcs.isEmpty }

        /// Adds `pc` unless it is already there; returns whether it was added.
        mutating func insert(_ pc: Int, start: Int) -> Bool {
            guard !present[pc] else { return false }
            present[pc] = true
            pcs.append(pc)
            starts.append(start)
            return true
        }

        mutating func clear() {
            for pc in pcs { present[pc] = false }
            pcs.removeAll(keepingCapacity: true)
            starts.removeAll(keepingCapacity: true)
        }
    }

    /// Compiles parsed nodes into a `Program` (Thompson's construction).
    private struct Compiler {
        typealias Instruction = Program.Instruction
        let backReferencesMatchAnything: Bool

        func emit(_ alternatives: [[Node]], into code: inout [Instruction]) -> Bool {
            var jumpsToEnd: [Int] = []
            for (number, branch) in alternatives.enumerated() {
                let isLast = number == alternatives.count - 1
                let split = code.count
                if !isLast { code.append(.split(split + 1, -1)) }
                for node in branch where !emit(node, into: &code) { return false }
                if !isLast {
                    jumpsToEnd.append(code.count)
                    code.append(.jump(-1))
                    code[split] = .split(split + 1, code.count)
                }
            }
            for jump in jumpsToEnd { code[jump] = .jump(code.count) }
            return code.count <= Program.sizeLimit
        }

        func emit(_ node: Node, into code: inout [Instruction]) -> Bool {
            switch node {
            case .literal, .any, .set:
                code.append(.consume(node))
            case .lineStart, .lineEnd, .wordBoundary, .wordStart, .wordEnd:
                code.append(.assert(node))
            case .backReference:
                guard backReferencesMatchAnything else { return false }
                let loop = code.count
                code.append(.split(loop + 1, loop + 3))
                code.append(.consumeAnything)
                code.append(.jump(loop))
            case .group(_, let branches):
                return emit(branches, into: &code)
            case .repetition(let inner, let low, let high):
                // A decreasing interval (`\{3,2\}`, which grep refuses) matches nothing; left to
                // the backtracking matcher, which reads it so.
                if let high, high < low { return false }
                for _ in 0..<low {
                    guard emit(inner, into: &code) else { return false }
                }
                if let high {
                    // Each optional copy: try the atom, or skip to what follows all of them.
                    var skips: [Int] = []
                    for _ in low..<max(low, high) {
                        skips.append(code.count)
                        code.append(.split(code.count + 1, -1))
                        guard emit(inner, into: &code) else { return false }
                    }
                    for skip in skips { code[skip] = .split(skip + 1, code.count) }
                } else {
                    let loop = code.count
                    code.append(.split(loop + 1, -1))
                    guard emit(inner, into: &code) else { return false }
                    code.append(.jump(loop))
                    code[loop] = .split(loop + 1, code.count)
                }
            }
            return code.count <= Program.sizeLimit
        }
    }
}
