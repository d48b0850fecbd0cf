/// A calendar date (proleptic Gregorian, years 0001–9999), as written in todo.txt: `YYYY-MM-DD`.
///
/// Invariant: `year` is 1...9999, `month` 1...12, `day` valid for that month and year. The only way to
/// get a value is through a validating initialiser, so `2026-02-30` or `0000-01-01` never become dates.
public struct TodoDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// Creates a date if the components name a real day; nil otherwise.
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
              day >= 1, day <= TodoDate.daysIn(month: month, year: year) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly ten bytes `YYYY-MM-DD` (4-2-2 ASCII digits) naming a real day.
    public init?<C: Collection>(bytes: C) where C.Element == UInt8 {
        guard bytes.count == 10 else { return nil }
        var digits = (0, 0, 0)
        var index = 0
        for byte in bytes {
            switch index {
            case 4, 7:
                guard byte == 0x2D else { return nil }
            default:
                guard ByteScanning.isDigit(byte) else { return nil }
                let value = Int(byte &- 0x30)
                if index < 4 { digits.0 = digits.0 * 10 + value }
                else if index < 7 { digits.1 = digits.1 * 10 + value }
                else { digits.2 = digits.2 * 10 + value }
            }
            index += 1
        }
        self.init(year: digits.0, month: digits.1, day: digits.2)
    }

    /// Parses `YYYY-MM-DD`; nil for anything else.
    public init?(_ text: String) { self.init(bytes: Array(text.utf8)) }

    /// Parses ten bytes at `offset` of a buffer, without copying.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> TodoDate? {
        guard offset + 10 <= bytes.count else { return nil }
        return TodoDate(bytes: UnsafeBufferPointer(rebasing: bytes[offset..<(offset + 10)]))
    }

    /// Whether ten bytes at `offset` have the shape `DDDD-DD-DD`, valid or not (for diagnostics).
    static func looksLikeDate(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        guard offset + 10 <= bytes.count else { return false }
        for index in 0..<10 {
            let byte = bytes[offset + index]
            if index == 4 || index == 7 { if byte != 0x2D { return false } }
            else if !ByteScanning.isDigit(byte) { return false }
        }
        return true
    }

    /// The number of days in `month` of `year`.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    /// `YYYY-MM-DD`, zero-padded.
    public var description: String { String(decoding: bytes, as: UTF8.self) }

    /// The ten ASCII bytes of `description`.
    public var bytes: [UInt8] {
        func put(_ value: Int, _ width: Int, into out: inout [UInt8]) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                out.append(UInt8(0x30 + rest / divisor))
                rest %= divisor
                divisor /= 10
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(10)
        put(year, 4, into: &out); out.append(0x2D)
        put(month, 2, into: &out); out.append(0x2D)
        put(day, 2, into: &out)
        return out
    }

    public static func < (lhs: TodoDate, rhs: TodoDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// Days since 1970-01-01 (negative before). Howard Hinnant's days-from-civil algorithm.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01; nil outside years 1–9999.
    public init?(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        self.init(year: year, month: month, day: day)
    }

    /// ISO weekday: 1 = Monday … 7 = Sunday.
    public var isoWeekday: Int {
        let days = daysSinceEpoch  // 1970-01-01 was a Thursday (4)
        return ((days % 7 + 7) % 7 + 3) % 7 + 1
    }

    /// This date moved by `count` days; nil if that leaves years 1–9999.
    public func adding(days count: Int) -> TodoDate? { TodoDate(daysSinceEpoch: daysSinceEpoch + count) }

    /// This date moved by `count` months, the day clamped to the target month's last day
    /// (2026-01-31 + 1 month = 2026-02-28).
    public func adding(months count: Int) -> TodoDate? {
        let total = (year * 12 + (month - 1)) + count
        let newYear = total / 12, newMonth = total % 12 + 1
        guard (1...9999).contains(newYear) else { return nil }
        return TodoDate(year: newYear, month: newMonth, day: min(day, TodoDate.daysIn(month: newMonth, year: newYear)))
    }

    /// This date moved by `count` business days (Monday–Friday), skipping weekends.
    public func adding(businessDays count: Int) -> TodoDate? {
        var date: TodoDate? = self
        var remaining = abs(count)
        let step = count >= 0 ? 1 : -1
        while remaining > 0, let current = date {
            date = current.adding(days: step)
            if let next = date, next.isoWeekday <= 5 { remaining -= 1 }
        }
        return date
    }
}
