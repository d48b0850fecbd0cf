/// The value of an extension tag (docs/format.md section 6): absent, valid, or present but unreadable.
///
/// Invalid values are not errors: the tag stays in the text as written and diagnostics report it.
public enum ExtensionValue<Value: Sendable & Equatable>: Sendable, Equatable {
    case absent
    case valid(Value)
    /// The tag is there but its first value does not parse; holds that raw value.
    case invalid(String)

    /// The parsed value, or nil when absent or invalid.
    public var value: Value? {
        if case .valid(let value) = self { return value }
        return nil
    }
}

/// A recurrence rule `rec:[+]N(d|w|m|y|b)`.
public struct Recurrence: Sendable, Hashable, CustomStringConvertible {
    /// The unit of the interval.
    public enum Unit: UInt8, Sendable {
        case day = 0x64, week = 0x77, month = 0x6D, year = 0x79, businessDay = 0x62
    }
    /// `+`: the next instance counts from the old due date; otherwise from the completion date.
    public let isStrict: Bool
    public let count: Int
    public let unit: Unit

    /// Parses `1w`, `+3m`, `10b`. Counts are 1...9999.
    public init?(_ text: String) {
        var bytes = Array(text.utf8)
        isStrict = bytes.first == 0x2B
        if isStrict { bytes.removeFirst() }
        guard bytes.count >= 2, let last = bytes.last, let unit = Unit(rawValue: last) else { return nil }
        let digits = bytes.dropLast()
        guard digits.count <= 4, digits.allSatisfy(ByteScanning.isDigit),
              let count = Int(String(decoding: digits, as: UTF8.self)), count >= 1 else { return nil }
        self.count = count
        self.unit = unit
    }

    /// `date` moved forward by this interval (months and years clamp to the month's end).
    public func advance(_ date: TodoDate) -> TodoDate? {
        switch unit {
        case .day: return date.adding(days: count)
        case .week: return date.adding(days: 7 * count)
        case .month: return date.adding(months: count)
        case .year: return date.adding(months: 12 * count)
        case .businessDay: return date.adding(businessDays: count)
        }
    }

    public var description: String {
        (isStrict ? "+" : "") + String(count) + String(UnicodeScalar(unit.rawValue))
    }
}

extension TodoItem {
    private func extensionValue<V>(_ key: String, _ parse: (String) -> V?) -> ExtensionValue<V> {
        guard let raw = firstValue(forTag: key) else { return .absent }
        return parse(raw).map(ExtensionValue.valid) ?? .invalid(raw)
    }

    /// `due:DATE`.
    public var due: ExtensionValue<TodoDate> { extensionValue("due", TodoDate.init) }
    /// `t:DATE`: hidden from listings before that day.
    public var threshold: ExtensionValue<TodoDate> { extensionValue("t", TodoDate.init) }
    /// `rec:[+]N(d|w|m|y|b)`.
    public var recurrence: ExtensionValue<Recurrence> { extensionValue("rec", Recurrence.init) }
    /// `h:1` hides a placeholder task; `h:0` is valid and means not hidden.
    public var hidden: ExtensionValue<Bool> {
        extensionValue("h") { $0 == "1" ? true : ($0 == "0" ? false : nil) }
    }
    /// `pri:P`: the priority kept on a completed task.
    public var keptPriority: ExtensionValue<Priority> { extensionValue("pri", Priority.init) }

    /// Whether listings hide this task on `today`: `h:1`, or a threshold in the future.
    public func isHidden(on today: TodoDate) -> Bool {
        if hidden.value == true { return true }
        if let threshold = threshold.value, threshold > today { return true }
        return false
    }

    /// Whether the task is open and its due date is before `today`.
    public func isOverdue(on today: TodoDate) -> Bool {
        guard !isCompleted, let due = due.value else { return false }
        return due < today
    }

    /// The next instance of a recurring task completed on `completionDate`, or nil when there is
    /// none (no `rec:`, an invalid one, or a date past the calendar): `recurrence(completedOn:uid:)`
    /// without the reason.
    public func nextRecurrence(completedOn completionDate: TodoDate, uid: String?) -> [UInt8]? {
        if case .next(let line, _) = recurrence(completedOn: completionDate, uid: uid) { return line }
        return nil
    }
}
