import TodoTxt
import TodoFileSystem

/// One action of either name, declared once: its name, aliases, options, arguments, summary and
/// completions. This declaration parses the action's words under both names, and generates its
/// usage line, the program's `--help`, `todo help ACTION` (and `todo ACTION --help`), the shell
/// completion scripts and the man page.
struct ActionSpec: Sendable {
    /// The name typed on the command line.
    let name: String
    /// Other accepted names (`rm` for `del`).
    let aliases: [String]
    /// The arguments after the options, as usage lines show them: `[FILE]`, `NR|UID [TERM]`.
    let positionals: String
    /// One sentence for `--help`; empty for an action `--help` does not list.
    let summary: String
    /// The options the action accepts, parsed from this list and nothing else.
    let options: [ActionOption]
    /// Where the options may stand among the words.
    var placement: OptionPlacement = .anywhere
    /// How many arguments the action takes after its options (nil: any number, the action checks).
    var argumentCount: ClosedRange<Int>?
    /// What completes the action's positional arguments (`argumentCompletions` says it per argument).
    let completes: Completion
    /// What completes each argument in turn, the last for every further one; nil: from `completes`.
    var completionsByArgument: [Completion]?
    /// Which names offer the action.
    var availability: Availability = .bothNames
    /// What `todo ACTION` runs (the action name excluded): the words parsed by `options`, then the
    /// implementation. Returns the exit code.
    private(set) var run: @Sendable (inout Invocation, [String]) throws(CLIError) -> Int32
    /// todo.sh's built-in of this name, byte for byte (docs/todosh.md): what `todo.sh ACTION`
    /// runs. nil for `todo`'s own actions, which the name `todo.sh` runs through `run`, on the
    /// files todo.sh's config chose.
    var todoSh: TodoShActions.Action?
    /// Where `--help` and the man page list the action.
    var group: Group = .tasks
    /// What `todo help ACTION` and the man page say after the options: what the arguments may be,
    /// what the action prints.
    var notes: [String] = []

    /// What completes an action's words: `task` the first only (`append NR TEXT`), `tasks` every one
    /// (`do NR…`), `views` the saved views' names (`view NAME`).
    enum Completion: Sendable { case nothing, files, task, tasks, projectsAndContexts, shells, actions, views }

    /// The headings of `--help`, in order.
    enum Group: String, Sendable, CaseIterable {
        case tasks = "tasks"
        case listing = "listing"
        case file = "the file"
        case sync = "sync"
        case program = "help and setup"
    }

    /// `bothNames`: `todo` and `todo.sh`; `todoOnly`: `version`, the completion helper;
    /// `todoShOnly`: `shorthelp`.
    enum Availability: Sendable { case bothNames, todoOnly, todoShOnly }

    /// An action declared with its options: `implementation` gets the parsed words and the usage
    /// line. Every mistake on the command line (an undeclared option, a missing value, too few or
    /// too many arguments) is a usage error ending in that usage line.
    init(name: String, aliases: [String] = [], options: [ActionOption] = [], arguments positionals: String,
         placement: OptionPlacement = .anywhere, argumentCount: ClosedRange<Int>? = 0...1,
         summary: String, completes: Completion, availability: Availability = .bothNames,
         group: Group = .tasks, notes: [String] = [],
         parsed implementation: @escaping @Sendable (inout Invocation, ParsedArguments, String) throws(CLIError) -> Int32,
         todoSh: TodoShActions.Action? = nil) {
        self.name = name
        self.aliases = aliases
        self.positionals = positionals
        self.summary = summary
        self.options = options
        self.placement = placement
        self.argumentCount = argumentCount
        self.completes = completes
        self.availability = availability
        self.group = group
        self.notes = notes
        self.todoSh = todoSh
        self.run = { _, _ throws(CLIError) in 0 }
        let declaration = self
        self.run = { invocation, words throws(CLIError) in
            let usage = declaration.usage(programName: invocation.programName)
            let parsed = try declaration.parse(words, usage: usage)
            return try implementation(&invocation, parsed, usage)
        }
    }

    /// An action whose implementation takes its arguments as words (the options already taken
    /// out); `applying` sets what the options mean on the invocation first (`--force`).
    init(name: String, aliases: [String] = [], options: [ActionOption] = [], arguments positionals: String,
         placement: OptionPlacement = .leading, argumentCount: ClosedRange<Int>? = nil,
         summary: String, completes: Completion, availability: Availability = .bothNames,
         group: Group = .tasks, notes: [String] = [],
         words implementation: @escaping @Sendable (inout Invocation, [String]) throws(CLIError) -> Int32,
         todoSh: TodoShActions.Action? = nil) {
        self.init(name: name, aliases: aliases, options: options, arguments: positionals, placement: placement,
                  argumentCount: argumentCount, summary: summary, completes: completes, availability: availability,
                  group: group, notes: notes, parsed: { invocation, parsed, _ throws(CLIError) in
                      if parsed.flags.contains("--force") { invocation.force = true }
                      return try implementation(&invocation, parsed.positionals)
                  }, todoSh: todoSh)
    }

