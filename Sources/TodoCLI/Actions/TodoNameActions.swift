import TodoFileSystem
import TodoTxt

/// The todo.sh actions under the name `todo`: the same implementations as `todo.sh` (Sources/TodoCLI/
/// TodoSh), run with the `todo` name's defaults (docs/todo-command.md):
///
/// - no configuration needed; a todo.sh config is read only to find the files when nothing more
///   explicit is given, and its `TODOTXT_*` variables still apply (environment beats config);
/// - `add` writes a creation date and a `uid:` (`-T` or `TODOTXT_DATE_ON_ADD=0`, `TODOTXT_UID_ON_ADD=0`
///   turn them off), and empty text is an error rather than a prompt;
/// - `do` keeps the priority as `pri:P`, adds the next instance of a `rec:` task, and does not
///   auto-archive (`TODOTXT_AUTO_ARCHIVE=1` switches it back on);
/// - colour only on a terminal (`--color`, `NO_COLOR`), control characters escaped on a terminal;
/// - listings hide `h:1` and future `t:` tasks unless `-a`/`--all`, and highlight overdue `due:`;
/// - a search term without regex metacharacters matches as plain text, ignoring case and diacritics;
/// - errors are `todo: what: why`; usage errors exit 2.
enum TodoNameActions {
    /// One entry of the action table: todo.sh's built-in `todoSh`, which the name `todo` runs with
    /// its own settings unless it has a `native` implementation. Either gets the words after the
    /// declared options (`--` after the action ends them: `todo add -- -x` adds the task `-x`).
    /// `singleTask`: the first argument is one task's address, never a list (`del 1,2` is refused
    /// with a reason instead of looked up as the uid `1,2`).
    static func spec(_ name: String, aliases: [String] = [], options: [ActionOption] = [], arguments: String,
                     placement: OptionPlacement = .leading, argumentCount: ClosedRange<Int>? = nil, singleTask: Bool = false,
                     summary: String, completes: ActionSpec.Completion = .tasks, todoSh: @escaping TodoShActions.Action,
                     native: (@Sendable (inout Invocation, [String]) throws(CLIError) -> Int32)? = nil) -> ActionSpec {
        let shared: @Sendable (inout Invocation, [String]) throws(CLIError) -> Int32 = { invocation, arguments throws(CLIError) in
            try run(todoSh, arguments, &invocation)
        }
        let chosen = native ?? shared
        return ActionSpec(name: name, aliases: aliases, options: options, arguments: arguments, placement: placement,
                          argumentCount: argumentCount, summary: summary, completes: completes,
                          parsed: { invocation, parsed, usage throws(CLIError) in
                              if parsed.flags.contains("--force") { invocation.force = true }
                              try TodoShListing.applyOrderOptions(parsed, usage: usage, to: &invocation)
                              let words = parsed.positionals
                              if singleTask, let address = words.first, address.contains(",") {
                                  throw .usage("'\(address)' names more than one task; \(name) takes one; usage: "
                                               + TaskActions.usage(name, invocation))
                              }
                              return try chosen(&invocation, words)
                          }, todoSh: todoSh)
    }

    /// `--force`, as `del` and `move` declare it.
    static let force = ActionOption.flag("--force", meaning: "no confirmation prompt.")

