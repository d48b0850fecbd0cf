/// What is due, and what is next: the open tasks of a file in the sections of `todo agenda`
/// (docs/todo-command.md, "The agenda"), so an app shows the same agenda as the command.
///
/// A task is on the agenda when it is open (not blank, not completed), not hidden by `h:1` and not
/// waiting for a `t:` threshold after today. Its section follows from its first `due:` value:
/// - `overdue`: before today, oldest first;
/// - `day(today)`, then `day(D)` for each of the next `days` days;
/// - `later`: after those, soonest first;
/// - `undated`: no `due:` date (none, or a value that is not a date), with a priority, by priority;
///   with `includesEverything`, the tasks without a priority follow, in file order.
/// Within a section, tasks of one day go by priority (none last), then by line.
///
/// Pure: "today" is a parameter; the tasks come as lines (`consider(_:at:)`) or as a document.
public struct Agenda: Sendable {
    /// One section, in display order.
    public enum Section: Sendable, Hashable {
        case overdue
        /// One day: today, or one of the next `days` days.
        case day(TodoDate)
        case later
        case undated
    }

    /// One task of the agenda.
    public struct Entry: Sendable, Hashable {
        /// The task's line index (line number minus one).
        public let index: Int
        /// Its due date; nil in the `undated` section.
        public let due: TodoDate?
        /// Days from today to `due` (negative: overdue); nil without a due date.
        public let daysFromToday: Int?
        public let priority: Priority?
    }

    /// A section and its tasks, never empty.
    public struct Group: Sendable, Hashable {
        public let section: Section
        public let entries: [Entry]
    }

    public let today: TodoDate
    /// How many days after today get a section of their own (`--days`, 7 by default).
    public let days: Int
    /// Whether the tasks without a due date and without a priority are listed too (`--undated`).
    public let includesEverything: Bool

    private let todayNumber: Int
    private var dated: [Entry] = []
    private var prioritized: [Entry] = []
    private var unprioritized: [Entry] = []

    /// An empty agenda seen from `today`; `days` below 0 counts as 0.
    public init(today: TodoDate, days: Int = 7, includesEverything: Bool = false) {
        self.today = today
        self.days = max(0, days)
        self.includesEverything = includesEverything
        todayNumber = today.daysSinceEpoch
    }

    /// The agenda of `document`'s lines whose index `accepts` (a listing's search terms).
    public init(document: TodoDocument, today: TodoDate, days: Int = 7, includesEverything: Bool = false,
                accepts: (Int) -> Bool = { _ in true }) {
        self.init(today: today, days: days, includesEverything: includesEverything)
        for index in 0..<document.lineCount where accepts(index) {
            consider(document.content(at: index), at: index)
        }
    }

    /// Adds the line at `index` when it belongs on the agenda. Lines must come in increasing
    /// `index` order (file order is the tie-break).
    ///
    /// Complexity: a line without `due:`, `t:` or `h:` anywhere has none of those tags (a tag's key
    /// stands right before its first colon), so it is decided from its first bytes; the others have
    /// their tags found by a vector search for `h:`, `t:` and `due:` (`QueryFields.Lazy`, the same
    /// first tags `TodoItem.scanFields` reports), with no parse of the line and no allocation for a
    /// line that is not kept.
    public mutating func consider(_ content: ArraySlice<UInt8>, at index: Int) {
        // An open line's priority is the header's first token, after the byte order marks.
        let quick = content.withUnsafeBufferPointer { line -> (skip: Bool, mayHoldTag: Bool, priority: Priority?) in
            let lead = TodoItem.leadingMarkLength(line)
            if TodoItem.isBlank(line, after: lead) || TodoItem.isCompleted(line, after: lead) { return (true, false, nil) }
            return (false, Agenda.mayHoldDateTag(line), TodoItem.priorityToken(line, at: lead))
        }
        if quick.skip { return }
        var due: TodoDate?
        if quick.mayHoldTag {
            var fields = QueryFields.Lazy(content)
            if fields.isHidden(on: today) { return }
            due = fields.date(.due)
        }
        if let due {
            let distance = due.daysSinceEpoch - todayNumber
            dated.append(Entry(index: index, due: due, daysFromToday: distance, priority: quick.priority))
        } else if let priority = quick.priority {
            prioritized.append(Entry(index: index, due: nil, daysFromToday: nil, priority: priority))
        } else if includesEverything {
            unprioritized.append(Entry(index: index, due: nil, daysFromToday: nil, priority: nil))
        }
    }

