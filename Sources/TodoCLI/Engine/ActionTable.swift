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

    enum Completion: Sendable { case nothing, files, tasks, projectsAndContexts, shells }

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
                      let usage = "\(invocation.programName) \(name) \(arguments)"
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
    static let all: [ActionSpec] = TodoNameActions.specs + [
        ExportAction.spec,
        SortAction.spec,
        ArchiveAction.spec,
        UIDAction.spec,
        UndoAction.spec,
        EditAction.spec,
        MergeAction.spec,
        ReconcileAction.spec,
        WatchAction.spec,
        HelpAction.spec,
        TodoShHelp.shortHelpSpec,
        VersionAction.spec,
        CompletionsAction.spec,
        CompletionsAction.wordsSpec,
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
