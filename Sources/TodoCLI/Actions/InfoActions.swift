/// `todo help [ACTION]` and `todo --version`: generated from `ActionTable`.
enum HelpAction {
    static let spec = ActionSpec(
        name: "help", aliases: [], arguments: "[ACTION]",
        summary: "Show this help, or the usage of one action.",
        options: [], completes: .nothing,
        run: { invocation, arguments throws(CLIError) in
            if let name = arguments.first {
                guard let action = ActionTable.find(name) else {
                    throw .usage("unknown action '\(name)'; see '\(invocation.programName) --help'")
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
        return lines.joined(separator: "\n")
    }

    static func programHelp(programName: String) -> String {
        let width = (ActionTable.todoActions.filter { !$0.summary.isEmpty }.map { $0.name.count }.max() ?? 0) + 2
        var lines = [
            "\(programName): keep a todo.txt file, safely.",
            "",
            "usage: \(TodoCommand.synopsis(programName))",
            "",
            "actions:",
        ]
        for action in ActionTable.todoActions where !action.summary.isEmpty {
            let padding = String(repeating: " ", count: max(1, width - action.name.count))
            lines.append("  \(action.name)\(padding)\(action.summary)")
        }
        lines += [
            "",
            "The file is -f FILE, else $TODO_FILE, else $TODO_DIR/todo.txt, else ./todo.txt if it exists,",
            "else ~/todo.txt. Run '\(programName) help ACTION' for an action's arguments.",
        ]
        return lines.joined(separator: "\n")
    }
}

enum VersionAction {
    static let spec = ActionSpec(
        name: "version", aliases: [], arguments: "",
        summary: "Print the version.",
        options: [], completes: .nothing, availability: .todoOnly,
        run: { invocation, _ throws(CLIError) in
            invocation.say("\(invocation.programName) \(TodoCommand.version)")
            return 0
        })
}
