/// The order and grouping of a listing (`todo ls --sort KEYS --group FIELD`, docs/todo-command.md,
/// "Ordering and grouping a listing"): the tasks shown are reordered, each keeping its line number.
///
/// Unlike `SortKey` (`todo sort --by`, which rewrites the file), these keys only order what is
/// printed, so they include what a file order cannot use: `completed`, `line`, descending keys.
public struct ListingSortKey: Sendable, Hashable, CustomStringConvertible {
    /// What a key compares.
    public enum Field: String, Sendable, Hashable, CaseIterable {
        /// The first valid `due:` date, earliest first.
        case due
        /// The priority (`QueryFields.priority`: a completed task's kept `pri:` counts), A first.
        case priority
        /// The creation date, oldest first.
        case created
        /// The completion date, oldest first.
        case completed
        /// The first valid `t:` date, earliest first.
        case threshold
        /// The first `+project` as written, ASCII case-insensitively.
        case project
        /// The first `@context` as written, ASCII case-insensitively.
        case context
        /// The body (after the header), ASCII case-insensitively, bytewise.
        case text
        /// The line number.
        case line
    }

    public let field: Field
    /// `-due`: latest first. Tasks without the key stay last either way.
    public let descending: Bool

    public init(_ field: Field, descending: Bool = false) {
        self.field = field
        self.descending = descending
    }

    /// `due`, `-priority`.
    public var description: String { (descending ? "-" : "") + field.rawValue }

    /// Parses a comma-separated list such as `due,-priority`; nil when a name is unknown or the list
    /// is empty.
    public static func parseList(_ text: String) -> [ListingSortKey]? {
        var keys: [ListingSortKey] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false) {
            let descending = name.hasPrefix("-")
            guard let field = Field(rawValue: String(descending ? name.dropFirst() : name[...])) else { return nil }
            keys.append(ListingSortKey(field, descending: descending))
        }
        return keys.isEmpty ? nil : keys
    }
}

/// One listed task's sort and group values, read once from its line.
///
/// The values live in one shared object, so the sort's many copies of a record cost one reference
/// count each instead of a copy of every field.
public struct ListingRecord: Sendable {
    private final class Storage: Sendable {
        let line: Int
        let fields: QueryFields
        let content: ArraySlice<UInt8>
        let bodyOffset: Int
        let projects: [Range<Int>]
        let contexts: [Range<Int>]

        init(line: Int, fields: QueryFields, content: ArraySlice<UInt8>, bodyOffset: Int, projects: [Range<Int>],
             contexts: [Range<Int>]) {
            self.line = line
            self.fields = fields
            self.content = content
            self.bodyOffset = bodyOffset
            self.projects = projects
            self.contexts = contexts
        }
    }

    private let storage: Storage

    /// The line number the listing shows and `line` sorts by.
    public var line: Int { storage.line }
    var fields: QueryFields { storage.fields }
    /// The task's bytes.
    var content: ArraySlice<UInt8> { storage.content }
    /// The body's offset in `content`.
    var bodyOffset: Int { storage.bodyOffset }
    /// Each distinct `+project` and `@context` name, first occurrence order (indices of `content`).
    var projects: [Range<Int>] { storage.projects }
    var contexts: [Range<Int>] { storage.contexts }

    /// The record of the task `content` shown as line `line`.
    public init(_ content: ArraySlice<UInt8>, line: Int) {
        let item = TodoItem(content)
        var projects: [Range<Int>] = [], contexts: [Range<Int>] = []
        item.scanFields { field in
            let start = content.startIndex
            let name = (start + field.nameRange.lowerBound)..<(start + field.nameRange.upperBound)
            switch field.kind {
            case .project: if !projects.contains(where: { content[$0].elementsEqual(content[name]) }) { projects.append(name) }
            case .context: if !contexts.contains(where: { content[$0].elementsEqual(content[name]) }) { contexts.append(name) }
            case .tag: break
            }
        }
        storage = Storage(line: line, fields: QueryFields(item), content: content, bodyOffset: item.bodyOffset,
                          projects: projects, contexts: contexts)
    }

    /// Three-way comparison by `keys` in turn: negative when `self` comes first. Tasks without a
    /// key's value come after those with one, whichever the direction.
    public func compare(to other: ListingRecord, by keys: [ListingSortKey]) -> Int {
        for key in keys {
            let order: Int?
            switch key.field {
            case .due: order = Self.compare(fields.due, other.fields.due)
            case .priority: order = Self.compare(fields.priority, other.fields.priority)
            case .created: order = Self.compare(fields.created, other.fields.created)
            case .completed: order = Self.compare(fields.completed, other.fields.completed)
            case .threshold: order = Self.compare(fields.threshold, other.fields.threshold)
            case .project: order = Self.compare(projects.first.map { content[$0] }, other.projects.first.map { other.content[$0] })
            case .context: order = Self.compare(contexts.first.map { content[$0] }, other.contexts.first.map { other.content[$0] })
            case .text:
                order = Self.compareFolded(content[(content.startIndex + bodyOffset)...],
                                           other.content[(other.content.startIndex + other.bodyOffset)...])
            case .line: order = line < other.line ? -1 : (line > other.line ? 1 : 0)
            }
            // nil: a side lacks the value; it goes last in either direction (both: the next key).
            guard let order else {
                let missing = Self.missingLast(self, other, key)
                if missing != 0 { return missing }
                continue
            }
            if order != 0 { return key.descending ? -order : order }
        }
        return 0
    }

