extension BasicRegex {
    /// "Does the pattern match anywhere in this line?" as a table walk: the `Program`'s thread sets,
    /// determinised over ASCII bytes when the regex is compiled (subset construction), so that an
    /// ASCII byte of the text costs one table read instead of a step of every thread.
    ///
    /// Why: a listing asks this of every line of the file, and the thread simulation (allocations,
    /// enum copies and a pass over every thread per character) made `todo ls 'o.*q'` about 45 times
    /// slower than `grep -i` on the same bytes.
    ///
    /// Same answers as `Program.firstMatch(_:from:longest: false)`: a state is the set of
    /// instructions the simulation has threads at (the start's closure included, since a new thread
    /// starts at every character), and the answer is whether one of them reaches `match`. Which
    /// thread got there first, which that simulation tracks, does not change whether one does. The
    /// table only covers ASCII bytes, each a whole character: at any other byte the step is taken
    /// with the program's own character test (`Matcher.single`) on the real text, and the walk
    /// goes back to the table as soon as the set reached is one of its states.
    ///
    /// Built only for programs without assertions (`^`, `$`, word boundaries), whose steps then
    /// depend on the character alone, and within `instructionLimit` and `stateLimit`; other
    /// patterns keep the simulation.
    struct SearchAutomaton: Sendable {
        /// The instructions of the program, for steps off the table.
        private let code: [Program.Instruction]
        private let ignoreCase: Bool
        /// State → the instructions it holds threads at, sorted.
        private let sets: [[Int32]]
        /// `state * 128 + byte` → the state after that ASCII byte.
        private let transitions: [Int32]
        /// State → whether it holds a thread at `match`.
        private let accepting: [Bool]
        /// The states' sets → state, to return to the table after a step off it.
        private let stateOfSet: [[Int32]: Int32]

        /// Programs longer than this keep the thread simulation (the construction is
        /// states × 128 × instructions).
        static let instructionLimit = 96
        /// The most states built; a pattern needing more keeps the thread simulation.
        static let stateLimit = 192

        init?(_ program: Program, ignoreCase: Bool) {
            let code = program.code
            guard code.count <= Self.instructionLimit else { return nil }
            for instruction in code {
                if case .assert = instruction { return nil }
            }
            self.code = code
            self.ignoreCase = ignoreCase
            // Which consuming instructions each ASCII byte passes (`Matcher.single` on a one-byte
            // text is the program's test of that character), as a bit set; bytes with the same
            // bits lead every state to the same next state, so each state is stepped once per such
            // class of bytes, not once per byte.
            var passes = [[Bool]](repeating: [Bool](repeating: false, count: code.count), count: 128)
            for byte in 0..<128 {
                let matcher = Matcher(text: [UInt8(byte)], ignoreCase: ignoreCase, groupCount: 0)
                for (pc, instruction) in code.enumerated() {
                    if case .consume(let node) = instruction { passes[byte][pc] = matcher.single(node, at: 0) != nil }
                }
            }
            var classOfByte = [Int](repeating: 0, count: 128)
            var representatives: [Int] = []
            var classOfPasses: [[Bool]: Int] = [:]
            for byte in 0..<128 {
                if let known = classOfPasses[passes[byte]] {
                    classOfByte[byte] = known
                } else {
                    classOfPasses[passes[byte]] = representatives.count
                    classOfByte[byte] = representatives.count
                    representatives.append(byte)
                }
            }
            var sets: [[Int32]] = [Self.closure(of: [], code)]
            var stateOfSet: [[Int32]: Int32] = [sets[0]: 0]
            var transitions: [Int32] = []
            transitions.reserveCapacity(128 * 8)
            var state = 0
            var nextOfClass = [Int32](repeating: 0, count: representatives.count)
            while state < sets.count {
                for (number, byte) in representatives.enumerated() {
                    let next = Self.step(sets[state], code) { _, pc in passes[byte][pc] }
                    if let known = stateOfSet[next] {
                        nextOfClass[number] = known
                    } else {
                        guard sets.count < Self.stateLimit else { return nil }
                        stateOfSet[next] = Int32(sets.count)
                        nextOfClass[number] = Int32(sets.count)
                        sets.append(next)
                    }
                }
                for byte in 0..<128 { transitions.append(nextOfClass[classOfByte[byte]]) }
                state += 1
            }
            self.sets = sets
            self.transitions = transitions
            self.stateOfSet = stateOfSet
            accepting = sets.map { set in
                set.contains { if case .match = code[Int($0)] { return true } else { return false } }
            }
        }

