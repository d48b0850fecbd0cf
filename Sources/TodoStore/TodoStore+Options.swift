import Foundation

extension TodoStore {
    /// How a store adds tasks and writes: by default, as the `todo` command does with no
    /// configuration (docs/todo-command.md, "add"): a creation date and a uid on every new task, no
    /// priority, done file `done.txt` beside the todo file.
    public struct Options: Sendable, Hashable {
        /// A new task gets today's date as its creation date (`TODOTXT_DATE_ON_ADD`).
        public var addsCreationDate = true
        /// A new task gets a fresh uid (`TODOTXT_UID_ON_ADD`), unused in the todo and done files.
        public var addsUID = true
        /// The priority a new task gets when its text gives none (`TODOTXT_PRIORITY_ON_ADD`).
        public var priorityOnAdd: Priority?
        /// The first write of this store also gives every task without a uid one, so that every
        /// id is a uid from then on (their ids change once, at that write).
        public var givesEveryTaskAUID = false
        /// How long a write waits for the writers' lock before it fails with `lockTimeout`.
        public var lockTimeout: Duration = .seconds(5)
        /// How quiet the file must be before a change made elsewhere is read.
        public var settle: Duration = .milliseconds(100)
        /// The done file, whose uids a fresh uid must not repeat (nil: `done.txt` beside the file).
        public var doneFilePath: String?
        /// The time zone whose calendar day is "today" (creation and completion dates, `t:`).
        public var timeZone: TimeZone = .current
        /// `add` and `rename` write relative values of `due:`, `t:` and `until:` (`due:tomorrow`,
        /// `t:fri`, `due:+2w`) as the dates they name, and refuse a value that is neither a date
        /// nor an expression (`due:tomorow`) with `invalidText`, as `todo add` does
        /// (`TODO_RELATIVE_DATES=0`: off, values kept as typed).
        public var resolvesRelativeDates = true

        /// The `todo` command's defaults.
        public init() {}

        /// The defaults, changed by the variables the `todo` command reads for them (non-empty
        /// values only): `TODOTXT_DATE_ON_ADD=0`, `TODOTXT_UID_ON_ADD=0`, `TODOTXT_PRIORITY_ON_ADD=B`,
        /// `TODO_RELATIVE_DATES=0`.
        public init(environment: [String: String]) {
            if let value = environment["TODOTXT_DATE_ON_ADD"], !value.isEmpty { addsCreationDate = value != "0" }
            if let value = environment["TODOTXT_UID_ON_ADD"], !value.isEmpty { addsUID = value != "0" }
            if let value = environment["TODOTXT_PRIORITY_ON_ADD"], !value.isEmpty { priorityOnAdd = Priority(value.uppercased()) }
            if let value = environment["TODO_RELATIVE_DATES"], !value.isEmpty { resolvesRelativeDates = value != "0" }
        }
    }
}
