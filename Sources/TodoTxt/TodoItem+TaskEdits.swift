/// Why an edit a user asked for cannot be made as asked. Nothing is changed when one is thrown.
public enum TaskEditError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is empty or whitespace only: it would leave an empty task.
    case blankText
    /// The line is blank: there is no task to edit.
    case notATask
    /// The text carries a `uid:` (or `uuid:`) while the task already has another identity; a task's
    /// identity never changes (docs/format.md, "Stable ids").
    case changesUID(existing: String, given: String)
    /// A priority edit on a completed task: it would reopen it (`(B) x …`) or silently change the
    /// priority it gets back when reopened.
    case completedTask

    public var description: String {
        switch self {
        case .blankText: return "the text is empty"
        case .notATask: return "the line is blank"
        case .changesUID(let existing, let given):
            return "the text gives uid \(given), but the task's uid is \(existing) and never changes"
        case .completedTask: return "the task is done; reopen it first"
        }
    }
}

/// The edits a user asks for by hand (`todo append`, `prepend`, `replace`, `pri`, `depri`), as pure
/// functions from a line to its new bytes.
///
/// Invariants, on top of those of the low-level edits (one line changed, nothing normalised):
/// - the task's identity (its first `uid:`, else `uuid:`) is kept, byte for byte, as a valid tag;
/// - what the user did not name is kept: completion, its date, the creation date, the priority (in
///   the header of an open task, as `pri:` on a completed one);
/// - blank text is refused rather than written as an empty task.
extension TodoItem {
    /// The bytes of the identity tag word (`uid:k3f9qz`), with its range relative to `content`.
    var identityWord: (range: Range<Int>, bytes: [UInt8])? {
        guard let value = uidRange else { return nil }
        let start = content.startIndex
        let keyLength = value.lowerBound >= 4
            && content[(start + value.lowerBound - 4)..<(start + value.lowerBound)].elementsEqual("uid:".utf8)
            && (value.lowerBound == 4 || content[start + value.lowerBound - 5] != 0x75) ? 4 : 5
        let range = (value.lowerBound - keyLength)..<value.upperBound
        return (range, Array(content[(start + range.lowerBound)..<(start + range.upperBound)]))
    }

    /// The identity that `text` (a fragment of a task, not a whole line) would give a task, read
    /// with the same tag grammar as a line's body.
    static func identity(inFragment text: [UInt8]) -> String? {
        // A word in front makes the parser read the whole fragment as body, never as a header.
        TodoItem([0x2D, 0x20] + text).uid
    }

    /// `text` with CR and LF made spaces, refused when blank or when it would give this task a
    /// second, different identity.
    func checkedFragment(_ text: [UInt8]) throws(TaskEditError) -> [UInt8] {
        let cleaned = TodoItem.cleanTaskText(text)
        guard !cleaned.withUnsafeBufferPointer(ByteScanning.isBlank) else { throw .blankText }
        guard isTask else { throw .notATask }
        if let existing = uid, let given = TodoItem.identity(inFragment: cleaned) {
            throw .changesUID(existing: existing, given: given)
        }
        return cleaned
    }

    /// Appends text to the task's description. When the line ends with its identity tag (as every
    /// task `todo add` wrote does), the text goes before it, so the uid stays the last word and a
    /// text starting with a sentence delimiter (`, 2 litres`) joins the description, not the uid.
    public func appendingDescription(_ text: [UInt8], joinDirectlyBefore delimiters: [UInt8] = []) throws(TaskEditError) -> [UInt8] {
        let fragment = try checkedFragment(text)
        guard let identity = identityWord, identity.range.upperBound == content.count else {
            return appending(fragment, joinDirectlyBefore: delimiters)
        }
        let start = content.startIndex
        // Everything before the identity word, without the whitespace that separated them.
        var before = identity.range.lowerBound
        while before > bodyOffset, content[start + before - 1] == 0x20 || content[start + before - 1] == 0x09 {
            before -= 1
        }
        let separator = Array(content[(start + before)..<(start + identity.range.lowerBound)])
        var out = Array(content[start..<(start + before)])
        // The header ends with its own space; a description word needs one unless the text starts
        // with a sentence delimiter.
        if before > bodyOffset, let first = fragment.first, !delimiters.contains(first) { out.append(0x20) }
        out += fragment
        out += separator.isEmpty ? [0x20] : separator
        out += identity.bytes
        return out
    }

    /// Inserts text at the start of the description, after the header.
    public func prependingDescription(_ text: [UInt8]) throws(TaskEditError) -> [UInt8] {
        prepending(try checkedFragment(text))
    }

    /// Replaces the description. What the text does not give is kept: completion and its date,
    /// the creation date, the priority (`(P)` on an open task, `pri:P` on a completed one) and the
    /// identity tag. A text may give its own header (`(B) …`, a creation date, `x DATE …`), which
    /// then replaces the old one; it may repeat the task's uid but not give another.
    public func replacingDescription(with text: [UInt8]) throws(TaskEditError) -> [UInt8] {
        var cleaned = TodoItem.cleanTaskText(text)
        guard !cleaned.withUnsafeBufferPointer(ByteScanning.isBlank) else { throw .blankText }
        guard isTask else { throw .notATask }
        // `(a) ` is upper-cased as `add` does.
        if cleaned.count >= 4, cleaned[0] == 0x28, cleaned[2] == 0x29, cleaned[3] == 0x20, cleaned[1] &- 0x61 < 26 {
            cleaned[1] -= 0x20
        }
        let replacement = TodoItem(cleaned[...])
        let given = replacement.uid
        if let existing = uid, let given, given != existing {
            throw .changesUID(existing: existing, given: given)
        }
        let savedPriority = isCompleted ? firstValue(forTag: "pri").flatMap { Priority($0) } : nil
        let oldPriority = priority ?? savedPriority
        var out = Array(content.prefix(leadingMarkLength))
        var appendSavedPriority: Priority?
        if replacement.isCompleted {
            out += replacement.content
            if replacement.priority == nil, replacement.firstValue(forTag: "pri") == nil {
                appendSavedPriority = oldPriority
            }
        } else if isCompleted {
            out += [0x78, 0x20]
            if let completionDate { out += completionDate.bytes + [0x20] }
            if let created = replacement.creationDate ?? creationDate { out += created.bytes + [0x20] }
            out += replacement.bodyBytes
            if replacement.firstValue(forTag: "pri") == nil { appendSavedPriority = replacement.priority ?? oldPriority }
        } else {
            if let kept = replacement.priority ?? priority { out += kept.headerBytes + [0x20] }
            if let created = replacement.creationDate ?? creationDate { out += created.bytes + [0x20] }
            out += replacement.bodyBytes
        }
        if let appendSavedPriority { out += Array(" pri:".utf8) + [appendSavedPriority.letter] }
        if given == nil, let identity = identityWord { out += [0x20] + identity.bytes }
        return out
    }

    /// Sets (or, with nil, removes) the priority of an open task. Refused on a completed task: a
    /// header priority there would read as reopened to other tools, and its `pri:` is what
    /// reopening restores, not something to edit blind.
    public func prioritized(_ priority: Priority?) throws(TaskEditError) -> [UInt8] {
        guard isTask else { throw .notATask }
        guard !isCompleted else { throw .completedTask }
        return settingPriority(priority)
    }
}
