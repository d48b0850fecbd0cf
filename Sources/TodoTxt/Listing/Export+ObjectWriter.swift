/// The export's fast path: one line's JSON object (`TodoDocument.jsonObject(for:line:)`'s bytes)
/// written straight from the line's bytes into memory the caller has sized, with no String, no
/// array and no bounds or capacity test per byte.
///
/// Per line: one header parse, one field scan (into scratch the caller reuses), and each JSON
/// string copied eight bytes at a time while none of them needs an escape. Used for a line that is
/// all ASCII, where equal names are equal bytes; `TodoDocument.exportJSONLines` sends any other
/// line through the String path, where Unicode equality applies.
struct JSONObjectWriter {
    /// Where the next byte goes.
    var out: UnsafeMutablePointer<UInt8>

    /// The most bytes one line of `length` content bytes exports to, its LF included, on either
    /// path: each content byte appears in at most five strings (text, body, one field name, key or
    /// value, the uid, and an `after:` value), each byte at most six bytes escaped (`\u00xx`; an invalid byte becomes
    /// U+FFFD, three), every field adds at most a few bytes of punctuation, and the fixed keys fit
    /// the constant.
    static func bound(_ length: Int) -> Int { 40 * length + 512 }

    @inline(__always) mutating func byte(_ value: UInt8) {
        out.pointee = value
        out += 1
    }

    @inline(__always) mutating func raw(_ text: StaticString) {
        let count = text.utf8CodeUnitCount
        out.update(from: text.utf8Start, count: count)
        out += count
    }

    @inline(__always) mutating func copy(_ source: UnsafePointer<UInt8>, _ count: Int) {
        out.update(from: source, count: count)
        out += count
    }

    /// Writes a non-negative integer in decimal, as `String(number)` spells it.
    mutating func decimal(_ number: Int) {
        var digits = 1
        var power = 10
        while digits < 19 && number >= power {
            digits += 1
            power &*= 10
        }
        var value = number
        var position = out + digits
        repeat {
            position -= 1
            position.pointee = 0x30 &+ UInt8(truncatingIfNeeded: value % 10)
            value /= 10
        } while value > 0
        out += digits
    }

