import TodoTxt

/// Everything one run of the program knows: its name, environment, streams, clock and the global
/// options parsed so far. Passed to every action.
struct Invocation {
    /// argv[0] as given (used to register the merge driver by absolute path).
    var programPath: String = "todo"
    let programName: String
    let environment: [String: String]
    let io: CommandIO
    let clock: Clock
    /// Every file read and write of the command (the real file system, or a faulty one in tests).
    /// No default: an invocation made inside another (watch's reconcile, todo.sh's additions)
    /// must pass the outer one's on.
    let files: FileAccess
    /// `-f/--file PATH`, if given.
    var fileOption: String?
    /// `--color=always|never|auto`.
    var colorMode: ColorMode = .auto
    /// `-q`: no informational output.
    var quiet = false
    /// `-a`/`--all`: listings also show `h:1` and future-threshold tasks.
    var showAll = false
    /// `-t`/`-T`: `add` writes a creation date, or not (nil: the configured default).
    var dateOnAddOption: Bool?
    /// `-N`/`-n`: `del` leaves a blank line (line numbers kept) or removes the line.
    var preserveLineNumbersOption: Bool?
    /// `-A`: `do` archives afterwards (todo.sh's auto-archive).
    var autoArchiveOption: Bool?
    /// `-v` given this many times: listings print todo.sh's debug lines from two on.
    var verboseCount = 0
    /// `-x`: no `TODOTXT_FINAL_FILTER`.
    var disableFilter = false
    /// `-@`, `-+`, `-P`: hide contexts, projects, priority labels in listings (todo.sh's toggles:
    /// each use flips).
    var hideContexts = false
    var hideProjects = false
    var hidePriorities = false
    /// `-d CONFIG`: the todo.sh config file to read (as `TODOTXT_CFG_FILE`).
    var configFile: String?
    /// `--force`: no confirmation prompts (`del`, `move`).
    var force = false
    /// A listing's `--sort KEYS` and `--group FIELD` (`TodoShListing.orderOptions`).
    var listingSort: [ListingSortKey] = []
    var listingGroup: ListingGroup?
    /// The variables a todo.sh config file left behind, when one was needed to find the files
    /// (no `-f`, `$TODO_FILE` or `$TODO_DIR`) and exists; empty otherwise.
    var configVariables: [String: String] = [:]
    /// The todo.sh config file those variables came from.
    var configPath: String?
    /// The shared engine's settings under the name `todo`, resolved once when the options before
    /// the action have been read (nil until then, and under the name `todo.sh`).
    var todoNameSettings: TodoShSettings?

    enum ColorMode: String { case always, never, auto }

    /// Whether to colour output: never with `NO_COLOR`, else as `--color` says, else on a terminal.
    var usesColor: Bool {
        switch colorMode {
        case .always: return true
        case .never: return false
        case .auto: return io.outputIsTerminal && (environment["NO_COLOR"] ?? "").isEmpty
        }
    }

    /// The todo file (docs/todo-command.md, "No configuration needed"): `-f`; `$TODO_FILE`; `$TODO_DIR/todo.txt`;
    /// a todo.sh config file's `TODO_FILE` or `TODO_DIR`; `./todo.txt` if it exists; `~/todo.txt`.
    func todoFilePath(explicit: String? = nil) -> String {
        explicit ?? todoFileChoice().path
    }

    /// The todo file and why it is the one (`todo where`), in the order of `todoFilePath`.
    func todoFileChoice() -> (path: String, reason: String) {
        if let fileOption { return (fileOption, "given with -f") }
        if let file = environment["TODO_FILE"], !file.isEmpty { return (file, "$TODO_FILE") }
        if let directory = environment["TODO_DIR"], !directory.isEmpty { return (directory + "/todo.txt", "$TODO_DIR") }
        let config = configPath ?? "the todo.sh config"
        if let file = configVariables["TODO_FILE"], !file.isEmpty { return (file, "TODO_FILE in \(config)") }
        if let directory = configVariables["TODO_DIR"], !directory.isEmpty {
            return (directory + "/todo.txt", "TODO_DIR in \(config)")
        }
        if files.fileSystem.exists("todo.txt") { return ("todo.txt", "todo.txt in the current directory") }
        return ((environment["HOME"] ?? ".") + "/todo.txt", "the default: no -f, $TODO_FILE, $TODO_DIR, config or ./todo.txt")
    }

    /// Whether finding the todo file would consult a todo.sh config (nothing more explicit given).
    var needsConfigForFiles: Bool {
        fileOption == nil && (environment["TODO_FILE"] ?? "").isEmpty && (environment["TODO_DIR"] ?? "").isEmpty
    }

    /// The done file: `$DONE_FILE`, a config's `DONE_FILE`, else `done.txt` beside the todo file (beside
    /// the file it links to, when the todo file is a symbolic link: a synced folder keeps both).
    func doneFilePath(forTodoFile todoFile: String) -> String {
        doneFileChoice(forTodoFile: todoFile).path
    }

    /// The done file and why it is the one (`todo where`), in the order of `doneFilePath`.
    func doneFileChoice(forTodoFile todoFile: String) -> (path: String, reason: String) {
        if let file = environment["DONE_FILE"], !file.isEmpty { return (file, "$DONE_FILE") }
        if let file = configVariables["DONE_FILE"], !file.isEmpty {
            return (file, "DONE_FILE in \(configPath ?? "the todo.sh config")")
        }
        if files.fileSystem.kind(of: todoFile, followingLinks: false) == .symbolicLink,
           let target = try? files.fileSystem.realPath(todoFile) {
            return (FileAccess.directoryName(of: target) + "/done.txt", "beside \(target), which the todo file links to")
        }
        return (FileAccess.directoryName(of: todoFile) + "/done.txt", "beside the todo file")
    }

    /// How long to wait for a file's writers' lock.
    var lockTimeout: Duration { FileAccess.lockTimeout(environment) }

    /// Writes a line to stdout.
    func say(_ text: String) { io.print(text) }
    /// `text` (a file name, a uid, a task's text: anything that came from a file or a directory) as
    /// it may be printed on stdout: control characters escaped on a terminal, raw on a pipe.
    func shown(_ text: String) -> String {
        io.outputIsTerminal ? String(decoding: TerminalText.escapingControls(Array(text.utf8)), as: UTF8.self) : text
    }
    /// A warning on stderr (`todo: …`), never silenced: something the user must know although the
    /// command succeeded.
    func warn(_ text: String) { io.printError("\(programName): \(text)") }

    /// Writes a line to stderr (informational logs; errors go through `CLIError`).
    func log(_ text: String) { if !quiet { io.printError(text) } }
}
