/// The fields of a task that merging compares and merges one by one (docs/sync.md section 1, "Field merge").
///
/// A task line is seen as seven independent fields:
/// - **completion**: done or open, with the completion date (one field: both sides completing on
///   different days is a conflict);
/// - **creation date**;
/// - **priority**: the header `(P)`, or on a completed line without one, the first `pri:` tag when it
///   holds a valid letter (where `todo` keeps the priority of a done task, docs/format.md section 3);
/// - **tags**: key → every value in order, each key a field of its own (the `pri:` value counted as
///   the priority above is not also a tag);
/// - **projects** and **contexts**: sets of names, merged element by element (never a conflict);
/// - **description**: every other word of the body (not a project, context or tag), joined by single
///   spaces. Spacing and the position of tags among the words are therefore not part of any field:
///   a change to them alone is never a conflict, and the merged line keeps the carrier's layout.
struct MergeFields: Equatable {
    struct Completion: Equatable {
        var done: Bool
        var date: TodoDate?
    }

    var completion: Completion
    var creationDate: TodoDate?
    var priority: Priority?
    var tags: [String: [String]]
    var projects: Set<String>
    var contexts: Set<String>
    var description: [UInt8]

    /// Reads the fields of `item` in one scan of its body.
    init(_ item: TodoItem) {
        completion = Completion(done: item.isCompleted, date: item.completionDate)
        creationDate = item.creationDate
        var tags: [String: [String]] = [:]
        var projects: Set<String> = []
        var contexts: Set<String> = []
        var description: [UInt8] = []
        var priorityFromTag: Priority?
        var lookForPriorityTag = item.isCompleted && item.priority == nil
        item.content.withUnsafeBufferPointer { line in
            TodoItem.forEachWord(in: line, from: item.bodyOffset) { start, end in
                let first = line[start]
                if (first == 0x2B || first == 0x40) && end - start > 1 {
                    let name = lossyString(UnsafeBufferPointer(rebasing: line[(start + 1)..<end]))
                    if first == 0x2B { projects.insert(name) } else { contexts.insert(name) }
                    return
                }
                if let colon = TodoItem.tagColon(line, start, end) {
                    let key = lossyString(UnsafeBufferPointer(rebasing: line[start..<colon]))
                    let value = lossyString(UnsafeBufferPointer(rebasing: line[(colon + 1)..<end]))
                    if lookForPriorityTag && key == "pri" {
                        lookForPriorityTag = false
                        if let priority = Priority(value) {
                            priorityFromTag = priority
                            return
                        }
                    }
                    tags[key, default: []].append(value)
                    return
                }
                if !description.isEmpty { description.append(0x20) }
                description.append(contentsOf: UnsafeBufferPointer(rebasing: line[start..<end]))
            }
        }
        priority = item.priority ?? priorityFromTag
        self.tags = tags
        self.projects = projects
        self.contexts = contexts
        self.description = description
    }
}

/// The result of merging one field: a value, or a difference the rules cannot settle.
enum FieldPick<Value> {
    case value(Value)
    case unresolved
}

extension MergeFields {
    /// Three-way pick: the side that changed wins; both changing to the same value agree.
    static func pick<Value: Equatable>(base: Value, ours: Value, theirs: Value) -> FieldPick<Value> {
        if ours == theirs || theirs == base { return .value(ours) }
        if ours == base { return .value(theirs) }
        return .unresolved
    }

    /// Three-way set merge: an element of BASE stays only if both kept it; a new one is added if
    /// either side added it. Never unresolved.
    static func mergeSet(base: Set<String>, ours: Set<String>, theirs: Set<String>) -> Set<String> {
        ours.intersection(theirs).union(ours.subtracting(base)).union(theirs.subtracting(base))
    }

    /// The three-way merge of every field. `unresolved` lists the fields both sides changed
    /// differently (empty when the merge is clean); `target` then holds OURS' value for them.
    static func threeWay(base: MergeFields, ours: MergeFields, theirs: MergeFields)
        -> (target: MergeFields, unresolved: [MergeField]) {
        var target = ours
        var unresolved: [MergeField] = []
        func settle<Value: Equatable>(_ field: MergeField, _ path: WritableKeyPath<MergeFields, Value>) {
            switch pick(base: base[keyPath: path], ours: ours[keyPath: path], theirs: theirs[keyPath: path]) {
            case .value(let value): target[keyPath: path] = value
            case .unresolved: unresolved.append(field)
            }
        }
        settle(.completion, \.completion)
        settle(.creationDate, \.creationDate)
        settle(.priority, \.priority)
        // Most merges change no tag: then there is no key to walk.
        let tagsChanged = base.tags != ours.tags || ours.tags != theirs.tags
        let keys = tagsChanged ? Set(base.tags.keys).union(ours.tags.keys).union(theirs.tags.keys).sorted() : []
        for key in keys {
            switch pick(base: base.tags[key] ?? [], ours: ours.tags[key] ?? [], theirs: theirs.tags[key] ?? []) {
            case .value(let values): target.tags[key] = values.isEmpty ? nil : values
            case .unresolved: unresolved.append(.tag(key))
            }
        }
        target.projects = mergeSet(base: base.projects, ours: ours.projects, theirs: theirs.projects)
        target.contexts = mergeSet(base: base.contexts, ours: ours.contexts, theirs: theirs.contexts)
        settle(.description, \.description)
        return (target, unresolved)
    }

