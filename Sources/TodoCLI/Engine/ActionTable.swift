import TodoTxt
import TodoFileSystem

/// One action of either name, declared once: this declaration drives argument dispatch under
/// both names, the program's `--help`, `todo help ACTION` and the shell completion scripts.
struct ActionSpec: Sendable {
    /// The name typed on the command line.
    let name: String
    /// Other accepted names (`rm` for `del`).
    let aliases: [String]
    /// The arguments, as shown in usage lines: `[--check] [--dry-run] [--by KEYS] [FILE]`.
    let arguments: String
    /// One sentence for `--help`; empty for an action `--help` does not list.
    let summary: String
    /// Options the action accepts (for completions); values are written `--by=`.
    let options: [String]
    /// What completes the action's positional arguments.
    let completes: Completion
    /// Which names offer the action.
    var availability: Availability = .bothNames
    /// What `todo ACTION` runs (the action name excluded). Returns the exit code.
    let run: @Sendable (inout Invocation, [String]) throws(CLIError) -> Int32
    /// todo.sh's built-in of this name, byte for byte (docs/todosh.md): what `todo.sh ACTION`
    /// runs. nil for `todo`'s own actions, which the name `todo.sh` runs through `run`, on the
    /// files todo.sh's config chose.
    var todoSh: TodoShActions.Action?
    /// Where `--help` and the man page list the action.
    var group: Group = .tasks
    /// What `todo help ACTION` and the man page say after the summary: each option, the keys an
    /// option takes, what the arguments may be.
    var details: [String] = []

    /// What completes an action's words: `task` the first only (`append NR TEXT`), `tasks` every one
    /// (`do NR…`).
    enum Completion: Sendable { case nothing, files, task, tasks, projectsAndContexts, shells, actions }

    /// The headings of `--help`, in order.
    enum Group: String, Sendable, CaseIterable {
        case tasks = "tasks"
        case listing = "listing"
        case file = "the file"
        case sync = "sync"
        case program = "help and setup"
    }

    /// This action, offered by `availability`'s names only.
    func available(_ availability: Availability) -> ActionSpec {
        var copy = self
        copy.availability = availability
        return copy
    }

    /// This action listed under `group`, with `details` for `todo help ACTION`.
    func listed(under group: Group, details: [String] = []) -> ActionSpec {
        var copy = self
        copy.group = group
        if !details.isEmpty { copy.details = details }
        return copy
    }

    /// `bothNames`: `todo` and `todo.sh`; `todoOnly`: `version`, the completion helper;
    /// `todoShOnly`: `shorthelp`.
    enum Availability: Sendable { case bothNames, todoOnly, todoShOnly }

    /// `todo sort [--check] …`
    func usage(programName: String) -> String {
        "\(programName) \(name)" + (arguments.isEmpty ? "" : " \(arguments)")
    }

    /// Whether `name` calls this action.
    func answers(to name: String) -> Bool { self.name == name || aliases.contains(name) }
}

extension ActionSpec {
    /// An action whose arguments are parsed from its declaration: flags and `--name=` valued options
    /// from `options`, at most `maximumPositionals` more words (nil: the action checks them), every
    /// mistake a usage error ending in the action's usage line. `run` gets the parsed arguments and
    /// that usage line.
    init(name: String, arguments: String, summary: String, options: [String], completes: Completion,
         maximumPositionals: Int? = 1,
         parsed run: @escaping @Sendable (inout Invocation, ParsedArguments, String) throws(CLIError) -> Int32,
         todoSh: TodoShActions.Action? = nil) {
        let flags = Set(options.filter { !$0.hasSuffix("=") })
        let valued = Set(options.filter { $0.hasSuffix("=") }.map { String($0.dropLast()) })
        self.init(name: name, aliases: [], arguments: arguments, summary: summary, options: options, completes: completes,
                  run: { invocation, words throws(CLIError) in
                      let usage = "\(invocation.programName) \(name)" + (arguments.isEmpty ? "" : " \(arguments)")
                      let parsed = try ParsedArguments(words, flags: flags, valued: valued, usage: usage)
                      if let maximumPositionals, parsed.positionals.count > maximumPositionals {
                          throw .usage("too many arguments; usage: \(usage)")
                      }
                      return try run(&invocation, parsed, usage)
                  }, todoSh: todoSh)
    }
}

/// Every action of both names, in help order.
enum ActionTable {
    /// The watcher's default settle time in seconds, as `help watch` states it.
    static var defaultSettleSeconds: Double {
        let settle = FileWatcher.defaultSettle.components
        return Double(settle.seconds) + Double(settle.attoseconds) / 1e18
    }

