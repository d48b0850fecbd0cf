/// A further ordering of the open tasks for `todo sort --by` (format.md section 5).
public enum SortKey: String, Sendable, CaseIterable {
    /// `(A)` first, then B…Z, then tasks without a priority.
    case priority
    /// Earliest `due:` first; tasks without a valid due date after.
    case due
    /// Earliest `t:` threshold first; none after.
    case threshold
    /// Oldest creation date first; none after.
    case created
    /// The body, ASCII case-insensitively, bytewise.
    case text

    /// Parses a comma-separated list such as `priority,due`.
    public static func parseList(_ text: String) -> [SortKey]? {
        var keys: [SortKey] = []
        for name in text.split(separator: ",") {
            guard let key = SortKey(rawValue: String(name)) else { return nil }
            keys.append(key)
        }
        return keys.isEmpty ? nil : keys
    }
}

extension TodoDocument {
    /// Whether the line at `index` is a completed task (starts with `x` and a space).
    func isCompletedLine(_ index: Int) -> Bool {
        let content = content(of: records[index])
        var start = content.startIndex
        var length = content.count
        // A line of its own starting with a byte order mark reads past it (see TodoItem.parseHeader).
        if length >= 3 && content[start] == 0xEF && content[start + 1] == 0xBB && content[start + 2] == 0xBF {
            start += 3
            length -= 3
        }
        return length >= 2 && content[start] == 0x78 && content[start + 1] == 0x20
    }

    /// The new line order: open lines (tasks, blank lines, comments) keep their relative order on top,
    /// completed tasks follow in theirs. With `keys`, open tasks are further ordered by them, stably;
    /// blank lines, which have no keys, then sit at the end of the open group.
    ///
    /// Complexity: O(n) without keys; O(n log n) with keys.
    public func sortedOrder(by keys: [SortKey] = []) -> [Int] {
        var open: [Int] = []
        var done: [Int] = []
        open.reserveCapacity(lineCount)
        for index in 0..<lineCount {
            if isCompletedLine(index) { done.append(index) } else { open.append(index) }
        }
        if !keys.isEmpty {
            let sortable = open.map { (index: $0, item: item(at: $0)) }
            let ordered = sortable.enumerated().sorted { lhs, rhs in
                let order = TodoDocument.compare(lhs.element.item, rhs.element.item, by: keys)
                return order != 0 ? order < 0 : lhs.offset < rhs.offset
            }
            open = ordered.map(\.element.index)
        }
        return open + done
    }

    /// Three-way comparison of two open lines by `keys`; blank lines after every task.
    static func compare(_ lhs: TodoItem, _ rhs: TodoItem, by keys: [SortKey]) -> Int {
        if lhs.isBlank != rhs.isBlank { return lhs.isBlank ? 1 : -1 }
        if lhs.isBlank { return 0 }
        func optional<T: Comparable>(_ a: T?, _ b: T?) -> Int {
            switch (a, b) {
            case let (a?, b?): return a < b ? -1 : (b < a ? 1 : 0)
            case (nil, nil): return 0
            case (nil, _): return 1
            case (_, nil): return -1
            }
        }
        for key in keys {
            let order: Int
            switch key {
            case .priority: order = optional(lhs.priority, rhs.priority)
            case .due: order = optional(lhs.due.value, rhs.due.value)
            case .threshold: order = optional(lhs.threshold.value, rhs.threshold.value)
            case .created: order = optional(lhs.creationDate, rhs.creationDate)
            case .text:
                let a = lhs.bodyBytes.lazy.map(asciiUppercased), b = rhs.bodyBytes.lazy.map(asciiUppercased)
                order = a.lexicographicallyPrecedes(b) ? -1 : (b.lexicographicallyPrecedes(a) ? 1 : 0)
            }
            if order != 0 { return order }
        }
        return 0
    }

    /// The document sorted (format.md section 5): a permutation of its lines, idempotent.
    public func sorted(by keys: [SortKey] = []) -> TodoDocument {
        var copy = self
        let order = sortedOrder(by: keys)
        if order.elementsEqual(0..<lineCount) { return copy }
        copy.reorder(order)
        return copy
    }

    /// Sorts file bytes: completed tasks sink, stably. Equal to the input when already sorted.
    ///
    /// Complexity: O(n). Without keys, for a file that ends with a terminator (or is empty), one scan
    /// finds the runs of open and of completed lines and the output is written in one pass, a copy per
    /// run, exactly sized; no line records are built. Otherwise: parse, `sortedOrder`, `reorder`,
    /// `rendered()`, which give the same bytes.
    public static func sort(_ bytes: [UInt8], by keys: [SortKey] = []) -> [UInt8] {
        if keys.isEmpty, bytes.last == 0x0A || bytes.isEmpty {
            return sortTerminatedWithoutKeys(bytes)
        }
        let document = TodoDocument(bytes: bytes)
        let order = document.sortedOrder(by: keys)
        if order.elementsEqual(0..<document.lineCount) { return bytes }
        var sorted = document
        sorted.reorder(order)
        return sorted.rendered()
    }
}

extension TodoDocument {
    /// A run of whole lines (terminators included) of one group: `start..<end` in the file.
    struct LineRun {
        var start: Int
        var end: Int
    }

    /// `sort(bytes)` without keys for bytes that are empty or end with LF.
    ///
    /// Then every line has its terminator, so `reorder` changes no terminator and the result is the
    /// BOM, the open lines' spans in order, then the completed lines' spans in order: exactly what
    /// `TodoDocument(bytes:).sorted().rendered()` gives. A line is completed as in `isCompletedLine`:
    /// `x` and a space at its start, after a byte order mark of its own if it has one.
    static func sortTerminatedWithoutKeys(_ bytes: [UInt8]) -> [UInt8] {
        let begin = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
        guard begin < bytes.count else { return bytes }
        var open: [LineRun] = []
        var done: [LineRun] = []
        var moved = false
        bytes.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            var lineStart = begin
            forEachLF(base, from: begin, to: buffer.count) { newline in
                var start = lineStart
                // The LF is never one of the bytes compared, so `start + 1 < newline` holds on a match.
                if newline - start >= 5 && base[start] == 0xEF && base[start + 1] == 0xBB && base[start + 2] == 0xBF {
                    start += 3
                }
                let isDone = base[start] == 0x78 && start + 1 < newline && base[start + 1] == 0x20
                let end = newline + 1
                if isDone {
                    if let last = done.indices.last, done[last].end == lineStart {
                        done[last].end = end
                    } else {
                        done.append(LineRun(start: lineStart, end: end))
                    }
                } else {
                    if !done.isEmpty { moved = true }
                    if let last = open.indices.last, open[last].end == lineStart {
                        open[last].end = end
                    } else {
                        open.append(LineRun(start: lineStart, end: end))
                    }
                }
                lineStart = end
            }
        }
        guard moved else { return bytes }
        return [UInt8](unsafeUninitializedCapacity: bytes.count) { target, initialized in
            bytes.withUnsafeBufferPointer { source in
                let from = source.baseAddress!, to = target.baseAddress!
                var offset = 0
                if begin > 0 {
                    to.update(from: from, count: begin)
                    offset = begin
                }
                for run in open {
                    (to + offset).update(from: from + run.start, count: run.end - run.start)
                    offset += run.end - run.start
                }
                for run in done {
                    (to + offset).update(from: from + run.start, count: run.end - run.start)
                    offset += run.end - run.start
                }
                initialized = offset
            }
        }
    }
}

@inline(__always)
func asciiUppercased(_ byte: UInt8) -> UInt8 { byte &- 0x61 < 26 ? byte - 0x20 : byte }
