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

    /// todo.sh's behaviour, exactly (docs/todosh.md).
    static let todoSh = NameRules(ownMessages: false, strictFiles: false, refusesUnsafeFiles: false,
                                  checksSearchTerms: false, quietSilencesEveryReport: false)
    /// The name `todo`'s rules (docs/todo-command.md).
    static let todo = NameRules(ownMessages: true, strictFiles: true, refusesUnsafeFiles: true,
                                checksSearchTerms: true, quietSilencesEveryReport: true)
}
