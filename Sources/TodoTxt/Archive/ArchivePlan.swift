// Archiving: moving completed tasks from the todo file to the done file (`todo archive`, and
// todo.sh's `archive` under that name). The plan is pure (bytes in, lines out); the command makes
// the two writes (docs/todo-command.md, "archive"; docs/todosh.md section 5).

/// What one archive moves: the completed lines' contents and, when the file ends with a line
/// break, the kept part of the file as pieces of it (written without building it).
///
/// Two rules, one planner: `todo archive` keeps blank lines (they may be the user's spacing) and
/// moves what the format calls completed; todo.sh's archive drops every empty line and moves every
/// line starting `x ` (its `grep '^x '` and `sed '/./!d'`), byte for byte as todo.txt-cli does.
public struct ArchivePlan: Sendable {
    /// What happens to empty lines of the todo file.
    public enum BlankLines: Sendable {
        /// Kept where they are (`todo archive`).
        case kept
        /// Removed, and a done line is any line starting `x ` (todo.sh's archive).
        case dropped
    }

    /// The completed lines, as slices of the file read (no copy per line).
    public private(set) var lines: [ArraySlice<UInt8>] = []
    /// The byte ranges of the file to keep, in order, when they could be found without parsing.
    public private(set) var kept: [Range<Int>]?
    /// The line ending a new done file gets: the todo file's.
    public private(set) var terminator: LineTerminator = .lf

    /// The plan for archiving the todo file `bytes`.
    public init(_ bytes: [UInt8], blankLines: BlankLines = .kept) {
        if blankLines == .dropped {
            let runs = ArchivePlan.todoShRuns(bytes, archived: nil)
            kept = runs.kept
            lines = runs.removed
            if let lineFeed = bytes.firstIndex(of: 0x0A), lineFeed > 0, bytes[lineFeed - 1] == 0x0D { terminator = .crlf }
            return
        }
        if let runs = TodoDocument.completedRuns(bytes) {
            kept = runs.kept
            bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                for run in runs.completed {
                    var start = run.lowerBound
                    while start < run.upperBound {
                        let lineFeed = ByteSearch.firstIndex(of: 0x0A, in: base, from: start, to: run.upperBound)
                        let end = lineFeed > start && base[lineFeed - 1] == 0x0D ? lineFeed - 1 : lineFeed
                        lines.append(bytes[start..<end])
                        start = lineFeed + 1
                    }
                }
            }
            // A new done file gets the todo file's line ending, read off its first line (the
            // file ends with LF, so there is one).
            if let lineFeed = bytes.firstIndex(of: 0x0A), lineFeed > 0, bytes[lineFeed - 1] == 0x0D { terminator = .crlf }
            return
        }
        let document = TodoDocument(bytes: bytes)
        terminator = document.dominantTerminator
        for index in 0..<document.lineCount where document.item(at: index).isCompleted {
            lines.append(ArraySlice(Array(document.content(at: index))))
        }
    }
}

extension ArchivePlan {
    /// `lines` without those already at the end of the done file: among its last `lines.count`
    /// lines, the same line, or a completed task with the same uid, each match used once.
    ///
    /// An interrupted archive leaves its batch at the very end of the done file, so the done file's
    /// last line decides cheaply whether anything can repeat: unless it is a completed task that
    /// equals one of `lines` or shares its uid, nothing is searched (the usual case costs one parse
    /// and a byte search, never a hash of the done file).
    public static func notYetArchived(_ lines: [ArraySlice<UInt8>], doneBytes: [UInt8]) -> [ArraySlice<UInt8>] {
        guard let last = lastLines(of: doneBytes, count: 1).last else { return lines }
        let lastItem = TodoItem(last)
        guard lastItem.isCompleted else { return lines }
        let lastUID = lastItem.uid
        let uidBytes = lastUID.map { Array($0.utf8) }
        let mayRepeat = lines.contains { line in
            line.elementsEqual(last) || (uidBytes.map { contains(line, $0) } == true && TodoItem(line).uid == lastUID)
        }
        guard mayRepeat else { return lines }
        let tail = lastLines(of: doneBytes, count: lines.count)
        var sameLine: [ArraySlice<UInt8>: Int] = [:]
        var sameUID: [String: Int] = [:]
        for content in tail {
            let item = TodoItem(content)
            guard item.isTask else { continue }
            sameLine[content, default: 0] += 1
            if item.isCompleted, let uid = item.uid { sameUID[uid, default: 0] += 1 }
        }
        return lines.filter { line in
            if let count = sameLine[line[...]], count > 0 {
                sameLine[line[...]] = count - 1
                return false
            }
            if !sameUID.isEmpty, let uid = TodoItem(line).uid, let count = sameUID[uid], count > 0 {
                sameUID[uid] = count - 1
                return false
            }
            return true
        }
    }

