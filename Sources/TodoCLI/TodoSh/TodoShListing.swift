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

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            ranges = Lines.split(bytes, offset: 0)
        }

        /// The `todo` name's reading of the lines: a CR before the LF is the terminator, not text,
        /// and a byte order mark is not part of line 1 (todo.sh shows both, as sed sees them).
        /// `fileStarts`: the ranges that begin a file (where a mark may be).
        mutating func droppingTerminatorsAndMark(fileStarts: Set<Int> = [0]) {
            bytes.withUnsafeBufferPointer { buffer in
                for index in 0..<ranges.count {
                    var range = ranges[index]
                    if fileStarts.contains(index), range.length >= 3, buffer[range.start] == 0xEF,
                       buffer[range.start + 1] == 0xBB, buffer[range.start + 2] == 0xBF {
                        range.start += 3
                        range.length -= 3
                    }
                    if range.length > 0, buffer[range.start + range.length - 1] == 0x0D { range.length -= 1 }
                    ranges[index] = range
                }
            }
        }

        mutating func append(_ more: [UInt8]) {
            let offset = bytes.count
            bytes += more
            ranges += Lines.split(more, offset: offset)
        }

        /// The line ranges of `bytes`, shifted by `offset`: a word-at-a-time LF scan.
        static func split(_ bytes: [UInt8], offset: Int) -> [(start: Int, length: Int)] {
            var ranges: [(start: Int, length: Int)] = []
            ranges.reserveCapacity(bytes.count / 40 + 1)
            bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                let count = buffer.count
                var start = 0
                while start < count {
                    let newline = findNewline(base, from: start, count: count)
                    if newline == count {
                        ranges.append((offset + start, count - start))
                        break
                    }
                    ranges.append((offset + start, newline - start))
                    start = newline + 1
                }
            }
            return ranges
        }

        /// The index of the first LF at or after `from`, or `count`.
        @inline(__always)
        static func findNewline(_ base: UnsafePointer<UInt8>, from: Int, count: Int) -> Int {
            ByteSearch.firstIndex(of: 0x0A, in: base, from: from, to: count)
        }

        var count: Int { ranges.count }
        func text(_ index: Int) -> ArraySlice<UInt8> {
            bytes[ranges[index].start..<(ranges[index].start + ranges[index].length)]
        }
    }

    static func read(_ path: String, _ context: TodoShContext) throws(TodoShExit) -> [UInt8] {
        try context.bytes(path)
    }

    /// A line the pipeline keeps: only-space lines are blank. (Decision, todosh.md 3.8: tasks made of
    /// digits only are listed; todo.sh hides them.)
    static func isBlank(_ text: ArraySlice<UInt8>) -> Bool { text.allSatisfy { $0 == 0x20 } }

    /// The number of decimal digits of `value` (≥ 0).
    static func digits(_ value: Int) -> Int {
        var count = 1
        var rest = value / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        return count
    }

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
        } else if context.settings.personality == .todo {
            // Under `todo`: the file as given (relative to the todo directory), and why it cannot be listed.
            let named = source.hasPrefix("/") ? source : directory + "/" + source
            let kind = ProcessSpawning.kind(of: named)
            throw context.fail(.failure(kind == .directory ? "\(named): is a directory" : "\(named): no such file"))
        } else {
            throw context.die("TODO: File \(source) does not exist.")
        }
        guard isFile(path) else { throw context.die("TODO: File \(source) does not exist.") }
        if context.settings.personality == .todo { _ = try context.bytes(path) }
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
        var lines = Lines(try read(context.settings.todoFile, context))
        warnOfConflictMarkers(lines.bytes, path: context.settings.todoFile, context)
        let todoCount = lines.count
        var doneBytes = try read(context.settings.doneFile, context)
        if let last = lines.bytes.last, last != 0x0A, !doneBytes.isEmpty { doneBytes.insert(0x0A, at: 0) }
        lines.append(doneBytes)
        if context.settings.modernListing {
            lines.droppingTerminatorsAndMark(fileStarts: [0, todoCount])
        }
        var doneCount = lines.count - todoCount
        let width = digits(todoCount)
        let filters = try TermFilter(checking: arguments, context)
        // Under `todo`, totals count tasks (not blank lines) and hidden tasks need `-a`, as in `ls`.
        let modern = context.settings.modernListing
        let hideHidden = modern && !context.settings.showHidden
        let today = context.clock.today
        var todoTotal = todoCount
        if modern {
            todoTotal = (0..<todoCount).filter { !isBlank(lines.text($0)) }.count
            doneCount = (todoCount..<lines.count).filter { !isBlank(lines.text($0)) }.count
        }
        var entries: [Entry] = []
        var todoShown = 0, doneShown = 0
        var scratch: [UInt8] = []
        for index in 0..<lines.count {
            let text = lines.text(index)
            if isBlank(text) { continue }
            if hideHidden && isHiddenTask(text, today: today) { continue }
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
            context.say("\(TodoShContext.prefix(of: context.settings.todoFile)): \(todoShown) of \(todoTotal) tasks shown")
            context.say("\(TodoShContext.prefix(of: context.settings.doneFile)): \(doneShown) of \(doneCount) tasks shown")
            context.say("total \(todoShown + doneShown) of \(todoTotal + doneCount) tasks shown")
        }
        return 0
    }

    /// Under `todo`, one line on stderr when the listed file holds an unresolved conflict block:
    /// the listing shows both versions of the tasks in it, and every writer refuses the file.
    static func warnOfConflictMarkers(_ bytes: [UInt8], path: String, _ context: TodoShContext) {
        guard context.settings.personality == .todo, let line = ConflictMarkers.firstBlockLine(in: bytes) else { return }
        context.warn("\(context.settings.programName): \(path): line \(line): unresolved merge conflict (<<<<<<< … >>>>>>>); resolve it before changing tasks")
    }

    // MARK: The pipeline

    /// Runs the pipeline on one file and prints the result and, when verbose, the summary.
    static func listFile(path: String, label: String, terms: [String], _ context: TodoShContext,
                         extraFilter: ((ArraySlice<UInt8>) -> Bool)? = nil) throws(TodoShExit) {
        var lines = Lines(try read(path, context))
        if context.settings.modernListing { lines.droppingTerminatorsAndMark() }
        warnOfConflictMarkers(lines.bytes, path: path, context)
        let width = digits(lines.count)
        let filters = try TermFilter(checking: terms, context)
        let hideHidden = context.settings.modernListing && !context.settings.showHidden
        let today = context.clock.today
        var entries: [Entry] = []
        entries.reserveCapacity(lines.count)
        var total = 0
        var scratch: [UInt8] = []
        lines.bytes.withUnsafeBufferPointer { buffer in
            lines.ranges.withUnsafeBufferPointer { ranges in
                for index in 0..<ranges.count {
                    let range = ranges[index]
                    if isBlank(buffer, range.start, range.length) { continue }
                    total += 1
                    if hideHidden && isHiddenTask(lines.text(index), today: today) { continue }
                    let entry = Entry(number: index + 1, filterNumber: index + 1, start: range.start, length: range.length)
                    if !filters.isEmpty, !filters.accepts(entry, lines.bytes, width: width, scratch: &scratch) { continue }
                    if let extraFilter, !extraFilter(lines.text(index)) { continue }
                    entries.append(entry)
                }
            }
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

    /// Whether a task is hidden from `todo` listings today: `h:1`, or a `t:` threshold in the future
    /// (docs/format.md section 6). Lines without `h:` or `t:` are not parsed at all.
    static func isHiddenTask(_ text: ArraySlice<UInt8>, today: TodoDate) -> Bool {
        var mayHaveTag = false
        var previous: UInt8 = 0x20
        for byte in text {
            if byte == 0x3A && (previous == 0x68 || previous == 0x74) { mayHaveTag = true; break }
            previous = byte
        }
        return mayHaveTag && TodoItem(text).isHidden(on: today)
    }

    /// Whether the line at `start` is empty or only spaces.
    @inline(__always)
    static func isBlank(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ length: Int) -> Bool {
        var index = start
        let end = start + length
        while index < end {
            if buffer[index] != 0x20 { return false }
            index += 1
        }
        return true
    }

    /// Sorts, colours, hides, filters and prints `entries`; returns the number of lines printed.
    @discardableResult
    static func render(_ entries: [Entry], _ bytes: [UInt8], width: Int, _ context: TodoShContext) throws(TodoShExit) -> Int {
        let settings = context.settings
        let colors = TodoShColors(settings)
        let hideCustom = settings.hideCustomSubstitution.isEmpty
            ? nil : BasicRegex(settings.hideCustomSubstitution, ignoreCase: false)
        // The `todo` name's extras (overdue highlighting, escaping for a terminal) need each line.
        let modern = settings.modernListing && (settings.escapeControls || !settings.plain)
        let needsLineWork = settings.hidePriorities || settings.hideProjects || settings.hideContexts
            || hideCustom != nil || colors.colorsWords || modern
        let filtered = !settings.disableFilter && settings.finalFilter != "cat"
        let today = context.clock.today
        func finish(_ numbered: [UInt8], into output: inout [UInt8]) {
            var numbered = numbered
            var overdue = false
            if settings.modernListing, let space = numbered.firstIndex(of: 0x20) {
                let text = numbered[(space + 1)...]
                overdue = !settings.plain && text.contains(0x3A) && TodoItem(text).isOverdue(on: today)
                if settings.escapeControls {
                    numbered = Array(numbered[...space]) + TerminalText.escapingControls(text)
                }
            }
            var line = colors.apply(numbered, hidePriority: settings.hidePriorities, overdue: overdue)
            if settings.hideProjects { line = removingSigilWords(line, sigil: UInt8(ascii: "+")) }
            if settings.hideContexts { line = removingSigilWords(line, sigil: UInt8(ascii: "@")) }
            if let hideCustom { line = hideCustom.removingMatches(from: line) }
            output += line
            output.append(0x0A)
        }
        var output: [UInt8] = []
        if settings.sortCommand == TodoShSettings.defaultSortCommand {
            let order = sortedDefault(entries, bytes)
            if !needsLineWork {
                // The hot path: every line is `<linecolour>N text<DEFAULT>` and non-empty, so the
                // count of printed lines is the count of entries (unless a final filter runs).
                // Gathered in order first: independent loads the processor can overlap.
                let ordered = order.map { entries[$0] }
                output = renderSimple(ordered, unsorted: entries, bytes, width: width, colors)
                if !filtered && !colors.lineColorsHoldNewline {
                    if !output.isEmpty { context.sayBytes(output) }
                    return entries.count
                }
            } else {
                var numberBuffer: [UInt8] = []
                for index in order {
                    let entry = entries[index]
                    numberBuffer.removeAll(keepingCapacity: true)
                    appendNumber(entry.number, width: width, to: &numberBuffer)
                    numberBuffer.append(0x20)
                    numberBuffer += bytes[entry.start..<(entry.start + entry.length)]
                    finish(numberBuffer, into: &output)
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
        if filtered {
            output = runShell(settings.finalFilter, input: output, context)
        }
        // todo.sh captures the output with $(…): trailing newlines go, one is printed back.
        while output.last == 0x0A { output.removeLast() }
        var shown = 0
        if !output.isEmpty {
            shown = 1 + countNewlines(output)
            output.append(0x0A)
            context.sayBytes(output)
        }
        return shown
    }

    /// The number of LF bytes in `bytes`.
    static func countNewlines(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            var count = 0
            var index = 0
            while true {
                index = Lines.findNewline(base, from: index, count: buffer.count)
                if index == buffer.count { return count }
                count += 1
                index += 1
            }
        }
    }

    /// `<linecolour>N text<DEFAULT>\n` for each of `entries`, into one buffer sized up front.
    /// `unsorted` holds the same entries in file order (sizing the output reads the text in order).
    static func renderSimple(_ entries: [Entry], unsorted: [Entry], _ bytes: [UInt8], width: Int,
                             _ colors: TodoShColors) -> [UInt8] {
        // Colour classes: 0 none, 1 done, 2 + L for priority (L) where that colour is non-empty.
        var palette: [[UInt8]] = [[], colors.doneColor]
        palette += (UInt8(0x41)...UInt8(0x5A)).map { colors.priorityColor($0) }
        let reset = colors.resetColor
        let paletteSizes = palette.map { $0.isEmpty ? 0 : $0.count + reset.count }
        @inline(__always) func colorClass(_ text: UnsafePointer<UInt8>, _ length: Int) -> Int {
            if length >= 2, text[0] == UInt8(ascii: "x"), text[1] == 0x20 { return 1 }
            if length >= 4, text[0] == 0x28, text[2] == 0x29, text[3] == 0x20, text[1] >= 0x41, text[1] <= 0x5A {
                return 2 + Int(text[1] - 0x41)
            }
            return 0
        }
        return bytes.withUnsafeBufferPointer { buffer -> [UInt8] in
            // Only empty lines could come from an empty buffer, and those are never entries.
            guard let base = buffer.baseAddress else { return [] }
            let limit = buffer.count
            var total = 0
            for entry in unsorted {
                total += max(width, digits(entry.number)) + entry.length + 2
                    + paletteSizes[colorClass(base + entry.start, entry.length)]
            }
            // 8 bytes of slack: text is copied a word at a time and may overrun its end.
            var output = [UInt8](unsafeUninitializedCapacity: total + 8) { target, initialized in
                guard let out = target.baseAddress else { return }
                var offset = 0
                @inline(__always) func put(_ bytes: [UInt8]) {
                    bytes.withUnsafeBufferPointer { source in
                        (out + offset).update(from: source.baseAddress!, count: source.count)
                    }
                    offset += bytes.count
                }
                // In blocks: first every line's colour class (its first bytes, one cache miss a
                // line, all independent), then the copying, which finds the lines cached.
                let block = 256
                var classes = [Int](repeating: 0, count: block)
                var blockStart = 0
                while blockStart < entries.count {
                    let blockEnd = min(entries.count, blockStart + block)
                    for index in blockStart..<blockEnd {
                        let entry = entries[index]
                        classes[index - blockStart] = colorClass(base + entry.start, entry.length)
                    }
                    for index in blockStart..<blockEnd {
                        let entry = entries[index]
                        let text = base + entry.start
                        let length = entry.length
                        let color = classes[index - blockStart]
                        let colored = paletteSizes[color] != 0
                        if colored { put(palette[color]) }
                        // The number, zero-padded to `width`, written from its last digit.
                        var value = entry.number
                        let size = max(width, digits(value))
                        var position = offset + size - 1
                        while position >= offset {
                            out[position] = 0x30 &+ UInt8(truncatingIfNeeded: value % 10)
                            value /= 10
                            position -= 1
                        }
                        offset += size
                        out[offset] = 0x20
                        offset += 1
                        if entry.start + length + 8 <= limit {
                            let source = UnsafeRawPointer(text), target = UnsafeMutableRawPointer(out + offset)
                            var copied = 0
                            while copied < length {
                                target.storeBytes(of: source.loadUnaligned(fromByteOffset: copied, as: UInt64.self),
                                                  toByteOffset: copied, as: UInt64.self)
                                copied += 8
                            }
                        } else if length > 0 {
                            (out + offset).update(from: text, count: length)
                        }
                        offset += length
                        if colored { put(reset) }
                        out[offset] = 0x0A
                        offset += 1
                    }
                    blockStart = blockEnd
                }
                initialized = offset
            }
            output.removeLast(output.count - total)
            return output
        }
    }

    /// The number zero-padded to `width`.
    static func appendNumber(_ number: Int, width: Int, to buffer: inout [UInt8]) {
        let size = max(width, digits(number))
        let end = buffer.count + size
        buffer.append(contentsOf: repeatElement(0x30, count: size))
        var value = number
        var position = end - 1
        while value > 0 {
            buffer[position] = 0x30 &+ UInt8(truncatingIfNeeded: value % 10)
            value /= 10
            position -= 1
        }
    }

    /// `env LC_COLLATE=C sort -f -k2` on the numbered lines: the text folded to upper case and compared
    /// bytewise; ties by the whole line (number, then raw text). Returns entry indices in order.
    ///
    /// A most-significant-first radix sort on 8-byte folded chunks: the entries are ordered by their
    /// first chunk (a stable 11-bit LSD radix sort of (chunk, index) keys), then every run of equal
    /// chunks by the next chunk, and so on; small runs, and runs whose lines are all used up, are
    /// finished by the exact comparison. Complexity: O(n · k) for keys that differ within k chunks.
    static func sortedDefault(_ entries: [Entry], _ bytes: [UInt8]) -> [Int] {
        let count = entries.count
        guard count > 1 else { return Array(0..<count) }
        return bytes.withUnsafeBufferPointer { buffer -> [Int] in
            entries.withUnsafeBufferPointer { entryBuffer -> [Int] in
                // An empty byte buffer means every entry is empty: a 1-byte stand-in keeps pointers valid.
                let fallback: [UInt8] = [0]
                return fallback.withUnsafeBufferPointer { fallbackBuffer -> [Int] in
                    let source = buffer.baseAddress == nil ? fallbackBuffer : buffer
                    var sorter = ChunkSorter(bytes: source, entries: entryBuffer)
                    return sorter.sort()
                }
            }
        }
    }

    /// The machinery of `sortedDefault`.
    struct ChunkSorter {
        struct Key {
            var chunk: UInt64
            /// The chunk after `chunk`, when known (computed with the first, in file order).
            var next: UInt64
            /// The entry index (low 40 bits) and its length capped at 2^24 − 1 (high 24 bits). A
            /// capped length can only make a run look used up early, which sends it to the exact sort.
            var packed: UInt64

            init(chunk: UInt64, next: UInt64, index: Int, length: Int) {
                self.chunk = chunk
                self.next = next
                packed = UInt64(index) | UInt64(min(length, 0xFF_FFFF)) << 40
            }

            var index: Int { Int(truncatingIfNeeded: packed & 0xFF_FFFF_FFFF) }
            var cappedLength: Int { Int(truncatingIfNeeded: packed >> 40) }
        }

        let bytes: UnsafeBufferPointer<UInt8>
        let entries: UnsafeBufferPointer<Entry>
        private var counts: [Int] = []

        init(bytes: UnsafeBufferPointer<UInt8>, entries: UnsafeBufferPointer<Entry>) {
            self.bytes = bytes
            self.entries = entries
        }

        /// ASCII a–z to A–Z in each byte of `word`, branch-free.
        @inline(__always)
        static func fold(_ word: UInt64) -> UInt64 {
            let low = word & 0x7F7F_7F7F_7F7F_7F7F
            let atLeastA = low &+ 0x1F1F_1F1F_1F1F_1F1F   // high bit set where the byte is ≥ 0x61
            let pastZ = low &+ 0x0505_0505_0505_0505      // high bit set where the byte is ≥ 0x7B
            let lower = atLeastA & ~pastZ & ~word & 0x8080_8080_8080_8080
            return word &- (lower >> 2)
        }

        /// Folded bytes `8·depth ..< 8·depth+8` of an entry's text, first byte most significant, zeros
        /// past the end of the text.
        @inline(__always)
        func chunk(_ entry: Entry, depth: Int) -> UInt64 {
            let offset = depth &* 8
            let remaining = entry.length &- offset
            if remaining <= 0 { return 0 }
            let position = entry.start &+ offset
            var word: UInt64
            if position &+ 8 <= bytes.count, let base = bytes.baseAddress {
                word = UInt64(bigEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
            } else {
                word = 0
                for index in 0..<min(8, bytes.count &- position) {
                    word |= UInt64(bytes[position &+ index]) << UInt64(56 &- 8 &* index)
                }
            }
            if remaining < 8 { word &= ~(UInt64.max >> UInt64(8 &* remaining)) }
            return ChunkSorter.fold(word)
        }

        /// The exact order: folded text (shorter first when one is a prefix), number, raw text, index.
        /// `from`: the chunks before it are known to be equal.
        func precedes(_ left: Int, _ right: Int, from: Int = 0) -> Bool {
            let a = entries[left], b = entries[right]
            let longest = max(a.length, b.length)
            var depth = from
            while depth &* 8 < longest {
                let x = chunk(a, depth: depth), y = chunk(b, depth: depth)
                if x != y { return x < y }
                depth += 1
            }
            if a.length != b.length { return a.length < b.length }
            if a.number != b.number { return a.number < b.number }
            if a.length > 0, let base = bytes.baseAddress {
                let raw = ProcessSpawning.compareBytes(base + a.start, base + b.start, a.length)
                if raw != 0 { return raw < 0 }
            }
            return left < right
        }

        mutating func sort() -> [Int] {
            let count = entries.count
            let keys = UnsafeMutablePointer<Key>.allocate(capacity: count)
            let spare = UnsafeMutablePointer<Key>.allocate(capacity: count)
            defer {
                keys.deallocate()
                spare.deallocate()
            }
            // The first two chunks in file order (sequential reads); deeper ones only for ties.
            for index in 0..<count {
                let entry = entries[index]
                (keys + index).initialize(to: Key(chunk: chunk(entry, depth: 0), next: chunk(entry, depth: 1),
                                                  index: index, length: entry.length))
            }
            counts = [Int](repeating: 0, count: 6 << 11)
            // Runs still to order: keys[low..<high] share their first `depth` chunks.
            var work: [(low: Int, high: Int, depth: Int)] = [(0, count, 0)]
            while let (low, high, depth) = work.popLast() {
                let size = high - low
                var exhausted = true
                let used = (depth + 1) * 8
                for position in low..<high {
                    if depth == 1 {
                        keys[position].chunk = keys[position].next
                    } else if depth > 1 {
                        keys[position].chunk = chunk(entries[keys[position].index], depth: depth)
                    }
                    if keys[position].cappedLength > used { exhausted = false }
                }
                if size <= 24 {
                    insertionSort(keys + low, size, depth: depth)
                    continue
                }
                if size < 512 {
                    var run = UnsafeMutableBufferPointer(start: keys + low, count: size)
                    run.sort {
                        $0.chunk != $1.chunk ? $0.chunk < $1.chunk : $0.index < $1.index
                    }
                } else {
                    radixSort(keys + low, spare + low, size)
                }
                var start = low
                while start < high {
                    var end = start + 1
                    let value = keys[start].chunk
                    while end < high && keys[end].chunk == value { end += 1 }
                    if end - start > 1 {
                        if exhausted {
                            var run = UnsafeMutableBufferPointer(start: keys + start, count: end - start)
                            run.sort {
                                precedes($0.index, $1.index, from: depth + 1)
                            }
                        } else {
                            work.append((start, end, depth + 1))
                        }
                    }
                    start = end
                }
            }
            return (0..<count).map { keys[$0].index }
        }

        /// Keys sharing their first `depth` chunks, with chunk `depth` filled in: by that chunk, then exactly.
        func insertionSort(_ keys: UnsafeMutablePointer<Key>, _ count: Int, depth: Int) {
            guard count > 1 else { return }
            for position in 1..<count {
                let key = keys[position]
                var hole = position
                while hole > 0 {
                    let other = keys[hole - 1]
                    let before = key.chunk != other.chunk
                        ? key.chunk < other.chunk : precedes(key.index, other.index, from: depth + 1)
                    if !before { break }
                    keys[hole] = other
                    hole -= 1
                }
                keys[hole] = key
            }
        }

        /// Stable LSD radix sort of `keys[0..<count]` by chunk, 11 bits a pass; passes in which every
        /// key has the same digit are skipped. `spare` is scratch of the same size.
        mutating func radixSort(_ keys: UnsafeMutablePointer<Key>, _ spare: UnsafeMutablePointer<Key>, _ count: Int) {
            counts.withUnsafeMutableBufferPointer { counts in
                counts.update(repeating: 0)
                for position in 0..<count {
                    let chunk = keys[position].chunk
                    for pass in 0..<6 {
                        counts[pass << 11 | Int(truncatingIfNeeded: (chunk >> UInt64(pass * 11)) & 0x7FF)] += 1
                    }
                }
                var from = keys, to = spare
                for pass in 0..<6 {
                    let shift = UInt64(pass * 11)
                    let first = Int(truncatingIfNeeded: (from[0].chunk >> shift) & 0x7FF)
                    if counts[pass << 11 | first] == count { continue }
                    var sum = 0
                    for digit in 0..<2048 {
                        let here = counts[pass << 11 | digit]
                        counts[pass << 11 | digit] = sum
                        sum += here
                    }
                    for position in 0..<count {
                        let key = from[position]
                        let slot = pass << 11 | Int(truncatingIfNeeded: (key.chunk >> shift) & 0x7FF)
                        to[counts[slot]] = key
                        counts[slot] += 1
                    }
                    swap(&from, &to)
                }
                if from != keys { keys.update(from: from, count: count) }
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

extension TermFilter {
    /// The terms of a listing under either name; under `todo` a term that grep would refuse (an
    /// unmatched `[` or `\(`, an unknown class…) is a usage error naming the problem rather than
    /// a silently empty or wrong listing.
    init(checking arguments: [String], _ context: TodoShContext) throws(TodoShExit) {
        if context.settings.personality == .todo {
            for argument in arguments {
                let term = argument.hasPrefix("-") ? String(argument.dropFirst()) : argument
                if let problem = BasicRegex.syntaxError(Array(term.utf8), ignoreCase: true) {
                    throw context.fail(.usage("'\(term)' is not a valid search term: \(problem)"))
                }
            }
        }
        self.init(arguments, plainText: context.settings.plainTextTerms)
    }

    /// Whether the listing line of `entry` (`<padded number> <text>`, the text todo.sh's grep sees)
    /// passes every term.
    func accepts(_ entry: TodoShListing.Entry, _ bytes: [UInt8], width: Int, scratch: inout [UInt8]) -> Bool {
        guard !isEmpty else { return true }
        scratch.removeAll(keepingCapacity: true)
        var digits = 1
        var rest = entry.filterNumber / 10
        while rest > 0 { digits += 1; rest /= 10 }
        if digits < width { scratch.append(contentsOf: repeatElement(0x20, count: width - digits)) }
        TodoShListing.appendNumber(entry.filterNumber, width: 0, to: &scratch)
        scratch.append(0x20)
        scratch += bytes[entry.start..<(entry.start + entry.length)]
        return accepts(scratch)
    }
}
