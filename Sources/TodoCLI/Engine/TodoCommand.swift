import TodoFileSystem
import TodoTxt

/// The program: parses global options, dispatches to an action from `ActionTable`, and turns every
/// error into one stderr line and an exit code.
public enum TodoCommand {
    /// The program's synopsis, as `--help` shows it and every command-line error ends.
    static func synopsis(_ programName: String) -> String {
        "\(programName) [-f FILE] [-q] [--color=always|never|auto] ACTION [ARGUMENTS]"
    }

    /// The options before the action, for `--help` and the man page (parsed by `parseLongOption`
    /// and `parseShortOptions`).
    static let globalOptions: [(names: String, meaning: String)] = [
        ("-f FILE, --file=FILE", "the todo file (done.txt is beside it)"),
        ("-q, --quiet", "no reports, only errors"),
        ("-a, --all", "listings also show tasks hidden by h:1 or a future t:"),
        ("--color=WHEN", "always, never or auto (colour on a terminal unless NO_COLOR is set)"),
        ("-p, -c", "no colour, colour (todo.sh's spellings)"),
        ("-t, -T, --no-date", "add with, without a creation date"),
        ("-n, -N", "del removes the line, leaves it empty (the default)"),
        ("-A", "do archives the completed tasks afterwards"),
        ("-@, -+, -P", "listings hide contexts, projects, priorities"),
        ("-v", "more output (-vv: todo.sh's debug lines)"),
        ("-x", "no TODOTXT_FINAL_FILTER"),
        ("-d CONFIG", "read this todo.sh config file"),
        ("--force", "no confirmation prompts (del, move)"),
        ("-h, --help", "this help"),
        ("-V, --version", "the version"),
    ]

    /// A few commands that show what the program is for, for `--help` and the man page.
    static func examples(_ programName: String) -> [(command: String, meaning: String)] {
        [
            ("\(programName) add \"(A) call mum +family @phone due:2026-12-24\"", "add a task (dated, with a uid)"),
            ("\(programName) ls +family -phone", "the tasks of +family without @phone"),
            ("\(programName) do 3", "complete task 3 (or by uid: \(programName) do k3f9qz)"),
            ("\(programName) sort", "completed tasks to the bottom; silent, for cron"),
            ("\(programName) merge --setup", "merge todo.txt task by task in this git repository"),
            ("\(programName) reconcile", "fold Dropbox or Syncthing conflict copies back in"),
        ]
    }

    /// A usage error of the command line as a whole: `what; usage: SYNOPSIS`.
    static func usageError(_ what: String, _ invocation: Invocation) -> CLIError {
        .usage("\(what); usage: \(synopsis(invocation.programName))")
    }

    /// The version printed by `--version`.
    public static let version = "0.1.0"

    /// Runs the program as `arguments` (argv, program path first) in `environment`, writing to `io`.
    /// Returns the exit code. Never traps on bad input.
    public static func run(arguments: [String], environment: [String: String], io: CommandIO) -> Int32 {
        run(arguments: arguments, environment: environment, io: io, fileSystem: FileSystem())
    }

    /// `run` on `fileSystem`: every file the command reads or writes goes through it (tests give
    /// one whose system calls fail on purpose).
    package static func run(arguments: [String], environment: [String: String], io: CommandIO,
                            fileSystem: FileSystem) -> Int32 {
        let programPath = arguments.first ?? "todo"
        let programName = programPath.split(separator: "/").last.map(String.init) ?? "todo"
        var invocation = Invocation(programName: programName == "todo.sh" ? "todo.sh" : "todo",
                                    environment: environment, io: io, clock: Clock(environment: environment),
                                    files: FileAccess(fileSystem: fileSystem))
        invocation.programPath = programPath
        do {
            if invocation.programName == "todo.sh" {
                return try TodoShCommand.run(arguments, &invocation)
            }
            return try dispatch(Array(arguments.dropFirst()), &invocation)
        } catch {
            return error.report(to: io, programName: invocation.programName)
        }
    }