    /// For eight bytes loaded little-endian: the high bit of each lane whose byte needs an escape in
    /// a JSON string (below 0x20, `"` or `\`), exact for the lowest such lane (a borrow can only
    /// mark lanes above a marked one), zero when none does. Bytes from 0x80 up are never marked.
    @inline(__always)
    static func escapeLanes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- 0x20 &* ones) & ~word
        let quote = word ^ (0x22 &* ones), backslash = word ^ (0x5C &* ones)
        let quotes = (quote &- ones) & ~quote, backslashes = (backslash &- ones) & ~backslash
        return (control | quotes | backslashes) & highs
    }

    /// Writes `line[from..<to]` (ASCII) as a JSON string, escaped exactly as `JSONWriter.string`
    /// escapes it: `\"`, `\\`, `\n`, `\r`, `\t`, `\u00xx` for the other controls below 0x20.
    /// `readable`: how many bytes from `line` may be loaded (at least `to`), so that eight bytes can
    /// be read at a time past the string's end; lanes past `to` are loaded and stored, never kept.
    mutating func string(_ line: UnsafePointer<UInt8>, readable: Int, _ from: Int, _ to: Int) {
        byte(0x22)
        stringContent(line, readable: readable, from, to)
        byte(0x22)
    }

    /// `string`'s bytes between its quotes. Each byte's escape depends on that byte alone, so the
    /// content of `from..<to` is the content of `from..<middle` followed by that of `middle..<to`.
    mutating func stringContent(_ line: UnsafePointer<UInt8>, readable: Int, _ from: Int, _ to: Int) {
        var index = from
        while index < to {
            if index + 8 <= readable {
                let word = UInt64(littleEndian: UnsafeRawPointer(line + index).loadUnaligned(as: UInt64.self))
                // Stored whole: what follows the bytes kept is overwritten next.
                UnsafeMutableRawPointer(out).storeBytes(of: word.littleEndian, as: UInt64.self)
                let lanes = JSONObjectWriter.escapeLanes(word)
                let clean = Swift.min(lanes == 0 ? 8 : lanes.trailingZeroBitCount >> 3, to - index)
                out += clean
                index += clean
                if clean == 8 || index == to { continue }
            }
            let value = line[index]
            index += 1
            switch value {
            case 0x22: byte(0x5C); byte(0x22)
            case 0x5C: byte(0x5C); byte(0x5C)
            case 0x0A: byte(0x5C); byte(0x6E)
            case 0x0D: byte(0x5C); byte(0x72)
            case 0x09: byte(0x5C); byte(0x74)
            case 0..<0x20:
                raw("\\u00")
                byte(JSONObjectWriter.hexDigit(value >> 4))
                byte(JSONObjectWriter.hexDigit(value & 0xF))
            default: byte(value)
            }
        }
    }

    @inline(__always) static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 &+ value : 0x57 &+ value }

    /// Whether the byte ranges `a` and `b` of `line` hold the same bytes.
    @inline(__always)
    static func same(_ line: UnsafePointer<UInt8>, _ a: Range<Int>, _ b: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        var offset = 0
        while offset < a.count {
            if line[a.lowerBound + offset] != line[b.lowerBound + offset] { return false }
            offset += 1
        }
        return true
    }

    /// Writes the JSON object of an all-ASCII line (no LF). Invariant: the bytes of
    /// `TodoDocument.jsonObject(for:line:)` for it (ExportStreamingTests). Projects and contexts
    /// are deduplicated by bytes, which for ASCII is String equality; tags are grouped by key in
    /// the order keys first appear, values in line order. `fields` is the caller's scratch.
    /// `readable` (at least `line.count`): how many bytes from the line's start may be loaded.
    /// `fields`: scratch for at least `line.count / 2 + 1` fields (a field is at least two bytes
    /// and words are apart).
    mutating func object(_ line: UnsafeBufferPointer<UInt8>, readable: Int, number: Int,
                         fields scratch: UnsafeMutablePointer<BodyFieldRange>, openUIDs: Set<String> = []) {
        guard let base = line.baseAddress else {
            raw("{\"line\":")
            decimal(number)
            raw(",\"text\":\"\",\"is_task\":false,\"completed\":false,\"priority\":null,\"completion_date\":null,\"creation_date\":null,\"body\":\"\",\"projects\":[],\"contexts\":[],\"tags\":{},\"uid\":null,\"due\":null,\"threshold\":null,\"effective_priority\":null,\"after\":[],\"blocked\":false,\"spent\":null}")
            return
        }
        let header = TodoItem.parseHeader(line)
        raw("{\"line\":")
        decimal(number)
        raw(",\"text\":\"")
        // The body is the text's tail, so its escaped bytes are those of the text from `bodyOffset`
        // on: written once, copied for `body` below.
        let bodyOffset = header.isBlank ? line.count : header.bodyOffset
        stringContent(base, readable: readable, 0, bodyOffset)
        let escapedBody = out
        stringContent(base, readable: readable, bodyOffset, line.count)
        let escapedBodyCount = out - escapedBody
        byte(0x22)
        raw(header.isBlank ? ",\"is_task\":false,\"completed\":" : ",\"is_task\":true,\"completed\":")
        raw(header.isCompleted ? "true,\"priority\":" : "false,\"priority\":")
        if let priority = header.priority {
            byte(0x22); byte(priority.letter); byte(0x22)
        } else {
            raw("null")
        }
        // A date's description is the ten bytes it was parsed from (four, two and two digits).
        raw(",\"completion_date\":")
        date(base, header.completionDate == nil ? nil : header.completionDateOffset)
        raw(",\"creation_date\":")
        date(base, header.creationDate == nil ? nil : header.creationDateOffset)
        raw(",\"body\":\"")
        copy(UnsafePointer(escapedBody), escapedBodyCount)
        byte(0x22)
        var count = 0
        if !header.isBlank {
            TodoItem.scanFields(in: line, from: header.bodyOffset) { field in
                (scratch + count).initialize(to: field)
                count += 1
            }
        }
        let fields = UnsafeBufferPointer(start: scratch, count: count)
        names(base, readable: readable, fields, .project, key: ",\"projects\":[")
        names(base, readable: readable, fields, .context, key: ",\"contexts\":[")
        tags(base, readable: readable, fields)
        raw("},\"uid\":")
        uid(base, readable: readable, fields)
        queryFields(base, fields, priority: header.priority, isCompleted: header.isCompleted)
        dependencyFields(base, readable: readable, fields, isTask: !header.isBlank, openUIDs: openUIDs)
        spent(base, fields)
        byte(0x7D)
    }

    /// `JSONWriter.writeQueryFields(QueryFields(item))`'s bytes from the scanned fields: the first
    /// `due:` and `t:` tags' values when they are valid dates, the header's priority or a completed
    /// task's kept `pri:` (docs/format.md section 7).
    mutating func queryFields(_ base: UnsafePointer<UInt8>, _ fields: UnsafeBufferPointer<BodyFieldRange>,
                              priority: Priority?, isCompleted: Bool) {
        var due: Range<Int>?, threshold: Range<Int>?, kept: Range<Int>?
        func named(_ field: BodyFieldRange, _ key: StaticString) -> Bool {
            field.nameRange.count == key.utf8CodeUnitCount
                && memcmpBytes(base + field.nameRange.lowerBound, key.utf8Start, key.utf8CodeUnitCount)
        }
        for field in fields where field.kind == .tag {
            if due == nil, named(field, "due") { due = field.valueRange }
            else if threshold == nil, named(field, "t") { threshold = field.valueRange }
            else if kept == nil, named(field, "pri") { kept = field.valueRange }
        }
        func validDate(_ range: Range<Int>?) -> Int? {
            guard let range, TodoDate(bytes: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)) != nil else { return nil }
            return range.lowerBound
        }
        raw(",\"due\":")
        date(base, validDate(due))
        raw(",\"threshold\":")
        date(base, validDate(threshold))
        raw(",\"effective_priority\":")
        var letter = priority?.letter
        if letter == nil, isCompleted, let kept, kept.count == 1, let keptPriority = Priority(letter: base[kept.lowerBound]) {
            letter = keptPriority.letter
        }
        if let letter { byte(0x22); byte(letter); byte(0x22) } else { raw("null") }
    }

    /// Whether `count` bytes at `left` equal those at `right`.
    private func memcmpBytes(_ left: UnsafePointer<UInt8>, _ right: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        for index in 0..<count where left[index] != right[index] { return false }
        return true
    }

    mutating func date(_ base: UnsafePointer<UInt8>, _ offset: Int?) {
        guard let offset else { raw("null"); return }
        byte(0x22)
        copy(base + offset, 10)
        byte(0x22)
    }

    /// `key` then the distinct names of the fields of `kind`, in first-occurrence order, and `]`.
    mutating func names(_ base: UnsafePointer<UInt8>, readable: Int, _ fields: UnsafeBufferPointer<BodyFieldRange>,
                        _ kind: BodyFieldRange.Kind, key: StaticString) {
        raw(key)
        var first = true
        for position in 0..<fields.count where fields[position].kind == kind {
            let name = fields[position].nameRange
            var repeated = false
            for earlier in 0..<position where fields[earlier].kind == kind && JSONObjectWriter.same(base, fields[earlier].nameRange, name) {
                repeated = true
                break
            }
            if repeated { continue }
            if !first { byte(0x2C) }
            first = false
            string(base, readable: readable, name.lowerBound, name.upperBound)
        }
        byte(0x5D)
    }

    /// `,"tags":{` and each key (first-occurrence order) with all its values in line order.
    mutating func tags(_ base: UnsafePointer<UInt8>, readable: Int, _ fields: UnsafeBufferPointer<BodyFieldRange>) {
        raw(",\"tags\":{")
        var firstKey = true
        for position in 0..<fields.count where fields[position].kind == .tag {
            let key = fields[position].nameRange
            var seen = false
            for earlier in 0..<position where fields[earlier].kind == .tag && JSONObjectWriter.same(base, fields[earlier].nameRange, key) {
                seen = true
                break
            }
            if seen { continue }
            if !firstKey { byte(0x2C) }
            firstKey = false
            string(base, readable: readable, key.lowerBound, key.upperBound)
            raw(":[")
            var firstValue = true
            for other in position..<fields.count where fields[other].kind == .tag && JSONObjectWriter.same(base, fields[other].nameRange, key) {
                if !firstValue { byte(0x2C) }
                firstValue = false
                string(base, readable: readable, fields[other].valueRange.lowerBound, fields[other].valueRange.upperBound)
            }
            byte(0x5D)
        }
    }

    /// `TodoItem.uidRange` from the scanned fields: the first `uid:` tag's value, else the first
    /// `uuid:` tag's (a word is one of those tags exactly when its key is `uid` or `uuid`), or `null`.
    mutating func uid(_ base: UnsafePointer<UInt8>, readable: Int, _ fields: UnsafeBufferPointer<BodyFieldRange>) {
        var uuid: Range<Int>?
        for field in fields where field.kind == .tag {
            let key = field.nameRange
            guard key.count == 3 || key.count == 4, base[key.lowerBound] == 0x75 else { continue }  // u
            let rest = key.lowerBound + key.count - 3
            guard base[rest] == 0x75 || key.count == 3, base[rest + 1] == 0x69, base[rest + 2] == 0x64 else { continue }  // (u)id
            if key.count == 3 {
                string(base, readable: readable, field.valueRange.lowerBound, field.valueRange.upperBound)
                return
            }
            if uuid == nil { uuid = field.valueRange }
        }
        if let uuid { string(base, readable: readable, uuid.lowerBound, uuid.upperBound) } else { raw("null") }
    }
}
