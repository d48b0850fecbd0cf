/// A whole todo.txt file held losslessly: the original bytes plus a description of every line.
///
/// `TodoDocument(bytes:).rendered()` reproduces its input byte for byte, for every possible input:
/// CRLF, mixed endings, a BOM, blank lines, invalid UTF-8, NUL, a missing final newline
/// (docs/format.md section 1).
///
/// Storage is the input bytes, never changed, and an append-only buffer of edited content; each line
/// is a range of one of them plus a terminator. Editing a line appends its new bytes to the edit
/// buffer and points the line there, so untouched lines are never copied or re-encoded (not even
/// once: the input array stays shared with the caller), and sorting only permutes the line records.
///
/// Complexity: parsing is one `memchr`-style scan, O(n) in bytes, with one 16-byte record per line.
public struct TodoDocument: Sendable {

    struct LineRecord: Sendable {
        /// Offset of the line's first content byte: in `storage` when non-negative, else at
        /// `-1 - start` in `edits`.
        var start: Int
        /// Content length (terminator excluded) in 48 bits, split so the record stays 16 bytes:
        /// lines up to 256 TiB round-trip, far beyond any file that fits in memory.
        private var lengthLow: UInt32
        private var lengthHigh: UInt16
        var terminator: LineTerminator

        init(start: Int, length: Int, terminator: LineTerminator) {
            self.start = start
            lengthLow = UInt32(truncatingIfNeeded: length)
            lengthHigh = UInt16(truncatingIfNeeded: length >> 32)
            self.terminator = terminator
        }

        /// Content length, terminator excluded.
        var length: Int {
            get { Int(lengthHigh) << 32 | Int(lengthLow) }
            set {
                lengthLow = UInt32(truncatingIfNeeded: newValue)
                lengthHigh = UInt16(truncatingIfNeeded: newValue >> 32)
            }
        }
    }

    /// The bytes the document was parsed from (BOM included), shared copy-on-write with the caller
    /// and never mutated.
    var storage: [UInt8]
    /// Content written by edits; records with a negative `start` point here.
    var edits: [UInt8]
    var records: [LineRecord]
    /// True while the document is exactly as parsed (no edit, no reorder): `storage` is then the
    /// input and `rendered()` returns it as is.
    var isPristine: Bool

    /// Whether the file starts with a UTF-8 byte order mark (EF BB BF). It is not part of line 1.
    public var hasByteOrderMark: Bool

    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Whether `bytes` start with the UTF-8 byte order mark: the one test of it.
    package static func startsWithByteOrderMark(_ bytes: some Collection<UInt8>) -> Bool {
        bytes.starts(with: byteOrderMark)
    }

    /// An empty document: no BOM, no lines.
    public init() {
        storage = []
        edits = []
        records = []
        hasByteOrderMark = false
        isPristine = true
    }

    /// Splits `bytes` into lines. Never fails.
    public init(bytes: [UInt8]) {
        storage = bytes
        edits = []
        hasByteOrderMark = TodoDocument.startsWithByteOrderMark(bytes)
        records = []
        isPristine = true
        let begin = hasByteOrderMark ? 3 : 0
        records = bytes.withUnsafeBufferPointer { buffer in
            TodoDocument.splitLines(buffer, from: begin)
        }
    }

    /// Splits a UTF-8 string (convenience for tests and callers that already hold text).
    public init(_ text: String) { self.init(bytes: Array(text.utf8)) }

    static func splitLines(_ buffer: UnsafeBufferPointer<UInt8>, from begin: Int) -> [LineRecord] {
        var result: [LineRecord] = []
        guard let base = buffer.baseAddress, begin < buffer.count else { return result }
        // A rough guess (60 bytes a line) keeps reallocation rare without overshooting memory.
        result.reserveCapacity((buffer.count - begin) / 48 + 1)
        var start = begin
        let end = buffer.count
        forEachLF(base, from: begin, to: end) { newline in
            if newline > start && base[newline - 1] == 0x0D {
                result.append(LineRecord(start: start, length: newline - 1 - start, terminator: .crlf))
            } else {
                result.append(LineRecord(start: start, length: newline - start, terminator: .lf))
            }
            start = newline + 1
        }
        if start < end {
            result.append(LineRecord(start: start, length: end - start, terminator: .none))
        }
        return result
    }

