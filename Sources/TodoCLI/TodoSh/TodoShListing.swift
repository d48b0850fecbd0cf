import TodoTxt
import TodoFileSystem

/// The list actions (docs/todosh.md section 3): number, drop blanks, filter by TERMs, zero-pad, sort, colour,
/// hide, final filter, summary. The default sort and `cat` filter run in-process; other commands go
/// through `sh -c` with the lines on stdin.
enum TodoShListing {
    /// One numbered line on its way through the pipeline: a byte range of the listing's buffer.
    ///
    /// Sixteen bytes, because a listing holds one per line and the peak memory of `ls` is the
    /// file plus these plus the sort's keys: the length and the number take 32 bits each, which
    /// `listingLimit` guarantees.
    struct Entry {
        var start: Int
        private var storedLength: UInt32
        /// The number matched by TERMs in the low 31 bits; the top bit set when the number shown is 0.
        private var storedNumber: UInt32

        /// `number` is the number shown: `filterNumber`, or 0 (done lines in listall).
        init(number: Int, filterNumber: Int, start: Int, length: Int) {
            self.start = start
            storedLength = UInt32(truncatingIfNeeded: length)
            storedNumber = UInt32(truncatingIfNeeded: filterNumber) | (number == 0 ? 1 << 31 : 0)
        }

        var length: Int { Int(storedLength) }

        /// The number shown (0 for done lines in listall).
        var number: Int { storedNumber >> 31 == 1 ? 0 : filterNumber }

        /// The number matched by TERMs (listall numbers both files as one stream).
        var filterNumber: Int {
            get { Int(storedNumber & 0x7FFF_FFFF) }
            set { storedNumber = storedNumber & 0x8000_0000 | UInt32(truncatingIfNeeded: newValue) }
        }
    }

    /// The most bytes a listing reads (both files of listall together): below 2 GiB, so that every
    /// line's length and number fit an `Entry` (a file has fewer lines than bytes plus one). Beyond
    /// the file layer's own default limit of 1 GiB, which `TODO_MAX_FILE_SIZE` can raise.
    static let listingLimit = Int(Int32.max)

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
                ranges.withUnsafeMutableBufferPointer { ranges in
                    for index in fileStarts where index < ranges.count {
                        let range = ranges[index]
                        if range.length >= 3, buffer[range.start] == 0xEF, buffer[range.start + 1] == 0xBB,
                           buffer[range.start + 2] == 0xBF {
                            ranges[index] = (range.start + 3, range.length - 3)
                        }
                    }
                    for index in 0..<ranges.count {
                        let range = ranges[index]
                        if range.length > 0, buffer[range.start + range.length - 1] == 0x0D { ranges[index].length -= 1 }
                    }
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

    static func read(_ path: String, _ context: TodoShContext) throws(CLIError) -> [UInt8] {
        let bytes = try context.bytes(path)
        try checkListingLimit(bytes.count, path: path, context)
        return bytes
    }

    /// Refuses a listing of `count` bytes or more than `listingLimit`, naming `path`.
    static func checkListingLimit(_ count: Int, path: String, _ context: TodoShContext) throws(CLIError) {
        guard count < listingLimit else {
            throw .failure("\(path): too large to list (\(count) bytes; a listing holds less than 2 GiB)")
        }
    }

    /// A line the pipeline keeps: only-space lines are blank. (Decision, docs/todosh.md section 8: tasks made of
    /// digits only are listed; todo.sh hides them.)
    static func isBlank(_ text: ArraySlice<UInt8>) -> Bool { text.allSatisfy { $0 == 0x20 } }

    /// Writes `value` (≥ 0) in decimal, zero-padded to `width` digits, at `target + offset`, from its
    /// last digit; returns the offset after it. The caller has made room for
    /// `max(width, digits(value))` bytes there (the listings' byte writers size their buffers so).
    @inline(__always)
    static func writePaddedNumber(_ value: Int, width: Int, into target: UnsafeMutablePointer<UInt8>, at offset: Int) -> Int {
        var rest = value
        let size = max(width, digits(value))
        var position = offset + size - 1
        while position >= offset {
            target[position] = 0x30 &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
            position -= 1
        }
        return offset + size
    }

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

    static func list(_ context: inout TodoShContext, _ arguments: [String]) throws(CLIError) -> Int32 {
        let path = context.settings.todoFile
        try listFile(path: path, label: path, terms: arguments, context)
        return 0
    }

    static func listFile(_ context: inout TodoShContext, _ arguments: [String]) throws(CLIError) -> Int32 {
        guard let source = arguments.first, !source.isEmpty else {
            let directory = context.settings.todoDirectory
            context.inform("Files in the todo.txt directory:")
            let names = (context.files.fileSystem.directoryEntries(directory) ?? [])
                .filter { $0.hasSuffix(".txt") && !$0.hasPrefix(".") }
                .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            for name in names { context.say(name) }
            return 0
        }
        let directory = context.settings.todoDirectory
        func isFile(_ path: String) -> Bool {
            let kind = context.files.fileSystem.kind(of: path)
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
        } else if context.settings.rules.strictFiles {
            // Under `todo`: the file as given (relative to the todo directory), and why it cannot be listed.
            let named = source.hasPrefix("/") ? source : directory + "/" + source
            let kind = context.files.fileSystem.kind(of: named)
            throw .failure(kind == .directory ? "\(named): is a directory" : "\(named): no such file")
        } else {
            throw context.die("TODO: File \(source) does not exist.")
        }
        guard isFile(path) else { throw context.die("TODO: File \(source) does not exist.") }
        if context.settings.rules.strictFiles { _ = try context.bytes(path) }
        try listFile(path: path, label: source, terms: Array(arguments.dropFirst()), context)
        return 0
    }

    static func listPriority(_ context: inout TodoShContext, _ arguments: [String]) throws(CLIError) -> Int32 {
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

    static func listAll(_ context: inout TodoShContext, _ arguments: [String]) throws(CLIError) -> Int32 {
        var lines = Lines(try read(context.settings.todoFile, context))
        warnOfConflictMarkers(lines.bytes, path: context.settings.todoFile, context)
        let todoCount = lines.count
        var doneBytes = try read(context.settings.doneFile, context)
        if let last = lines.bytes.last, last != 0x0A, !doneBytes.isEmpty { doneBytes.insert(0x0A, at: 0) }
        try checkListingLimit(lines.bytes.count + doneBytes.count, path: context.settings.doneFile, context)
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
        guard context.settings.rules.refusesUnsafeFiles, let line = ConflictMarkers.firstBlockLine(in: bytes) else { return }
        context.warn("\(context.programName): \(path): line \(line): unresolved merge conflict (<<<<<<< … >>>>>>>); resolve it before changing tasks")
    }
}
