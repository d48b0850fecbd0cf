/// One task as an iCalendar VTODO (RFC 5545 section 3.6.2): the properties `todo export --format ics`
/// writes for it, read from the line once (docs/todo-command.md, "Calendar feed").
///
/// Invariant: a tag leaves the SUMMARY exactly when a property carries it. A `due:` that is not a
/// date, a `t:` after the due date, a `rec:` iCalendar cannot say: each stays in the text, so
/// nothing the line says is missing from the calendar.
public struct ICalendarTodo: Sendable, Equatable {
    /// The UID: the task's `uid:` (else `uuid:`), or the one `ICalendarFeed` derived from its bytes.
    public var uid: String
    /// The task's body without the tags carried by other properties, words joined by one space.
    public var summary: String
    /// DUE, from the first `due:` when it is a date.
    public var due: TodoDate?
    /// DTSTART, from the first `t:` when it is a date not after `due`.
    public var start: TodoDate?
    /// PRIORITY, 1 (highest) … 9 (lowest): `(A)` is 1, `(B)` 2, … `(I)` and every later letter 9.
    /// A done task's priority is its `pri:` tag (where `todo do` keeps it).
    public var priority: Int?
    /// STATUS: COMPLETED for a done task, else NEEDS-ACTION.
    public var isCompleted: Bool
    /// COMPLETED, from a done task's completion date (written as that day's 00:00 UTC).
    public var completionDate: TodoDate?
    /// CATEGORIES: the projects (`+name`), then the contexts (`@name`), sigils kept, each once.
    public var categories: [String]
    /// RRULE's value, from a strict `rec:` on an open task with a DUE or a DTSTART
    /// (`ICalendarTodo.recurrenceRule(for:)`).
    public var recurrenceRule: String?

    /// The VTODO of `item`, whose UID is `uid` when the line has none of its own.
    public init(_ item: TodoItem, fallbackUID uid: String) {
        var carried: [Range<Int>] = []
        // One pass over the body: the first tag of each key the properties read, and the categories.
        var firstTag = PropertyTags()
        var projects: [String] = [], contexts: [String] = []
        item.scanFields { field in
            let name = item.content[ICalendarTodo.shifted(field.nameRange, item)]
            switch field.kind {
            case .project:
                let text = lossyString(name)
                if !projects.contains(text) { projects.append(text) }
            case .context:
                let text = lossyString(name)
                if !contexts.contains(text) { contexts.append(text) }
            case .tag:
                firstTag.keepFirst(field, named: name)
            }
        }
        func value(_ field: BodyFieldRange) -> ArraySlice<UInt8> { item.content[ICalendarTodo.shifted(field.valueRange, item)] }

        if let own = item.uidRange, let field = (firstTag.uid.flatMap { $0.valueRange == own ? $0 : nil }
                                               ?? firstTag.uuid.flatMap { $0.valueRange == own ? $0 : nil }) {
            self.uid = lossyString(value(field))
            carried.append(field.range)
        } else {
            self.uid = uid
        }
        due = firstTag.due.flatMap { TodoDate(bytes: value($0)) }
        if due != nil, let field = firstTag.due { carried.append(field.range) }
        if let field = firstTag.t, let date = TodoDate(bytes: value(field)), due.map({ date <= $0 }) ?? true {
            start = date
            carried.append(field.range)
        }
        isCompleted = item.isCompleted
        completionDate = item.isCompleted ? item.completionDate : nil
        var priorityLetter = item.priority
        if priorityLetter == nil, item.isCompleted, let field = firstTag.pri,
           let kept = Priority(lossyString(value(field))) {
            priorityLetter = kept
            carried.append(field.range)
        }
        priority = priorityLetter.map(ICalendarTodo.priorityValue)
        recurrenceRule = nil
        if !item.isCompleted, due != nil || start != nil, let field = firstTag.rec,
           let rule = Recurrence(lossyString(value(field))).flatMap(ICalendarTodo.recurrenceRule) {
            recurrenceRule = rule
            carried.append(field.range)
        }
        categories = projects.map { "+" + $0 } + contexts.map { "@" + $0 }
        summary = ICalendarTodo.summary(of: item, without: carried)
    }

    /// The first tag of each key a property may carry (`uid`, `uuid`, `due`, `t`, `pri`, `rec`),
    /// keys compared as bytes.
    private struct PropertyTags {
        var uid: BodyFieldRange?, uuid: BodyFieldRange?, due: BodyFieldRange?
        var t: BodyFieldRange?, pri: BodyFieldRange?, rec: BodyFieldRange?

        /// Keeps `field` (a tag whose key is `name`) if its key is one of them and is the first of it.
        mutating func keepFirst(_ field: BodyFieldRange, named name: ArraySlice<UInt8>) {
            func keep(_ slot: inout BodyFieldRange?) { if slot == nil { slot = field } }
            if name.elementsEqual("uid".utf8) { keep(&uid) }
            else if name.elementsEqual("uuid".utf8) { keep(&uuid) }
            else if name.elementsEqual("due".utf8) { keep(&due) }
            else if name.elementsEqual("t".utf8) { keep(&t) }
            else if name.elementsEqual("pri".utf8) { keep(&pri) }
            else if name.elementsEqual("rec".utf8) { keep(&rec) }
        }
    }

    /// RFC 5545's PRIORITY for a todo.txt priority: A→1, B→2, … I→9, and J…Z→9 (the scale ends at 9,
    /// its lowest). 0, "undefined", is never written: a task without a priority has no PRIORITY.
    public static func priorityValue(_ priority: Priority) -> Int {
        min(Int(priority.letter) - 0x40, 9)
    }

    /// The RRULE value for a `rec:` rule, or nil where iCalendar cannot say it.
    ///
    /// Only a strict rule (`rec:+1w`) is a fixed schedule counted from the due date, as an RRULE
    /// counts from its start; a plain `rec:1w` counts from the day the task is done, which no RRULE
    /// can express. `d`/`w`/`m`/`y` become FREQ=DAILY/WEEKLY/MONTHLY/YEARLY with INTERVAL=N (INTERVAL
    /// left out when 1); `b` (business days) becomes FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR when N is 1 and
    /// nothing otherwise (every N-th working day has no RRULE).
    public static func recurrenceRule(for rule: Recurrence) -> String? {
        guard rule.isStrict else { return nil }
        let frequency: String
        switch rule.unit {
        case .day: frequency = "DAILY"
        case .week: frequency = "WEEKLY"
        case .month: frequency = "MONTHLY"
        case .year: frequency = "YEARLY"
        case .businessDay:
            return rule.count == 1 ? "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR" : nil
        }
        return rule.count == 1 ? "FREQ=" + frequency : "FREQ=\(frequency);INTERVAL=\(rule.count)"
    }

    /// `range` (relative to the line's start) as indices of `item.content`.
    private static func shifted(_ range: Range<Int>, _ item: TodoItem) -> Range<Int> {
        (range.lowerBound + item.content.startIndex)..<(range.upperBound + item.content.startIndex)
    }

    /// The body's words, minus the words at `carried` (line-relative ranges), joined by one space.
    private static func summary(of item: TodoItem, without carried: [Range<Int>]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(item.content.count)
        item.content.withUnsafeBufferPointer { line in
            TodoItem.forEachWord(in: line, from: item.bodyOffset) { start, end in
                if carried.contains(where: { $0.lowerBound == start }) { return }
                if !bytes.isEmpty { bytes.append(0x20) }
                bytes += line[start..<end]
            }
        }
        return lossyString(bytes)
    }
}
