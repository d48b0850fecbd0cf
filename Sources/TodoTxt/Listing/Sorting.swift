/// A further ordering of the open tasks for `todo sort --by` (docs/format.md section 5).
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
    /// Whether the line at `index` is a completed task (`CompletedLine`).
    func isCompletedLine(_ index: Int) -> Bool {
        CompletedLine.isCompleted(content(of: records[index]))
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

    /// The document sorted (docs/format.md section 5): a permutation of its lines, idempotent.
    public func sorted(by keys: [SortKey] = []) -> TodoDocument {
        var copy = self
        let order = sortedOrder(by: keys)
        if order.elementsEqual(0..<lineCount) { return copy }
        copy.reorder(order)
        return copy
    }

    /// Sorts file bytes: completed tasks sink, stably. Equal to the input when already sorted.
    ///
    /// Complexity: O(n) without keys, O(n log n) with. A file that ends with a terminator (or is
    /// empty) is sorted through `sortedPieces` and built in one exactly sized copy; otherwise through
    /// `sortedOrder`, `reorder` and `rendered()`, which may give the last line a terminator.
    public static func sort(_ bytes: [UInt8], by keys: [SortKey] = []) -> [UInt8] {
        if let pieces = sortedPieces(bytes, by: keys) {
            return pieces.count == 1 && pieces[0] == 0..<bytes.count ? bytes : concatenate(pieces, of: bytes)
        }
        let document = TodoDocument(bytes: bytes)
        let order = document.sortedOrder(by: keys)
        if order.elementsEqual(0..<document.lineCount) { return bytes }
        var sorted = document
        sorted.reorder(order)
        return sorted.rendered()
    }

    /// The sorted file (`sort(bytes, by: keys)`) as ranges of `bytes` to be concatenated in order,
    /// for a caller that writes the result without building it (`todo sort` streams the pieces into
    /// its temporary file). `[0..<bytes.count]` when the file is already sorted, `[]` for an empty file.
    ///
    /// `nil` when the result is not a reordering of the input's bytes: when the last line has no
    /// terminator, sorting may have to give it one. Use `sort(_:by:)` then.
    ///
    /// Every line of a file that ends with LF has its terminator, so a sort only moves whole lines,
    /// terminators included, and the file's BOM stays first. Complexity: O(n) without keys, and no
    /// line records are built: a vector scan finds the starts of completed lines and skips to the
    /// end of each. With keys: a parse and `sortedOrder`.
    public static func sortedPieces(_ bytes: [UInt8], by keys: [SortKey] = []) -> [Range<Int>]? {
        guard bytes.isEmpty || bytes.last == 0x0A else { return nil }
        if bytes.isEmpty { return [] }
        if keys.isEmpty { return piecesSinkingCompletedLines(bytes) }
        let document = TodoDocument(bytes: bytes)
        let order = document.sortedOrder(by: keys)
        if order.elementsEqual(0..<document.lineCount) { return [0..<bytes.count] }
        var pieces: [Range<Int>] = document.hasByteOrderMark ? [0..<3] : []
        pieces.reserveCapacity(order.count + 1)
        for index in order {
            let record = document.records[index]
            let span = record.start..<(record.start + record.length + record.terminator.byteCount)
            if let last = pieces.last, last.upperBound == span.lowerBound {
                pieces[pieces.count - 1] = last.lowerBound..<span.upperBound
            } else {
                pieces.append(span)
            }
        }
        return pieces
    }

    /// The bytes `pieces` describe, in one exactly sized allocation.
    static func concatenate(_ pieces: [Range<Int>], of bytes: [UInt8]) -> [UInt8] {
        let total = pieces.reduce(0) { $0 + $1.count }
        return [UInt8](unsafeUninitializedCapacity: total) { target, initialized in
            bytes.withUnsafeBufferPointer { source in
                guard let from = source.baseAddress, let to = target.baseAddress else { return }
                var offset = 0
                for piece in pieces {
                    (to + offset).update(from: from + piece.lowerBound, count: piece.count)
                    offset += piece.count
                }
            }
            initialized = total
        }
    }
}

