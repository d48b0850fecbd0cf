/// A todo file as an iCalendar object (RFC 5545): one VCALENDAR holding a VTODO per chosen task, in
/// file order (docs/todo-command.md, "Calendar feed"). Pure: "now" (DTSTAMP) is given, not read.
///
/// A task without a `uid:` gets a UID derived from its bytes (`derivedUID(key:occurrence:)`), the
/// same on every run while the task's words stay the same, so a calendar that subscribes to the feed
/// keeps it as one item; nothing is written into the todo file.
public struct ICalendarFeed: Sendable {
    /// DTSTAMP of every VTODO: when the feed was made, in seconds since 1970-01-01 00:00 UTC.
    public let stamp: Int
    /// PRODID: who made the feed (RFC 5545 section 3.7.3).
    public let productID: String

    /// A feed stamped `secondsSinceEpoch` (the caller's clock: the library reads none).
    public init(stamp secondsSinceEpoch: Int, productID: String = "-//todo//todo.txt calendar feed//EN") {
        self.stamp = secondsSinceEpoch
        self.productID = productID
    }

    /// The calendar of the lines `lines` (each line's content, no terminator) for which `includes`
    /// (given the line's index) is true; blank lines and `h:1` placeholders are never written.
    ///
    /// The derived UIDs count occurrences over every line, chosen or not, so a filter never changes
    /// a task's UID. A `uid:` held by an earlier task too gets `-2`, `-3`… so that no two VTODOs of
    /// the feed share a UID (a calendar would keep only one of them).
    public func calendar(_ lines: [ArraySlice<UInt8>], includes: (Int) -> Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(lines.reduce(200) { $0 + $1.count * 3 + 200 })
        ICalendarText.appendLine("BEGIN:VCALENDAR", to: &output)
        ICalendarText.appendLine("VERSION:2.0", to: &output)
        ICalendarText.appendLine("PRODID:" + ICalendarText.escaped(productID), to: &output)
        let dateTimeStamp = ICalendarText.dateTime(secondsSinceEpoch: stamp)
        var occurrences: [ICalendarFeed.IdentityKey: Int] = [:]
        var uidsWritten: [String: Int] = [:]
        // Each gains at most one key per line: reserved once instead of grown and rehashed.
        occurrences.reserveCapacity(lines.count)
        uidsWritten.reserveCapacity(lines.count)
        var scratch: [UInt8] = []
        for (index, line) in lines.enumerated() {
            let item = TodoItem(line)
            if item.isBlank { continue }
            let key = ICalendarFeed.identityKey(item)
            let occurrence = occurrences[IdentityKey(bytes: key), default: 0]
            occurrences[IdentityKey(bytes: key)] = occurrence + 1
            guard includes(index), !ICalendarFeed.isPlaceholder(item) else { continue }
            var todo = ICalendarTodo(item, fallbackUID: ICalendarFeed.derivedUID(key: key, occurrence: occurrence))
            let seen = uidsWritten[todo.uid, default: 0]
            uidsWritten[todo.uid] = seen + 1
            if seen > 0 { todo.uid += "-\(seen + 1)" }
            ICalendarFeed.append(todo, stamp: dateTimeStamp, to: &output, scratch: &scratch)
        }
        ICalendarText.appendLine("END:VCALENDAR", to: &output)
        return output
    }

    /// The bytes a derived UID is made from: the task's body (after the completion mark, the dates
    /// and the priority) without its `pri:` tags, words joined by one space. So completing a task,
    /// reopening it, changing its priority, moving it, or editing other lines keep its UID; changing
    /// its words (its text, a tag, a date in a tag) makes it another task for the calendar.
    static func identityKey(_ item: TodoItem) -> [UInt8] {
        var key: [UInt8] = []
        key.reserveCapacity(item.content.count)
        item.content.withUnsafeBufferPointer { line in
            TodoItem.forEachWord(in: line, from: item.bodyOffset) { start, end in
                if end - start > 4, line[start] == 0x70, line[start + 1] == 0x72, line[start + 2] == 0x69,
                   line[start + 3] == 0x3A { return }  // pri:
                if !key.isEmpty { key.append(0x20) }
                key += line[start..<end]
            }
        }
        return key
    }

