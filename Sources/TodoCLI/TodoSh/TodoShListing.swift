import TodoTxt
import TodoFileSystem

/// The list actions (todosh.md 3.3): number, drop blanks, filter by TERMs, zero-pad, sort, colour,
/// hide, final filter, summary. The default sort and `cat` filter run in-process; other commands go
/// through `sh -c` with the lines on stdin.
enum TodoShListing {
    /// One numbered line on its way through the pipeline: a byte range of the listing's buffer.
    struct Entry {
        /// The number shown (0 for done lines in listall).
        var number: Int
        /// The number matched by TERMs (listall numbers both files as one stream).
        var filterNumber: Int
        var start: Int
        var length: Int
    }

    /// A file's bytes split at LF (a CR stays content, as todo.sh's sed sees it); a last line without
    /// a newline counts.
    struct Lines {
        var bytes: [UInt8] = []
        var ranges: [(start: Int, length: Int)] = []

        init(_ bytes: [UInt8]) { append(bytes) }

        mutating func append(_ more: [UInt8]) {
            let offset = bytes.count
            bytes += more
            more.withUnsafeBufferPointer { buffer in
                var start = 0
                for index in 0..<buffer.count where buffer[index] == 0x0A {
                    ranges.append((offset + start, index - start))
                    start = index + 1
                }
                if start < buffer.count { ranges.append((offset + start, buffer.count - start)) }
            }
        }

        var count: Int { ranges.count }
        func text(_ index: Int) -> ArraySlice<UInt8> {
            bytes[ranges[index].start..<(ranges[index].start + ranges[index].length)]
        }
    }

    static func read(_ path: String, _ context: TodoShContext) -> [UInt8] {
        ((try? FileAccess.readIfExists(path)) ?? nil) ?? []
    }

    /// A line the pipeline keeps: only-space lines are blank. (Decision, todosh.md 3.8: tasks made of
    /// digits only are listed; todo.sh hides them.)
    static func isBlank(_ text: ArraySlice<UInt8>) -> Bool { text.allSatisfy { $0 == 0x20 } }

    static func digits(_ value: Int) -> Int { String(value).utf8.count }

    // MARK: Actions

    static func list(_ context: inout TodoShContext, _ arguments: [String]) throws(TodoShExit) -> Int32 {
        let path = context.settings.todoFile
        try listFile(path: path, label: path, terms: arguments, context)
        return 0
    }

    static func listFile(_ context: inout TodoShContext, _ arguments: [String]) throws(TodoShExit) -> Int32 {
        guard let source = arguments.first, !source.isEmpty else {
            let directory = context.settings.todoDirectory
            context.inform("Files in the todo.txt directory:")
            let names = (ProcessSpawning.directoryEntries(directory) ?? [])
                .filter { $0.hasSuffix(".txt") && !$0.hasPrefix(".") }
                .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            for name in names { context.say(name) }
            return 0
        }
        let directory = context.settings.todoDirectory
        func isFile(_ path: String) -> Bool {
            let kind = ProcessSpawning.kind(of: path)
            return kind == .regular || kind == .characterDevice
        }
        let path: String
        if source.hasPrefix("/") {
            path = source
        } else if isFile(directory + "/" + source) {
            path = directory + "/" + source
        } else if isFile(source) {
            path = source
        } else if isFile(directory + "/" + source + ".txt") {
            path = directory + "/" + source + ".txt"
        } else {
            throw context.die("TODO: File \(source) does not exist.")
        }
        guard isFile(path) else { throw context.die("TODO: File \(source) does not exist.") }
        try listFile(path: path, label: source, terms: Array(arguments.dropFirst()), context)
        return 0
    }

    static func listPriority(_ context: inout TodoShContext, _ arguments: [String]) throws(TodoShExit) -> Int32 {
        var terms = arguments
        var allowed = Set<UInt8>(0x41...0x5A)
        if let first = arguments.first, let set = prioritySet(first) {
            allowed = set
            terms.removeFirst()
        }
        let path = context.settings.todoFile
        try listFile(path: path, label: path, terms: terms, context) { text in
            text.count >= 4 && text[text.startIndex] == 0x28 && allowed.contains(text[text.startIndex + 1])
                && text[text.startIndex + 2] == 0x29 && text[text.startIndex + 3] == 0x20
        }
        return 0
    }

