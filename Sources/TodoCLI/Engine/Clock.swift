import TodoTxt
import TodoFileSystem

/// "Now" for a command: `TODO_TEST_TIME` (seconds since the epoch) when set, else the system clock;
/// always formatted in local time (respecting `TZ`), as todo.sh does.
struct Clock: Sendable {
    let secondsSinceEpoch: Int

    init(environment: [String: String]) {
        if let fake = environment["TODO_TEST_TIME"], let seconds = Int(fake) {
            secondsSinceEpoch = seconds
        } else {
            secondsSinceEpoch = ProcessContext.now()
        }
    }

    /// Today's date in local time. A clock past 9999-12-31, the last date a todo.txt date can hold,
    /// gives that date (`beyondCalendar` says so), never a date of another century.
    var today: TodoDate {
        let parts = ProcessContext.localTime(secondsSinceEpoch)
        if let date = TodoDate(year: parts.year, month: parts.month, day: parts.day) { return date }
        return parts.year > 9999 ? Clock.lastDate : Clock.firstDate
    }

    /// Whether the clock is past the last date a todo.txt date can hold (docs/todo-command.md,
    /// "Dates", under "Edits keep what you did not ask to change"): every command then says so once, since every date it writes is wrong.
    var beyondCalendar: Bool { ProcessContext.localTime(secondsSinceEpoch).year > 9999 }

    /// The one line a command prints when `beyondCalendar`.
    static let beyondCalendarWarning =
        "the clock is past 9999-12-31, the last date a todo.txt date can hold; dates are written as 9999-12-31"

    private static let lastDate = TodoDate(year: 9999, month: 12, day: 31) ?? firstDate
    private static let firstDate = TodoDate(year: 1970, month: 1, day: 1)!

    /// `YYYY-MM-DDTHH:MM:SS` in local time (todo.sh's report timestamp).
    var timestamp: String {
        let parts = ProcessContext.localTime(secondsSinceEpoch)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(today)T\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
    }
}