extension TodoDocument {
    /// `sortedPieces(bytes)` without keys, for non-empty bytes that end with LF: the file's BOM,
    /// the runs of open lines in order, then the runs of completed lines in order.
    ///
    /// A line is completed as in `isCompletedLine`: `x` and a space at its start, after a byte order
    /// mark of its own if it has one. Instead of visiting every line, the scan looks 16 positions at
    /// a time for an `x` that follows an LF (or the end of a BOM) and precedes a space; only those
    /// candidates are checked, and the scan then resumes after the completed line's LF. Open lines,
    /// usually the majority, cost no per-line work at all.
    static func piecesSinkingCompletedLines(_ bytes: [UInt8]) -> [Range<Int>] {
        let begin = TodoDocument.startsWithByteOrderMark(bytes) ? 3 : 0
        guard begin < bytes.count else { return [0..<bytes.count] }
        var sorter = CompletedLineSinker(begin: begin)
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            sorter.scan(base, count: buffer.count)
        }
        return sorter.pieces(count: bytes.count)
    }
}

extension TodoDocument {
    /// The file split for archiving, without building a document: `kept` is the BOM and the runs of
    /// open lines (blank lines included) in file order, `completed` the runs of completed lines in
    /// file order; both as ranges of `bytes`, terminators included, so `kept` concatenated is the
    /// file without its completed lines, byte for byte. Completed as in `sortedPieces`.
    ///
    /// nil when the last line has no terminator (callers fall back to a `TodoDocument`).
    /// Complexity: O(n) with the vector scan of `sortedPieces`; open lines cost no per-line work.
    package static func completedRuns(_ bytes: [UInt8]) -> (kept: [Range<Int>], completed: [Range<Int>])? {
        guard let last = bytes.last, last == 0x0A else { return bytes.isEmpty ? ([], []) : nil }
        let begin = TodoDocument.startsWithByteOrderMark(bytes) ? 3 : 0
        guard begin < bytes.count else { return ([0..<bytes.count], []) }
        var sinker = CompletedLineSinker(begin: begin)
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            sinker.scan(base, count: buffer.count)
        }
        if sinker.openStart < bytes.count { sinker.open.append(sinker.openStart..<bytes.count) }
        return ((begin > 0 ? [0..<begin] : []) + sinker.open, sinker.done)
    }
}

/// The state of `piecesSinkingCompletedLines`: the runs found so far.
private struct CompletedLineSinker {
    let begin: Int
    var open: [Range<Int>] = []
    var done: [Range<Int>] = []
    /// Where the lines not yet assigned to a run start: just after the last completed line.
    var openStart: Int
    /// Whether an open line follows a completed one, that is, whether anything moves.
    var moved = false

    init(begin: Int) {
        self.begin = begin
        openStart = begin
    }

    static let lineFeed: UInt8 = 0x0A

    /// Records the completed line `start..<end` (`end` just after its LF).
    mutating func completed(_ start: Int, _ end: Int) {
        if start > openStart {
            if !done.isEmpty { moved = true }
            open.append(openStart..<start)
        }
        if let last = done.last, last.upperBound == start {
            done[done.count - 1] = last.lowerBound..<end
        } else {
            done.append(start..<end)
        }
        openStart = end
    }

    /// If a completed line starts at `start` (a line start), the index just after its LF.
    /// The buffer ends with LF, so every line has one.
    static func completedLineEnd(_ base: UnsafePointer<UInt8>, count: Int, lineStart start: Int) -> Int? {
        guard CompletedLine.isCompleted(base, lineStart: start, end: count) else { return nil }
        let mark = CompletedLine.textStart(base, from: start, end: count)
        return ByteSearch.firstIndex(of: lineFeed, in: base, from: mark + 2, to: count) + 1
    }