        /// Whether the pattern matches anywhere in `text`.
        func matches(_ text: [UInt8]) -> Bool {
            if accepting[0] { return true }
            // The tables as buffers for the walk: element access to the arrays themselves cost a
            // retain and a release per byte in a listing's profile.
            return transitions.withUnsafeBufferPointer { transitions in
                accepting.withUnsafeBufferPointer { accepting in
                    text.withUnsafeBufferPointer { walk($0, text, transitions, accepting) }
                }
            }
        }

        /// `matches` on `text` (as `buffer`), with the tables as buffers.
        private func walk(_ buffer: UnsafeBufferPointer<UInt8>, _ text: [UInt8], _ transitions: UnsafeBufferPointer<Int32>,
                          _ accepting: UnsafeBufferPointer<Bool>) -> Bool {
            var state = 0
            // Off the table (`state` < 0): the set the walk is at.
            var set: [Int32] = []
            var matcher: Matcher?
            var position = 0
            let count = buffer.count
            while position < count {
                let byte = buffer[position]
                if byte < 0x80 && state >= 0 {
                    state = Int(transitions[state &* 128 &+ Int(byte)])
                    position += 1
                    if accepting[state] { return true }
                    continue
                }
                let real = matcher ?? Matcher(text: text, ignoreCase: ignoreCase, groupCount: 0)
                matcher = real
                let from = state >= 0 ? sets[state] : set
                let here = position
                let next = Self.step(from, code) { node, _ in real.single(node, at: here) != nil }
                position += BasicRegex.scalar(in: text, at: position).1
                if let known = stateOfSet[next] {
                    state = Int(known)
                    if accepting[state] { return true }
                } else {
                    if next.contains(where: { if case .match = code[Int($0)] { return true } else { return false } }) {
                        return true
                    }
                    state = -1
                    set = next
                }
            }
            return false
        }

        /// The set after one character: every thread at a consuming instruction whose test
        /// `consumes` (given the node and its instruction number) passes moves on, and a new thread starts; all closed over jumps and splits.
        private static func step(_ set: [Int32], _ code: [Program.Instruction], consumes: (Node, Int) -> Bool) -> [Int32] {
            var moved: [Int32] = []
            for pc in set {
                switch code[Int(pc)] {
                case .consume(let node):
                    if consumes(node, Int(pc)) { moved.append(pc + 1) }
                case .consumeAnything:
                    moved.append(pc + 1)
                case .match, .split, .jump, .assert:
                    break
                }
            }
            return closure(of: moved, code)
        }

        /// `pcs` and the start (instruction 0), with everything reachable from them without
        /// consuming, sorted and without repeats.
        private static func closure(of pcs: [Int32], _ code: [Program.Instruction]) -> [Int32] {
            var seen = [Bool](repeating: false, count: code.count)
            var pending = pcs + [0]
            var result: [Int32] = []
            while let pc = pending.popLast() {
                guard !seen[Int(pc)] else { continue }
                seen[Int(pc)] = true
                result.append(pc)
                switch code[Int(pc)] {
                case .jump(let target): pending.append(Int32(target))
                case .split(let first, let second): pending.append(Int32(second)); pending.append(Int32(first))
                case .consume, .consumeAnything, .match, .assert: break
                }
            }
            return result.sorted()
        }
    }
}
