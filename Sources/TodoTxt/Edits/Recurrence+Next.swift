/// What completing a task means for its recurrence (docs/format.md section 6, "rec:").
public enum RecurrenceOutcome: Sendable, Equatable {
    /// The task has no `rec:` tag: nothing recurs.
    case none
    /// The next instance's line. `replacedDue` holds the old `due:` value when it was not a date:
    /// the next instance's `due:` replaces it, counted from the completion date.
    case next([UInt8], replacedDue: String?)
    /// The `rec:` value (held here) is not a rule: no next instance.
    case invalidRule(String)
    /// The next due (or threshold) date would be after 9999-12-31: no next instance, rather than one
    /// repeating the old date.
    case beyondCalendar
}

extension TodoItem {
    /// The next instance of this task completed on `completionDate`.
    ///
    /// The copy is this (open) line with: the due date moved by the interval (from the old due date for
    /// `rec:+…`, else from the completion date; an old `due:` that is not a date is replaced by the
    /// completion date plus the interval, never joined by a second `due:`); `t:` moved so that it
    /// keeps its distance to due (or moved by the interval itself when there is no valid due date);
    /// a task with neither gets ` due:` the completion date plus the interval; the creation date, if
    /// any, set to the completion date; the uid replaced by `uid` (or added); `tracking:` and `spent:`
    /// removed (time spent on one instance is not spent on the next). Tag values are replaced
    /// in place. Any moved date past the calendar makes `.beyondCalendar`.
    public func recurrence(completedOn completionDate: TodoDate, uid: String?) -> RecurrenceOutcome {
        let rule: Recurrence
        switch recurrence {
        case .absent: return .none
        case .invalid(let raw): return .invalidRule(raw)
        case .valid(let valid): rule = valid
        }
        let source = isCompleted ? (uncompleted() ?? Array(content)) : Array(content)
        let open = TodoItem(source[...])
        let oldThreshold = open.threshold.value
        var replacements: [(range: Range<Int>, bytes: [UInt8])] = []
        var appended: [UInt8] = []
        var oldDue: TodoDate?, newDue: TodoDate?, replacedDue: String?
        switch open.due {
        case .absent:
            break
        case .valid(let due):
            oldDue = due
            newDue = rule.advance(rule.isStrict ? due : completionDate)
        case .invalid(let raw):
            replacedDue = raw
            newDue = rule.advance(completionDate)
        }
        if open.due != .absent {
            guard let newDue else { return .beyondCalendar }
            if let tag = open.tags.first(where: { $0.key == "due" }) { replacements.append((tag.valueRange, newDue.bytes)) }
        }
        if let oldThreshold, let tag = open.tags.first(where: { $0.key == "t" }) {
            let moved: TodoDate?
            if let oldDue, let newDue {
                moved = newDue.adding(days: oldThreshold.daysSinceEpoch - oldDue.daysSinceEpoch)
            } else {
                moved = rule.advance(rule.isStrict ? oldThreshold : completionDate)
            }
            guard let moved else { return .beyondCalendar }
            replacements.append((tag.valueRange, moved.bytes))
        }
        if open.due == .absent && oldThreshold == nil {
            guard let due = rule.advance(completionDate) else { return .beyondCalendar }
            appended += Array(" due:".utf8) + due.bytes
        }
        if let offset = open.creationDateOffset {
            replacements.append((offset..<(offset + 10), completionDate.bytes))
        }
        if let uid {
            if let tag = open.tags.first(where: { $0.key == "uid" }) {
                replacements.append((tag.valueRange, Array(uid.utf8)))
            } else {
                appended += Array(" uid:\(uid)".utf8)
            }
        }
        var bytes = source
        for replacement in replacements.sorted(by: { $0.range.lowerBound > $1.range.lowerBound }) {
            bytes.replaceSubrange(replacement.range, with: replacement.bytes)
        }
        return .next(TodoItem(bytes + appended).withoutTrackingTags(), replacedDue: replacedDue)
    }
}
