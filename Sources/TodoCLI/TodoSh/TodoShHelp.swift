/// `help`, `shorthelp`/`-h`, `help ACTION…` and `-V` (docs/todosh.md section 6). Header lines (`  Usage:`,
/// `  Options:`, `  Built-in Actions:`, …) are exactly todo.sh's; every other line is indented by at
/// least three spaces or starts with a lowercase character.
enum TodoShHelp {
    /// One built-in action's help block: a usage line per name, then the description.
    struct Block {
        let names: [String]
        let arguments: String
        let description: [String]

        func lines(startingAt name: String? = nil) -> [String] {
            var usage = names.map { "    \($0)" + (arguments.isEmpty ? "" : " \(arguments)") }
            if let name, let index = names.firstIndex(of: name) { usage = Array(usage[index...]) }
            return usage + description.map { "      \($0)" }
        }
    }

    static let blocks: [Block] = [
        Block(names: ["add", "a"], arguments: "\"THING I NEED TO DO +project @context\"", description: [
            "Adds THING I NEED TO DO to your todo.txt file on its own line.",
            "Project and context notation optional.", "Quotes optional."]),
        Block(names: ["addm"], arguments: "\"FIRST THING I NEED TO DO +project1 @context\n    SECOND THING I NEED TO DO +project2 @context\"", description: [
            "Adds FIRST THING I NEED TO DO to your todo.txt on its own line and",
            "Adds SECOND THING I NEED TO DO to you todo.txt on its own line.",
            "Project and context notation optional."]),
        Block(names: ["addto"], arguments: "DEST \"TEXT TO ADD\"", description: [
            "Adds a line of text to any file located in the todo.txt directory.",
            "For example, addto inbox.txt \"decide about vacation\""]),
        Block(names: ["append", "app"], arguments: "NR \"TEXT TO APPEND\"", description: [
            "Adds TEXT TO APPEND to the end of the task on line NR.", "Quotes optional."]),
        Block(names: ["archive"], arguments: "", description: [
            "Moves all done tasks from todo.txt to done.txt and removes blank lines."]),
        Block(names: ["command"], arguments: "[ACTIONS]", description: [
            "Runs the remaining arguments using only todo.sh builtins.",
            "Will not call any TODO_ACTIONS_DIR scripts."]),
        Block(names: ["deduplicate"], arguments: "", description: ["Removes duplicate lines from todo.txt."]),
        Block(names: ["del", "rm"], arguments: "NR [TERM]", description: [
            "Deletes the task on line NR in todo.txt.", "If TERM specified, deletes only TERM from the task."]),
        Block(names: ["depri", "dp"], arguments: "NR [NR ...]", description: [
            "Deprioritizes (removes the priority) from the task(s)", "on line NR in todo.txt."]),
        Block(names: ["done", "do"], arguments: "NR [NR ...]", description: [
            "Marks task(s) on line NR as done in todo.txt."]),
        Block(names: ["help"], arguments: "[ACTION...]", description: [
            "Display help about usage, options, built-in and add-on actions,",
            "or just the usage help for the passed ACTION(s)."]),
        Block(names: ["list", "ls"], arguments: "[TERM...]", description: [
            "Displays all tasks that contain TERM(s) sorted by priority with line",
            "numbers.  Each task must match all TERM(s) (logical AND); to display",
            "tasks that contain any TERM (logical OR), use",
            "'TERM1\\|TERM2\\|...' (with quotes), or TERM1\\\\\\|TERM2 (unquoted).",
            "Hides all tasks that contain TERM(s) preceded by a",
            "minus sign (i.e. -TERM).",
            "TERM(s) are grep-style basic regular expressions; for literal matching,",
            "put a single backslash before any [ ] \\ $ * . ^ and enclose the entire",
            "TERM in single quotes, or use double backslashes and extra shell-quoting.",
            "If no TERM specified, lists entire todo.txt."]),
        Block(names: ["listall", "lsa"], arguments: "[TERM...]", description: [
            "Displays all the lines in todo.txt AND done.txt that contain TERM(s)",
            "sorted by priority with line numbers.  Hides all tasks that",
            "contain TERM(s) preceded by a minus sign (i.e. -TERM).  If no",
            "TERM specified, lists entire todo.txt AND done.txt",
            "concatenated and sorted."]),
        Block(names: ["listaddons"], arguments: "", description: [
            "Lists all added and overridden actions in the actions directory."]),
        Block(names: ["listcon", "lsc"], arguments: "[TERM...]", description: [
            "Lists all the task contexts that start with the @ sign in todo.txt.",
            "If TERM specified, considers only tasks that contain TERM(s)."]),
        Block(names: ["listfile", "lf"], arguments: "[SRC [TERM...]]", description: [
            "Displays all the lines in SRC file located in the todo.txt directory,",
            "sorted by priority with line numbers.  If TERM specified, lists",
            "all lines that contain TERM(s) in SRC file.  Hides all tasks that",
            "contain TERM(s) preceded by a minus sign (i.e. -TERM).",
            "Without any arguments, the names of all text files in the todo.txt",
            "directory are listed."]),
        Block(names: ["listpri", "lsp"], arguments: "[PRIORITIES] [TERM...]", description: [
            "Displays all tasks prioritized PRIORITIES.",
            "PRIORITIES can be a [concatenation of] single (A) or range (A-C).",
            "If no PRIORITIES specified, lists all prioritized tasks.",
            "If TERM specified, lists only prioritized tasks that contain TERM(s).",
            "Hides all tasks that contain TERM(s) preceded by a minus sign",
            "(i.e. -TERM)."]),
        Block(names: ["listproj", "lsprj"], arguments: "[TERM...]", description: [
            "Lists all the projects (terms that start with a + sign) in",
            "todo.txt.",
            "If TERM specified, considers only tasks that contain TERM(s)."]),
        Block(names: ["move", "mv"], arguments: "NR DEST [SRC]", description: [
            "Moves a line from source text file (SRC) to destination text file (DEST).",
            "Both source and destination file must be located in the directory defined",
            "in the configuration directory. When SRC is not defined",
            "it's by default todo.txt."]),
        Block(names: ["prepend", "prep"], arguments: "NR \"TEXT TO PREPEND\"", description: [
            "Adds TEXT TO PREPEND to the beginning of the task on line NR.", "Quotes optional."]),
        Block(names: ["pri", "p"], arguments: "NR PRIORITY", description: [
            "Adds PRIORITY to task on line NR.  If the task is already",
            "prioritized, replaces current priority with new PRIORITY.",
            "PRIORITY must be a letter between A and Z."]),
        Block(names: ["replace"], arguments: "NR \"UPDATED TODO\"", description: [
            "Replaces task on line NR with UPDATED TODO."]),
        Block(names: ["report"], arguments: "", description: [
            "Adds the number of open tasks and done tasks to report.txt."]),
        Block(names: ["shorthelp"], arguments: "", description: [
            "List the one-line usage of all built-in and add-on actions."]),
    ]

