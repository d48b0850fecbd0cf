import TodoFileSystem
import TodoTxt

/// The program: parses global options, dispatches to an action from `ActionTable`, and turns every
/// error into one stderr line and an exit code.
public enum TodoCommand {
    /// The program's synopsis, as `--help` shows it and every command-line error ends: the options
    /// `GlobalOption.all` marks for it.
    static func synopsis(_ programName: String) -> String {
        let options = GlobalOption.all.filter(\.inSynopsis).map { "[" + $0.spelled($0.names[0], synopsis: true) + "]" }
        return ([programName] + options + ["ACTION [ARGUMENTS]"]).joined(separator: " ")
    }

    /// The options before the action, as `--help` and the man page list them.
    static var globalOptions: [(names: String, meaning: String)] { GlobalOption.helpLines }

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
        if invocation.clock.beyondCalendar {
            io.printError("\(invocation.programName): \(Clock.beyondCalendarWarning)")
        }
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
        if let size = invocation.environment["TODO_MAX_FILE_SIZE"], !size.isEmpty, FileSystem.parseSizeLimit(size) == nil {
            throw .failure("TODO_MAX_FILE_SIZE: '\(size)' is not a size (a positive number of bytes, or with K, M or G: 2G)")
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
        invocation.todoNameSettings = TodoNameActions.resolveSettings(for: invocation)
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
        return try run(action, Array(arguments[(index + 1)...]), &invocation)
    }

    /// Runs `action` on `words` under the name `todo`: `ACTION --help` (or `-h`) as the first word is
    /// `todo help ACTION`, as git and cargo users expect; `todo add -- --help` still adds that text.
    static func run(_ action: ActionSpec, _ words: [String], _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        if let first = words.first, first == "--help" || first == "-h" {
            return try HelpAction.spec.run(&invocation, [action.name])
        }
        return try action.run(&invocation, words)
    }

    /// `--name`, `--name=value` and `--name value` (for an option that takes one), as
    /// `GlobalOption.all` declares them. Returns an exit status when the option is itself the
    /// command (`--help`, `--version`).
    static func parseLongOption(_ argument: String, _ arguments: [String], _ index: inout Int,
                                _ invocation: inout Invocation) throws(CLIError) -> Int32? {
        var name = argument
        var inlineValue: String?
        if let equals = argument.firstIndex(of: "=") {
            name = String(argument[..<equals])
            inlineValue = String(argument[argument.index(after: equals)...])
        }
        guard let option = GlobalOption.named(name), option.value != nil || inlineValue == nil else {
            throw usageError("unknown option \(argument)", invocation)
        }
        guard option.value != nil else { return try option.apply(&invocation, "") }
        if let inlineValue { return try option.apply(&invocation, inlineValue) }
        guard index < arguments.count else { throw usageError("option \(name) needs \(option.needs)", invocation) }
        index += 1
        return try option.apply(&invocation, arguments[index - 1])
    }

    /// A bundle of one-letter options, getopts style (`-qa`, `-fFILE`, `-d CONFIG`), as
    /// `GlobalOption.all` declares them: todo.sh's options with todo.sh's meaning, except `-f FILE`
    /// (the file; todo.sh's force is `--force`), `-a` (list all; todo.sh's "no auto-archive" is
    /// already the default here) and `-q` (quiet).
    static func parseShortOptions(_ argument: String, _ arguments: [String], _ index: inout Int,
                                  _ invocation: inout Invocation) throws(CLIError) -> Int32? {
        let letters = Array(argument.dropFirst())
        var position = 0
        while position < letters.count {
            let letter = letters[position]
            position += 1
            guard let option = GlobalOption.named("-\(letter)") else { throw usageError("unknown option -\(letter)", invocation) }
            var value = ""
            if option.value != nil {
                if position < letters.count {
                    value = String(letters[position...])
                    position = letters.count
                } else if index < arguments.count {
                    value = arguments[index]
                    index += 1
                } else {
                    throw usageError("option -\(letter) needs \(option.needs)", invocation)
                }
            }
            if let status = try option.apply(&invocation, value) { return status }
        }
        return nil
    }
}
