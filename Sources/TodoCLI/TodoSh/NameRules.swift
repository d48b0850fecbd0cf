/// What the shared engine of todo.sh's actions does differently under the name `todo`, chosen once
/// when the run starts (`TodoShSettings.rules`: `.todoSh` by `TodoShCommand`, `.todo` by
/// `TodoNameActions.settings`). The engine asks these rules, never which name is running, so each
/// difference is named once (docs/todo-command.md lists them for the user).
struct NameRules: Sendable, Equatable {
    /// Failures are `todo: what: why` on stderr, exit 1, and usage errors one line, exit 2; else
    /// todo.sh's own messages, streams and exit codes, byte for byte.
    var ownMessages: Bool
    /// An unreadable file, a file in a missing directory, an unknown `listfile` source or an
    /// address that resolves to no task is a failure naming the file; else what todo.sh does (an
    /// empty list, its own message).
    var strictFiles: Bool
    /// Writers refuse a file holding a conflict block (listings warn of one) and `move` refuses a
    /// binary source before it writes the destination.
    var refusesUnsafeFiles: Bool
    /// A search term that grep would refuse is a usage error naming the problem.
    var checksSearchTerms: Bool
    /// `-q` silences every report, `deduplicate`'s count included (todo.sh prints that one anyway).
    var quietSilencesEveryReport: Bool
    /// An address that names no task fails the whole command with nothing written; else todo.sh's
    /// order (`do 1 9`: task 1 done, then `TODO: No task 9.`, exit 1).
    var allOrNothingAddresses: Bool
    /// `move` never appends a task twice (a destination already holding it only loses it from the
    /// source), refuses a destination that is the source, asks only on a terminal, and takes an
    /// absolute DEST or SRC as given (docs/todo-command.md, "Moving a task").
    var movesEachTaskOnce: Bool
    /// A command with nothing to do (`deduplicate` finding no duplicates) says nothing and exits 0.
    var silentWhenNothingToDo: Bool
    /// `report` archives as `todo archive` does (blank lines kept, nothing appended twice) and
    /// counts tasks, not lines.
    var archivesAsTodoDoes: Bool
    /// Listing terms may be typed (`due:<=today`, `pri:A-C`, `a|b`: `TypedTerm`); else every term
    /// is text, as todo.sh's grep reads it.
    var typedTerms: Bool
    /// The values of `due:`, `t:` and `until:` typed in an add or edit may be relative dates
    /// (`due:tomorrow`), written as the day they name; a value that is no date is refused
    /// (`RelativeDateTags`, docs/todo-command.md, "Dates relative to today"). `TODO_RELATIVE_DATES=0`
    /// turns it off (`TodoShSettings.relativeDates`).
    var resolvesRelativeDates: Bool = false

    /// todo.sh's behaviour, exactly (docs/todosh.md).
    static let todoSh = NameRules(ownMessages: false, strictFiles: false, refusesUnsafeFiles: false,
                                  checksSearchTerms: false, quietSilencesEveryReport: false,
                                  allOrNothingAddresses: false, movesEachTaskOnce: false,
                                  silentWhenNothingToDo: false, archivesAsTodoDoes: false,
                                  typedTerms: false)
    /// The name `todo`'s rules (docs/todo-command.md).
    static let todo = NameRules(ownMessages: true, strictFiles: true, refusesUnsafeFiles: true,
                                checksSearchTerms: true, quietSilencesEveryReport: true,
                                allOrNothingAddresses: true, movesEachTaskOnce: true,
                                silentWhenNothingToDo: true, archivesAsTodoDoes: true,
                                typedTerms: true, resolvesRelativeDates: true)
}
