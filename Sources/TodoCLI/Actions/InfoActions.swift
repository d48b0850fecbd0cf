/// `todo help [ACTION]` and `todo --version`: generated from `ActionTable`.
enum HelpAction {
    static let spec = ActionSpec(
        name: "help", arguments: "[ACTION]",
        summary: "Show this help, or the usage of one action.",
        completes: .actions,
        group: .program,
        words: { invocation, arguments throws(CLIError) in
            if let name = arguments.first {
                guard let action = ActionTable.find(name) else {
                    // An add-on answers with its own usage, as under todo.sh.
                    if try TodoNameActions.printAddonUsageIfPresent(name, invocation) { return 0 }
                    throw .usage("unknown action '\(name)'\(ActionTable.suggestion(for: name)); see '\(invocation.programName) --help'")
                }
                invocation.say(help(for: action, programName: invocation.programName))
                return 0
            }
            invocation.say(programHelp(programName: invocation.programName))
            return 0
        }, todoSh: TodoShHelp.help)

    static func help(for action: ActionSpec, programName: String) -> String {
        var lines = ["usage: \(action.usage(programName: programName))", "", "  \(action.summary)"]
        if !action.aliases.isEmpty { lines.append("  aliases: \(action.aliases.joined(separator: ", "))") }
        if !action.details.isEmpty { lines += [""] + action.details.map { "  " + $0 } }
        return lines.joined(separator: "\n")
    }

    static func programHelp(programName: String) -> String {
        let listed = ActionTable.todoActions.filter { !$0.summary.isEmpty }
        /// `list, ls`: the name and its aliases.
        func names(_ action: ActionSpec) -> String { ([action.name] + action.aliases).joined(separator: ", ") }
        let width = (listed.map { names($0).count }.max() ?? 0) + 2
        var lines = [
            "\(programName): keep a todo.txt file, safely.",
            "",
            "usage: \(TodoCommand.synopsis(programName))",
        ]
        for group in ActionSpec.Group.allCases {
            lines += ["", "\(group.rawValue):"]
            for action in listed where action.group == group {
                let padding = String(repeating: " ", count: max(1, width - names(action).count))
                lines.append("  \(names(action))\(padding)\(action.summary)")
            }
        }
        let optionWidth = (TodoCommand.globalOptions.map { $0.names.count }.max() ?? 0) + 2
        lines += ["", "options:"]
        for option in TodoCommand.globalOptions {
            lines.append("  \(option.names)\(String(repeating: " ", count: optionWidth - option.names.count))\(option.meaning)")
        }
        lines += ["", "examples:"]
        for example in TodoCommand.examples(programName) {
            lines.append("  \(example.command)")
            lines.append("      \(example.meaning)")
        }
        lines += [
            "",
            "The file is -f FILE, else $TODO_FILE, else $TODO_DIR/todo.txt, else a todo.sh config's, else",
            "./todo.txt if it exists, else ~/todo.txt ('\(programName) where' says which and why).",
            "Run '\(programName) help ACTION' for an action's arguments and options.",
        ]
        return lines.joined(separator: "\n")
    }
}

enum VersionAction {
    static let spec = ActionSpec(
        name: "version", arguments: "", argumentCount: 0...0,
        summary: "Print the version.",
        completes: .nothing, availability: .todoOnly,
        group: .program,
        words: { invocation, _ throws(CLIError) in
            invocation.say("\(invocation.programName) \(TodoCommand.version)")
            return 0
        })
}

/// `todo where`: the todo and done files a command run here would use, and why (docs/todo-command.md,
/// "No configuration needed"), so a `todo.txt` picked up from the current directory is never a
/// surprise.
enum WhereAction {
    /// `todo` only: under `todo.sh` the files are its config's (docs/todosh.md).
    static let spec = ActionSpec(
        name: "where", arguments: "", argumentCount: 0...0,
        summary: "Show which todo and done files are used here, and why.",
        completes: .nothing,
        group: .program,
        parsed: { invocation, _, _ throws(CLIError) in
            let todo = invocation.todoFileChoice()
            let done = invocation.doneFileChoice(forTodoFile: todo.path)
            for (label, path, reason) in [("todo file", todo.path, todo.reason), ("done file", done.path, done.reason)] {
                let missing = invocation.files.fileSystem.exists(path) ? "" : "; does not exist yet"
                let line = "\(label): \(absolute(path, invocation)) (\(reason)\(missing))"
                invocation.io.writeOutput(invocation.displayed(Array(line.utf8)) + [0x0A])
            }
            if let config = invocation.configPath {
                let why = invocation.configFile != nil ? "given with -d" : "no -f, $TODO_FILE or $TODO_DIR given"
                let line = "config: \(absolute(config, invocation)) (run by bash: \(why))"
                invocation.io.writeOutput(invocation.displayed(Array(line.utf8)) + [0x0A])
            }
            return 0
        }).available(.todoOnly)

    /// `path` made absolute against the current directory (a script asking where wants a path that
    /// means the same from anywhere); symlinks are kept, `./` dropped.
    static func absolute(_ path: String, _ invocation: Invocation) -> String {
        if path.hasPrefix("/") { return path }
        let relative = path.hasPrefix("./") ? String(path.dropFirst(2)) : path
        guard let current = try? invocation.files.fileSystem.realPath(".") else { return path }
        return current == "/" ? "/" + relative : current + "/" + relative
    }
}

/// `todo command ACTION [ARGUMENTS]`: runs a built-in action even when an add-on has its name, as
/// todo.sh's `command` does; add-ons call `"$TODO_FULL_SH" command ls` to reach the original.
enum CommandAction {
    /// `todo` only: under todo.sh, `command` is part of its dispatch (docs/todosh.md section 1).
    static let spec = ActionSpec(
        name: "command", arguments: "ACTION [ARGUMENTS]", placement: .leadingThenText,
        summary: "Run a built-in action, never an add-on of the same name.", completes: .actions,
        group: .program,
        words: { invocation, arguments throws(CLIError) in
            guard let name = arguments.first else { return 0 }
            guard let action = ActionTable.find(name), action.name != "command" else {
                throw .usage("unknown action '\(name)'\(ActionTable.suggestion(for: name)); see '\(invocation.programName) --help'")
            }
            return try TodoCommand.run(action, Array(arguments.dropFirst()), &invocation)
        }).available(.todoOnly)
}