    /// Where a line starts whose byte order marks end at `x` (one or more marks, directly after an
    /// LF or at `begin`), or nil when `x` is not preceded by marks at a line start.
    static func lineStart(beforeMarksEndingAt x: Int, _ base: UnsafePointer<UInt8>, begin: Int) -> Int? {
        var start = x
        while start - 3 >= begin && base[start - 3] == 0xEF && base[start - 2] == 0xBB && base[start - 1] == 0xBF {
            start -= 3
        }
        guard start < x, start > begin, base[start - 1] == lineFeed else { return nil }
        return start
    }

    mutating func scan(_ base: UnsafePointer<UInt8>, count: Int) {
        var position = begin + 1
        if let end = Self.completedLineEnd(base, count: count, lineStart: begin) {
            completed(begin, end)
            position = end
        }
        let firstVectorPosition = position
        let raw = UnsafeRawPointer(base)
        // Candidates only: `x ` after an LF or after a mark's last byte. `completedLineEnd` decides.
        let letterX = SIMD16<UInt8>(repeating: CompletedLine.markLetter)
        let space = SIMD16<UInt8>(repeating: CompletedLine.markSpace)
        let lineFeed = SIMD16<UInt8>(repeating: Self.lineFeed), bomEnd = SIMD16<UInt8>(repeating: 0xBF)
        // Positions `position ..< position + 16` are tested together; the loads reach one byte before
        // and one after, so `position >= 1` and `position + 17 <= count`.
        vectors: while position + 17 <= count {
            let here = raw.loadUnaligned(fromByteOffset: position, as: SIMD16<UInt8>.self)
            let before = raw.loadUnaligned(fromByteOffset: position - 1, as: SIMD16<UInt8>.self)
            let after = raw.loadUnaligned(fromByteOffset: position + 1, as: SIMD16<UInt8>.self)
            let candidates = (here .== letterX) .& (after .== space) .& ((before .== lineFeed) .| (before .== bomEnd))
            if ByteSearch.anyLane(candidates) {
                var bits = ByteSearch.bitmask(candidates)
                while bits != 0 {
                    let x = position + bits.trailingZeroBitCount
                    bits &= bits &- 1
                    let start: Int
                    if base[x - 1] == Self.lineFeed {
                        start = x
                    } else if let markedStart = Self.lineStart(beforeMarksEndingAt: x, base, begin: begin) {
                        start = markedStart
                    } else {
                        continue
                    }
                    guard let end = Self.completedLineEnd(base, count: count, lineStart: start) else { continue }
                    completed(start, end)
                    position = end
                    continue vectors
                }
            }
            position += 16
        }
        // The last few positions one by one, from three back: a line with its own BOM whose `x` the
        // vectors did not reach may start there. Line starts already judged are judged the same again.
        // From the start of the line holding `position - 1`: marks before an `x` may begin further back.
        var lineStart = min(position, count)
        while lineStart > firstVectorPosition, base[lineStart - 1] != Self.lineFeed { lineStart -= 1 }
        position = max(firstVectorPosition, lineStart)
        while position < count {
            if base[position - 1] == Self.lineFeed, position >= openStart,
               let end = Self.completedLineEnd(base, count: count, lineStart: position) {
                completed(position, end)
                position = end
            } else {
                position += 1
            }
        }
    }

    /// The pieces: the BOM, the open runs, the completed runs; the whole file when nothing moves.
    mutating func pieces(count: Int) -> [Range<Int>] {
        if openStart < count {
            if !done.isEmpty { moved = true }
            open.append(openStart..<count)
        }
        guard moved else { return [0..<count] }
        var pieces: [Range<Int>] = []
        pieces.reserveCapacity(open.count + done.count + 1)
        if begin > 0 { pieces.append(0..<begin) }
        pieces += open
        pieces += done
        return pieces
    }
}

@inline(__always)
func asciiUppercased(_ byte: UInt8) -> UInt8 { byte &- 0x61 < 26 ? byte - 0x20 : byte }
