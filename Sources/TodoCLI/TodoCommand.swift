import TodoTxt

/// The program: parses global options, dispatches to an action from `ActionTable`, and turns every
/// error into one stderr line and an exit code.
public enum TodoCommand {
    /// The version printed by `--version`.
    public static let version = "0.1.0"

    /// Runs the program as `arguments` (argv, program path first) in `environment`, writing to `io`.
    /// Returns the exit code. Never traps on bad input.
    public static func run(arguments: [String], environment: [String: String], io: CommandIO) -> Int32 {
        let programPath = arguments.first ?? "todo"
        let programName = programPath.split(separator: "/").last.map(String.init) ?? "todo"
        var invocation = Invocation(programName: programName == "todo.sh" ? "todo.sh" : "todo",
                                    environment: environment, io: io, clock: Clock(environment: environment))
        invocation.programPath = programPath
        do {
            if invocation.programName == "todo.sh" {
                return try TodoShCommand.run(arguments, &invocation)
            }
            return try dispatch(Array(arguments.dropFirst()), &invocation)
        } catch {
            if let message = error.message(programName: invocation.programName) { io.printError(message) }
            return error.exitCode
        }
    }

    static func dispatch(_ arguments: [String], _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        var index = 0
        while index < arguments.count, arguments[index].hasPrefix("-") {
            let argument = arguments[index]
            index += 1
            switch argument {
            case "-h", "--help":
                return try HelpAction.spec.run(&invocation, [])
            case "-V", "--version":
                return try VersionAction.spec.run(&invocation, [])
            case "-q", "--quiet":
                invocation.quiet = true
            case "-a", "--all":
                invocation.showAll = true
            case "-T", "--no-date":
                invocation.noDateOnAdd = true
            case "--force":
                invocation.force = true
            case "-f", "--file":
                guard index < arguments.count else { throw .usage("option \(argument) needs a file") }
                invocation.fileOption = arguments[index]
                index += 1
            default:
                if argument.hasPrefix("--file=") {
                    invocation.fileOption = String(argument.dropFirst("--file=".count))
                } else if argument.hasPrefix("--color=") || argument.hasPrefix("--colour=") {
                    let value = String(argument.split(separator: "=", maxSplits: 1).last ?? "")
                    guard let mode = Invocation.ColorMode(rawValue: value) else {
                        throw .usage("--color takes always, never or auto, not '\(value)'")
                    }
                    invocation.colorMode = mode
                } else {
                    throw .usage("unknown option \(argument); see '\(invocation.programName) --help'")
                }
            }
        }
        if invocation.needsConfigForFiles {
            invocation.configVariables = TodoNameActions.configVariables(invocation)
        }
        // No action: list the tasks (or run the configured TODOTXT_DEFAULT_ACTION).
        guard index < arguments.count else {
            return try TodoNameActions.runDefaultAction(&invocation)
        }
        let name = arguments[index]
        guard let action = ActionTable.find(name) else {
            if let status = try TodoNameActions.runAddonIfPresent(name, Array(arguments[index...]), &invocation) {
                return status
            }
            throw .usage("unknown action '\(name)'; see '\(invocation.programName) --help'")
        }
        return try action.run(&invocation, Array(arguments[(index + 1)...]))
    }
}