    static let specs: [ActionSpec] = [
        spec("add", aliases: ["a"], arguments: "TEXT", placement: .leadingThenText, summary: "Add a task (with today's date and a uid).",
             completes: .projectsAndContexts, todoSh: TodoShActions.add,
             native: { invocation, arguments throws(CLIError) in try AddActions.add(arguments, &invocation) })
            .listed(under: .tasks, notes: ["TEXT: the task; a creation date and a uid are added (-T: no date;",
                                              "      TODOTXT_UID_ON_ADD=0: no uid)."]),
        spec("addm", arguments: "TEXT", placement: .leadingThenText, summary: "Add one task per line of TEXT.", completes: .projectsAndContexts,
             todoSh: TodoShActions.addMultiple,
             native: { invocation, arguments throws(CLIError) in try AddActions.addMultiple(arguments, &invocation) })
            .listed(under: .tasks),
        spec("addto", arguments: "DEST TEXT", placement: .leadingThenText, summary: "Add a task to another file in the todo directory.",
             completes: .files, todoSh: TodoShActions.addTo,
             native: { invocation, arguments throws(CLIError) in try AddActions.addTo(arguments, &invocation) })
            .completing(.files, .projectsAndContexts)
            .listed(under: .tasks),
        spec("list", aliases: ["ls"], options: TodoShListing.orderOptions, arguments: "[TERM...]", placement: .leadingThenText,
             summary: "List tasks containing every TERM (-TERM excludes); -a shows hidden ones.",
             completes: .projectsAndContexts, todoSh: TodoShListing.list)
            .listed(under: .listing, notes: ActionTable.termDetails),
        spec("listall", aliases: ["lsa"], options: TodoShListing.orderOptions, arguments: "[TERM...]", placement: .leadingThenText, summary: "List tasks of the todo and done files.",
             completes: .projectsAndContexts, todoSh: TodoShListing.listAll)
            .listed(under: .listing, notes: ActionTable.termDetails),
        spec("listfile", aliases: ["lf"], options: TodoShListing.orderOptions, arguments: "[SRC [TERM...]]", placement: .leadingThenText, summary: "List the tasks of another file.",
             completes: .files, todoSh: TodoShListing.listFile)
            .listed(under: .listing),
        spec("listpri", aliases: ["lsp"], options: TodoShListing.orderOptions, arguments: "[PRIORITIES] [TERM...]", placement: .leadingThenText, summary: "List prioritized tasks.", completes: .projectsAndContexts, todoSh: TodoShListing.listPriority)
            .listed(under: .listing, notes: ["PRIORITIES: a letter or a range (A, A-C); then TERMs as for list."]),
        spec("listcon", aliases: ["lsc"], arguments: "[TERM...]", placement: .leadingThenText, summary: "List the contexts in use.", completes: .projectsAndContexts, todoSh: TodoShListing.listContexts)
            .listed(under: .listing),
        spec("listproj", aliases: ["lsprj"], arguments: "[TERM...]", placement: .leadingThenText, summary: "List the projects in use.", completes: .projectsAndContexts, todoSh: TodoShListing.listProjects)
            .listed(under: .listing),
        spec("append", aliases: ["app"], arguments: "NR|UID TEXT", singleTask: true, summary: "Add text to the end of a task (before its uid).",
             completes: .task, todoSh: TodoShActions.append,
             native: { invocation, arguments throws(CLIError) in try TaskActions.appendOrPrepend("append", arguments, &invocation) })
            .listed(under: .tasks, notes: ActionTable.singleAddressDetails),
        spec("prepend", aliases: ["prep"], arguments: "NR|UID TEXT", singleTask: true, summary: "Add text to the start of a task.",
             completes: .task, todoSh: TodoShActions.prepend,
             native: { invocation, arguments throws(CLIError) in try TaskActions.appendOrPrepend("prepend", arguments, &invocation) })
            .listed(under: .tasks, notes: ActionTable.singleAddressDetails),
        spec("replace", arguments: "NR|UID TEXT", singleTask: true, summary: "Replace a task's text (completion, dates, priority and uid kept).",
             completes: .task, todoSh: TodoShActions.replace,
             native: { invocation, arguments throws(CLIError) in try TaskActions.replace(arguments, &invocation) })
            .listed(under: .tasks, notes: ActionTable.singleAddressDetails),
        spec("pri", aliases: ["p"], arguments: "NR|UID PRIORITY [NR|UID PRIORITY ...]", summary: "Set a task's priority (A-Z).",
             completes: .task, todoSh: TodoShActions.prioritize,
             native: { invocation, arguments throws(CLIError) in try TaskActions.prioritize(arguments, &invocation) })
            .listed(under: .tasks, notes: ActionTable.singleAddressDetails),
        spec("depri", aliases: ["dp"], arguments: "NR|UID...", summary: "Remove tasks' priorities.",
             todoSh: TodoShActions.deprioritize,
             native: { invocation, arguments throws(CLIError) in try TaskActions.deprioritize(arguments, &invocation) })
            .listed(under: .tasks, notes: ActionTable.addressDetails),
        spec("do", aliases: ["done"], arguments: "NR|UID...",
             summary: "Mark tasks done (priority kept as pri:; a rec: task gets its next instance).",
             todoSh: TodoShActions.markDone,
             native: { invocation, arguments throws(CLIError) in try TaskActions.markDone(arguments, &invocation) })
            .listed(under: .tasks, notes: ActionTable.addressDetails),
        spec("del", aliases: ["rm"], options: [force], arguments: "NR|UID [TERM]", singleTask: true, summary: "Delete a task, or TERM from it.",
             completes: .task, todoSh: TodoShActions.delete,
             native: { invocation, arguments throws(CLIError) in try TaskActions.delete(arguments, &invocation) })
            .listed(under: .tasks, notes: ActionTable.singleAddressDetails),
        spec("move", aliases: ["mv"], options: [force], arguments: "NR|UID DEST [SRC]", placement: .anywhere, argumentCount: 2...3,
             singleTask: true, summary: "Move a task to another file.", completes: .task, todoSh: TodoShActions.move)
            .completing(.tasks, .files)
            .listed(under: .tasks, notes: ActionTable.singleAddressDetails),
        spec("deduplicate", arguments: "", summary: "Remove exact duplicate lines.", completes: .nothing, todoSh: TodoShActions.deduplicate)
            .listed(under: .file),
        // `--time` under the name `todo` only (docs/todo-command.md, "Time tracking").
        TimeReportAction.spec,
        spec("listaddons", arguments: "", summary: "List add-on actions.", completes: .nothing, todoSh: TodoShAddons.listAddons)
            .listed(under: .program),
    ]