    /// `a`, `a-c`, `c-Z` (any case) or an upper-case concatenation (`CX`, `ABR-Y`); nil for a TERM.
    static func prioritySet(_ argument: String) -> Set<UInt8>? {
        let bytes = Array(argument.utf8)
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
        func upper(_ byte: UInt8) -> UInt8 { byte & ~0x20 }
        if bytes.count == 1, isLetter(bytes[0]) { return [upper(bytes[0])] }
        if bytes.count == 3, isLetter(bytes[0]), bytes[1] == 0x2D, isLetter(bytes[2]) {
            let low = upper(bytes[0]), high = upper(bytes[2])
            return low <= high ? Set(low...high) : []
        }
        func isUpper(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
        guard !bytes.isEmpty, bytes.allSatisfy({ isUpper($0) || $0 == 0x2D }) else { return nil }
        var set = Set<UInt8>()
        var index = 0
        while index < bytes.count {
            guard isUpper(bytes[index]) else { return nil }
            if index + 2 < bytes.count, bytes[index + 1] == 0x2D {
                guard isUpper(bytes[index + 2]) else { return nil }
                if bytes[index] <= bytes[index + 2] { set.formUnion(bytes[index]...bytes[index + 2]) }
                index += 3
            } else {
                set.insert(bytes[index])
                index += 1
            }
        }
        return set
    }

    static func listAll(_ context: inout TodoShContext, _ arguments: [String]) throws(TodoShExit) -> Int32 {
        var lines = Lines(read(context.settings.todoFile, context))
        let todoCount = lines.count
        var doneBytes = read(context.settings.doneFile, context)
        if let last = lines.bytes.last, last != 0x0A, !doneBytes.isEmpty { doneBytes.insert(0x0A, at: 0) }
        lines.append(doneBytes)
        let doneCount = lines.count - todoCount
        let width = digits(todoCount)
        let filters = TermFilter(arguments)
        var entries: [Entry] = []
        var todoShown = 0, doneShown = 0
        var scratch: [UInt8] = []
        for index in 0..<lines.count {
            let text = lines.text(index)
            if isBlank(text) { continue }
            let isTodo = index < todoCount
            let range = lines.ranges[index]
            let entry = Entry(number: isTodo ? index + 1 : 0, filterNumber: index + 1, start: range.start, length: range.length)
            if filters.accepts(entry, lines.bytes, width: width, scratch: &scratch) { entries.append(entry) }
            var alone = entry
            alone.filterNumber = isTodo ? index + 1 : index - todoCount + 1
            if filters.accepts(alone, lines.bytes, width: 1, scratch: &scratch) {
                if isTodo { todoShown += 1 } else { doneShown += 1 }
            }
        }
        var quiet = context
        quiet.settings.verbose = 0
        try render(entries, lines.bytes, width: width, quiet)
        if context.settings.verbose > 0 {
            context.say("--")
            context.say("\(TodoShContext.prefix(of: context.settings.todoFile)): \(todoShown) of \(todoCount) tasks shown")
            context.say("\(TodoShContext.prefix(of: context.settings.doneFile)): \(doneShown) of \(doneCount) tasks shown")
            context.say("total \(todoShown + doneShown) of \(todoCount + doneCount) tasks shown")
        }
        return 0
    }

    // MARK: The pipeline

    /// TERMs: each a case-insensitive BRE that must match `<padded number> <text>`; `-TERM` must not.
    struct TermFilter {
        var terms: [(regex: BasicRegex, exclude: Bool)] = []

        init(_ arguments: [String]) {
            for argument in arguments {
                if argument.hasPrefix("-") {
                    terms.append((BasicRegex(String(argument.dropFirst()), ignoreCase: true), true))
                } else {
                    terms.append((BasicRegex(argument, ignoreCase: true), false))
                }
            }
        }

        var isEmpty: Bool { terms.isEmpty }

        func accepts(_ entry: Entry, _ bytes: [UInt8], width: Int, scratch: inout [UInt8]) -> Bool {
            guard !terms.isEmpty else { return true }
            scratch.removeAll(keepingCapacity: true)
            let number = Array(String(entry.filterNumber).utf8)
            if number.count < width { scratch.append(contentsOf: repeatElement(0x20, count: width - number.count)) }
            scratch += number
            scratch.append(0x20)
            scratch += bytes[entry.start..<(entry.start + entry.length)]
            return accepts(scratch)
        }

        func accepts(_ line: [UInt8]) -> Bool {
            for term in terms where term.regex.matches(line) == term.exclude { return false }
            return true
        }
    }

    /// Runs the pipeline on one file and prints the result and, when verbose, the summary.
    static func listFile(path: String, label: String, terms: [String], _ context: TodoShContext,
                         extraFilter: ((ArraySlice<UInt8>) -> Bool)? = nil) throws(TodoShExit) {
        let lines = Lines(read(path, context))
        let width = digits(lines.count)
        let filters = TermFilter(terms)
        var entries: [Entry] = []
        entries.reserveCapacity(lines.count)
        var total = 0
        var scratch: [UInt8] = []
        for index in 0..<lines.count {
            let text = lines.text(index)
            if isBlank(text) { continue }
            total += 1
            let range = lines.ranges[index]
            let entry = Entry(number: index + 1, filterNumber: index + 1, start: range.start, length: range.length)
            if !filters.accepts(entry, lines.bytes, width: width, scratch: &scratch) { continue }
            if let extraFilter, !extraFilter(text) { continue }
            entries.append(entry)
        }
        let shown = try render(entries, lines.bytes, width: width, context)
        if context.settings.verbose > 1 {
            let filter = terms.map { "grep -i \"\($0)\"" }.joined(separator: " | ")
            context.say("TODO DEBUG: Filter Command was: \(filter.isEmpty ? "cat" : filter)")
        }
        if context.settings.verbose > 0 {
            context.say("--")
            context.say("\(TodoShContext.prefix(of: label)): \(shown) of \(total) tasks shown")
        }
    }

    /// Sorts, colours, hides, filters and prints `entries`; returns the number of lines printed.
    @discardableResult
    static func render(_ entries: [Entry], _ bytes: [UInt8], width: Int, _ context: TodoShContext) throws(TodoShExit) -> Int {
        let settings = context.settings
        let colors = TodoShColors(settings)
        let hideCustom = settings.hideCustomSubstitution.isEmpty
            ? nil : BasicRegex(settings.hideCustomSubstitution, ignoreCase: false)
        let needsLineWork = settings.hidePriorities || settings.hideProjects || settings.hideContexts
            || hideCustom != nil || colors.colorsWords
        func finish(_ numbered: [UInt8], into output: inout [UInt8]) {
            var line = colors.apply(numbered, hidePriority: settings.hidePriorities)
            if settings.hideProjects { line = removingSigilWords(line, sigil: UInt8(ascii: "+")) }
            if settings.hideContexts { line = removingSigilWords(line, sigil: UInt8(ascii: "@")) }
            if let hideCustom { line = hideCustom.removingMatches(from: line) }
            output += line
            output.append(0x0A)
        }
        var output: [UInt8] = []
        if settings.sortCommand == TodoShSettings.defaultSortCommand {
            let order = sortedDefault(entries, bytes)
            output.reserveCapacity(bytes.count + entries.count * (width + 2))
            var numberBuffer: [UInt8] = []
            for index in order {
                let entry = entries[index]
                numberBuffer.removeAll(keepingCapacity: true)
                appendNumber(entry.number, width: width, to: &numberBuffer)
                let text = bytes[entry.start..<(entry.start + entry.length)]
                if needsLineWork {
                    finish(numberBuffer + [0x20] + text, into: &output)
                } else {
                    colors.appendSimple(number: numberBuffer, text: text, to: &output)
                }
            }
        } else {
            var input: [UInt8] = []
            for entry in entries {
                appendNumber(entry.number, width: width, to: &input)
                input.append(0x20)
                input += bytes[entry.start..<(entry.start + entry.length)]
                input.append(0x0A)
            }
            for line in splitLines(runShell(settings.sortCommand, input: input, context)) {
                finish(line, into: &output)
            }
        }
        if !settings.disableFilter && settings.finalFilter != "cat" {
            output = runShell(settings.finalFilter, input: output, context)
        }
        // todo.sh captures the output with $(…): trailing newlines go, one is printed back.
        while output.last == 0x0A { output.removeLast() }
        var shown = 0
        if !output.isEmpty {
            shown = output.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
            output.append(0x0A)
            context.sayBytes(output)
        }
        return shown
    }

    /// The number zero-padded to `width`.
    static func appendNumber(_ number: Int, width: Int, to buffer: inout [UInt8]) {
        var digits: [UInt8] = []
        var value = number
        repeat {
            digits.append(0x30 + UInt8(value % 10))
            value /= 10
        } while value > 0
        if digits.count < width { buffer.append(contentsOf: repeatElement(0x30, count: width - digits.count)) }
        buffer.append(contentsOf: digits.reversed())
    }

    /// `env LC_COLLATE=C sort -f -k2` on the numbered lines: the text folded to upper case and compared
    /// bytewise; ties by the whole line (number, then raw text). Returns entry indices in order.
    ///
    /// Complexity: O(n log n) comparisons, most decided by an 8-byte folded prefix.
    static func sortedDefault(_ entries: [Entry], _ bytes: [UInt8]) -> [Int] {
        @inline(__always) func fold(_ byte: UInt8) -> UInt8 { byte &- 0x61 < 26 ? byte - 0x20 : byte }
        // One folded copy of the buffer lets ties be settled by memcmp.
        let folded = bytes.map(fold)
        return folded.withUnsafeBufferPointer { foldedBuffer -> [Int] in
            bytes.withUnsafeBufferPointer { buffer -> [Int] in
                var keys: [(prefix: UInt64, index: Int)] = []
                keys.reserveCapacity(entries.count)
                for (index, entry) in entries.enumerated() {
                    var prefix: UInt64 = 0
                    let count = min(8, entry.length)
                    for offset in 0..<count { prefix = prefix << 8 | UInt64(foldedBuffer[entry.start + offset]) }
                    if count < 8 { prefix <<= UInt64(8 * (8 - count)) }
                    keys.append((prefix, index))
                }
                guard let base = buffer.baseAddress, let foldedBase = foldedBuffer.baseAddress else {
                    return keys.map(\.index)
                }
                keys.withUnsafeMutableBufferPointer { keyBuffer in
                    entries.withUnsafeBufferPointer { entryBuffer in
                        keyBuffer.sort { left, right in
                            if left.prefix != right.prefix { return left.prefix < right.prefix }
                            let a = entryBuffer[left.index], b = entryBuffer[right.index]
                            let common = min(a.length, b.length)
                            let order = ProcessSpawning.compareBytes(foldedBase + a.start, foldedBase + b.start, common)
                            if order != 0 { return order < 0 }
                            if a.length != b.length { return a.length < b.length }
                            if a.number != b.number { return a.number < b.number }
                            let raw = ProcessSpawning.compareBytes(base + a.start, base + b.start, common)
                            if raw != 0 { return raw < 0 }
                            return left.index < right.index
                        }
                    }
                }
                return keys.map(\.index)
            }
        }
    }

    /// Removes every "space + sigil + one or more graphic characters" (todo.sh's `-+`/`-@`).
    static func removingSigilWords(_ line: [UInt8], sigil: UInt8) -> [UInt8] {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
        func isGraph(_ byte: UInt8) -> Bool { (byte > 0x20 && byte < 0x7F) || byte >= 0x80 }
        var result: [UInt8] = []
        result.reserveCapacity(line.count)
        var index = 0
        while index < line.count {
            if isSpace(line[index]), index + 2 < line.count, line[index + 1] == sigil, isGraph(line[index + 2]) {
                index += 2
                while index < line.count && isGraph(line[index]) { index += 1 }
                continue
            }
            result.append(line[index])
            index += 1
        }
        return result
    }

    static func splitLines(_ bytes: [UInt8]) -> [[UInt8]] {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// `sh -c COMMAND` with `input` on stdin; returns its stdout.
    static func runShell(_ command: String, input: [UInt8], _ context: TodoShContext) -> [UInt8] {
        ProcessSpawning.run(["sh", "-c", command], environment: context.childEnvironment, input: input,
                            captureOutput: true).output
    }
}