    /// `todo-HHHHHHHHHHHHHHHH-N`: the FNV-1a 64-bit hash of `key` in hexadecimal, and how many
    /// earlier lines of the file have the same key (0 for the first), so equal lines differ.
    public static func derivedUID(key: [UInt8], occurrence: Int) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in key { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        var bytes: [UInt8] = Array("todo-".utf8)
        bytes.reserveCapacity(48)
        for shift in stride(from: 60, through: 0, by: -4) {
            let digit = UInt8(truncatingIfNeeded: hash >> UInt64(shift)) & 0xF
            bytes.append(digit < 10 ? 0x30 + digit : 0x57 + digit)  // lowercase, as String(_:radix:)
        }
        bytes.append(0x2D)
        bytes += String(occurrence).utf8
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `item.hidden.value == true` (an `h:1` placeholder) from the byte ranges of its fields: the
    /// first tag whose key is `h` has the value `1`. Bytes compare as those Strings do, since no
    /// other text is canonically equivalent to `h` or to `1`.
    static func isPlaceholder(_ item: TodoItem) -> Bool {
        var value: ArraySlice<UInt8>?
        let start = item.content.startIndex
        item.scanFields { field in
            guard value == nil, field.kind == .tag, field.nameRange.count == 1,
                  item.content[start + field.nameRange.lowerBound] == 0x68 else { return }  // h
            value = item.content[(start + field.valueRange.lowerBound)..<(start + field.valueRange.upperBound)]
        }
        return value?.elementsEqual([0x31]) ?? false  // 1
    }

    /// One VTODO, its properties in a fixed order. Each content line is made in `scratch` (the
    /// caller's, reused) from the value's bytes, then folded into `output`.
    static func append(_ todo: ICalendarTodo, stamp: String, to output: inout [UInt8], scratch line: inout [UInt8]) {
        func property(_ name: StaticString, _ value: () -> Void) {
            line.removeAll(keepingCapacity: true)
            line.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            value()
            ICalendarText.appendLine(bytes: line, to: &output)
        }
        func text(_ value: String) { ICalendarText.appendEscaped(value, to: &line) }
        func plain(_ value: String) { line.append(contentsOf: value.utf8) }
        func date(_ value: TodoDate) { ICalendarText.appendDate(value, to: &line) }
        ICalendarText.appendLine("BEGIN:VTODO", to: &output)
        property("UID:") { text(todo.uid) }
        property("DTSTAMP:") { plain(stamp) }
        property("SUMMARY:") { text(todo.summary) }
        if let start = todo.start { property("DTSTART;VALUE=DATE:") { date(start) } }
        if let due = todo.due { property("DUE;VALUE=DATE:") { date(due) } }
        if let priority = todo.priority { property("PRIORITY:") { plain(String(priority)) } }
        property("STATUS:") { plain(todo.isCompleted ? "COMPLETED" : "NEEDS-ACTION") }
        if let completed = todo.completionDate {
            property("COMPLETED:") { date(completed); plain("T000000Z") }
        }
        if !todo.categories.isEmpty {
            property("CATEGORIES:") {
                for (position, category) in todo.categories.enumerated() {
                    if position > 0 { line.append(0x2C) }
                    text(category)
                }
            }
        }
        if let rule = todo.recurrenceRule { property("RRULE:") { plain(rule) } }
        ICalendarText.appendLine("END:VTODO", to: &output)
    }

    /// A derived UID's key as a dictionary key: the same equality as `[UInt8]`'s, hashed as one
    /// block of bytes instead of byte by byte.
    struct IdentityKey: Hashable {
        let bytes: [UInt8]

        func hash(into hasher: inout Hasher) {
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }
}