    /// Runs todo.sh's implementation `action` with the `todo` name's settings.
    static func run(_ action: TodoShActions.Action, _ arguments: [String], _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        var context = TodoShContext(settings: settings(for: invocation), invocation: invocation)
        return try action(&context, arguments)
    }

    /// With no action: `TODOTXT_DEFAULT_ACTION` when set, else `ls`.
    static func runDefaultAction(_ invocation: inout Invocation) throws(CLIError) -> Int32 {
        let configured = invocation.environment["TODOTXT_DEFAULT_ACTION"].flatMap { $0.isEmpty ? nil : $0 }
            ?? invocation.configVariables["TODOTXT_DEFAULT_ACTION"].flatMap { $0.isEmpty ? nil : $0 }
        guard let configured else { return try run(TodoShListing.list, [], &invocation) }
        let words = TodoShConfig.shellWords(configured, variables: invocation.configVariables)
        guard let first = words.first, let action = ActionTable.find(first) else {
            throw .usage("TODOTXT_DEFAULT_ACTION '\(configured)' is not an action")
        }
        return try TodoCommand.run(action, Array(words.dropFirst()), &invocation)
    }

    /// An add-on from the actions directory (todo.sh's rules), run when no built-in has the name.
    static func runAddonIfPresent(_ name: String, _ arguments: [String], _ invocation: inout Invocation) throws(CLIError) -> Int32? {
        let context = TodoShContext(settings: settings(for: invocation), invocation: invocation)
        if let path = try TodoShAddons.executable(name, context),
           let refusal = TodoShConfig.refusal(toRun: path, as: "add-on", fileSystem: invocation.files.fileSystem) {
            throw .failure(refusal)
        }
        return try TodoShAddons.runIfPresent(name, arguments, context)
    }