    /// The contents of the last `count` lines of `bytes` (terminators dropped), in order, found from
    /// the end without splitting the whole file.
    static func lastLines(of bytes: [UInt8], count: Int) -> [ArraySlice<UInt8>] {
        guard !bytes.isEmpty else { return [] }
        var lines: [ArraySlice<UInt8>] = []
        var end = bytes.count
        if bytes[end - 1] == 0x0A { end -= 1 }
        while lines.count < count {
            var start = end
            while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
            let contentEnd = end > start && bytes[end - 1] == 0x0D ? end - 1 : end
            lines.append(bytes[start..<contentEnd])
            if start == 0 { break }
            end = start - 1
        }
        return lines.reversed()
    }

    /// Whether `needle` occurs in `haystack`.
    static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        return haystack.withUnsafeBufferPointer { buffer -> Bool in
            guard let base = buffer.baseAddress else { return false }
            var index = 0
            while index + needle.count <= buffer.count {
                index = ByteSearch.firstIndex(of: first, in: base, from: index, to: buffer.count - needle.count + 1)
                guard index + needle.count <= buffer.count else { return false }
                if UnsafeBufferPointer(rebasing: buffer[index..<(index + needle.count)]).elementsEqual(needle) { return true }
                index += 1
            }
            return false
        }
    }

    /// `bytes` without one completed line per entry of `lines` (a multiset): the todo file as another
    /// writer left it, minus exactly what was archived.
    public static func removing(_ lines: [ArraySlice<UInt8>], from bytes: [UInt8]) -> [UInt8] {
        var pending: [[UInt8]: Int] = [:]
        for line in lines { pending[Array(line), default: 0] += 1 }
        var document = TodoDocument(bytes: bytes)
        document.removeLines { line in
            // Only a line starting with `x` (or with a BOM of its own) can be completed.
            guard line.count >= 2, line[0] == CompletedLine.markLetter || line[0] == 0xEF else { return false }
            let content = Array(line)
            guard TodoItem(content).isCompleted, let count = pending[content], count > 0 else { return false }
            pending[content] = count - 1
            return true
        }
        return document.rendered()
    }
}

extension ArchivePlan {
    /// The todo file `bytes` as todo.sh's archive leaves it after another writer changed it: without
    /// its empty lines and the `x ` lines counted in `archived` (each removed as often as counted).
    package static func removingTodoShArchived(_ archived: [[UInt8]: Int], from bytes: [UInt8]) -> [UInt8] {
        joining(todoShRuns(bytes, archived: archived).kept, of: bytes)
    }

    /// The kept part of `bytes` (the file this plan was made from) as one array, when `kept` is known.
    public func keptBytes(of bytes: [UInt8]) -> [UInt8]? {
        kept.map { ArchivePlan.joining($0, of: bytes) }
    }

    static func joining(_ ranges: [Range<Int>], of bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        for range in ranges { result += bytes[range] }
        return result
    }

    /// todo.sh's archive over `bytes`: the byte ranges to keep (a byte order mark stays; every kept
    /// line keeps its own terminator) and the contents of the `x ` lines removed (every one when
    /// `archived` is nil, else as counted there). Byte for byte what `TodoDocument.removeLines`
    /// and `rendered()` give, without parsing the file into a document.
    static func todoShRuns(_ bytes: [UInt8], archived: [[UInt8]: Int]?) -> (kept: [Range<Int>], removed: [ArraySlice<UInt8>]) {
        var pending = archived
        var kept: [Range<Int>] = []
        var removed: [ArraySlice<UInt8>] = []
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            let count = buffer.count
            let begin = TodoDocument.startsWithByteOrderMark(buffer) ? 3 : 0
            var start = begin
            var keptFrom = 0  // the start of the run of kept bytes not yet recorded
            while start < count {
                let newline = ByteSearch.firstIndex(of: 0x0A, in: base, from: start, to: count)
                let end = newline == count ? count : newline + 1
                var length = newline - start
                if newline < count && length > 0 && base[newline - 1] == 0x0D { length -= 1 }
                var remove = length == 0
                if !remove && TodoShDialect.isDone(UnsafeBufferPointer(start: base + start, count: length)) {
                    if pending == nil {
                        remove = true
                    } else {
                        let line = Array(UnsafeBufferPointer(start: base + start, count: length))
                        if let left = pending?[line], left > 0 {
                            pending?[line] = left - 1
                            remove = true
                        }
                    }
                    if remove { removed.append(bytes[start..<(start + length)]) }
                }
                if remove {
                    if start > keptFrom { kept.append(keptFrom..<start) }
                    keptFrom = end
                }
                start = end
            }
            if count > keptFrom { kept.append(keptFrom..<count) }
        }
        return (kept, removed)
    }
}
