/// The machine-readable view of docs/format.md section 7: one JSON object per line (JSON Lines).
extension TodoDocument {
    /// Every line as a JSON object, one per output line, each ended by LF.
    ///
    /// Fields: `line`, `text`, `is_task`, `completed`, `priority`, `completion_date`,
    /// `creation_date`, `body`, `projects`, `contexts`, `tags` (key → values in order), `uid`, and
    /// the fields typed queries test (`writeQueryFields`): `due`, `threshold`, `effective_priority`,
    /// then the dependency fields (`writeDependencyFields`): `after`, `blocked`; then `spent`
    /// (`writeSpent`): the first `spent:` as whole minutes, or null.
    /// Blank lines have `is_task: false`, `completed: false`, null and empty task fields.
    public func exportJSONLines() -> [UInt8] {
        var out: [UInt8] = []
        exportJSONLines { out += $0 }
        return out
    }

    /// The same JSON Lines, handed to `emit` in pieces of about `chunkBytes` bytes (each ends with a
    /// whole line), so that a caller can write them out as they come instead of holding the whole
    /// export, which is several times the file's size.
    ///
    /// A line that is all ASCII is written straight from its bytes (`JSONObjectWriter`); any other
    /// line goes through its Strings (`jsonObject`), which is where Unicode rules apply: equal
    /// projects and contexts are equal as Strings (canonical equivalence), and invalid UTF-8 becomes
    /// U+FFFD. For ASCII text both give the same bytes. Each piece is one allocation, sized for the
    /// worst case of the lines it takes (`JSONObjectWriter.bound`), so no line checks capacity.
    public func exportJSONLines(chunkBytes: Int = 1 << 16, _ emit: ([UInt8]) -> Void) {
        let export = JSONLinesExport(self)
        export.write(lines: 0..<lineCount, chunkBytes: chunkBytes, emit)
    }
}

/// The JSON Lines export of one document, ready to be written a range of lines at a time: what a
/// line's object needs from the whole file (the open uids, for `blocked`) is computed once, when it
/// is made, so ranges written apart (the CLI writes two at a time on two threads) and joined in
/// order are byte for byte `TodoDocument.exportJSONLines()`.
public struct JSONLinesExport: Sendable {
    let document: TodoDocument
    /// `TodoDocument.exportOpenUIDs()`, for every range.
    let openUIDs: Set<String>

    /// Reads what the export needs from the whole of `document`.
    public init(_ document: TodoDocument) {
        self.document = document
        openUIDs = document.exportOpenUIDs()
    }

    /// The document's number of lines.
    public var lineCount: Int { document.lineCount }

    /// Consecutive ranges of lines covering the whole document, each of at least one line and of
    /// about `bytes` content bytes (a range ends with the line that reaches `bytes`), so that
    /// each range's export takes about the same time and memory whatever the lengths of its lines.
    public func ranges(ofBytes bytes: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0, total = 0
        for (index, record) in document.records.enumerated() {
            total += record.length + 1
            if total >= bytes {
                ranges.append(start..<(index + 1))
                start = index + 1
                total = 0
            }
        }
        if start < document.records.count { ranges.append(start..<document.records.count) }
        return ranges
    }

    /// The JSON objects of the lines `lines` (clamped to the document's), numbered as in the whole
    /// document, handed to `emit` in pieces of about `chunkBytes` bytes, each ending with a whole line.
    public func write(lines: Range<Int>, chunkBytes: Int = 1 << 16, _ emit: ([UInt8]) -> Void) {
        let openUIDs = self.openUIDs
        let document = self.document
        // Field scratch for the longest line seen so far (`JSONObjectWriter.object`'s requirement).
        var fieldCapacity = 64
        var fields = UnsafeMutablePointer<BodyFieldRange>.allocate(capacity: fieldCapacity)
        defer { fields.deallocate() }
        document.storage.withUnsafeBufferPointer { stored in
            document.edits.withUnsafeBufferPointer { edited in
                document.records.withUnsafeBufferPointer { records in
                    let last = Swift.min(Swift.max(lines.upperBound, 0), records.count)
                    var index = Swift.min(Swift.max(lines.lowerBound, 0), last)
                    while index < last {
                        // Room for a piece and one more line, or for the first line alone if it needs more.
                        let capacity = Swift.max(chunkBytes + JSONObjectWriter.bound(0), JSONObjectWriter.bound(records[index].length))
                        let piece = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                            guard let start = buffer.baseAddress else { return }
                            var writer = JSONObjectWriter(out: start)
                            let end = start + capacity
                            while index < last, writer.out - start < chunkBytes {
                                let record = records[index]
                                if end - writer.out < JSONObjectWriter.bound(record.length) { break }
                                let line = TodoDocument.buffer(of: record, stored: stored, edited: edited)
                                if ByteScanning.isASCII(line) {
                                    // Up to the end of the buffer the line lies in: strings are read eight bytes at a time.
                                    let readable = record.start >= 0 ? stored.count - record.start : edited.count - (-1 - record.start)
                                    if line.count / 2 + 1 > fieldCapacity {
                                        fields.deallocate()
                                        fieldCapacity = line.count / 2 + 1
                                        fields = UnsafeMutablePointer<BodyFieldRange>.allocate(capacity: fieldCapacity)
                                    }
                                    writer.object(line, readable: readable, number: index + 1, fields: fields, openUIDs: openUIDs)
                                } else {
                                    TodoDocument.jsonObject(for: document.item(at: index), line: index + 1, openUIDs: openUIDs).withUnsafeBufferPointer {
                                        if let bytes = $0.baseAddress { writer.copy(bytes, $0.count) }
                                    }
                                }
                                writer.byte(0x0A)
                                index += 1
                            }
                            initialized = writer.out - start
                        }
                        emit(piece)
                    }
                }
            }
        }
    }
}