    /// `ADDON usage` for `todo help ADDON`; false when there is no add-on of that name.
    static func printAddonUsageIfPresent(_ name: String, _ invocation: Invocation) throws(CLIError) -> Bool {
        let context = TodoShContext(settings: settings(for: invocation), invocation: invocation)
        guard try TodoShAddons.executable(name, context) != nil else { return false }
        TodoShAddons.usage(of: name, context)
        return true
    }

    /// The todo.sh config file, when one exists, and its variables (executed as todo.sh would).
    static func config(_ invocation: Invocation) throws(CLIError) -> (path: String, variables: [String: String])? {
        let environment = TodoShConfig.ignoringRelativeXDGConfigHome(invocation.environment)
        let explicit = invocation.configFile ?? environment["TODOTXT_CFG_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        guard let path = TodoShConfig.locate(explicit: explicit, environment: environment, fileSystem: invocation.files.fileSystem,
                                             programPath: invocation.programPath) else { return nil }
        if let refusal = TodoShConfig.refusal(toRun: path, as: "config", fileSystem: invocation.files.fileSystem) {
            throw .failure(refusal)
        }
        var configEnvironment = environment
        configEnvironment["TODO_SH"] = invocation.programName
        configEnvironment["TODO_FULL_SH"] = invocation.programPath
        configEnvironment["TODOTXT_CFG_FILE"] = path
        return (path, TodoShConfig.execute(path, environment: configEnvironment, programPath: invocation.programPath).variables)
    }

    /// todo.sh's colour presets, for runs that execute no config.
    static let colorPresets: [String: String] = {
        let esc = "\\\\033["
        var colors = [
            "NONE": "", "BLACK": esc + "0;30m", "RED": esc + "0;31m", "GREEN": esc + "0;32m", "BROWN": esc + "0;33m",
            "BLUE": esc + "0;34m", "PURPLE": esc + "0;35m", "CYAN": esc + "0;36m", "LIGHT_GREY": esc + "0;37m",
            "DARK_GREY": esc + "1;30m", "LIGHT_RED": esc + "1;31m", "LIGHT_GREEN": esc + "1;32m",
            "YELLOW": esc + "1;33m", "LIGHT_BLUE": esc + "1;34m", "LIGHT_PURPLE": esc + "1;35m",
            "LIGHT_CYAN": esc + "1;36m", "WHITE": esc + "1;37m", "DEFAULT": esc + "0m",
        ]
        for (name, value) in ["PRI_A": "YELLOW", "PRI_B": "GREEN", "PRI_C": "LIGHT_BLUE", "PRI_X": "WHITE",
                              "COLOR_DONE": "LIGHT_GREY"] {
            colors[name] = colors[value]
        }
        for name in ["COLOR_PROJECT", "COLOR_CONTEXT", "COLOR_DATE", "COLOR_NUMBER", "COLOR_META"] { colors[name] = "" }
        colors["SENTENCE_DELIMITERS"] = ",.:;"
        return colors
    }()

    /// The shared engine's settings for a run under the name `todo`: those resolved once at start-up
    /// (`TodoCommand.dispatch`), with an action's own `--force` (`del --force`) added.
    static func settings(for invocation: Invocation) -> TodoShSettings {
        guard var settings = invocation.todoNameSettings else { return resolveSettings(for: invocation) }
        if invocation.force { settings.force = true }
        settings.listingSort = invocation.listingSort
        settings.listingGroup = invocation.listingGroup
        return settings
    }

