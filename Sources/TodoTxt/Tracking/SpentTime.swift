/// Time spent on a task, in whole minutes: the value of `spent:` (docs/format.md, "Time tracking").
///
/// Written `1h20m`, `2h` (no minutes) or `45m` (under an hour; `0m` for none). Parsed from any of
/// those forms, a minutes part of 60 or more included (`90m`); each part has at most seven digits, so
/// a total always fits and formatting a parsed value gives a value that parses to the same minutes.
public struct SpentTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The whole minutes, never negative.
    public let minutes: Int

    /// The largest number a part (`h` or `m`) may hold: keeps every sum far from overflow.
    static let partLimit = 9_999_999

    /// `minutes` (clamped to 0 when negative).
    public init(minutes: Int) { self.minutes = max(0, minutes) }

    /// Parses `1h20m`, `2h`, `45m`; nil for anything else (empty, a sign, another unit, no digits).
    public init?<S: StringProtocol>(_ text: S) { self.init(bytes: Array(text.utf8)) }

    /// Parses the bytes of `1h20m`, `2h`, `45m`; nil for anything else.
    public init?<C: Collection>(bytes collection: C) where C.Element == UInt8 {
        let bytes = Array(collection)
        var index = 0
        var hours: Int?
        var minutes: Int?
        while index < bytes.count {
            var value = 0
            var digits = 0
            while index < bytes.count, ByteScanning.isDigit(bytes[index]) {
                value = value * 10 + Int(bytes[index] - 0x30)
                digits += 1
                index += 1
                if digits > 7 { return nil }
            }
            guard digits > 0, index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "h") where hours == nil && minutes == nil: hours = value
            case UInt8(ascii: "m") where minutes == nil: minutes = value
            default: return nil
            }
            index += 1
        }
        guard hours != nil || minutes != nil else { return nil }
        self.minutes = (hours ?? 0) * 60 + (minutes ?? 0)
    }

    /// `1h20m`, `2h`, `45m`, `0m`.
    public var description: String {
        let hours = minutes / 60, rest = minutes % 60
        if hours == 0 { return "\(rest)m" }
        return rest == 0 ? "\(hours)h" : "\(hours)h\(rest)m"
    }

    /// The sum of two spans.
    public static func + (lhs: SpentTime, rhs: SpentTime) -> SpentTime { SpentTime(minutes: lhs.minutes + rhs.minutes) }

    public static func < (lhs: SpentTime, rhs: SpentTime) -> Bool { lhs.minutes < rhs.minutes }
}

/// The moment a task's tracking started: the value of `tracking:`, `YYYY-MM-DDTHH:MM:SSZ` in UTC
/// (docs/format.md, "Time tracking"). UTC, so the value means the same moment on every machine and
/// across a change of summer time, and the library needs no time zone to subtract two of them.
public struct TrackingStamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z.
    public let secondsSinceEpoch: Int

    public init(secondsSinceEpoch: Int) { self.secondsSinceEpoch = secondsSinceEpoch }

    /// Parses `2026-12-02T14:05:09Z`; nil for any other shape or an impossible date or time.
    public init?<S: StringProtocol>(_ text: S) {
        let bytes = Array(text.utf8)
        guard bytes.count == 20, bytes[10] == UInt8(ascii: "T"), bytes[13] == 0x3A, bytes[16] == 0x3A,
              bytes[19] == UInt8(ascii: "Z"), let date = TodoDate(bytes: Array(bytes[0..<10])) else { return nil }
        func two(_ at: Int) -> Int? {
            guard ByteScanning.isDigit(bytes[at]), ByteScanning.isDigit(bytes[at + 1]) else { return nil }
            return Int(bytes[at] - 0x30) * 10 + Int(bytes[at + 1] - 0x30)
        }
        guard let hour = two(11), let minute = two(14), let second = two(17),
              hour < 24, minute < 60, second < 60 else { return nil }
        secondsSinceEpoch = date.daysSinceEpoch * 86_400 + hour * 3600 + minute * 60 + second
    }

    /// `2026-12-02T14:05:09Z`; a moment outside years 1–9999 is written as the nearest end.
    public var description: String {
        let days = secondsSinceEpoch >= 0 ? secondsSinceEpoch / 86_400 : -((-secondsSinceEpoch + 86_399) / 86_400)
        let rest = secondsSinceEpoch - days * 86_400
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let dateText = TodoDate(daysSinceEpoch: days)?.description ?? (days > 0 ? "9999-12-31" : "0001-01-01")
        return "\(dateText)T\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60))Z"
    }

    /// Whole minutes from this moment to `now`; 0 when `now` is earlier (a clock set back).
    public func elapsedMinutes(until now: Int) -> Int { max(0, (now - secondsSinceEpoch) / 60) }

    public static func < (lhs: TrackingStamp, rhs: TrackingStamp) -> Bool { lhs.secondsSinceEpoch < rhs.secondsSinceEpoch }
}