    // MARK: Reading

    /// The number of lines, blank lines included. A final line without a terminator counts.
    public var lineCount: Int { records.count }

    /// Whether the file is empty (no lines; a BOM alone is still empty).
    public var isEmpty: Bool { records.isEmpty }

    /// The content bytes of the line at `index` (0-based), terminator excluded.
    ///
    /// Precondition: `index` is in `0..<lineCount`.

    public func content(at index: Int) -> ArraySlice<UInt8> { content(of: records[index]) }

    /// The content bytes a record points at, in `storage` or in `edits`.
    func content(of record: LineRecord) -> ArraySlice<UInt8> {
        if record.start >= 0 { return storage[record.start..<(record.start + record.length)] }
        let start = -1 - record.start
        return edits[start..<(start + record.length)]
    }

    /// The terminator of the line at `index` (0-based).
    public func terminator(at index: Int) -> LineTerminator { records[index].terminator }

    /// The line at `index` (0-based) parsed as a task.
    public func item(at index: Int) -> TodoItem { TodoItem(content(at: index)) }

    /// The line at `index`, decoded lossily, without terminator.
    public func text(at index: Int) -> String { lossyString(content(at: index)) }

    /// Every line parsed, in file order.
    public var items: [TodoItem] { (0..<lineCount).map(item(at:)) }

    /// Calls `body` with each line's content as a buffer, without copying (the hot path for scans).
    package func withLineBuffers(_ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        try storage.withUnsafeBufferPointer { stored in
            try edits.withUnsafeBufferPointer { edited in
                for (index, record) in records.enumerated() {
                    try body(index, TodoDocument.buffer(of: record, stored: stored, edited: edited))
                }
            }
        }
    }

    /// The content of `record` within the buffers of `storage` and `edits`.
    @inline(__always)
    static func buffer(of record: LineRecord, stored: UnsafeBufferPointer<UInt8>,
                       edited: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        if record.start >= 0 { return UnsafeBufferPointer(rebasing: stored[record.start..<(record.start + record.length)]) }
        let start = -1 - record.start
        return UnsafeBufferPointer(rebasing: edited[start..<(start + record.length)])
    }

    /// Whether the last line ends with a terminator. False for an empty document.
    public var endsWithTerminator: Bool { (records.last?.terminator ?? .none) != .none }

    /// The terminator new lines get: CRLF only if every terminated line uses CRLF; LF otherwise,
    /// and LF for a file with no terminated line.
    public var dominantTerminator: LineTerminator {
        var sawCRLF = false
        for record in records where record.terminator != .none {
            if record.terminator == .lf { return .lf }
            sawCRLF = true
        }
        return sawCRLF ? .crlf : .lf
    }

    /// The terminator a line gets when it needs one: the dominant one, except that content ending in a
    /// bare CR always gets CRLF so the CR stays content when the file is read again.
    func terminatorForLine(endingIn content: ArraySlice<UInt8>, dominant: LineTerminator) -> LineTerminator {
        content.last == 0x0D ? .crlf : dominant
    }

    /// Whether the line's content ends in a bare CR (helper for the rule above).
    func contentEndsWithCR(_ record: LineRecord) -> Bool {
        record.length > 0 && content(of: record).last == 0x0D
    }

    // MARK: Writing