    static let options: [String] = [
        "    -@", "        Hide context names in list output.  Use twice to show context", "        names (default).",
        "    -+", "        Hide project names in list output.  Use twice to show project", "        names (default).",
        "    -c", "        Color mode",
        "    -d CONFIG_FILE", "        Use a configuration file other than one of the defaults:",
        "          ~/.todo/config", "          ~/todo.cfg", "          ~/.todo.cfg", "          ~/.config/todo/config",
        "          dirname(todo.sh)/todo.cfg", "          /etc/todo/config",
        "    -f", "        Forces actions without confirmation or interactive input",
        "    -h", "        Display a short help message; same as action \"shorthelp\"",
        "    -p", "        Plain mode turns off colors",
        "    -P", "        Hide priority labels in list output.  Use twice to show", "        priority labels (default).",
        "    -a", "        Don't auto-archive tasks automatically on completion",
        "    -A", "        Auto-archive tasks automatically on completion",
        "    -n", "        Don't preserve line numbers; automatically remove blank lines", "        on task deletion",
        "    -N", "        Preserve line numbers",
        "    -t", "        Prepend the current date to a task automatically", "        when it's added.",
        "    -T", "        Do not prepend the current date to a task automatically", "        when it's added.",
        "    -v", "        Verbose mode turns on confirmation messages",
        "    -vv", "        Extra verbose mode prints some debugging information and", "        additional help text",
        "    -V", "        Displays version, license and credits",
        "    -x", "        Disables TODOTXT_FINAL_FILTER",
    ]

    static let environmentHelp: [String] = [
        "    TODOTXT_AUTO_ARCHIVE            is same as option -a (0)/-A (1)",
        "    TODOTXT_CFG_FILE=CONFIG_FILE    is same as option -d CONFIG_FILE",
        "    TODOTXT_FORCE=1                 is same as option -f",
        "    TODOTXT_PRESERVE_LINE_NUMBERS   is same as option -n (0)/-N (1)",
        "    TODOTXT_PLAIN                   is same as option -p (1)/-c (0)",
        "    TODOTXT_DATE_ON_ADD             is same as option -t (1)/-T (0)",
        "    TODOTXT_PRIORITY_ON_ADD=pri     default priority A-Z",
        "    TODOTXT_VERBOSE=1               is same as option -v",
        "    TODOTXT_DISABLE_FILTER=1        is same as option -x",
        "    TODOTXT_DEFAULT_ACTION=\"\"       run this when called with no arguments",
        "    TODOTXT_SORT_COMMAND=\"sort ...\" customize list output",
        "    TODOTXT_FINAL_FILTER=\"sed ...\"  customize list after color, P@+ hiding",
        "    TODOTXT_SOURCEVAR=$DONE_FILE    use another source for listcon, listproj",
        "    TODOTXT_SIGIL_BEFORE_PATTERN=\"\" optionally allow chars preceding +p / @c",
        "    TODOTXT_SIGIL_VALID_PATTERN=.*  tweak the allowed chars for +p and @c",
        "    TODOTXT_SIGIL_AFTER_PATTERN=\"\"  optionally allow chars after +p / @c",
    ]

