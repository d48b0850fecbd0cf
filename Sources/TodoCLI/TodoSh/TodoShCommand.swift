import TodoTxt
import TodoFileSystem

/// The program under the name `todo.sh`: a drop-in replacement for todo.txt-cli's todo.sh
/// (docs/todosh.md). Start-up follows todo.sh's order: options, config, overrides, sanity checks, files,
/// then the action.
enum TodoShCommand {
    /// The version line's number (`TODO.TXT Command Line Interface v…`).
    static let compatibleVersion = "2.13.0"

    static func run(_ arguments: [String], _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        var context = TodoShContext(settings: TodoShSettings(), invocation: invocation)
        return try start(Array(arguments.dropFirst()), &context)
    }

    /// What the command line said before the action.
    struct Options {
        var verboseCount = 0
        var plain: Bool?
        var force: Bool?
        var preserveLineNumbers: Bool?
        var autoArchive: Bool?
        var dateOnAdd: Bool?
        var disableFilter: Bool?
        var hideContexts = 0, hideProjects = 0, hidePriorities = 0
        var configFile: String?
        var shortHelp = false
        var version = false
        var invalid = false
        var remaining: [String] = []
    }

    /// getopts over `fhpcnNaAtTvVx+@Pd:`: bundling, `-d FILE`/`-dFILE`, stop at the first non-option,
    /// `--` ends options; `-h` stops parsing and `-V` wins at once.
    static func parseOptions(_ arguments: [String]) -> Options {
        var options = Options()
        var index = 0
        parsing: while index < arguments.count {
            let argument = Array(arguments[index].utf8)
            guard argument.count > 1, argument[0] == 0x2D else { break }
            index += 1
            if argument == [0x2D, 0x2D] { break }
            var position = 1
            while position < argument.count {
                let letter = argument[position]
                position += 1
                switch letter {
                case UInt8(ascii: "@"): options.hideContexts += 1
                case UInt8(ascii: "+"): options.hideProjects += 1
                case UInt8(ascii: "P"): options.hidePriorities += 1
                case UInt8(ascii: "a"): options.autoArchive = false
                case UInt8(ascii: "A"): options.autoArchive = true
                case UInt8(ascii: "c"): options.plain = false
                case UInt8(ascii: "p"): options.plain = true
                case UInt8(ascii: "f"): options.force = true
                case UInt8(ascii: "n"): options.preserveLineNumbers = false
                case UInt8(ascii: "N"): options.preserveLineNumbers = true
                case UInt8(ascii: "t"): options.dateOnAdd = true
                case UInt8(ascii: "T"): options.dateOnAdd = false
                case UInt8(ascii: "v"): options.verboseCount += 1
                case UInt8(ascii: "x"): options.disableFilter = true
                case UInt8(ascii: "V"):
                    options.version = true
                    return options
                case UInt8(ascii: "h"):
                    options.shortHelp = true
                    break parsing
                case UInt8(ascii: "d"):
                    if position < argument.count {
                        options.configFile = String(decoding: argument[position...], as: UTF8.self)
                    } else if index < arguments.count {
                        options.configFile = arguments[index]
                        index += 1
                    } else {
                        options.invalid = true
                        return options
                    }
                    continue parsing
                default:
                    options.invalid = true
                    return options
                }
            }
        }
        options.remaining = options.shortHelp ? ["shorthelp"] : Array(arguments[index...])
        return options
    }

