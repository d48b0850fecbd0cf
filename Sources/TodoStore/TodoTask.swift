/// One task of the file as a `TodoStore` lists it: a value, read from its line's bytes.
///
/// The fields are read from `rawLine` on demand, with TodoTxt's rules (docs/format.md), so a list
/// of a hundred thousand tasks costs one small value each until a field is asked for.
///
/// `id` is stable (docs/store.md, "Identity"): `uid:VALUE` for a task with a uid (its first
/// holder, when a uid is written twice), else an identity the store keeps across its own edits
/// and across changes made elsewhere that leave the task findable.
public struct TodoTask: Identifiable, Hashable, Sendable {
    public let id: String
    /// The number `todo ls` shows for the task: its line in the file, 1-based.
    public let line: Int
    /// The line's bytes, no terminator.
    let bytes: ArraySlice<UInt8>

    init(id: String, line: Int, bytes: ArraySlice<UInt8>) {
        self.id = id
        self.line = line
        self.bytes = bytes
    }

    var item: TodoItem { TodoItem(bytes) }

    /// The whole line as written in the file (header, tags and uid included).
    public var rawLine: String { String(decoding: bytes, as: UTF8.self) }
    /// What a user reads and edits: the line without its header (completion, priority, dates) and
    /// without the `uid:` word. `rename(_:to:)` with it gives the same line back.
    public var text: String { String(decoding: item.editableDescription, as: UTF8.self) }
    public var isDone: Bool { item.isCompleted }
    /// The header priority of an open task; for a done one, the priority `todo do` kept in `pri:`.
    public var priority: Priority? {
        let item = item
        return item.priority ?? (item.isCompleted ? item.keptPriority.value : nil)
    }
    /// `due:`, when it holds a date.
    public var due: TodoDate? { item.due.value }
    /// `t:` (the threshold: hidden before that day), when it holds a date.
    public var threshold: TodoDate? { item.threshold.value }
    public var creationDate: TodoDate? { item.creationDate }
    public var completionDate: TodoDate? { item.completionDate }
    /// `+project` words, without the `+`, in line order.
    public var projects: [String] { item.projects }
    /// `@context` words, without the `@`, in line order.
    public var contexts: [String] { item.contexts }
    /// Every `key:value` tag of the line in line order (`due:`, `t:`, `rec:`, `pri:`, `uid:` included).
    public var tags: [TodoTask.Tag] { item.tags.map { TodoTask.Tag(key: $0.key, value: $0.value) } }
    /// The task's uid (`uid:` or `uuid:`), when it has one.
    public var uid: String? { item.uid }

    /// One `key:value` tag.
    public struct Tag: Hashable, Sendable, Codable {
        public let key: String
        public let value: String
        public init(key: String, value: String) {
            self.key = key
            self.value = value
        }
    }
}

/// Encoded as its `id`, `line` and `rawLine`, plus the fields read from it for a reader's
/// convenience; decoding reads `id`, `line` and `rawLine` only and derives the rest, so a decoded
/// task always agrees with its line.
extension TodoTask: Codable {
    enum CodingKeys: String, CodingKey {
        case id, line, rawLine, text, isDone, priority, due, threshold, creationDate, completionDate
        case projects, contexts, tags, uid
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        line = try container.decode(Int.self, forKey: .line)
        let raw = try container.decode(String.self, forKey: .rawLine)
        bytes = Array(raw.utf8)[...]
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(line, forKey: .line)
        try container.encode(rawLine, forKey: .rawLine)
        try container.encode(text, forKey: .text)
        try container.encode(isDone, forKey: .isDone)
        try container.encodeIfPresent(priority, forKey: .priority)
        try container.encodeIfPresent(due, forKey: .due)
        try container.encodeIfPresent(threshold, forKey: .threshold)
        try container.encodeIfPresent(creationDate, forKey: .creationDate)
        try container.encodeIfPresent(completionDate, forKey: .completionDate)
        try container.encode(projects, forKey: .projects)
        try container.encode(contexts, forKey: .contexts)
        try container.encode(tags, forKey: .tags)
        try container.encodeIfPresent(uid, forKey: .uid)
    }
}
