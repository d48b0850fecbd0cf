/// One action of the command line, declared once: this declaration drives argument dispatch, the
/// program's `--help`, `todo help ACTION` and the shell completion scripts.
struct ActionSpec: Sendable {
    /// The name typed on the command line.
    let name: String
    /// Other accepted names (`rm` for `del`).
    let aliases: [String]
    /// The arguments, as shown in usage lines: `[--check] [--dry-run] [--by KEYS] [FILE]`.
    let arguments: String
    /// One sentence for `--help`.
    let summary: String
    /// Options the action accepts (for completions); values are written `--by=`.
    let options: [String]
    /// What completes the action's positional arguments.
    let completes: Completion
    /// Runs the action with its arguments (the action name excluded). Returns the exit code.
    let run: @Sendable (inout Invocation, [String]) throws(CLIError) -> Int32

    enum Completion: Sendable { case nothing, files, tasks, projectsAndContexts, shells }

    /// `todo sort [--check] …`
    func usage(programName: String) -> String {
        "\(programName) \(name)" + (arguments.isEmpty ? "" : " \(arguments)")
    }
}

/// Every action, in help order.
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
        VersionAction.spec,
        CompletionsAction.spec,
        CompletionsAction.wordsSpec,
    ]

    /// `todo`'s own actions that todo.sh does not have, by every name they answer to: available under
    /// the name `todo.sh` too (README, "Using it as todo.sh").
    static let additions: [String: ActionSpec] = {
        let own = [ExportAction.spec, SortAction.spec, UIDAction.spec, UndoAction.spec, EditAction.spec,
                   MergeAction.spec, ReconcileAction.spec, CompletionsAction.spec, WatchAction.spec]
        var table: [String: ActionSpec] = [:]
        for action in own {
            for name in [action.name] + action.aliases { table[name] = action }
        }
        return table
    }()

    /// The action called `name` or aliased so.
    static func find(_ name: String) -> ActionSpec? {
        all.first { $0.name == name || $0.aliases.contains(name) }
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
