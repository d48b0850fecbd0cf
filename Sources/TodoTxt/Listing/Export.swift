/// The machine-readable view of docs/format.md section 7: one JSON object per line (JSON Lines).
extension TodoDocument {
    /// Every line as a JSON object, one per output line, each ended by LF.
    ///
    /// Fields: `line`, `text`, `is_task`, `completed`, `priority`, `completion_date`,
    /// `creation_date`, `body`, `projects`, `contexts`, `tags` (key → values in order), `uid`, and
    /// the fields typed queries test (`writeQueryFields`): `due`, `threshold`, `effective_priority`.
    /// Blank lines have `is_task: false`, `completed: false`, null and empty task fields.
    public func exportJSONLines() -> [UInt8] {
        var out: [UInt8] = []
        exportJSONLines { out += $0 }
        return out
    }

    /// The same JSON Lines, handed to `emit` in pieces of about `chunkBytes` bytes (each ends with a
    /// whole line), so that a caller can write them out as they come instead of holding the whole
    /// export, which is several times the file's size. One buffer is reused for every piece.
    ///
    /// A line that is all ASCII is written straight from its bytes (`writeASCIIObject`); any other
    /// line goes through its Strings (`jsonObject`), which is where Unicode rules apply: equal
    /// projects and contexts are equal as Strings (canonical equivalence), and invalid UTF-8 becomes
    /// U+FFFD. For ASCII text both give the same bytes.
    public func exportJSONLines(chunkBytes: Int = 1 << 16, _ emit: ([UInt8]) -> Void) {
        var json = JSONWriter()
        json.bytes.reserveCapacity(chunkBytes + 4096)
        var fields: [BodyFieldRange] = []
        withLineBuffers { index, line in
            if ByteScanning.isASCII(line) {
                json.writeASCIIObject(TodoItem(content(at: index)), line, number: index + 1, fields: &fields)
            } else {
                json.bytes += TodoDocument.jsonObject(for: item(at: index), line: index + 1)
            }
            json.bytes.append(0x0A)
            if json.bytes.count >= chunkBytes {
                emit(json.bytes)
                json.bytes.removeAll(keepingCapacity: true)
            }
        }
        if !json.bytes.isEmpty { emit(json.bytes) }
    }