    /// `words` split by the declared options and checked against `argumentCount`.
    func parse(_ words: [String], usage: String) throws(CLIError) -> ParsedArguments {
        let parsed = try ParsedArguments(words, options: options, placement: placement, usage: usage)
        if let argumentCount {
            if parsed.positionals.count < argumentCount.lowerBound {
                throw .usage("missing arguments; usage: \(usage)")
            }
            if parsed.positionals.count > argumentCount.upperBound {
                throw .usage("too many arguments; usage: \(usage)")
            }
        }
        return parsed
    }

    /// What completes each argument in turn, the last for every further one: `.task` is a task,
    /// then nothing (`append NR TEXT`).
    var argumentCompletions: [Completion] {
        completionsByArgument ?? (completes == .task ? [.tasks, .nothing] : [completes])
    }

    /// This action with `each` completing its arguments in turn (`move NR DEST SRC`: a task, files).
    func completing(_ each: Completion...) -> ActionSpec {
        var copy = self
        copy.completionsByArgument = each
        return copy
    }

    /// This action, offered by `availability`'s names only.
    func available(_ availability: Availability) -> ActionSpec {
        var copy = self
        copy.availability = availability
        return copy
    }

    /// This action listed under `group`, with `notes` for `todo help ACTION`.
    func listed(under group: Group, notes: [String] = []) -> ActionSpec {
        var copy = self
        copy.group = group
        if !notes.isEmpty { copy.notes = notes }
        return copy
    }

    /// The arguments as usage lines show them: the options, then the positionals:
    /// `[--check] [--dry-run] [--by KEYS] [FILE]`.
    var arguments: String {
        (options.filter(\.inUsage).map { "[\($0.usage)]" } + (positionals.isEmpty ? [] : [positionals]))
            .joined(separator: " ")
    }

    /// What `todo help ACTION` and the man page print after the summary: each option, then the notes.
    var details: [String] { options.flatMap(\.helpLines) + notes }

    /// `todo sort [--check] …`
    func usage(programName: String) -> String {
        "\(programName) \(name)" + (arguments.isEmpty ? "" : " \(arguments)")
    }

    /// Whether `name` calls this action.
    func answers(to name: String) -> Bool { self.name == name || aliases.contains(name) }
}

/// Every action of both names, in help order.
enum ActionTable {
    static let all: [ActionSpec] = TodoNameActions.specs + [
        UndoAction.spec, EditAction.spec, UIAction.spec, ExportAction.spec, UIDAction.spec,
        // Dates that plan (docs/todo-command.md, "The agenda", "Postponing", "Saved views").
        AgendaAction.spec, PostponeAction.spec, ViewAction.spec,
        // Notes and links (docs/todo-command.md, "Notes and links").
        NoteActions.noteSpec, NoteActions.openSpec,
        // Time tracking (docs/todo-command.md, "Time tracking").
        TimeTrackingActions.startSpec, TimeTrackingActions.stopSpec,
        // Dependencies (docs/todo-command.md, "Dependencies").
        DepAction.spec, CheckAction.spec,
        SortAction.spec, ArchiveAction.spec, WatchAction.spec, MergeAction.spec, ReconcileAction.spec,
        SyncAction.spec,
        WhereAction.spec, CommandAction.spec, HelpAction.spec, TodoShHelp.shortHelpSpec, VersionAction.spec,
        CompletionsAction.spec, CompletionsAction.wordsSpec, CompletionsAction.tasksSpec, CompletionsAction.addonsSpec,
        ViewAction.namesSpec,
        ManPageAction.spec,
    ]

    /// What the search terms of the listings mean (docs/todo-command.md).
    static let termDetails = [
        "TERM: shown when every TERM matches; -TERM hides what matches. A term without . [ ] * ^ $ \\",
        "      is plain text, ignoring case and accents (cafe finds Café); with them, a grep basic",
        "      regular expression. Typed terms test a task's fields: due:, t:, created:, completed:",
        "      with < <= > >= = (or nothing) and a date (2026-12-01, today, tm, fri, 3d, -1w…), or",
        "      none/any; pri:A, pri:A-C, pri:none, pri:any; a|b matches either (docs/todo-command.md).",
        "-a, --all: also the tasks hidden by h:1 or by a t: threshold in the future.",
    ]

    /// What `NR|UID` may be, for every action that takes a task.
    static let addressDetails = [
        "NR|UID: a line number, a uid (uid:k3f9qz or k3f9qz) or a unique start of one; several are",
        "        separated by spaces or commas.",
    ]

    /// What `NR|UID` may be, for an action that takes one task (`append`, `del`, `move`, each
    /// pair of `pri`): a comma there is refused rather than looked up as a uid.
    static let singleAddressDetails = [
        "NR|UID: one task: a line number, a uid (uid:k3f9qz or k3f9qz) or a unique start of one.",
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
