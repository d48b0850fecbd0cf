/// The edits of docs/format.md section 3, as pure functions from a line's bytes to its new bytes.
///
/// Each returns the complete new content of the one line; nothing else in the file is touched.
/// They never normalise spacing, dates or tag order of what they do not change.
///
/// One public edit per verb, on `TodoItem` (what `LiveTodoFile.edit` and the CLI hand a line to):
/// `completed(on:)`, `uncompleted()`, `prioritized(_:)`, `appendingDescription`,
/// `prependingDescription`, `replacingDescription(with:)`, `settingTag`, `removingTag`,
/// `newTaskLine`. The unchecked variants underneath them (`appending`, `prepending`,
/// `settingPriority`), the `String` forms and the `TodoDocument` forms are `package`: the merge,
/// the fuzz checks, the benchmarks and the tests use them, an app does not need a second way.
extension TodoItem {
    /// Content with the given relative byte ranges removed (ranges must not overlap).
    func removing(_ ranges: [Range<Int>]) -> [UInt8] {
        let bytes = Array(content)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var cursor = 0
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            guard range.lowerBound >= cursor else { continue }
            out.append(contentsOf: bytes[cursor..<range.lowerBound])
            cursor = range.upperBound
        }
        out.append(contentsOf: bytes[cursor...])
        return out
    }

    /// The span to delete when removing the word at `range` (relative): the word plus one space
    /// before it inside the body, else one space after it, so neighbours keep single spacing.
    func removalSpan(ofWord range: Range<Int>) -> Range<Int> {
        let bytes = content
        let base = bytes.startIndex
        if range.lowerBound > bodyOffset && bytes[base + range.lowerBound - 1] == 0x20 {
            return (range.lowerBound - 1)..<range.upperBound
        }
        if range.upperBound < bytes.count && bytes[base + range.upperBound] == 0x20 {
            return range.lowerBound..<(range.upperBound + 1)
        }
        return range
    }

    /// Marks an open task done on `date`: `x DATE ` in front, the creation date kept, a priority
    /// `(P) ` removed and ` pri:P` appended so un-completing can restore it. Never writes `x (A) …`.
    ///
    /// Returns nil for a blank line or a task that is already completed.
    public func completed(on date: TodoDate) -> [UInt8]? {
        guard isTask, !isCompleted else { return nil }
        return markedDone(on: date)
    }

    /// This line marked done, without `completed(on:)`'s checks: `x [DATE] ` in front; a leading
    /// `(P) ` moves to ` pri:P` at the end. The date is optional because a merge may need `x` alone.
    func markedDone(on date: TodoDate?) -> [UInt8] {
        let lead = leadingMarkLength
        var out: [UInt8] = Array(content.prefix(lead)) + CompletedLine.mark
        if let date { out += date.bytes + [0x20] }
        if let priority, priorityOffset == lead {
            out.append(contentsOf: content.dropFirst(lead + 4))
            out.append(contentsOf: Array(" pri:".utf8))
            out.append(priority.letter)
        } else {
            out.append(contentsOf: content.dropFirst(lead))
        }
        return out
    }

    /// Marks a completed task open again: removes `x ` and the completion date; restores `(P) ` from
    /// the first `pri:` tag and removes that tag. `completed(on:)` followed by this gives back the
    /// original line byte for byte (for a line that had no `pri:` tag of its own).
    ///
    /// A line in the foreign form `x (A) …` already carries its priority in the header; it keeps it
    /// and its `pri:` tags are left alone. Returns nil for a line that is not completed.
    public func uncompleted() -> [UInt8]? {
        guard isCompleted else { return nil }
        let lead = leadingMarkLength
        var removals: [Range<Int>] = [lead..<(lead + 2)]
        if let offset = completionDateOffset { removals.append(offset..<(offset + 11)) }
        var restored: Priority?
        if priorityOffset != lead + 2,
           let tag = tags.first(where: { $0.key == "pri" }),
           let priority = Priority(tag.value) {
            restored = priority
            var span = removalSpan(ofWord: tag.range)
            // The tag is the whole body after a kept header token (completing `(A) 2026-01-01`, whose
            // date was body text, gives `x D 2026-01-01 pri:A`): take the separator before it too.
            let removedUpTo = completionDateOffset.map { $0 + 11 } ?? (lead + 2)
            if span == tag.range, tag.range.lowerBound - 1 >= removedUpTo,
               content[content.startIndex + tag.range.lowerBound - 1] == 0x20 {
                span = (tag.range.lowerBound - 1)..<tag.range.upperBound
            }
            removals.append(span)
        }
        var rest = removing(removals)
        guard let restored else { return rest }
        rest.insert(contentsOf: restored.headerBytes + [0x20], at: lead)
        return rest
    }

    /// Sets or removes the priority. On an open task the header `(P) ` is replaced, inserted or
    /// removed; on a completed task the header priority is changed if it has one, else the `pri:` tag.
    package func settingPriority(_ priority: Priority?) -> [UInt8] {
        var bytes = Array(content)
        if let offset = priorityOffset {
            if let priority {
                bytes[offset + 1] = priority.letter
                return bytes
            }
            bytes.removeSubrange(offset..<(offset + 4))
            return bytes
        }
        if isCompleted {
            if let priority { return settingTag("pri", to: priority.description) }
            return removingTag("pri")
        }
        guard let priority else { return bytes }
        bytes.insert(contentsOf: priority.headerBytes + [0x20], at: leadingMarkLength)
        return bytes
    }

    /// Sets tag `key`: the first occurrence's value is replaced in place, else ` key:value` is appended.
    public func settingTag(_ key: String, to value: String) -> [UInt8] {
        var bytes = Array(content)
        if let tag = tags.first(where: { $0.key == key }) {
            bytes.replaceSubrange(tag.valueRange, with: Array(value.utf8))
            return bytes
        }
        if !bytes.isEmpty { bytes.append(0x20) }
        bytes.append(contentsOf: Array("\(key):\(value)".utf8))
        return bytes
    }

    /// Removes every occurrence of tag `key` with one adjacent space each.
    public func removingTag(_ key: String) -> [UInt8] {
        var spans: [Range<Int>] = []
        for tag in tags where tag.key == key {
            var span = removalSpan(ofWord: tag.range)
            if let previous = spans.last, span.lowerBound < previous.upperBound {
                // The space before was taken with the previous tag (`k:1 k:2 a`): take the one after.
                let spaceAfter = tag.range.upperBound < content.count
                    && content[content.startIndex + tag.range.upperBound] == 0x20
                span = tag.range.lowerBound..<(tag.range.upperBound + (spaceAfter ? 1 : 0))
            }
            spans.append(span)
        }
        return removing(spans)
    }

    /// Appends text after the line: with a space, or directly when `text` starts with one of
    /// `joinDirectlyBefore` (todo.sh's sentence delimiters `,.:;`).
    package func appending(_ text: [UInt8], joinDirectlyBefore delimiters: [UInt8] = []) -> [UInt8] {
        var bytes = Array(content)
        if let first = text.first, delimiters.contains(first) {
            bytes.append(contentsOf: text)
        } else {
            if !bytes.isEmpty { bytes.append(0x20) }
            bytes.append(contentsOf: text)
        }
        return bytes
    }

    /// Inserts text at the start of the body, after the header (completion mark, priority, dates).
    package func prepending(_ text: [UInt8]) -> [UInt8] {
        var bytes = Array(content)
        let insertion = text + (bodyOffset < bytes.count ? [0x20] : [])
        bytes.insert(contentsOf: insertion, at: bodyOffset)
        return bytes
    }

    /// CR and LF in user input become spaces (a task is one line).
    static func cleanTaskText(_ text: [UInt8]) -> [UInt8] {
        text.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }
    }

    /// A new task line as `todo add` writes it: CR/LF become spaces, a leading `(a)` is uppercased,
    /// the creation date goes after the priority (unless the text already has one), and ` uid:V` is
    /// appended unless the text already carries a `uid:`.
    public static func newTaskLine(_ text: [UInt8], creationDate: TodoDate?, uid: String?) -> [UInt8] {
        var bytes = cleanTaskText(text)
        if bytes.count >= 4, bytes[0] == 0x28, bytes[2] == 0x29, bytes[3] == 0x20, bytes[1] &- 0x61 < 26 {
            bytes[1] -= 0x20
        }
        let parsed = TodoItem(bytes[...])
        if let creationDate, parsed.creationDate == nil, !parsed.isCompleted {
            let insertAt = parsed.priorityOffset == 0 ? 4 : 0
            bytes.insert(contentsOf: creationDate.bytes + [0x20], at: insertAt)
        }
        if let uid, TodoItem(bytes[...]).firstValue(forTag: "uid") == nil {
            if !bytes.isEmpty { bytes.append(0x20) }
            bytes.append(contentsOf: Array("uid:\(uid)".utf8))
        }
        return bytes
    }

    /// `newTaskLine(_:creationDate:uid:)`, with the priority a new task gets when its text gives
    /// none (`TODOTXT_PRIORITY_ON_ADD`): put in front, never on a text that is already done. What
    /// `todo add` and an app's add (TodoStore) both write.
    public static func newTaskLine(_ text: [UInt8], creationDate: TodoDate?, uid: String?, priority: Priority?) -> [UInt8] {
        let line = newTaskLine(text, creationDate: creationDate, uid: uid)
        guard let priority else { return line }
        let parsed = TodoItem(line)
        guard parsed.priority == nil, !parsed.isCompleted else { return line }
        return priority.headerBytes + [0x20] + line
    }
}