    /// The file's bytes: BOM, then every line's content and terminator.
    ///
    /// For a document that was parsed and not edited, this equals the input exactly.
    ///
    /// Complexity: O(1) for a pristine document (parsed, never edited or reordered, BOM flag as read):
    /// the stored input is returned, shared copy-on-write. Otherwise one exactly sized buffer is written
    /// in one pass; lines that still sit next to each other in storage, with their terminators there
    /// as stored, are copied as one run.
    public func rendered() -> [UInt8] {
        let storedMark = TodoDocument.startsWithByteOrderMark(storage)
        if isPristine && hasByteOrderMark == storedMark { return storage }
        var total = hasByteOrderMark ? 3 : 0
        for record in records { total += record.length + record.terminator.byteCount }
        guard total > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            storage.withUnsafeBufferPointer { source in edits.withUnsafeBufferPointer { edited in
                let target = buffer.baseAddress!
                var offset = 0
                if hasByteOrderMark {
                    target[0] = 0xEF; target[1] = 0xBB; target[2] = 0xBF
                    offset = 3
                }
                // A dangling pointer is never read: every copy below has a count of 0 when its buffer is empty.
                let sourceBase = source.baseAddress ?? UnsafePointer(target)
                let stored = source.count
                // The pending run: storage[runStart..<runEnd] still to be copied.
                var runStart = 0, runEnd = 0
                for record in records {
                    let start = record.start, contentEnd = start + record.length
                    let spanEnd: Int?
                    if start < 0 {
                        spanEnd = nil
                    } else {
                        switch record.terminator {
                        case .none: spanEnd = contentEnd
                        case .lf: spanEnd = contentEnd < stored && sourceBase[contentEnd] == 0x0A ? contentEnd + 1 : nil
                        case .crlf:
                            spanEnd = contentEnd + 1 < stored && sourceBase[contentEnd] == 0x0D && sourceBase[contentEnd + 1] == 0x0A
                                ? contentEnd + 2 : nil
                        }
                    }
                    if let spanEnd {
                        if start == runEnd && runEnd > runStart {
                            runEnd = spanEnd
                        } else {
                            (target + offset).update(from: sourceBase + runStart, count: runEnd - runStart)
                            offset += runEnd - runStart
                            runStart = start
                            runEnd = spanEnd
                        }
                        continue
                    }
                    (target + offset).update(from: sourceBase + runStart, count: runEnd - runStart)
                    offset += runEnd - runStart
                    runStart = 0
                    runEnd = 0
                    let content = TodoDocument.buffer(of: record, stored: source, edited: edited)
                    if let from = content.baseAddress { (target + offset).update(from: from, count: content.count) }
                    offset += content.count
                    switch record.terminator {
                    case .none: break
                    case .lf: target[offset] = 0x0A; offset += 1
                    case .crlf: target[offset] = 0x0D; target[offset + 1] = 0x0A; offset += 2
                    }
                }
                (target + offset).update(from: sourceBase + runStart, count: runEnd - runStart)
                offset += runEnd - runStart
                initialized = offset
            } }
        }
    }
}

/// Calls `body` with the offset of every LF in `pointer[from..<to]`, in order, without importing libc
/// (the library imports nothing): one pass over the whole buffer, sixteen bytes at a time.
///
/// Each 16-byte vector is compared with LF in every lane; the lanes that match become the bits of a
/// 16-bit mask (`ByteSearch.bitmask`), visited lowest address first.
@inline(__always)
func forEachLF(_ pointer: UnsafePointer<UInt8>, from: Int, to end: Int, _ body: (Int) -> Void) {
    let raw = UnsafeRawPointer(pointer)
    let lineFeed = SIMD16<UInt8>(repeating: 0x0A)
    var index = from
    while index + 16 <= end {
        var found = ByteSearch.bitmask(raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self) .== lineFeed)
        while found != 0 {
            body(index + found.trailingZeroBitCount)
            found &= found &- 1
        }
        index += 16
    }
    while index < end {
        if pointer[index] == 0x0A { body(index) }
        index += 1
    }
}

/// Two documents are equal when they write the same bytes (a document keeps every byte it read, so
/// that is the file's identity; how each holds its edits internally does not matter).
extension TodoDocument: Equatable {
    public static func == (lhs: TodoDocument, rhs: TodoDocument) -> Bool { lhs.rendered() == rhs.rendered() }
}