    static let all: [ActionSpec] = TodoNameActions.specs + [
        UndoAction.spec.listed(under: .tasks, details: addressDetails),
        EditAction.spec.listed(under: .tasks, details: [
            "NR|UID: the line the editor opens at. The file is checked after the editor exits.",
        ]),
        UIAction.spec.listed(under: .listing, details: [
            "Keys: j/k or arrows move, x or space done/not done, a add, e or Enter edit, d delete,",
            "      p then a letter priority, / filter, u undo, s sort, ? all keys, q quit.",
            "-a, --all: also the tasks hidden by h:1 or by a t: threshold in the future.",
        ]),
        ExportAction.spec.listed(under: .listing),
        UIDAction.spec.listed(under: .listing, details: [
            "--assign: give every task without a uid (and every second holder of a duplicate) a fresh one;",
            "          says nothing when every task has one.",
        ]),
        SortAction.spec.listed(under: .file, details: [
            "--check: change nothing; exit 1 when the file is not sorted.",
            "--dry-run: change nothing; print the sorted file.",
            "--by KEYS: order the open tasks by KEYS, comma-separated ("
                + SortKey.allCases.map(\.rawValue).joined(separator: ", ") + ");",
            "           completed tasks still sink.",
            "Prints nothing when it succeeds, so it can run from cron.",
        ]),
        ArchiveAction.spec.listed(under: .file, details: [
            "Says nothing when there is nothing to archive. A rerun after an interrupted archive appends nothing twice.",
        ]),
        WatchAction.spec.listed(under: .file, details: [
            "--poll SECONDS: look at the file every SECONDS instead of using file notifications.",
            "--list: print the list after every sort.",
            "--reconcile: merge sync-conflict copies as they appear (see reconcile).",
            "-q, --quiet: no log lines; errors are still shown.",
            "TODO_WATCH_SETTLE: seconds the file must be quiet before it is read (default \(defaultSettleSeconds)).",
        ]),
        MergeAction.spec.listed(under: .sync, details: [
            "--setup: register the driver in this git repository (git config and .gitattributes).",
            "Git runs 'todo merge %O %A %B %L %P %S %X %Y'; the merged file replaces OURS; exit 1 on a conflict.",
        ]),
        ReconcileAction.spec.listed(under: .sync, details: [
            "--keep: keep each merged copy, renamed to NAME.reconciled, instead of removing it.",
            "Says nothing when there are no copies, so it can run from cron.",
        ]),
        WhereAction.spec.listed(under: .program),
        CommandAction.spec.listed(under: .program),
        HelpAction.spec.listed(under: .program),
        TodoShHelp.shortHelpSpec.listed(under: .program),
        VersionAction.spec.listed(under: .program),
        CompletionsAction.spec.listed(under: .program),
        CompletionsAction.wordsSpec.listed(under: .program),
        CompletionsAction.tasksSpec.listed(under: .program),
        ManPageAction.spec.listed(under: .program),
    ]

    /// What the search terms of the listings mean (docs/todo-command.md).
    static let termDetails = [
        "TERM: shown when every TERM matches; -TERM hides what matches. A term without . [ ] * ^ $ \\",
        "      is plain text, ignoring case and accents (cafe finds Café); with them, a grep basic",
        "      regular expression.",
        "-a, --all: also the tasks hidden by h:1 or by a t: threshold in the future.",
    ]

    /// What `NR|UID` may be, for every action that takes a task.
    static let addressDetails = [
        "NR|UID: a line number, a uid (uid:k3f9qz or k3f9qz) or a unique start of one; several are",
        "        separated by spaces or commas.",
    ]

    /// The actions of the name `todo`, in help order.
    static let todoActions: [ActionSpec] = all.filter { $0.availability != .todoShOnly }

    /// The actions of the name `todo.sh`, by every name they answer to: its built-ins, and
    /// `todo`'s own actions that todo.sh does not have (README, "Using it as todo.sh"), which never
    /// shadow a built-in or an add-on.
    static let todoShActions: [String: ActionSpec] = {
        var table: [String: ActionSpec] = [:]
        for action in all where action.availability != .todoOnly {
            for name in [action.name] + action.aliases { table[name] = action }
        }
        return table
    }()

    /// The `todo` action called `name` or aliased so.
    static func find(_ name: String) -> ActionSpec? {
        todoActions.first { $0.answers(to: name) }
    }

    /// ` (did you mean 'ls'?)` for a mistyped action: the listed actions' names and aliases at most
    /// two edits away (a letter added, dropped, changed, or two swapped), nearest first; empty when
    /// there is none.
    static func suggestion(for name: String) -> String {
        let typed = Array(name.lowercased())
        var candidates: [(name: String, distance: Int)] = []
        for action in todoActions where !action.summary.isEmpty {
            for candidate in [action.name] + action.aliases {
                let distance = editDistance(typed, Array(candidate))
                if distance <= 2 { candidates.append((candidate, distance)) }
            }
        }
        let nearest = candidates.enumerated().sorted { ($0.element.distance, $0.offset) < ($1.element.distance, $1.offset) }
            .prefix(3).map { "'\($0.element.name)'" }
        guard !nearest.isEmpty else { return "" }
        return " (did you mean " + (nearest.count == 1 ? nearest[0] : nearest.dropLast().joined(separator: ", ") + " or " + (nearest.last ?? "")) + "?)"
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and transpositions
    /// of neighbours each count one.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}

/// Splits an action's arguments into options and positionals by a declared option list.
///
/// Flags are `--name`; valued options are `--name VALUE` or `--name=VALUE`. `--` ends options.
struct ParsedArguments {
    var flags: Set<String> = []
    var values: [String: String] = [:]
    var positionals: [String] = []

    init(_ arguments: [String], flags allowedFlags: Set<String>, valued allowedValued: Set<String>,
         usage: String) throws(CLIError) {
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" { optionsEnded = true; continue }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if allowedFlags.contains(name), inlineValue == nil {
                flags.insert(name)
            } else if allowedValued.contains(name) {
                if let inlineValue {
                    values[name] = inlineValue
                } else if index < arguments.count {
                    values[name] = arguments[index]
                    index += 1
                } else {
                    throw .usage("option \(name) needs a value; usage: \(usage)")
                }
            } else {
                throw .usage("unknown option \(argument); usage: \(usage)")
            }
        }
    }
}