    /// Two-way merge without a base (docs/sync.md section 2). Per field: equal values stay; completed
    /// beats open; a value beats no value (a date, a priority, a tag key present on one side only);
    /// projects and contexts are united. Anything else is unresolved and takes `preferred`'s value.
    static func twoWay(preferred: MergeFields, other: MergeFields) -> (target: MergeFields, unresolved: [MergeField]) {
        var target = preferred
        var unresolved: [MergeField] = []
        if preferred.completion != other.completion {
            if preferred.completion.done == other.completion.done {
                unresolved.append(.completion)
            } else if other.completion.done {
                target.completion = other.completion
            }
        }
        func preferValue<Value: Equatable>(_ field: MergeField, _ path: WritableKeyPath<MergeFields, Value?>) {
            let mine = preferred[keyPath: path], theirs = other[keyPath: path]
            guard mine != theirs else { return }
            if mine == nil { target[keyPath: path] = theirs } else if theirs != nil { unresolved.append(field) }
        }
        preferValue(.creationDate, \.creationDate)
        preferValue(.priority, \.priority)
        for key in preferred.tags == other.tags ? [] : Set(preferred.tags.keys).union(other.tags.keys).sorted() {
            let mine = preferred.tags[key] ?? [], theirs = other.tags[key] ?? []
            guard mine != theirs else { continue }
            if mine.isEmpty { target.tags[key] = theirs } else if !theirs.isEmpty { unresolved.append(.tag(key)) }
        }
        target.projects = preferred.projects.union(other.projects)
        target.contexts = preferred.contexts.union(other.contexts)
        if preferred.description != other.description { unresolved.append(.description) }
        return (target, unresolved)
    }
}

extension TodoItem {
    /// The line rewritten, with the smallest edits, so that its merge fields equal `target`; nil when
    /// the edits cannot reach it exactly (an unusual header, a repeated `pri:` tag, …): the caller then
    /// treats the task as a conflict, so no odd line is ever produced silently.
    ///
    /// Edits, in order: completion (mark/unmark done, set the completion date), creation date,
    /// priority (`settingPriority`), each differing tag key (a single value is replaced in place,
    /// otherwise the key's words are removed and ` key:value` appended), projects and contexts
    /// (appended as ` +name`, removed word by word). The description is never edited: the caller
    /// picks as carrier a line whose description is already the target's. `own` is this line's
    /// `MergeFields`, which every caller has already read.
    func rewritten(toMatch target: MergeFields, from own: MergeFields) -> [UInt8]? {
        var line = Array(content)
        var item = self
        var fields = own
        func update(_ bytes: [UInt8]) {
            line = bytes
            item = TodoItem(line[...])
            fields = MergeFields(item)
        }
        if fields.completion != target.completion {
            if !target.completion.done {
                guard let open = item.uncompleted() else { return nil }
                update(open)
            } else if !fields.completion.done {
                update(item.markedDone(on: target.completion.date))
            } else {
                update(item.settingCompletionDate(target.completion.date))
            }
        }
        if fields.creationDate != target.creationDate {
            update(item.settingCreationDate(target.creationDate))
        }
        if fields.priority != target.priority {
            update(item.settingPriority(target.priority))
        }
        for key in fields.tags == target.tags ? [] : Set(fields.tags.keys).union(target.tags.keys).sorted() {
            let have = fields.tags[key] ?? [], want = target.tags[key] ?? []
            guard have != want else { continue }
            if want.isEmpty {
                update(item.removingTag(key))
            } else if have.count == 1 && want.count == 1 {
                update(item.settingTag(key, to: want[0]))
            } else {
                var bytes = item.removingTag(key)
                for value in want {
                    bytes = TodoItem(bytes[...]).appending(Array("\(key):\(value)".utf8))
                }
                update(bytes)
            }
        }
        for (sigil, have, want) in [(UInt8(0x2B), fields.projects, target.projects),
                                    (UInt8(0x40), fields.contexts, target.contexts)] where have != want {
            let removed = have.subtracting(want)
            if !removed.isEmpty { update(item.removingWords(sigil: sigil, names: removed)) }
            for name in want.subtracting(have).sorted() {
                update(item.appending([sigil] + Array(name.utf8)))
            }
        }
        return fields == target ? line : nil
    }

    /// A completed line with its completion date replaced, inserted after `x ` or removed.
    func settingCompletionDate(_ date: TodoDate?) -> [UInt8] {
        settingDate(date, at: completionDateOffset, insertingAt: leadingMarkLength + 2)
    }

    /// The line with its creation date replaced, removed, or inserted at the end of the header.
    func settingCreationDate(_ date: TodoDate?) -> [UInt8] {
        settingDate(date, at: creationDateOffset, insertingAt: bodyOffset)
    }

    /// The line with the date at `offset` (10 bytes and a space) replaced by `date` or removed; with
    /// no date there, `date` and a space inserted at `insertion`.
    private func settingDate(_ date: TodoDate?, at offset: Int?, insertingAt insertion: Int) -> [UInt8] {
        var bytes = Array(content)
        if let offset {
            if let date { bytes.replaceSubrange(offset..<(offset + 10), with: date.bytes) }
            else { bytes.removeSubrange(offset..<(offset + 11)) }
        } else if let date {
            bytes.insert(contentsOf: date.bytes + [0x20], at: insertion)
        }
        return bytes
    }

    /// The line without every body word `sigil + name` for a name in `names` (one adjacent space each).
    func removingWords(sigil: UInt8, names: Set<String>) -> [UInt8] {
        var spans: [Range<Int>] = []
        content.withUnsafeBufferPointer { line in
            TodoItem.forEachWord(in: line, from: bodyOffset) { start, end in
                guard line[start] == sigil, end - start > 1 else { return }
                let name = lossyString(UnsafeBufferPointer(rebasing: line[(start + 1)..<end]))
                if names.contains(name) { spans.append(removalSpan(ofWord: start..<end)) }
            }
        }
        return removing(spans)
    }
}