    static let shortActions: [String] = [
        "    add|a \"THING I NEED TO DO +project @context\"",
        "    addm \"THINGS I NEED TO DO", "          MORE THINGS I NEED TO DO\"",
        "    addto DEST \"TEXT TO ADD\"",
        "    append|app NR \"TEXT TO APPEND\"",
        "    archive", "    command [ACTIONS]", "    deduplicate",
        "    del|rm NR [TERM]", "    depri|dp NR [NR ...]", "    done|do NR [NR ...]",
        "    help [ACTION...]", "    list|ls [TERM...]", "    listall|lsa [TERM...]", "    listaddons",
        "    listcon|lsc [TERM...]", "    listfile|lf [SRC [TERM...]]", "    listpri|lsp [PRIORITIES] [TERM...]",
        "    listproj|lsprj [TERM...]", "    move|mv NR DEST [SRC]", "    prepend|prep NR \"TEXT TO PREPEND\"",
        "    pri|p NR PRIORITY", "    replace NR \"UPDATED TODO\"", "    report", "    shorthelp",
    ]

    enum Kind { case full, short }

    static func usageLine(_ context: TodoShContext) -> String {
        "  Usage: \(context.programName) [-fhpantvV] [-d todo_config] action [task_number] [task_description]"
    }

    /// Prints the whole help (`help`) or the short one (`shorthelp`, `-h`).
    static func printHelp(_ kind: Kind, _ context: TodoShContext, toError: Bool = false) {
        var lines = [usageLine(context), ""]
        switch kind {
        case .short:
            lines.append("  Actions:")
            lines += shortActions
            lines += ["", "  Actions can be added and overridden using scripts in the actions", "  directory."]
        case .full:
            lines.append("  Options:")
            lines += options
            lines.append("")
            if context.settings.verbose > 1 {
                lines.append("  Environment variables:")
                lines += environmentHelp
                lines.append("")
            }
            lines.append("  Built-in Actions:")
            for block in blocks { lines += block.lines() + [""] }
        }
        let io = context.io
        func write(_ bytes: [UInt8]) { if toError { io.writeError(bytes) } else { io.writeOutput(bytes) } }
        write(Array(lines.map { $0 + "\n" }.joined().utf8))
        let addons = TodoShAddons.names(context)
        if !addons.isEmpty {
            write(Array("  Add-on Actions:\n".utf8))
            // The short help keeps only the add-ons' one-line usages: todo.sh's
            // `addonHelp | grep -e '^  Add-on Actions:' -e '^    [[:alpha:]]'`.
            for name in addons {
                TodoShAddons.usage(of: name, context, toError: toError, onlyActionLines: kind == .short)
            }
            write(Array("\n".utf8))
        }
        if kind == .short { write(Array("  See \"help\" for more details.\n".utf8)) }
    }

    static func help(_ context: inout TodoShContext, _ arguments: [String]) throws(CLIError) -> Int32 {
        guard !arguments.isEmpty else {
            printHelp(.full, context)
            return 0
        }
        for name in arguments {
            let addon = try TodoShAddons.executable(name, context)
            if addon != nil {
                // todo.sh prints an add-on's usage as it is (a built-in's gets a blank line after it).
                TodoShAddons.usage(of: name, context)
            } else if let block = blocks.first(where: { $0.names.contains(name) }) {
                context.sayBytes(Array(block.lines(startingAt: name).map { $0 + "\n" }.joined().utf8))
                context.say("")
            } else if let addition = ActionTable.todoShActions[name], addition.todoSh == nil {
                // One of todo's own actions (sort, watch, merge, …), in the layout of todo.sh's blocks.
                let lines = ["    " + ([name] + (addition.arguments.isEmpty ? [] : [addition.arguments])).joined(separator: " "),
                             "      " + addition.summary] + addition.details.map { "      " + $0 } + [""]
                context.sayBytes(Array(lines.map { $0 + "\n" }.joined().utf8))
            } else {
                throw context.die("TODO: No action \"\(name)\" exists.")
            }
        }
        return 0
    }

    /// todo.sh's `shorthelp` (and `-h`): an action of that name only.
    static let shortHelpSpec = TodoNameActions.spec("shorthelp", arguments: "", summary: "", completes: .nothing,
                                                    todoSh: shortHelp).available(.todoShOnly).listed(under: .program)

    static func shortHelp(_ context: inout TodoShContext, _ arguments: [String]) throws(CLIError) -> Int32 {
        printHelp(.short, context)
        return 0
    }

    static func version(_ context: TodoShContext) {
        context.say("TODO.TXT Command Line Interface v\(TodoShCommand.compatibleVersion)")
        context.say("")
        context.say("A reimplementation in Swift: todo \(TodoCommand.version), compatible with todo.sh.")
        context.say("todo.txt-cli first release: 5/11/2006")
        context.say("Original conception by: Gina Trapani (http://ginatrapani.org)")
        context.say("More information: http://todotxt.org")
    }
}