    static func dispatch(_ arguments: [String], _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        var index = 0
        while index < arguments.count, arguments[index].hasPrefix("-"), arguments[index] != "-" {
            let argument = arguments[index]
            index += 1
            if argument == "--" { break }
            if argument.hasPrefix("--") {
                if let status = try parseLongOption(argument, arguments, &index, &invocation) { return status }
            } else if let status = try parseShortOptions(argument, arguments, &index, &invocation) {
                return status
            }
        }
        if let timeout = invocation.environment["TODO_LOCK_TIMEOUT"], !timeout.isEmpty,
           FileAccess.parseLockTimeout(timeout) == nil {
            throw .failure("TODO_LOCK_TIMEOUT: '\(timeout)' is not a number of seconds from 0 to 86400")
        }
        if let configFile = invocation.configFile {
            switch invocation.files.fileSystem.kind(of: configFile) {
            case .regular?, .characterDevice?: break
            case .directory?: throw .failure("\(configFile): is a directory (given with -d as the config file)")
            case nil: throw .failure("\(configFile): no such config file (given with -d)")
            default: throw .failure("\(configFile): not a regular file (given with -d as the config file)")
            }
        }
        if invocation.needsConfigForFiles || invocation.configFile != nil {
            if let config = try TodoNameActions.config(invocation) {
                invocation.configPath = config.path
                invocation.configVariables = config.variables
            }
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
            throw usageError("unknown action '\(name)'\(ActionTable.suggestion(for: name))", invocation)
        }
        return try action.run(&invocation, Array(arguments[(index + 1)...]))
    }

    /// `--name` and `--name=value`. Returns an exit status when the option is itself the command
    /// (`--help`, `--version`).
    static func parseLongOption(_ argument: String, _ arguments: [String], _ index: inout Int,
                                _ invocation: inout Invocation) throws(CLIError) -> Int32? {
        switch argument {
        case "--help": return try HelpAction.spec.run(&invocation, [])
        case "--version": return try VersionAction.spec.run(&invocation, [])
        case "--quiet": invocation.quiet = true
        case "--all": invocation.showAll = true
        case "--no-date": invocation.dateOnAddOption = false
        case "--force": invocation.force = true
        case "--file":
            guard index < arguments.count else { throw usageError("option --file needs a file", invocation) }
            invocation.fileOption = arguments[index]
            index += 1
        default:
            if argument.hasPrefix("--file=") {
                invocation.fileOption = String(argument.dropFirst("--file=".count))
            } else if argument.hasPrefix("--color=") || argument.hasPrefix("--colour=") {
                let value = String(argument.drop { $0 != "=" }.dropFirst())
                guard let mode = Invocation.ColorMode(rawValue: value) else {
                    throw usageError("--color takes always, never or auto, not '\(value)'", invocation)
                }
                invocation.colorMode = mode
            } else {
                throw usageError("unknown option \(argument)", invocation)
            }
        }
        return nil
    }

    /// A bundle of one-letter options, getopts style (`-qa`, `-fFILE`, `-d CONFIG`): todo.sh's
    /// options with todo.sh's meaning, except `-f FILE` (the file; todo.sh's force is `--force`),
    /// `-a` (list all; todo.sh's "no auto-archive" is already the default here) and `-q` (quiet).
    static func parseShortOptions(_ argument: String, _ arguments: [String], _ index: inout Int,
                                  _ invocation: inout Invocation) throws(CLIError) -> Int32? {
        let letters = Array(argument.dropFirst())
        var position = 0
        while position < letters.count {
            let letter = letters[position]
            position += 1
            switch letter {
            case "h": return try HelpAction.spec.run(&invocation, [])
            case "V": return try VersionAction.spec.run(&invocation, [])
            case "q": invocation.quiet = true
            case "a": invocation.showAll = true
            case "t": invocation.dateOnAddOption = true
            case "T": invocation.dateOnAddOption = false
            case "p": invocation.colorMode = .never
            case "c": invocation.colorMode = .always
            case "n": invocation.preserveLineNumbersOption = false
            case "N": invocation.preserveLineNumbersOption = true
            case "A": invocation.autoArchiveOption = true
            case "v": invocation.verboseCount += 1
            case "x": invocation.disableFilter = true
            case "@": invocation.hideContexts.toggle()
            case "+": invocation.hideProjects.toggle()
            case "P": invocation.hidePriorities.toggle()
            case "f", "d":
                let value: String
                if position < letters.count {
                    value = String(letters[position...])
                    position = letters.count
                } else if index < arguments.count {
                    value = arguments[index]
                    index += 1
                } else {
                    throw usageError("option -\(letter) needs \(letter == "f" ? "a file" : "a config file")", invocation)
                }
                if letter == "f" { invocation.fileOption = value } else { invocation.configFile = value }
            default:
                throw usageError("unknown option -\(letter)", invocation)
            }
        }
        return nil
    }
}
