/// The machine-readable view of docs/format.md section 7: one JSON object per line (JSON Lines).
extension TodoDocument {
    /// Every line as a JSON object, one per output line, each ended by LF.
    ///
    /// Fields: `line`, `text`, `is_task`, `completed`, `priority`, `completion_date`,
    /// `creation_date`, `body`, `projects`, `contexts`, `tags` (key → values in order), `uid`.
    /// Blank lines have `is_task: false`, `completed: false`, null and empty task fields.
    public func exportJSONLines() -> [UInt8] {
        var out: [UInt8] = []
        for index in 0..<lineCount {
            out += TodoDocument.jsonObject(for: item(at: index), line: index + 1)
            out.append(0x0A)
        }
        return out
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
    private mutating func escapeControl(_ scalar: UInt8) {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        bytes += Array("\\u00".utf8) + [hex[Int(scalar >> 4)], hex[Int(scalar & 0xF)]]
    }
}
