/// Why a task cannot be postponed (`TodoItem.postponed(by:today:movingThreshold:)`).
public enum PostponeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line is blank.
    case notATask
    /// The task is completed: its due date no longer plans anything.
    case completedTask
    /// The first value of the tag (`due`, or `t` with the threshold) is not a date: moving it is
    /// guesswork, so the task is left for the user to fix.
    case notADate(key: String, value: String)
    /// The moved date would leave years 1–9999.
    case beyondCalendar(key: String)

    public var description: String {
        switch self {
        case .notATask: return "the line is blank"
        case .completedTask: return "the task is done; reopen it first"
        case .notADate(let key, let value): return "\(key):\(value) is not a date"
        case .beyondCalendar(let key): return "the new \(key): date would fall after 9999-12-31 or before 0001-01-01"
        }
    }
}

extension TodoItem {
    /// This task with its `due:` moved by `offset` (`todo postpone`, docs/todo-command.md): the
    /// first `due:` value is replaced in place; a task without `due:` gets `due:` = today + offset,
    /// added at the end of the description (before the uid, as `append` adds). With
    /// `movingThreshold`, the first `t:` moves by the same offset too; a task without `t:` keeps
    /// having none.
    ///
    /// Every other byte stays (the uid among them); only date values change.
    ///
    /// ```
    /// TodoItem("pay rent due:2026-12-01 uid:k3f9qz").postponed(by: DateOffset("1w")!, today: today)
    /// // "pay rent due:2026-12-08 uid:k3f9qz"
    /// ```
    public func postponed(by offset: DateOffset, today: TodoDate,
                          movingThreshold: Bool = false) throws(PostponeError) -> [UInt8] {
        guard !isBlank else { throw .notATask }
        guard !isCompleted else { throw .completedTask }
        var due: Range<Int>?, threshold: Range<Int>?
        let start = content.startIndex
        scanFields { field in
            guard field.kind == .tag else { return }
            let key = content[(start + field.nameRange.lowerBound)..<(start + field.nameRange.upperBound)]
            if due == nil, key.elementsEqual("due".utf8) { due = field.valueRange }
            if threshold == nil, key.elementsEqual("t".utf8) { threshold = field.valueRange }
        }
        var replacements: [(range: Range<Int>, date: [UInt8])] = []
        func moved(_ range: Range<Int>, _ key: String) throws(PostponeError) -> [UInt8] {
            let value = content[(start + range.lowerBound)..<(start + range.upperBound)]
            guard let date = TodoDate(bytes: value) else {
                throw .notADate(key: key, value: String(decoding: value, as: UTF8.self))
            }
            guard let next = offset.apply(to: date) else { throw .beyondCalendar(key: key) }
            return next.bytes
        }
        if let due { replacements.append((due, try moved(due, "due"))) }
        if movingThreshold, let threshold { replacements.append((threshold, try moved(threshold, "t"))) }
        replacements.sort { $0.range.lowerBound < $1.range.lowerBound }
        var line: [UInt8] = []
        var position = 0
        for replacement in replacements {
            line += content[(start + position)..<(start + replacement.range.lowerBound)]
            line += replacement.date
            position = replacement.range.upperBound
        }
        line += content[(start + position)...]
        guard due == nil else { return line }
        guard let newDue = offset.apply(to: today) else { throw .beyondCalendar(key: "due") }
        do throws(TaskEditError) {
            return try TodoItem(line).appendingDescription(Array("due:".utf8) + newDue.bytes)
        } catch {
            throw .notATask
        }
    }
}
