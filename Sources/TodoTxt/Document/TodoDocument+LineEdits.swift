// The line edits every higher-level edit ends in: replace, insert, append, remove, reorder. Each
// touches only the records it names; every other line keeps its bytes and its terminator.

extension TodoDocument {
    /// Stores `content` in the edit buffer; the record range that points at it.
    private mutating func store(_ content: some Collection<UInt8>) -> (start: Int, length: Int) {
        isPristine = false
        let offset = edits.count
        edits.append(contentsOf: content)
        return (-1 - offset, edits.count - offset)
    }

    /// Replaces the content of the line at `index`, keeping its terminator. Every other byte stays.
    ///
    /// LF bytes in `content` would split the line; they are replaced by spaces. A content ending in CR
    /// on an LF line is written with CRLF so the CR survives a re-read.
    public mutating func replaceContent(at index: Int, with content: [UInt8]) {
        let cleaned = TodoDocument.singleLine(content)
        let location = store(cleaned)
        var record = records[index]
        record.start = location.start
        record.length = location.length
        if record.terminator == .lf, cleaned.last == 0x0D { record.terminator = .crlf }
        // A last line without a terminator that becomes empty (or only byte order marks) would read
        // back as no line at all: it gets one, as in `reorder` (the line count wins over the
        // final-newline state). Found by the edits fuzz target (`x ` + a mark, reopened).
        if record.terminator == .none, index == records.count - 1,
           cleaned.count % 3 == 0, cleaned.withUnsafeBufferPointer({ TodoItem.leadingMarkLength($0) == $0.count }) {
            record.terminator = dominantTerminator
        }
        records[index] = record
    }

    /// Inserts a line at `index` (0...lineCount). The new line always ends with a terminator (the
    /// dominant one); inserting after a last line that has none first gives that line one
    /// (docs/format.md section 1: "appending to a file whose last line has no terminator first gives that
    /// line one"). No other line changes.
    public mutating func insertLine(_ content: [UInt8], at index: Int) {
        let dominant = dominantTerminator
        let cleaned = TodoDocument.singleLine(content)
        if index == records.count, let lastIndex = records.indices.last, records[lastIndex].terminator == .none {
            records[lastIndex].terminator = contentEndsWithCR(records[lastIndex]) ? .crlf : dominant
        }
        let location = store(cleaned)
        let terminator = terminatorForLine(endingIn: cleaned[...], dominant: dominant)
        records.insert(LineRecord(start: location.start, length: location.length, terminator: terminator), at: index)
    }

    /// Appends a line at the end (see `insertLine(_:at:)`). Returns its index.
    @discardableResult
    public mutating func appendLine(_ content: [UInt8]) -> Int {
        insertLine(content, at: records.count)
        return records.count - 1
    }

    /// Gives the line at `index` this terminator, so that an undo (`ChangeRecord`) puts back what
    /// an edit changed around it. `.none` is taken only by the last line (any other would join the
    /// next one).
    mutating func setTerminator(_ terminator: LineTerminator, at index: Int) {
        guard terminator != .none || index == records.count - 1 else { return }
        isPristine = false
        records[index].terminator = terminator
    }

    /// Removes the line at `index` with its terminator. No other line changes.
    public mutating func removeLine(at index: Int) {
        isPristine = false
        records.remove(at: index)
    }

    /// Removes every line whose content `shouldRemove` accepts, in one pass: the same result as
    /// `removeLine(at:)` for each of them, in O(lines) instead of O(lines²). No other line changes.
    package mutating func removeLines(where shouldRemove: (UnsafeBufferPointer<UInt8>) -> Bool) {
        isPristine = false
        records = storage.withUnsafeBufferPointer { stored in
            edits.withUnsafeBufferPointer { edited in
                records.filter { record in
                    !shouldRemove(TodoDocument.buffer(of: record, stored: stored, edited: edited))
                }
            }
        }
    }

    /// Reorders lines: `order` is a permutation of `0..<lineCount`, the new line i being old line
    /// `order[i]`. Terminators travel with their lines; afterwards every line but the last has one (a
    /// line that had none gets the dominant one) and the file ends with a terminator iff it did before,
    /// with one exception: an empty line moved to the end keeps a terminator, because an empty last
    /// line without one would vanish (a file's line count wins over its final-newline state).
    ///
    /// Precondition: `order` is a permutation of the line indices.
    public mutating func reorder(_ order: [Int]) {
        precondition(order.count == records.count, "reorder needs a permutation of every line")
        isPristine = false
        let dominant = dominantTerminator
        let endedWithTerminator = endsWithTerminator
        var reordered = order.map { records[$0] }
        for index in reordered.indices.dropLast() where reordered[index].terminator == .none {
            reordered[index].terminator = contentEndsWithCR(reordered[index]) ? .crlf : dominant
        }
        if let lastIndex = reordered.indices.last {
            if !endedWithTerminator && reordered[lastIndex].length > 0 {
                reordered[lastIndex].terminator = .none
            } else if reordered[lastIndex].terminator == .none {
                reordered[lastIndex].terminator = contentEndsWithCR(reordered[lastIndex]) ? .crlf : dominant
            }
        }
        records = reordered
    }

    /// Drops bytes no line refers to any more (after many edits). Rendering is unchanged.
    public mutating func compact() {
        var fresh = TodoDocument(bytes: rendered())
        swap(&fresh, &self)
    }

    /// `content` with every LF replaced by a space (a line's content can never hold one).
    static func singleLine(_ content: [UInt8]) -> [UInt8] {
        guard content.contains(0x0A) else { return content }
        return content.map { $0 == 0x0A ? 0x20 : $0 }
    }
}
