import Foundation

/// The bridge between todo.txt's calendar days and Foundation's instants. TodoTxt has no clock and
/// no Foundation; an app has both, so the conversion lives here: a day is the day an instant falls
/// on in a time zone (docs/store.md, "Dates").
extension TodoDate {
    /// The latest day a todo.txt date can name.
    static let latest = TodoDate(year: 9999, month: 12, day: 31)
    /// The earliest.
    static let earliest = TodoDate(year: 1, month: 1, day: 1)

    /// The calendar day (Gregorian) on which `date` falls in `timeZone`. An instant before year 1
    /// or after 9999 gives the nearest day a todo.txt date can hold.
    public init(_ date: Date, in timeZone: TimeZone = .current) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.era, .year, .month, .day], from: date)
        let year = parts.era == 0 ? 0 : (parts.year ?? 1)
        if let day = TodoDate(year: year, month: parts.month ?? 1, day: parts.day ?? 1) {
            self = day
        } else if year > 9999, let latest = TodoDate.latest {
            self = latest
        } else if let earliest = TodoDate.earliest {
            self = earliest
        } else {
            preconditionFailure("TodoDate: 0001-01-01 is a valid date")
        }
    }

    /// Today, in `timeZone` (the device's by default): the date `todo add` writes.
    public static func today(in timeZone: TimeZone = .current) -> TodoDate {
        TodoDate(Date(), in: timeZone)
    }
}

extension Date {
    /// The first instant of `day` in `timeZone` (midnight, or the first instant that exists where a
    /// clock change skips midnight).
    public init(_ day: TodoDate, in timeZone: TimeZone = .current) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = DateComponents(year: day.year, month: day.month, day: day.day)
        let start = calendar.date(from: parts) ?? Date(timeIntervalSince1970: Double(day.daysSinceEpoch) * 86_400)
        self = calendar.startOfDay(for: start)
    }
}
