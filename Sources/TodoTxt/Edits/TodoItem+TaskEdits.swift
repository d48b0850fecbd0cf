/// Why an edit a user asked for cannot be made as asked. Nothing is changed when one is thrown.
public enum TaskEditError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is empty or whitespace only: it would leave an empty task.
    case blankText
    /// The line is blank: there is no task to edit.
    case notATask
    /// The text carries a `uid:` (or `uuid:`) while the task already has another identity; a task's
    /// identity never changes (docs/todo-command.md, "Addressing a task").
    case changesUID(existing: String, given: String)
    /// The text repeats the task's own uid: it would add a second copy of the tag.
    case repeatsUID(String)
    /// A priority edit on a completed task: it would reopen it (`(B) x …`) or silently change the
    /// priority it gets back when reopened.
    case completedTask

    public var description: String {
        switch self {
        case .blankText: return "the text is empty"
        case .notATask: return "the line is blank"
        case .changesUID(let existing, let given):
            return "the text gives uid \(given), but the task's uid is \(existing) and never changes"
        case .repeatsUID(let uid): return "the text repeats the task's uid \(uid); leave it out"
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
    package static func identity(inFragment text: [UInt8]) -> String? {
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
            throw given == existing ? .repeatsUID(given) : .changesUID(existing: existing, given: given)
        }
        return cleaned
    }

    /// Appends text to the task's description. The words the tools keep at the end of a line stay
    /// there: the identity tag (every task `todo add` wrote ends with it) and, on a completed task,
    /// the `pri:` tag that reopening restores. So the text goes before them, and a text starting
    /// with a sentence delimiter (`, 2 litres`) joins the description, never a tag's value.
    public func appendingDescription(_ text: [UInt8], joinDirectlyBefore delimiters: [UInt8] = []) throws(TaskEditError) -> [UInt8] {
        let fragment = try checkedFragment(text)
        let start = content.startIndex
        func isSpace(_ offset: Int) -> Bool { content[start + offset] == 0x20 || content[start + offset] == 0x09 }
        var end = content.count
        while end > bodyOffset, isSpace(end - 1) { end -= 1 }
        var kept: [Range<Int>] = []
        if let identity = identityWord?.range { kept.append(identity) }
        if isCompleted { kept += tags.filter { $0.key == "pri" }.map(\.range) }
        // `cut`: where the run of kept words at the end of the line begins.
        var cut = end
        while let word = kept.first(where: { $0.upperBound == cut }) {
            cut = word.lowerBound
            while cut > bodyOffset, isSpace(cut - 1) { cut -= 1 }
        }
        guard cut < end else {
            let joins = mayJoin(fragment, toWordEndingAt: content.count, delimiters: delimiters)
            return appending(fragment, joinDirectlyBefore: joins ? delimiters : [])
        }
        let joins = mayJoin(fragment, toWordEndingAt: cut, delimiters: delimiters)
        var out = Array(content[start..<(start + cut)])
        // The header ends with its own space; a description word needs one unless the text starts
        // with a sentence delimiter that may join the word before.
        if cut > bodyOffset, !joins { out.append(0x20) }
        out += fragment
        if !isSpace(cut) { out.append(0x20) }
        out += content[(start + cut)...]
        return out
    }

    /// Whether `fragment` may be glued to what ends at `offset` (`milk` + `, 2 litres`): only when
    /// it starts with one of `delimiters` and the word it would touch, before and after gluing, is a
    /// plain word. So gluing never changes a tag's value (`due:2026-01-05,` is no date, `uid:k3f9qz,`
    /// another identity) nor makes a tag, project or context of a word that was none (`uid:` +
    /// `,`). Where it may not, the text is written as a word of its own.
    func mayJoin(_ fragment: [UInt8], toWordEndingAt offset: Int, delimiters: [UInt8]) -> Bool {
        guard let first = fragment.first, delimiters.contains(first) else { return false }
        let start = content.startIndex
        var wordStart = offset
        while wordStart > bodyOffset, content[start + wordStart - 1] != 0x20, content[start + wordStart - 1] != 0x09 {
            wordStart -= 1
        }
        // Nothing to glue to: a space (or the header's end) comes first.
        guard wordStart < offset else { return true }
        let word = Array(content[(start + wordStart)..<(start + offset)])
        let gluedPart = fragment.prefix { $0 != 0x20 && $0 != 0x09 }
        return TodoItem.isPlainWord(word) && TodoItem.isPlainWord(word + gluedPart)
    }

    /// Whether `word`, read in a task's body, is neither a tag nor a project nor a context.
    static func isPlainWord(_ word: [UInt8]) -> Bool {
        // A word in front makes the parser read `word` as body, never as a header.
        let item = TodoItem([0x2D, 0x20] + word)
        return item.projects.isEmpty && item.contexts.isEmpty && item.tags.isEmpty
    }

    /// Whether the task has a description: body text besides its identity tag. A line holding only
    /// a header (`(A) `, `x 2026-01-01`, a date) and perhaps its uid is no task a user could read.
    public var hasDescription: Bool {
        guard isTask else { return false }
        // A header token at the very end has no space after it and would read as body
        // (`x 2026-01-01`): the line is read with one space appended.
        let padded = TodoItem(Array(content) + [0x20])
        let identity = padded.identityWord?.range
        var found = false
        padded.content.withUnsafeBufferPointer { line in
            TodoItem.forEachWord(in: line, from: padded.bodyOffset) { start, end in
                if identity.map({ $0.lowerBound == start && $0.upperBound == end }) != true { found = true }
            }
        }
        return found
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
            var given = Array(replacement.content)
            // The creation date stays unless the text gives one; without a completion date in the
            // text it cannot be written (a lone date after `x` reads as the completion date).
            if replacement.creationDate == nil, replacement.completionDate != nil, let creationDate {
                given.insert(contentsOf: creationDate.bytes + [0x20], at: replacement.bodyOffset)
            }
            out += given
            if replacement.priority == nil, replacement.firstValue(forTag: "pri") == nil {
                appendSavedPriority = oldPriority
            }
        } else if isCompleted {
            out += CompletedLine.mark
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
        // `(B) ` alone would leave the task with no description.
        guard TodoItem(out).hasDescription else { throw .blankText }
        // The identity tag is kept as it was written (`uid:` stays `uid:` even when the text names
        // the same value as `uuid:`), unless the text repeats it exactly.
        if let identity = identityWord, replacement.identityWord?.bytes != identity.bytes { out += [0x20] + identity.bytes }
        return out
    }

    /// The description as a user edits it (`todo ui`'s `e`): the body, without the header and without
    /// the identity tag word, which `replacingDescription` keeps anyway; leading and trailing spaces
    /// trimmed. For a task whose identity tag ends the line, `replacingDescription(with:)` of this
    /// text gives back the same line.
    public var editableDescription: [UInt8] {
        let start = content.startIndex
        var body = Array(content[(start + bodyOffset)...])
        if let word = identityWord?.range {
            var lower = word.lowerBound - bodyOffset, upper = word.upperBound - bodyOffset
            // With one space beside it, so that taking it out of the middle leaves no double space.
            if upper < body.count, body[upper] == 0x20 { upper += 1 } else if lower > 0, body[lower - 1] == 0x20 { lower -= 1 }
            body.removeSubrange(lower..<upper)
        }
        let first = body.firstIndex { $0 != 0x20 && $0 != 0x09 } ?? body.endIndex
        let last = body.lastIndex { $0 != 0x20 && $0 != 0x09 }.map { $0 + 1 } ?? first
        return Array(body[first..<max(first, last)])
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