    /// The settings of the name `todo` from the options before the action, the environment and
    /// the config's variables: environment (non-empty) beats config beats the `todo` default.
    static func resolveSettings(for invocation: Invocation) -> TodoShSettings {
        let environment = invocation.environment
        let config = invocation.configVariables
        /// Environment (non-empty) beats config beats the `todo` default.
        func value(_ name: String, default fallback: String) -> String {
            if let set = environment[name], !set.isEmpty { return set }
            if let set = config[name], !set.isEmpty { return set }
            return fallback
        }
        var settings = TodoShSettings()
        settings.rules = .todo
        settings.variables = colorPresets.merging(config) { _, configured in configured }
        settings.exportedEnvironment = environment
        settings.verbose = invocation.quiet ? 0 : (Int(value("TODOTXT_VERBOSE", default: "1")) ?? 1) + invocation.verboseCount
        settings.plain = !invocation.usesColor
        settings.force = invocation.force || value("TODOTXT_FORCE", default: "0") == "1"
        settings.preserveLineNumbers = invocation.preserveLineNumbersOption
            ?? (value("TODOTXT_PRESERVE_LINE_NUMBERS", default: "1") != "0")
        settings.autoArchive = invocation.autoArchiveOption ?? (value("TODOTXT_AUTO_ARCHIVE", default: "0") == "1")
        settings.dateOnAdd = invocation.dateOnAddOption ?? (value("TODOTXT_DATE_ON_ADD", default: "1") != "0")
        settings.uidOnAdd = value("TODOTXT_UID_ON_ADD", default: "1") != "0"
        settings.priorityOnAdd = value("TODOTXT_PRIORITY_ON_ADD", default: "")
        settings.disableFilter = invocation.disableFilter || value("TODOTXT_DISABLE_FILTER", default: "0") == "1"
        settings.hideContexts = invocation.hideContexts
        settings.hideProjects = invocation.hideProjects
        settings.hidePriorities = invocation.hidePriorities
        settings.sortCommand = value("TODOTXT_SORT_COMMAND", default: TodoShSettings.defaultSortCommand)
        settings.finalFilter = value("TODOTXT_FINAL_FILTER", default: "cat")
        settings.lockTimeout = invocation.lockTimeout
        settings.modernListing = true
        settings.showHidden = invocation.showAll
        settings.escapeControls = invocation.io.outputIsTerminal
        settings.plainTextTerms = true
        settings.relativeDates = settings.rules.resolvesRelativeDates && value("TODO_RELATIVE_DATES", default: "1") != "0"
        settings.hideCustomSubstitution = config["HIDE_CUSTOM_SUBSTITUTION"] ?? ""
        settings.sentenceDelimiters = settings.variables["SENTENCE_DELIMITERS"] ?? ",.:;"
        settings.sigilValidPattern = config["TODOTXT_SIGIL_VALID_PATTERN"].flatMap { $0.isEmpty ? nil : $0 } ?? ".*"
        settings.sigilBeforePattern = config["TODOTXT_SIGIL_BEFORE_PATTERN"] ?? ""
        settings.sigilAfterPattern = config["TODOTXT_SIGIL_AFTER_PATTERN"] ?? ""
        settings.sourceVariable = config["TODOTXT_SOURCEVAR"] ?? ""
        let todoFile = invocation.todoFilePath()
        settings.todoFile = todoFile
        settings.doneFile = invocation.doneFilePath(forTodoFile: todoFile)
        settings.todoDirectory = FileAccess.directoryName(of: todoFile)
        settings.reportFile = value("REPORT_FILE", default: settings.todoDirectory + "/report.txt")
        settings.actionsDirectory = TodoShCommand.actionsDirectory(settings: settings,
                                                                   // Environment (non-empty) beats config, as for every setting.
                                                                   variables: TodoShConfig.ignoringRelativeXDGConfigHome(
                                                                       config.merging(environment.filter { !$0.value.isEmpty }) { _, env in env }),
                                                                   fileSystem: invocation.files.fileSystem)
        if settings.plain {
            for name in settings.variables.keys where name.hasPrefix("PRI_") || name.hasPrefix("COLOR_") {
                settings.variables[name] = ""
            }
            settings.variables["DEFAULT"] = ""
        }
        return settings
    }
}
