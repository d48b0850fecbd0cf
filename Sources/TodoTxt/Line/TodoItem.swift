/// One line of a todo.txt file, parsed as a task (docs/format.md section 2).
///
/// A value view over the line's raw bytes: the header (completion mark, priority, dates) is parsed
/// when the item is made, cheaply, on bytes; body fields (projects, contexts, tags) are scanned on
/// demand. Parsing never fails: anything that is not header is body, verbatim.
///
/// Offsets stored here are relative to the start of `content`.
public struct TodoItem: Sendable {
    /// The line's bytes without terminator.
    public let content: ArraySlice<UInt8>
    /// Empty or whitespace only: not a task, but kept in place.
    public let isBlank: Bool
    /// The line starts with `x` and a space.
    public let isCompleted: Bool
    /// `(A)` in the header; on a completed line too (`x (A) …`, `x D1 (A) D2 …`). Not the `pri:` tag.
    public let priority: Priority?
    /// The date after `x` (or after `x (A)` when two dates follow).
    public let completionDate: TodoDate?
    /// The creation date.
    public let creationDate: TodoDate?
    /// Where the body starts, relative to `content.startIndex`.
    public let bodyOffset: Int
    /// Where each header token starts (relative), for edits that remove exactly one of them.
    let priorityOffset: Int?
    let completionDateOffset: Int?
    let creationDateOffset: Int?

    /// Parses `content` (one line, terminator excluded).
    public init(_ content: ArraySlice<UInt8>) {
        self.content = content
        let header = content.withUnsafeBufferPointer { TodoItem.parseHeader($0) }
        isBlank = header.isBlank
        isCompleted = header.isCompleted
        priority = header.priority
        completionDate = header.completionDate
        creationDate = header.creationDate
        bodyOffset = header.bodyOffset
        priorityOffset = header.priorityOffset
        completionDateOffset = header.completionDateOffset
        creationDateOffset = header.creationDateOffset
    }

    /// Parses a line given as bytes.
    public init(_ bytes: [UInt8]) { self.init(bytes[...]) }

    /// Parses a line given as text.
    public init(_ text: String) { self.init(Array(text.utf8)[...]) }

    /// A non-blank line is a task (lines starting with `#` included).
    public var isTask: Bool { !isBlank }

    /// The body bytes: the line after the header, verbatim.
    public var bodyBytes: ArraySlice<UInt8> { content[(content.startIndex + bodyOffset)...] }

    /// The body, lossily decoded.
    public var body: String { lossyString(bodyBytes) }

    /// The whole line, lossily decoded.
    public var text: String { lossyString(content) }

    struct Header {
        var isBlank = false
        var isCompleted = false
        var priority: Priority?
        var completionDate: TodoDate?
        var creationDate: TodoDate?
        var bodyOffset = 0
        var priorityOffset: Int?
        var completionDateOffset: Int?
        var creationDateOffset: Int?
    }

    /// 3 when the line starts with a UTF-8 byte order mark, else 0.
    @inline(__always)
    static func leadingMarkLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        // Every mark at the start: a line of two marks sorted to the top of a file reads back as the
        // file's mark plus a line of one, which must parse the same (found by the sort fuzz target).
        guard let base = bytes.baseAddress else { return 0 }
        return CompletedLine.textStart(base, from: 0, end: bytes.count)
    }

    /// The length of the byte order marks this line starts with (3 per mark; see `parseHeader`).
    var leadingMarkLength: Int { content.withUnsafeBufferPointer(TodoItem.leadingMarkLength) }

    /// A priority token `(X)` followed by a space at `offset`.
    @inline(__always)
    static func priorityToken(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Priority? {
        guard offset + 4 <= bytes.count, bytes[offset] == 0x28, bytes[offset + 2] == 0x29,
              bytes[offset + 3] == 0x20 else { return nil }
        return Priority(letter: bytes[offset + 1])
    }

    /// A date token `YYYY-MM-DD` followed by a space at `offset`.
    @inline(__always)
    static func dateToken(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> TodoDate? {
        guard offset + 11 <= bytes.count, bytes[offset + 10] == 0x20 else { return nil }
        return TodoDate.parse(bytes, at: offset)
    }

    /// The header grammar of docs/format.md section 2, on bytes.
    ///
    /// A line that itself starts with a byte order mark (EF BB BF: files concatenated with `cat`, a
    /// BOM-carrying line pasted in) is parsed after it, exactly like line 1 after the file's BOM. The
    /// bytes stay; only the reading is the same wherever the line sits, so sorting such a line to the
    /// top of a file (where it reads back as the file's BOM) never changes what the line means.
    static func parseHeader(_ bytes: UnsafeBufferPointer<UInt8>) -> Header {
        var header = Header()
        let lead = leadingMarkLength(bytes)
        if isBlank(bytes, after: lead) {
            header.isBlank = true
            return header
        }
        var position = lead
        // Each reads one token at `position` into the header and moves past it, if it is there.
        @inline(__always) func readPriority() {
            guard let priority = priorityToken(bytes, at: position) else { return }
            header.priority = priority
            header.priorityOffset = position
            position += 4
        }
        @inline(__always) func readCompletionDate() {
            guard let done = dateToken(bytes, at: position) else { return }
            header.completionDate = done
            header.completionDateOffset = position
            position += 11
        }
        @inline(__always) func readCreationDate() {
            guard let created = dateToken(bytes, at: position) else { return }
            header.creationDate = created
            header.creationDateOffset = position
            position += 11
        }
        if isCompleted(bytes, after: lead) {
            header.isCompleted = true
            position = lead + 2
            if priorityToken(bytes, at: position) != nil {
                // x (A) [done created | created]: one date alone is the creation date.
                readPriority()
                if dateToken(bytes, at: position + 11) != nil { readCompletionDate() }
                readCreationDate()
            } else if dateToken(bytes, at: position) != nil {
                // x [done [(A)] [created]]
                readCompletionDate()
                readPriority()
                readCreationDate()
            }
        } else {
            readPriority()
            readCreationDate()
        }
        header.bodyOffset = position
        return header
    }

    /// Whether the line is blank (a non-task) and whether it is completed, read from its first
    /// bytes only: what listing a large file needs, with exactly the rules of the full parse.
    package static func classify(_ content: ArraySlice<UInt8>) -> (isBlank: Bool, isCompleted: Bool) {
        content.withUnsafeBufferPointer { bytes in
            let lead = leadingMarkLength(bytes)
            if isBlank(bytes, after: lead) { return (true, false) }
            return (false, isCompleted(bytes, after: lead))
        }
    }

    /// Nothing but whitespace after the leading byte order marks.
    @inline(__always)
    static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>, after lead: Int) -> Bool {
        guard bytes.count == lead || ByteScanning.whitespaceLength(bytes, at: lead) > 0 else { return false }
        return ByteScanning.isBlank(UnsafeBufferPointer(rebasing: bytes[lead...]))
    }

    /// `x ` after the leading byte order marks (`CompletedLine`, the one completed-line test).
    @inline(__always)
    static func isCompleted(_ bytes: UnsafeBufferPointer<UInt8>, after lead: Int) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        return CompletedLine.hasMark(base, at: lead, end: bytes.count)
    }
}

/// Two items are equal when their lines are: every field is read from the line's bytes.
extension TodoItem: Equatable, Hashable {
    public static func == (lhs: TodoItem, rhs: TodoItem) -> Bool { lhs.content.elementsEqual(rhs.content) }
    public func hash(into hasher: inout Hasher) { hasher.combine(Array(content)) }
}