extension TodoDocument {
    static func jsonObject(for item: TodoItem, line: Int, openUIDs: Set<String> = []) -> [UInt8] {
        var json = JSONWriter()
        json.raw("{\"line\":\(line),\"text\":")
        json.string(item.text)
        json.raw(",\"is_task\":\(item.isTask),\"completed\":\(item.isCompleted),\"priority\":")
        json.optional(item.priority?.description)
        json.raw(",\"completion_date\":")
        json.optional(item.completionDate?.description)
        json.raw(",\"creation_date\":")
        json.optional(item.creationDate?.description)
        json.raw(",\"body\":")
        json.string(item.isTask ? item.body : "")
        let fields = item.fields
        json.raw(",\"projects\":")
        json.array(fields.projects)
        json.raw(",\"contexts\":")
        json.array(fields.contexts)
        json.raw(",\"tags\":{")
        var keys: [String] = []
        var values: [String: [String]] = [:]
        for tag in fields.tags {
            if values[tag.key] == nil { keys.append(tag.key) }
            values[tag.key, default: []].append(tag.value)
        }
        for (position, key) in keys.enumerated() {
            if position > 0 { json.raw(",") }
            json.string(key)
            json.raw(":")
            json.array(values[key] ?? [])
        }
        json.raw("},\"uid\":")
        json.optional(item.uid)
        json.writeQueryFields(QueryFields(item))
        json.writeDependencyFields(item, openUIDs: openUIDs)
        json.writeSpent(item.spentTime.value)
        json.raw("}")
        return json.bytes
    }
}

/// A minimal JSON writer: strings escaped per RFC 8259, plus the C1 controls (control characters as
/// \u00xx).
struct JSONWriter {
    var bytes: [UInt8] = []

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func optional(_ text: String?) {
        if let text { string(text) } else { raw("null") }
    }

    mutating func array(_ values: [String]) {
        bytes.append(0x5B)
        for (position, value) in values.enumerated() {
            if position > 0 { bytes.append(0x2C) }
            string(value)
        }
        bytes.append(0x5D)
    }

    /// Writes `text` as a JSON string.
    ///
    /// Escaped: `"` and `\`, LF/CR/TAB by their short forms, every other C0 control (U+0000–U+001F)
    /// and every C1 control (U+0080–U+009F) as `\u00xx` with lowercase hex, as for C0. RFC 8259 only
    /// requires the C0 ones, but raw C1 controls are invisible, a terminal may act on them (U+009B is
    /// CSI) and some consumers reject them; escaped, every control in the output is visible ASCII.
    /// Everything else is copied as UTF-8.
    mutating func string(_ text: String) {
        bytes.append(0x22)
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            switch byte {
            case 0x22: bytes += [0x5C, 0x22]
            case 0x5C: bytes += [0x5C, 0x5C]
            case 0x0A: bytes += [0x5C, 0x6E]
            case 0x0D: bytes += [0x5C, 0x72]
            case 0x09: bytes += [0x5C, 0x74]
            case 0..<0x20: escapeControl(byte)
            case 0xC2:
                // U+0080–U+00BF are C2 80–C2 BF in UTF-8 (a `String` is valid UTF-8, so a second
                // byte follows): the C1 controls are C2 80–C2 9F, and the second byte is the code point.
                guard let second = utf8.next() else { bytes.append(byte); break }
                if (0x80...0x9F).contains(second) { escapeControl(second) } else { bytes += [byte, second] }
            default: bytes.append(byte)
            }
        }
        bytes.append(0x22)
    }

    /// Appends `\u00xx` for the code point `scalar` (below U+0100), in lowercase hex.
    mutating func escapeControl(_ scalar: UInt8) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        bytes += Array("\\u00".utf8) + [hex[Int(scalar >> 4)], hex[Int(scalar & 0xF)]]
    }
}
