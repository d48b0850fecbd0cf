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

    /// Today's date in local time.
    var today: TodoDate {
        let parts = ProcessContext.localTime(secondsSinceEpoch)
        return TodoDate(year: parts.year, month: parts.month, day: parts.day)
            ?? TodoDate(year: 1970, month: 1, day: 1)!
    }

    /// `YYYY-MM-DDTHH:MM:SS` in local time (todo.sh's report timestamp).
    var timestamp: String {
        let parts = ProcessContext.localTime(secondsSinceEpoch)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(today)T\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))"
    }
}
