import TodoTxt
import TodoFileSystem

/// `listcon` and `listproj` (docs/todosh.md section 4): unique, byte-sorted `@`/`+` tokens from the source files,
/// after TERM filtering and the sigil patterns; no summary, colour or hiding.
extension TodoShListing {
    static func listContexts(_ context: inout TodoShContext, _ arguments: [String]) throws(CLIError) -> Int32 {
        try listSigils(UInt8(ascii: "@"), terms: arguments, context)
        return 0
    }

    static func listProjects(_ context: inout TodoShContext, _ arguments: [String]) throws(CLIError) -> Int32 {
        try listSigils(UInt8(ascii: "+"), terms: arguments, context)
        return 0
    }

    /// The files listcon/listproj read: `TODOTXT_SOURCEVAR` evaluated by bash, else the todo file.
    static func sourceFiles(_ context: TodoShContext) -> [String] {
        let variable = context.settings.sourceVariable
        guard !variable.isEmpty else { return [context.settings.todoFile] }
        let script = "eval \"FILE=$TODOTXT_SOURCEVAR\"; printf '%s\\0' \"${FILE[@]}\""
        var environment = context.childEnvironment
        environment["TODOTXT_SOURCEVAR"] = variable
        let outcome = ProcessSpawning.run(["bash", "-c", script], environment: environment, input: nil,
                                          captureOutput: true)
        return outcome.output.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    static func listSigils(_ sigil: UInt8, terms: [String], _ context: TodoShContext) throws(CLIError) {
        let filters = try TermFilter(checking: terms, context)
        let settings = context.settings
        let before = settings.sigilBeforePattern.isEmpty
            ? nil : BasicRegex(bytes: [0x5E] + Array(settings.sigilBeforePattern.utf8), ignoreCase: false)
        let after = settings.sigilAfterPattern.isEmpty
            ? nil : BasicRegex(bytes: Array(settings.sigilAfterPattern.utf8) + [0x24], ignoreCase: false)
        let valid = BasicRegex(bytes: [0x5C, sigil] + Array(settings.sigilValidPattern.utf8), ignoreCase: false)
        // The distinct words first (the same project recurs on many lines), each then cut by the
        // patterns and checked once.
        var words = Set<ArraySlice<UInt8>>()
        for path in sourceFiles(context) {
            let document = try context.document(path)
            for index in 0..<document.lineCount {
                let line = document.content(at: index)
                if !filters.isEmpty && !filters.accepts(Array(line)) { continue }
                forEachSigilWord(line, sigil: sigil) { words.insert($0) }
            }
        }
        var tokens = Set<[UInt8]>()
        for word in words {
            var token = Array(word)
            if let before, let range = before.firstMatch(in: token, from: 0) {
                token.removeSubrange(range)
            }
            if let after, let range = after.firstMatch(in: token, from: 0) {
                token.removeSubrange(range)
            }
            if valid.matchesWhole(token) { tokens.insert(token) }
        }
        var output: [UInt8] = []
        for token in tokens.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            output += context.settings.escapeControls ? TerminalText.escapingControls(token) : token
            output.append(0x0A)
        }
        if !output.isEmpty { context.sayBytes(output) }
    }

    /// Calls `body` with each word of `line` (split at spaces) that holds `sigil` before its last
    /// byte: what `grep -o '[^ ]*SIGIL[^ ]\+'` finds. Found from the sigils (a vector search),
    /// not by visiting every word.
    static func forEachSigilWord(_ line: ArraySlice<UInt8>, sigil: UInt8, _ body: (ArraySlice<UInt8>) -> Void) {
        let start = line.startIndex
        line.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let count = buffer.count
            var wordEnd = 0
            var index = ByteSearch.firstIndex(of: sigil, in: base, from: 0, to: count)
            while index < count {
                // The first sigil of a word (the search moves forward, and the word before ended
                // at `wordEnd`): the word counts if it goes on after it.
                if index >= wordEnd {
                    var first = index
                    while first > 0 && base[first - 1] != 0x20 { first -= 1 }
                    wordEnd = index + 1
                    while wordEnd < count && base[wordEnd] != 0x20 { wordEnd += 1 }
                    if index < wordEnd - 1 { body(line[(start + first)..<(start + wordEnd)]) }
                }
                index = ByteSearch.firstIndex(of: sigil, in: base, from: index + 1, to: count)
            }
        }
    }
}