    static func start(_ arguments: [String], _ context: inout TodoShContext) throws(CLIError) -> Int32 {
        let options = parseOptions(arguments)
        if options.invalid { throw context.usage() }
        if options.version {
            TodoShHelp.version(context)
            return 0
        }
        let environment = context.environment
        var settings = context.settings

        // Config: located, executed, read back.
        let requested = options.configFile ?? environment["TODOTXT_CFG_FILE"].flatMap { $0.isEmpty ? nil : $0 }
        guard let configPath = TodoShConfig.locate(explicit: requested, environment: environment, fileSystem: context.files.fileSystem,
                                                   programPath: context.programPath) else {
            let action = options.remaining.first?.lowercased()
            if action == "help" || action == "shorthelp" {
                var helpContext = context
                helpContext.settings.actionsDirectory = actionsDirectory(settings: settings, variables: environment,
                                                                          fileSystem: context.files.fileSystem)
                TodoShHelp.printHelp(action == "help" ? .full : .short, helpContext, toError: true)
            }
            throw context.die("Fatal Error: Cannot read configuration file \(requested ?? (environment["HOME"] ?? "") + "/.todo/config")")
        }
        var configEnvironment = environment
        configEnvironment["TODO_SH"] = context.programName
        configEnvironment["TODO_FULL_SH"] = context.programPath
        configEnvironment["TODOTXT_CFG_FILE"] = configPath
        let verboseBefore = Int(environment["TODOTXT_VERBOSE"] ?? "") ?? (options.verboseCount > 0 ? 0 : 1)
        configEnvironment["TODOTXT_VERBOSE"] = String(options.verboseCount > 0 ? options.verboseCount : verboseBefore)
        let outcome = TodoShConfig.execute(configPath, environment: configEnvironment, programPath: context.programPath)
        if let status = outcome.exitStatus { throw .status(status) }
        let variables = outcome.variables
        settings.variables = variables
        settings.exportedEnvironment = outcome.exported

        // Precedence: flag > environment (non-empty) > config > default.
        func pick(_ name: String, flag: String?) -> String? {
            if let flag { return flag }
            if let value = environment[name], !value.isEmpty { return value }
            if let value = variables[name], !value.isEmpty { return value }
            return nil
        }
        func bit(_ flag: Bool?) -> String? { flag.map { $0 ? "1" : "0" } }
        settings.verbose = Int(pick("TODOTXT_VERBOSE", flag: options.verboseCount > 0 ? String(options.verboseCount) : nil) ?? "1") ?? 1
        settings.plain = pick("TODOTXT_PLAIN", flag: bit(options.plain)) == "1"
        settings.force = pick("TODOTXT_FORCE", flag: bit(options.force)) == "1"
        settings.preserveLineNumbers = (pick("TODOTXT_PRESERVE_LINE_NUMBERS", flag: bit(options.preserveLineNumbers)) ?? "1") != "0"
        settings.autoArchive = (pick("TODOTXT_AUTO_ARCHIVE", flag: bit(options.autoArchive)) ?? "1") != "0"
        settings.dateOnAdd = pick("TODOTXT_DATE_ON_ADD", flag: bit(options.dateOnAdd)) == "1"
        settings.priorityOnAdd = pick("TODOTXT_PRIORITY_ON_ADD", flag: nil) ?? ""
        settings.disableFilter = pick("TODOTXT_DISABLE_FILTER", flag: bit(options.disableFilter)) == "1"
        settings.defaultAction = pick("TODOTXT_DEFAULT_ACTION", flag: nil) ?? ""
        settings.sortCommand = pick("TODOTXT_SORT_COMMAND", flag: nil) ?? TodoShSettings.defaultSortCommand
        settings.finalFilter = pick("TODOTXT_FINAL_FILTER", flag: nil) ?? "cat"
        settings.hideContexts = options.hideContexts % 2 == 1
        settings.hideProjects = options.hideProjects % 2 == 1
        settings.hidePriorities = options.hidePriorities % 2 == 1
        settings.hideCustomSubstitution = variables["HIDE_CUSTOM_SUBSTITUTION"] ?? ""
        settings.sentenceDelimiters = variables["SENTENCE_DELIMITERS"] ?? ",.:;"
        settings.sigilBeforePattern = variables["TODOTXT_SIGIL_BEFORE_PATTERN"] ?? ""
        settings.sigilAfterPattern = variables["TODOTXT_SIGIL_AFTER_PATTERN"] ?? ""
        settings.sigilValidPattern = variables["TODOTXT_SIGIL_VALID_PATTERN"].flatMap { $0.isEmpty ? nil : $0 } ?? ".*"
        settings.sourceVariable = variables["TODOTXT_SOURCEVAR"] ?? ""
        settings.actionsDirectory = actionsDirectory(settings: settings, variables: variables, fileSystem: context.files.fileSystem)

        // The action: arguments, else the default action re-read as shell words.
        var remaining = options.remaining
        if remaining.isEmpty, !settings.defaultAction.isEmpty {
            remaining = TodoShConfig.shellWords(settings.defaultAction, variables: variables)
        }
        context.settings = settings
        guard !remaining.isEmpty else { throw context.usage() }

        // Sanity checks and files, for every action.
        settings.todoDirectory = variables["TODO_DIR"] ?? ""
        if !context.files.fileSystem.makeDirectories(settings.todoDirectory) {
            throw context.die("Fatal Error: \(settings.todoDirectory) is not a directory")
        }
        let priority = settings.priorityOnAdd
        if !priority.isEmpty && !(priority.utf8.count == 1 && priority.utf8.allSatisfy { $0 >= 0x41 && $0 <= 0x5A }) {
            throw context.die("TODOTXT_PRIORITY_ON_ADD should be a capital letter from A to Z (it is now \"\(priority)\").")
        }
        func file(_ name: String, _ base: String) -> String {
            variables[name].flatMap { $0.isEmpty ? nil : $0 } ?? settings.todoDirectory + "/" + base
        }
        settings.todoFile = file("TODO_FILE", "todo.txt")
        settings.doneFile = file("DONE_FILE", "done.txt")
        settings.reportFile = file("REPORT_FILE", "report.txt")
        for path in [settings.todoFile, settings.doneFile, settings.reportFile] {
            let kind = context.files.fileSystem.kind(of: path)
            if kind != .regular && kind != .characterDevice { context.files.fileSystem.createEmptyFile(path) }
        }
        if settings.plain {
            for name in settings.variables.keys where name.hasPrefix("PRI_") || name.hasPrefix("COLOR_") {
                settings.variables[name] = ""
            }
            settings.variables["DEFAULT"] = ""
        }
        if settings.hideProjects { settings.variables["COLOR_PROJECT"] = "" }
        if settings.hideContexts { settings.variables["COLOR_CONTEXT"] = "" }
        context.settings = settings
        return try TodoShActions.dispatch(remaining, &context)
    }

    /// `TODO_ACTIONS_DIR` if it is a directory, else `~/.todo/actions`, else `~/.todo.actions.d`, else
    /// `${XDG_CONFIG_HOME:-~/.config}/todo/actions`.
    static func actionsDirectory(settings: TodoShSettings, variables: [String: String], fileSystem: FileSystem) -> String {
        let home = variables["HOME"] ?? ""
        if let configured = variables["TODO_ACTIONS_DIR"], !configured.isEmpty,
           fileSystem.kind(of: configured) == .directory {
            return configured
        }
        let xdg = variables["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
        for candidate in [home + "/.todo/actions", home + "/.todo.actions.d", xdg + "/todo/actions"]
        where fileSystem.kind(of: candidate) == .directory {
            return candidate
        }
        return home + "/.todo/actions"
    }
}