    static func jsonObject(for item: TodoItem, line: Int) -> [UInt8] {
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

extension JSONWriter {
    /// `TodoDocument.jsonObject(for:line:)` for a line that is all ASCII, from its bytes: no String,
    /// no array and no dictionary per line. `line` is the item's content.
    ///
    /// Invariant: for ASCII content the output equals `jsonObject`'s byte for byte (the export tests
    /// compare the two). Projects and contexts are deduplicated by bytes, which for ASCII is String
    /// equality; tags are grouped by key in the order keys first appear, values in line order.
    /// `fields` is scratch space the caller reuses from line to line.
    mutating func writeASCIIObject(_ item: TodoItem, _ line: UnsafeBufferPointer<UInt8>, number: Int,
                                   fields: inout [BodyFieldRange]) {
        bytes += JSONWriter.lineKey
        decimal(number)
        bytes += JSONWriter.textKey
        asciiString(line[...])
        bytes += item.isTask ? JSONWriter.isTaskTrue : JSONWriter.isTaskFalse
        bytes += item.isCompleted ? JSONWriter.completedTrue : JSONWriter.completedFalse
        if let priority = item.priority, priority.letter >= 0x20, priority.letter < 0x7F, priority.letter != 0x22, priority.letter != 0x5C {
            bytes += [0x22, priority.letter, 0x22]
        } else {
            optional(item.priority?.description)
        }
        bytes += JSONWriter.completionDateKey
        date(item.completionDate)
        bytes += JSONWriter.creationDateKey
        date(item.creationDate)
        bytes += JSONWriter.bodyKey
        asciiString(item.isTask ? line[item.bodyOffset...] : line[0..<0])
        fields.removeAll(keepingCapacity: true)
        item.scanFields { fields.append($0) }
        func same(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
            a.count == b.count && memoryEqual(line, a.lowerBound, b.lowerBound, a.count)
        }
        for kind in [BodyFieldRange.Kind.project, .context] {
            raw(kind == .project ? ",\"projects\":[" : ",\"contexts\":[")
            var first = true
            for (position, field) in fields.enumerated() where field.kind == kind {
                let repeated = fields[..<position].contains { $0.kind == kind && same($0.nameRange, field.nameRange) }
                if repeated { continue }
                if !first { bytes.append(0x2C) }
                first = false
                asciiString(line[field.nameRange])
            }
            bytes.append(0x5D)
        }
        raw(",\"tags\":{")
        var firstKey = true
        for (position, field) in fields.enumerated() where field.kind == .tag {
            let seen = fields[..<position].contains { $0.kind == .tag && same($0.nameRange, field.nameRange) }
            if seen { continue }
            if !firstKey { bytes.append(0x2C) }
            firstKey = false
            asciiString(line[field.nameRange])
            raw(":[")
            var firstValue = true
            for other in fields[position...] where other.kind == .tag && same(other.nameRange, field.nameRange) {
                if !firstValue { bytes.append(0x2C) }
                firstValue = false
                asciiString(line[other.valueRange])
            }
            bytes.append(0x5D)
        }
        raw("},\"uid\":")
        if let uid = item.uidRange { asciiString(line[uid]) } else { raw("null") }
        writeQueryFields(QueryFields(item, scanned: fields))
        bytes.append(0x7D)
    }

    private static let lineKey: [UInt8] = Array("{\"line\":".utf8)
    private static let textKey: [UInt8] = Array(",\"text\":".utf8)
    private static let isTaskTrue: [UInt8] = Array(",\"is_task\":true,\"completed\":".utf8)
    private static let isTaskFalse: [UInt8] = Array(",\"is_task\":false,\"completed\":".utf8)
    private static let completedTrue: [UInt8] = Array("true,\"priority\":".utf8)
    private static let completedFalse: [UInt8] = Array("false,\"priority\":".utf8)
    private static let completionDateKey: [UInt8] = Array(",\"completion_date\":".utf8)
    private static let creationDateKey: [UInt8] = Array(",\"creation_date\":".utf8)
    private static let bodyKey: [UInt8] = Array(",\"body\":".utf8)
    private static let null: [UInt8] = Array("null".utf8)

    /// Writes a non-negative integer in decimal, as `String(number)` spells it.
    mutating func decimal(_ number: Int) {
        guard number > 0 else { bytes.append(0x30); return }
        var digits: (UInt64, UInt64) = (0, 0)
        var count = 0
        var rest = number
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 && count < 16 {
                buffer[count] = UInt8(0x30 + rest % 10)
                rest /= 10
                count += 1
            }
        }
        if rest > 0 { raw(String(number)); return }
        withUnsafeBytes(of: &digits) { buffer in
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
        }
    }

    /// Writes a date as `optional(date?.description)` does: quoted `TodoDate.bytes`, or `null`.
    mutating func date(_ date: TodoDate?) {
        guard let date else { bytes += JSONWriter.null; return }
        // The digits exactly as `TodoDate.bytes` writes them.
        func put(_ value: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(UInt8(truncatingIfNeeded: 0x30 + rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        bytes.append(0x22)
        put(date.year, 4); bytes.append(0x2D)
        put(date.month, 2); bytes.append(0x2D)
        put(date.day, 2)
        bytes.append(0x22)
    }

    /// Writes ASCII bytes as a JSON string, escaped as `string(_:)` escapes them.
    mutating func asciiString(_ text: Slice<UnsafeBufferPointer<UInt8>>) {
        bytes.append(0x22)
        var runStart = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            if byte >= 0x20 && byte != 0x22 && byte != 0x5C { index += 1; continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text.base[runStart..<index]))
            switch byte {
            case 0x22: bytes += [0x5C, 0x22]
            case 0x5C: bytes += [0x5C, 0x5C]
            case 0x0A: bytes += [0x5C, 0x6E]
            case 0x0D: bytes += [0x5C, 0x72]
            case 0x09: bytes += [0x5C, 0x74]
            default: escapeControl(byte)
            }
            index += 1
            runStart = index
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text.base[runStart..<index]))
        bytes.append(0x22)
    }

    /// Whether `count` bytes of `line` at `a` and at `b` are equal.
    private func memoryEqual(_ line: UnsafeBufferPointer<UInt8>, _ a: Int, _ b: Int, _ count: Int) -> Bool {
        for offset in 0..<count where line[a + offset] != line[b + offset] { return false }
        return true
    }
}