/// The edits above applied to one line of a document, in place (`package`: the public path is the
/// `TodoItem` edit and `replaceContent(at:with:)`).
extension TodoDocument {
    /// Replaces line `index` with `newContent` when it differs. Returns whether anything changed.
    @discardableResult
    mutating func applyIfChanged(_ newContent: [UInt8]?, at index: Int) -> Bool {
        guard let newContent, !content(at: index).elementsEqual(newContent) else { return false }
        replaceContent(at: index, with: newContent)
        return true
    }

    /// Completes the task at `index` (see `TodoItem.completed(on:)`). Returns false if it was
    /// blank or already done.
    @discardableResult
    package mutating func complete(at index: Int, on date: TodoDate) -> Bool {
        applyIfChanged(item(at: index).completed(on: date), at: index)
    }

    /// Un-completes the task at `index` (see `TodoItem.uncompleted()`). False if it was not done.
    @discardableResult
    package mutating func uncomplete(at index: Int) -> Bool {
        applyIfChanged(item(at: index).uncompleted(), at: index)
    }

    /// Sets or removes the priority of the task at `index`.
    @discardableResult
    package mutating func setPriority(_ priority: Priority?, at index: Int) -> Bool {
        applyIfChanged(item(at: index).settingPriority(priority), at: index)
    }

