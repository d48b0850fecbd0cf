import TodoTxt

/// An oracle for the merge tests, shared by the unit property tests and the git end-to-end tests:
/// the merge fields of a task as sync.md defines them, read with the public API only: completion with
/// its date, creation date, priority (header, or `pri:` on a completed task), each tag key, projects,
/// contexts, and the remaining words.
public struct SyncFields: Equatable {
    public var done: Bool
    public var completionDate: TodoDate?
    public var creationDate: TodoDate?
    public var priority: Priority?
    public var tags: [String: [String]]
    public var projects: Set<String>
    public var contexts: Set<String>
    public var words: [String]

    /// The fields of one task line.
    public init(_ line: [UInt8]) {
        let item = TodoItem(line)
        done = item.isCompleted
        completionDate = item.completionDate
        creationDate = item.creationDate
        var tags = item.tags
        priority = item.priority
        if done && priority == nil, let index = tags.firstIndex(where: { $0.key == "pri" }),
           let value = Priority(tags[index].value) {
            priority = value
            tags.remove(at: index)
        }
        self.tags = Dictionary(grouping: tags, by: \.key).mapValues { $0.map(\.value) }
        projects = Set(item.projects)
        contexts = Set(item.contexts)
        let tagStarts = Set(item.tags.map(\.range.lowerBound))
        var words: [String] = []
        var offset = item.bodyOffset
        for word in item.body.split(separator: " ", omittingEmptySubsequences: false) {
            defer { offset += word.utf8.count + 1 }
            if word.isEmpty || tagStarts.contains(offset) { continue }
            if (word.hasPrefix("+") || word.hasPrefix("@")) && word.count > 1 { continue }
            words.append(String(word))
        }
        self.words = words
    }

    /// sync.md's field merge of a task both sides changed: the merged fields, or nil for a conflict.
    public static func merge(base: [UInt8], ours: [UInt8], theirs: [UInt8]) -> SyncFields? {
        let b = SyncFields(base), o = SyncFields(ours), t = SyncFields(theirs)
        var result = o
        var conflict = false
        func pick<V: Equatable>(_ path: WritableKeyPath<SyncFields, V>) {
            let vb = b[keyPath: path], vo = o[keyPath: path], vt = t[keyPath: path]
            if vo == vt || vt == vb { result[keyPath: path] = vo } else if vo == vb { result[keyPath: path] = vt } else { conflict = true }
        }
        // Completion and its date are one field.
        let cb = [b.done ? 1 : 0] + [b.completionDate?.daysSinceEpoch ?? -1]
        let co = [o.done ? 1 : 0] + [o.completionDate?.daysSinceEpoch ?? -1]
        let ct = [t.done ? 1 : 0] + [t.completionDate?.daysSinceEpoch ?? -1]
        if co != ct && ct != cb {
            if co == cb { result.done = t.done; result.completionDate = t.completionDate } else { conflict = true }
        }
        pick(\.creationDate)
        pick(\.priority)
        pick(\.words)
        var tags: [String: [String]] = [:]
        for key in Set(b.tags.keys).union(o.tags.keys).union(t.tags.keys) {
            let vb = b.tags[key] ?? [], vo = o.tags[key] ?? [], vt = t.tags[key] ?? []
            let value: [String]
            if vo == vt || vt == vb { value = vo } else if vo == vb { value = vt } else { conflict = true; continue }
            if !value.isEmpty { tags[key] = value }
        }
        result.tags = tags
        func mergeSet(_ b: Set<String>, _ o: Set<String>, _ t: Set<String>) -> Set<String> {
            o.intersection(t).union(o.subtracting(b)).union(t.subtracting(b))
        }
        result.projects = mergeSet(b.projects, o.projects, t.projects)
        result.contexts = mergeSet(b.contexts, o.contexts, t.contexts)
        return conflict ? nil : result
    }
}