    /// Whether `line` holds `due:`, `t:` or `h:` anywhere: false proves it has none of those tags.
    static func mayHoldDateTag(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = line.baseAddress else { return false }
        var colon = ByteSearch.firstIndex(of: 0x3A, in: base, from: 0, to: line.count)
        while colon < line.count {
            if colon >= 1 {
                let before = line[colon - 1]
                if before == 0x74 || before == 0x68 { return true }  // t, h
                if before == 0x65, colon >= 3, line[colon - 3] == 0x64, line[colon - 2] == 0x75 { return true }  // due
            }
            colon = ByteSearch.firstIndex(of: 0x3A, in: base, from: colon + 1, to: line.count)
        }
        return false
    }

    /// The sections that hold tasks, in order, each sorted.
    public var groups: [Group] {
        // One integer per task sorts it: days from today, then priority (none last), then line.
        func key(_ entry: Entry, _ position: Int) -> UInt64 {
            let days = UInt64(truncatingIfNeeded: (entry.daysFromToday ?? 0) + (1 << 22)) & 0x7F_FFFF
            let priority = UInt64(entry.priority?.letter ?? 0xFF)
            return days << 41 | priority << 33 | UInt64(truncatingIfNeeded: position) & 0x1_FFFF_FFFF
        }
        func sorted(_ entries: [Entry]) -> [Entry] {
            var keys = entries.enumerated().map { key($0.element, $0.offset) }
            keys.sort()
            return keys.map { entries[Int($0 & 0x1_FFFF_FFFF)] }
        }
        var groups: [Group] = []
        var current: (section: Section, entries: [Entry])?
        for entry in sorted(dated) {
            let section = self.section(daysFromToday: entry.daysFromToday ?? 0)
            if current?.section == section {
                current?.entries.append(entry)
            } else {
                if let finished = current { groups.append(Group(section: finished.section, entries: finished.entries)) }
                current = (section, [entry])
            }
        }
        if let finished = current { groups.append(Group(section: finished.section, entries: finished.entries)) }
        let undated = sorted(prioritized) + unprioritized
        if !undated.isEmpty { groups.append(Group(section: .undated, entries: undated)) }
        return groups
    }

    /// The section of a task due `distance` days from today.
    public func section(daysFromToday distance: Int) -> Section {
        if distance < 0 { return .overdue }
        if distance > days { return .later }
        return .day(today.adding(days: distance) ?? today)
    }

    /// The section's heading: `Overdue`, `Today (Wed 2026-12-02)`, `Thu 2026-12-03`, `Later`,
    /// `No due date`.
    public func heading(_ section: Section) -> String {
        switch section {
        case .overdue: return "Overdue"
        case .day(let date) where date == today: return "Today (\(Agenda.weekdayAbbreviation(date)) \(date))"
        case .day(let date): return "\(Agenda.weekdayAbbreviation(date)) \(date)"
        case .later: return "Later"
        case .undated: return "No due date"
        }
    }

    /// How far a due date is from today: `3d overdue`, `today`, `in 2d`; nil without one.
    public static func distance(_ entry: Entry) -> String? {
        guard let days = entry.daysFromToday else { return nil }
        if days < 0 { return "\(-days)d overdue" }
        return days == 0 ? "today" : "in \(days)d"
    }

    /// `Mon` … `Sun`.
    public static func weekdayAbbreviation(_ date: TodoDate) -> String {
        ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][date.isoWeekday - 1]
    }
}