    /// Sets tag `key` of the task at `index`.
    @discardableResult
    package mutating func setTag(_ key: String, to value: String, at index: Int) -> Bool {
        applyIfChanged(item(at: index).settingTag(key, to: value), at: index)
    }

    /// Removes every `key:` tag of the task at `index`.
    @discardableResult
    package mutating func removeTag(_ key: String, at index: Int) -> Bool {
        applyIfChanged(item(at: index).removingTag(key), at: index)
    }

    /// Appends text to the description of the task at `index` (`TodoItem.appendingDescription`).
    @discardableResult
    package mutating func appendText(_ text: [UInt8], at index: Int,
                                    joinDirectlyBefore delimiters: [UInt8] = []) throws(TaskEditError) -> Bool {
        applyIfChanged(try item(at: index).appendingDescription(text, joinDirectlyBefore: delimiters), at: index)
    }

    /// Prepends text to the description of the task at `index` (`TodoItem.prependingDescription`).
    @discardableResult
    package mutating func prependText(_ text: [UInt8], at index: Int) throws(TaskEditError) -> Bool {
        applyIfChanged(try item(at: index).prependingDescription(text), at: index)
    }

    /// Replaces the description of the task at `index` (`TodoItem.replacingDescription`).
    @discardableResult
    package mutating func replaceText(_ text: [UInt8], at index: Int) throws(TaskEditError) -> Bool {
        applyIfChanged(try item(at: index).replacingDescription(with: text), at: index)
    }

    /// Adds a task at the end (see `TodoItem.newTaskLine`). Returns its index.
    @discardableResult
    package mutating func addTask(_ text: [UInt8], creationDate: TodoDate?, uid: String?) -> Int {
        appendLine(TodoItem.newTaskLine(text, creationDate: creationDate, uid: uid))
    }
}
