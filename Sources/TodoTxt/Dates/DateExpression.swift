/// A date as a person types it where a date is expected: absolute (`2026-12-24`) or relative to
/// today (`today`, `tomorrow`/`tm`, `yesterday`, a weekday, `[+|-]N` with a unit). The grammar is
/// in docs/todo-command.md, "Dates relative to today".
///
/// The library has no clock: "today" is always a parameter of `resolve(today:)`, so an app and the
/// command resolve the same expression to the same date on the same day.
///
/// Invariant: a parsed expression is one of the written forms exactly; keywords and units are
/// matched without regard to ASCII case (`Mon`, `TODAY`, `3W`), nothing else is accepted.
public enum DateExpression: Sendable, Hashable, CustomStringConvertible {
    /// `YYYY-MM-DD`: that day, whatever today is.
    case absolute(TodoDate)
    /// `[+|-]N` followed by a unit: `today`, `tomorrow` and `yesterday` are `0d`, `1d`, `-1d`.
    case offset(DateOffset)
    /// A weekday name (ISO number 1 = Monday … 7 = Sunday): the next such day after today, so
    /// `mon` on a Monday is a week ahead, never today.
    case weekday(Int)

    /// Parses an expression; nil when the text is none of the forms (see `suggestion(for:)`).
    public init?<S: StringProtocol>(_ text: S) {
        let bytes = Array(text.utf8)
        if let date = TodoDate(bytes: bytes) { self = .absolute(date); return }
        let lowered = bytes.map(ASCIIKeyword.lowercase)
        if let days = ASCIIKeyword.relativeDays[lowered] { self = .offset(DateOffset(days: days)); return }
        if let weekday = ASCIIKeyword.weekdays[lowered] { self = .weekday(weekday); return }
        guard let offset = DateOffset(lowered) else { return nil }
        self = .offset(offset)
    }

    /// The day this expression names, seen from `today`; nil when it leaves years 1–9999.
    public func resolve(today: TodoDate) -> TodoDate? {
        switch self {
        case .absolute(let date): return date
        case .offset(let offset): return offset.apply(to: today)
        case .weekday(let weekday):
            let ahead = (weekday - today.isoWeekday + 7) % 7
            return today.adding(days: ahead == 0 ? 7 : ahead)
        }
    }

    /// Whether the value depends on today (everything but an absolute date).
    public var isRelative: Bool {
        if case .absolute = self { return false }
        return true
    }

    /// The canonical spelling: the date, `3d`, `-1w`, `mon`.
    public var description: String {
        switch self {
        case .absolute(let date): return date.description
        case .offset(let offset): return offset.description
        case .weekday(let weekday): return ASCIIKeyword.weekdayNames[weekday - 1]
        }
    }

    /// A close spelling of a keyword for a value that is not an expression (`tomorow` → `tomorrow`,
    /// `wendesday` → `wednesday`); nil when nothing is close (at most two edits, a transposition
    /// counting as one, and never more than a third of the word).
    public static func suggestion<S: StringProtocol>(for text: S) -> String? {
        let word = Array(text.utf8).map(ASCIIKeyword.lowercase)
        guard word.count >= 2 else { return nil }
        var best: (distance: Int, keyword: String)?
        for keyword in ASCIIKeyword.allKeywords {
            let distance = ASCIIKeyword.editDistance(word, Array(keyword.utf8))
            guard distance > 0, distance <= 2, distance * 3 <= max(word.count, keyword.utf8.count) else { continue }
            if let current = best, current.distance <= distance { continue }
            best = (distance, keyword)
        }
        return best?.keyword
    }
}

/// A signed amount of days, weeks, months, years or business days: `3d`, `+2w`, `-1m`, `5b`.
/// This is the form `todo postpone` takes (a period, never a weekday or an absolute date).
///
/// Invariant: `count` is within ±99 999 (more would leave years 1–9999 from any day anyway).
public struct DateOffset: Sendable, Hashable, CustomStringConvertible {
    /// What one step of `count` is.
    public enum Unit: UInt8, Sendable, CaseIterable {
        case days = 0x64, weeks = 0x77, months = 0x6D, years = 0x79, businessDays = 0x62
    }

    public let count: Int
    public let unit: Unit

    /// An offset of `count` units; nil when `count` is outside ±99 999.
    public init?(count: Int, unit: Unit) {
        guard abs(count) <= 99_999 else { return nil }
        self.count = count
        self.unit = unit
    }

    /// A small count of days (the keywords `today`, `tomorrow`, `yesterday`), within range by construction.
    init(days: Int) {
        count = days
        unit = .days
    }

    /// Parses `[+|-]N` and a unit letter (any ASCII case), N one to five digits.
    public init?<S: StringProtocol>(_ text: S) {
        self.init(Array(text.utf8).map(ASCIIKeyword.lowercase))
    }

    init?(_ lowered: [UInt8]) {
        var digits = lowered[...]
        var sign = 1
        if let first = digits.first, first == 0x2B || first == 0x2D {
            sign = first == 0x2D ? -1 : 1
            digits = digits.dropFirst()
        }
        guard let last = digits.last, let unit = Unit(rawValue: last) else { return nil }
        digits = digits.dropLast()
        guard (1...5).contains(digits.count), digits.allSatisfy(ByteScanning.isDigit) else { return nil }
        let value = digits.reduce(0) { $0 * 10 + Int($1 &- 0x30) }
        self.init(count: sign * value, unit: unit)
    }

    /// `date` moved by this offset: months and years clamp to the target month's last day
    /// (2026-01-31 + 1m = 2026-02-28), the rule `rec:` uses; business days skip Saturday and
    /// Sunday (from a Saturday, `1b` is the Monday). Nil when the result leaves years 1–9999.
    public func apply(to date: TodoDate) -> TodoDate? {
        switch unit {
        case .days: return date.adding(days: count)
        case .weeks: return date.adding(days: 7 * count)
        case .months: return date.adding(months: count)
        case .years: return date.adding(months: 12 * count)
        case .businessDays: return date.adding(businessDays: count)
        }
    }

    /// `3d`, `-2w`: no `+`, the unit's letter.
    public var description: String { String(count) + String(UnicodeScalar(unit.rawValue)) }
}

/// The keywords of `DateExpression`, matched on lowercased ASCII bytes.
enum ASCIIKeyword {
    static func lowercase(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }

    static let relativeDays: [[UInt8]: Int] = [
        Array("today".utf8): 0, Array("tomorrow".utf8): 1, Array("tm".utf8): 1, Array("yesterday".utf8): -1,
    ]

    static let weekdayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// Full names and their first three letters, to ISO weekday numbers.
    static let weekdays: [[UInt8]: Int] = {
        var table: [[UInt8]: Int] = [:]
        for (index, name) in weekdayNames.enumerated() {
            table[Array(name.utf8)] = index + 1
            table[Array(name.utf8.prefix(3))] = index + 1
        }
        return table
    }()

    /// The words a suggestion may offer (full spellings only).
    static let allKeywords = ["today", "tomorrow", "yesterday"] + weekdayNames

    /// Optimal string alignment distance: insertions, deletions, substitutions and adjacent
    /// transpositions each cost one.
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previousPrevious[j - 2] + 1)
                }
                current[j] = value
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
