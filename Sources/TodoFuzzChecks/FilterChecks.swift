// The `filter` target: the search terms of a listing (`todo ls TERM`, todo.sh's `grep -i TERM`) and
// the basic-regex engine behind them, checked against a reference.
//
// Why a reference: the engine reimplements GNU grep's basic regular expressions, and todo.sh runs
// grep itself, so "matches the same lines as grep" is the whole specification. In process, the
// reference is the C library's own BRE matcher (regcomp/regexec without REG_EXTENDED, in the
// C.UTF-8 locale), which is the matcher GNU grep is built on; `GrepReference` runs real `grep -G -i`
// on the same lines, outside libFuzzer, for the syntax where the two differ. See docs/notes/fuzzing.md.
import TodoTxt

/// An input of the filter target: the first line is the term, every further line is a task line.
struct FilterInput {
    /// The term as the user typed it: a leading `-` makes it an exclusion (`todo ls -milk`).
    let term: [UInt8]
    let lines: [[UInt8]]

    init(term: [UInt8], lines: [[UInt8]]) {
        self.term = term
        self.lines = lines
    }

    init(_ bytes: [UInt8]) {
        let pieces = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        term = pieces.first ?? []
        var rest = Array(pieces.dropFirst())
        if bytes.last == 0x0A, rest.last?.isEmpty == true { rest.removeLast() }
        lines = rest
    }

    /// The pattern grep is given: the term without its exclusion mark.
    var pattern: [UInt8] { term.first == 0x2D ? Array(term.dropFirst()) : term }
    var excludes: Bool { term.first == 0x2D }

    /// Whether the term could reach grep at all: an argument holds no NUL, and todo.sh's terms are
    /// not empty once the mark is gone.
    var isArgument: Bool { !term.contains(0) && !pattern.isEmpty }
}

func checkFilter(_ bytes: [UInt8], _ log: inout FailureLog) {
    let input = FilterInput(bytes)
    guard input.isArgument, let termText = String(validating: input.term, as: UTF8.self) else { return }
    let regex = BasicRegex(bytes: input.pattern, ignoreCase: true)
    let asTodoSh = TermFilter([termText], plainText: false)
    let asTodo = TermFilter([termText], plainText: true)
    let isPlain = !input.pattern.contains { TermFilter.metacharacters.contains($0) }
    // The same pattern in a group, which never takes the plain-substring fast path.
    let grouped = BasicRegex(bytes: Array("\\(".utf8) + input.pattern + Array("\\)".utf8), ignoreCase: true)
    let reference = ReferenceRegex(input.pattern)
    let problem = BasicRegex.syntaxError(input.pattern, ignoreCase: true)

    if let reference {
        // `todo` refuses what grep refuses. The C library and grep differ on a few patterns, so
        // grep decides when the engine and the C library disagree.
        // Known differences, where grep's answer is certain: the C library refuses a repetition
        // with nothing before it, which grep reads as text; grep alone refuses `[:space:]` and an
        // escape inside an interval (its own, lower-case message).
        let knownDifference = (problem == nil && reference.refusedOnlyForPOSIX)
            || (reference.isValid && [BasicRegex.misspeltClassMessage, "invalid content of \\{\\}"].contains(problem))
        if (problem == nil) != reference.isValid, !knownDifference {
            let grepAccepts = grepArbiter?.accepts(input)
            log.expect(grepAccepts == (problem == nil),
                       "syntaxError says \(problem ?? "valid"), the C library says \(reference.isValid ? "valid" : "invalid"), grep says \(grepAccepts.map { $0 ? "valid" : "invalid" } ?? "nothing") for \(quoted(input.pattern))")
        }
    }
    for (number, line) in input.lines.enumerated() {
        // Undecided (a back-reference pattern past its step budget) counts as a match.
        let outcome = regex.matchOutcome(line)
        let found = outcome ?? true
        if let outcome {
            log.expect(outcome == (regex.firstMatch(in: line, from: 0) != nil),
                       "matchOutcome and firstMatch disagree for \(quoted(input.pattern)) on line \(number + 1)")
            // The automaton against the backtracking matcher, where the latter decides in budget.
            if regex.runsAsAutomaton, let backtracked = regex.backtrackingOutcome(line) {
                log.expect(backtracked == outcome,
                           "the automaton says \(outcome), backtracking says \(backtracked) for \(quoted(input.pattern)) on line \(number + 1)")
            }
        }
        log.expect(asTodoSh.accepts(line) == (found != input.excludes),
                   "todo.sh's term filter disagrees with the regex for \(quoted(input.term)) on line \(number + 1)")
        if isPlain {
            log.expect(grouped.matches(line) == found,
                       "the plain-text fast path disagrees with the regex for \(quoted(input.pattern)) on line \(number + 1)")
            // Ignoring case and diacritics finds at least what ignoring ASCII case finds.
            if found { log.expect(asTodo.accepts(line) != input.excludes, "the `todo` plain term \(quoted(input.term)) misses line \(number + 1), which the regex matches") }
            // The plain term's search (case-blind on the raw bytes first, the fold only after)
            // against its definition: the folded term in the folded line.
            let folded = TextFolding.contains(TextFolding.folded(line), TextFolding.folded(input.pattern))
            log.expect(asTodo.accepts(line) == (folded != input.excludes),
                       "the `todo` plain term \(quoted(input.term)) says \(asTodo.accepts(line)) on line \(number + 1), folding says \(folded != input.excludes)")
        } else {
            log.expect(asTodo.accepts(line) == asTodoSh.accepts(line),
                       "a term with metacharacters is read differently under `todo` for \(quoted(input.term)) on line \(number + 1)")
        }
        // Only on valid UTF-8: on an encoding error grep's answer depends on which of its two
        // matchers the pattern takes (docs/notes/fuzzing.md, "The filter target"). Only for a
        // term grep accepts: one it refuses lists nothing under either name, whatever the C
        // library would match (`x\{0\0\}`, which the C library reads as `x\{00\}`). Only where
        // both put every character in the same classes (`CharacterTables`).
        if outcome != nil, problem == nil, let reference, reference.isValid, reference.answersLikeGrep,
           String(validating: line, as: UTF8.self) != nil, CharacterTables.agree(line), CharacterTables.agree(input.pattern),
           let expected = reference.matches(line), found != expected {
            // Where they still disagree grep itself decides: one process, only then.
            let grep = grepArbiter?.selects(input, line: line)
            log.expect(grep == found,
                       "the regex says \(found), the C library's BRE says \(expected), grep says \(grep.map(String.init(describing:)) ?? "nothing") for \(quoted(input.pattern)) on line \(number + 1) \(quoted(line))")
        }
    }
}

/// grep, when the machine has it: the arbiter when the engine and the C library disagree. Read
/// once; a constant afterwards.
let grepArbiter = GrepReference()

/// Bytes as a Swift string literal would show them, for messages.
func quoted(_ bytes: [UInt8]) -> String {
    var text = "\""
    for byte in bytes {
        switch byte {
        case 0x20...0x7E where byte != 0x22 && byte != 0x5C: text.append(Character(Unicode.Scalar(byte)))
        default: text += "\\x" + String(byte, radix: 16, uppercase: true)
        }
    }
    return text + "\""
}
