import TodoTxt
import TodoFileSystem

// The listing pipeline (number, filter, hide, sort, colour, summary) and its rendering.
extension TodoShListing {
    // MARK: The pipeline

    /// Runs the pipeline on one file and prints the result and, when verbose, the summary.
    static func listFile(path: String, label: String, terms: [String], _ context: TodoShContext,
                         extraFilter: ((ArraySlice<UInt8>) -> Bool)? = nil) throws(CLIError) {
        var lines = Lines(try read(path, context))
        if context.settings.modernListing { lines.droppingTerminatorsAndMark() }
        warnOfConflictMarkers(lines.bytes, path: path, context)
        let width = digits(lines.count)
        var filters = try TermFilter(checking: terms, context)
        if filters.needsOpenUIDs { filters.readOpenUIDs(lines.ranges.lazy.map { lines.bytes[$0.start..<($0.start + $0.length)] }) }
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
                    let entry = Entry(number: index + 1, filterNumber: index + 1, start: range.start, length: range.length)
                    // The terms before the hidden test: most lines fail a term, and the answer is the same.
                    if !filters.isEmpty, !filters.accepts(entry, lines.bytes, width: width, scratch: &scratch) { continue }
                    if hideHidden && isHiddenTask(lines.text(index), today: today) { continue }
                    if let extraFilter, !extraFilter(lines.text(index)) { continue }
                    entries.append(entry)
                }
            }
        }
        // The line ranges are done with: freed before the sort, the memory peak of `ls`.
        lines.ranges = []
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
        // A colon after `h` or `t` (a vector search for the colons: most lines have one or two).
        let mayHaveTag = text.withUnsafeBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            var colon = ByteSearch.firstIndex(of: 0x3A, in: base, from: 1, to: buffer.count)
            while colon < buffer.count {
                if base[colon - 1] == 0x68 || base[colon - 1] == 0x74 { return true }
                colon = ByteSearch.firstIndex(of: 0x3A, in: base, from: colon + 1, to: buffer.count)
            }
            return false
        }
        return mayHaveTag && QueryFields.isHidden(text, on: today)
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
    static func render(_ entries: [Entry], _ bytes: [UInt8], width: Int, _ context: TodoShContext) throws(CLIError) -> Int {
        let settings = context.settings
        let colors = TodoShColors(settings)
        let hideCustom = settings.hideCustomSubstitution.isEmpty
            ? nil : BasicRegex(settings.hideCustomSubstitution, ignoreCase: false)
        // The `todo` name's extras (overdue highlighting, escaping for a terminal) need each line.
        let modern = settings.modernListing && (settings.escapeControls || !settings.plain)
        let needsLineWork = settings.hidePriorities || settings.hideProjects || settings.hideContexts
            || hideCustom != nil || colors.colorsWords || modern || !blockedMarkerUIDs(bytes, settings).isEmpty
        let filtered = !settings.disableFilter && settings.finalFilter != "cat"
        let today = context.clock.today
        // A blocked task's marker: on a terminal only, the open uids gathered once (TodoShListing+Dependencies.swift).
        let openUIDs = blockedMarkerUIDs(bytes, settings)
        func finish(_ numbered: [UInt8], into output: inout ListingOutput) {
            var numbered = numbered
            var overdue = false
            let blocked = !openUIDs.isEmpty && isBlocked(numbered, openUIDs: openUIDs)
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
            if blocked { line += blockedMarker }
            line.append(0x0A)
            output.append(line)
        }
        // Printed as it is made, unless a final filter needs all of it first.
        var output = ListingOutput(context, streaming: !filtered)
        // `--sort`/`--group` (the `todo` name): sections in their order, before any sort command.
        let ordered = orderedSections(entries, bytes, settings)
        if ordered != nil || settings.sortCommand == TodoShSettings.defaultSortCommand {
            for (position, section) in (ordered ?? [(nil, sortedDefault(entries, bytes))]).enumerated() {
                let order = section.order
                if let heading = section.heading { output.append((position > 0 ? [0x0A] : []) + heading + [0x0A]) }
                if !needsLineWork {
                    // The hot path: every line is `<linecolour>N text<DEFAULT>` and non-empty. In
                    // chunks, each gathered in order first: independent loads the processor can overlap.
                    var chunkStart = 0
                    while chunkStart < order.count {
                        let chunkEnd = min(order.count, chunkStart + renderChunk)
                        let chunk = order[chunkStart..<chunkEnd].map { entries[$0] }
                        output.append(renderSimple(chunk, bytes, width: width, colors))
                        chunkStart = chunkEnd
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
            output.replaceHeld(runShell(settings.finalFilter, input: output.held, context))
        }
        let printed = output.finish()
        // Grouped, a task may be printed under several headings: the count is of tasks.
        return settings.listingGroup == nil ? printed : entries.count
    }

    /// How many lines the hot path renders at a time: a chunk's text stays in the processor's cache
    /// while it is copied, and the listing never holds its whole output.
    static let renderChunk = 16_384

    /// A listing's output on its way to stdout. todo.sh captures the output with `$(…)`: trailing
    /// newlines go, one is printed back; and the lines printed are counted. Streaming, the bytes
    /// are written whenever a megabyte has gathered, all but a trailing run of newlines (which
    /// may yet turn out to end the output).
    struct ListingOutput {
        let context: TodoShContext
        let streaming: Bool
        /// What is not written yet.
        private(set) var held: [UInt8] = []
        /// Whether anything was written already (it then ends in a byte that is not LF).
        private var wroteAny = false
        /// The LF bytes written already.
        private var writtenLineFeeds = 0

        init(_ context: TodoShContext, streaming: Bool) {
            self.context = context
            self.streaming = streaming
        }

        mutating func append(_ bytes: [UInt8]) {
            held += bytes
            guard streaming, held.count >= 1 << 20 else { return }
            var keep = held.count
            while keep > 0 && held[keep - 1] == 0x0A { keep -= 1 }
            guard keep > 0 else { return }
            let ready = Array(held[..<keep])
            writtenLineFeeds += countNewlines(ready)
            context.sayBytes(ready)
            wroteAny = true
            held.removeFirst(keep)
        }

        /// Replaces what is held (the final filter's result).
        mutating func replaceHeld(_ bytes: [UInt8]) { held = bytes }

        /// Writes the rest without its trailing newlines, then one; returns the lines printed.
        mutating func finish() -> Int {
            while held.last == 0x0A { held.removeLast() }
            guard wroteAny || !held.isEmpty else { return 0 }
            let shown = writtenLineFeeds + countNewlines(held) + 1
            held.append(0x0A)
            context.sayBytes(held)
            held = []
            return shown
        }
    }

    /// The number of LF bytes in `bytes`.
    static func countNewlines(_ bytes: [UInt8]) -> Int { AppendScan.lineFeeds(in: bytes) }

    /// `<linecolour>N text<DEFAULT>\n` for each of `entries`, into one buffer sized up front (for
    /// the longest colour each line could get, so sizing reads no text).
    static func renderSimple(_ entries: [Entry], _ bytes: [UInt8], width: Int, _ colors: TodoShColors) -> [UInt8] {
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
            let widestColor = paletteSizes.max() ?? 0
            var total = 0
            for entry in entries {
                total += max(width, digits(entry.number)) + entry.length + 2 + widestColor
            }
            // 8 bytes of slack: text is copied a word at a time and may overrun its end.
            let output = [UInt8](unsafeUninitializedCapacity: total + 8) { target, initialized in
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
                        offset = writePaddedNumber(entry.number, width: width, into: out, at: offset)
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
    /// a silently empty or wrong listing, and so is a typed term whose date is none
    /// (`due:<tomorow`). Typed terms are read where the name's rules say so (`NameRules.typedTerms`).
    init(checking arguments: [String], _ context: TodoShContext) throws(CLIError) {
        let typed = context.settings.rules.typedTerms
        if context.settings.rules.checksSearchTerms {
            for argument in arguments {
                let term = argument.hasPrefix("-") ? String(argument.dropFirst()) : argument
                if typed, let reason = TypedTerm.invalidity(of: term) {
                    throw .usage("'\(term)' is not a valid search term: \(reason)")
                }
                if typed, TypedTerm(term) != nil { continue }
                if let problem = BasicRegex.syntaxError(Array(term.utf8), ignoreCase: true) {
                    throw .usage("'\(term)' is not a valid search term: \(problem)")
                }
            }
        }
        self.init(arguments, plainText: context.settings.plainTextTerms, typedTermsOn: typed ? context.clock.today : nil)
    }

    /// Whether the listing line of `entry` (`<padded number> <text>`, the text todo.sh's grep sees)
    /// passes every term. Typed terms read the task's bytes in place; the line is built (into
    /// `scratch`) only when a term needs it (`needsListingLine`); plain terms that can only match the
    /// text are searched in the text as it lies in `bytes`, with `scratch` as their folding space.
    func accepts(_ entry: TodoShListing.Entry, _ bytes: [UInt8], width: Int, scratch: inout [UInt8]) -> Bool {
        guard !isEmpty else { return true }
        if !acceptsTask(bytes[entry.start..<(entry.start + entry.length)]) { return false }
        let textPasses = bytes.withUnsafeBufferPointer { buffer in
            acceptsText(UnsafeBufferPointer(rebasing: buffer[entry.start..<(entry.start + entry.length)]), scratch: &scratch)
        }
        guard textPasses, needsListingLine else { return textPasses }
        scratch.removeAll(keepingCapacity: true)
        var digits = 1
        var rest = entry.filterNumber / 10
        while rest > 0 { digits += 1; rest /= 10 }
        if digits < width { scratch.append(contentsOf: repeatElement(0x20, count: width - digits)) }
        TodoShListing.appendNumber(entry.filterNumber, width: 0, to: &scratch)
        scratch.append(0x20)
        scratch += bytes[entry.start..<(entry.start + entry.length)]
        // Folding space for a plain term with a digit or a space, allocated only if one must fold.
        var folding: [UInt8] = []
        return acceptsListingLine(scratch, scratch: &folding)
    }
}