    /// `-1`/`1` putting the record without `key`'s value last; 0 when both lack it.
    private static func missingLast(_ lhs: ListingRecord, _ rhs: ListingRecord, _ key: ListingSortKey) -> Int {
        let left = lhs.has(key.field), right = rhs.has(key.field)
        return left == right ? 0 : (left ? -1 : 1)
    }

    private func has(_ field: ListingSortKey.Field) -> Bool {
        switch field {
        case .due: return fields.due != nil
        case .priority: return fields.priority != nil
        case .created: return fields.created != nil
        case .completed: return fields.completed != nil
        case .threshold: return fields.threshold != nil
        case .project: return !projects.isEmpty
        case .context: return !contexts.isEmpty
        case .text, .line: return true
        }
    }

    /// Both present: their order; otherwise nil (the caller puts the missing one last).
    private static func compare<T: Comparable>(_ a: T?, _ b: T?) -> Int? {
        guard let a, let b else { return nil }
        return a < b ? -1 : (b < a ? 1 : 0)
    }

    private static func compare(_ a: ArraySlice<UInt8>?, _ b: ArraySlice<UInt8>?) -> Int? {
        guard let a, let b else { return nil }
        return compareFolded(a, b)
    }

    /// ASCII case-insensitive bytewise order.
    static func compareFolded(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Int {
        let x = a.lazy.map(asciiUppercased), y = b.lazy.map(asciiUppercased)
        return x.lexicographicallyPrecedes(y) ? -1 : (y.lexicographicallyPrecedes(x) ? 1 : 0)
    }

    /// The positions of `records` ordered by `keys`, stably: records equal by every key keep their
    /// order in `records`. A permutation of `records.indices`.
    public static func order(_ records: [ListingRecord], by keys: [ListingSortKey]) -> [Int] {
        guard !keys.isEmpty else { return Array(records.indices) }
        return records.indices.sorted { lhs, rhs in
            let order = records[lhs].compare(to: records[rhs], by: keys)
            return order != 0 ? order < 0 : lhs < rhs
        }
    }
}

/// What `--group` puts a heading over (docs/todo-command.md, "Ordering and grouping a listing").
public enum ListingGroup: String, Sendable, Hashable, CaseIterable {
    case project, context, priority, due

    /// One heading and the records under it, in listing order.
    public struct Section: Sendable, Equatable {
        /// `+garden`, `@phone`, `pri:A`, `due:2026-12-05`, or `(no project)`-style for the last one.
        public let heading: [UInt8]
        /// Positions in the records given, in the order given.
        public let members: [Int]
    }

    /// The sections of `records` taken in `order` (positions into `records`): one per project
    /// (context, priority, due date) in ascending order, a task in several projects under each, then
    /// the tasks without one under `(no project)` (`(no context)`, `(no priority)`, `(no due date)`).
    /// Empty sections are left out; within a section, `order` is kept.
    public func sections(_ records: [ListingRecord], order: [Int]) -> [Section] {
        var keyed: [[UInt8]: [Int]] = [:]
        var none: [Int] = []
        for position in order {
            let keys = self.keys(records[position])
            if keys.isEmpty { none.append(position) }
            for key in keys { keyed[key, default: []].append(position) }
        }
        let headings = keyed.keys.sorted { lhs, rhs in
            let order = ListingRecord.compareFolded(lhs[...], rhs[...])
            return order != 0 ? order < 0 : lhs.lexicographicallyPrecedes(rhs)
        }
        var sections = headings.map { Section(heading: $0, members: keyed[$0] ?? []) }
        if !none.isEmpty { sections.append(Section(heading: Array(noneHeading.utf8), members: none)) }
        return sections
    }

    /// The heading of the tasks that have no value.
    public var noneHeading: String {
        switch self {
        case .project: return "(no project)"
        case .context: return "(no context)"
        case .priority: return "(no priority)"
        case .due: return "(no due date)"
        }
    }

    /// The headings a record goes under; they sort as the values do (dates and letters are ASCII
    /// of one length after their prefix).
    func keys(_ record: ListingRecord) -> [[UInt8]] {
        switch self {
        case .project: return record.projects.map { [0x2B] + record.content[$0] }
        case .context: return record.contexts.map { [0x40] + record.content[$0] }
        case .priority: return record.fields.priority.map { [Array("pri:".utf8) + [$0.letter]] } ?? []
        case .due: return record.fields.due.map { [Array("due:".utf8) + $0.bytes] } ?? []
        }
    }
}
