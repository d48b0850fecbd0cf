/// `todo __man`: the manual page, `todo.1`, generated from the action table, the global options and
/// the examples that `--help` shows, so the three cannot disagree. `scripts/install.sh` writes it to
/// `share/man/man1/todo.1`. Hidden from `--help` and completion (an empty summary).
enum ManPageAction {
    static let spec = ActionSpec(
        name: "__man", arguments: "", placement: .leadingThenText, summary: "", completes: .nothing,
        group: .program,
        words: { invocation, _ throws(CLIError) in
            invocation.io.writeOutput(Array(page().utf8))
            return 0
        }).available(.todoOnly)

    /// What the program reads from its environment, for ENVIRONMENT.
    static let environment: [(name: String, meaning: String)] = [
        ("TODO_FILE", "the todo file, when -f is not given."),
        ("TODO_DIR", "the directory of todo.txt, when neither -f nor TODO_FILE is given."),
        ("DONE_FILE", "the done file (default: done.txt beside the todo file)."),
        ("REPORT_FILE", "the file report appends to (default: report.txt beside the todo file)."),
        ("TODOTXT_CFG_FILE", "a todo.sh config file, read for the files and the TODOTXT_* settings."),
        ("TODO_LOCK_TIMEOUT", "seconds a command waits for a file's writers' lock (default 5; 0 to 86400)."),
        ("TODO_MAX_FILE_SIZE", "the largest file read or rewritten: bytes, or with K, M or G (2G); default 1G."),
        ("TODO_WATCH_SETTLE", "seconds a file must be quiet before watch reads it (default 0.15)."),
        ("TODOTXT_DATE_ON_ADD", "0: add writes no creation date."),
        ("TODOTXT_UID_ON_ADD", "0: add writes no uid."),
        ("TODOTXT_AUTO_ARCHIVE", "1: do archives afterwards."),
        ("TODOTXT_DEFAULT_ACTION", "the action run when none is given (default: ls)."),
        ("TODO_ACTIONS_DIR", "the add-on directory (else ~/.todo/actions, ~/.todo.actions.d, ~/.config/todo/actions)."),
        ("NO_COLOR", "set and not empty: no colour."),
        ("VISUAL, EDITOR", "the editor of edit."),
    ]

    /// The page in man(7) markup.
    static func page() -> String {
        var lines = [
            ".TH TODO 1 \"\" \"todo \(TodoCommand.version)\" \"User Commands\"",
            ".SH NAME",
            "todo, todo.sh \\- keep a todo.txt file, safely",
            ".SH SYNOPSIS",
            ".B todo",
            "[\\fIOPTIONS\\fR] \\fIACTION\\fR [\\fIARGUMENTS\\fR]",
            ".br",
            ".B todo.sh",
            "[\\fIOPTIONS\\fR] \\fIACTION\\fR [\\fIARGUMENTS\\fR]",
            ".SH DESCRIPTION",
            "Keeps tasks in one plain-text file in the todo.txt format, for people who also edit it in any",
            "text editor and sync it with git or a sync client. Every change rewrites the file safely (a",
            "complete new file replaces the old one), keeps every line it did not mean to change byte for",
            "byte, and never loses a line another program appended meanwhile.",
            ".PP",
            "Under the name",
            ".B todo.sh",
            "it is a drop-in replacement for todo.txt-cli: the same output, byte for byte, the same config",
            "file and add-ons.",
        ]
        for group in ActionSpec.Group.allCases {
            lines += [".SH \(escaped(group == .tasks ? "ACTIONS: TASKS" : "ACTIONS: " + group.rawValue.uppercased()))"]
            for action in ActionTable.todoActions where action.group == group && !action.summary.isEmpty {
                lines += [".TP", "\\fB\(escaped(action.name))\\fR" + (action.arguments.isEmpty ? "" : " \\fI\(escaped(action.arguments))\\fR")]
                var text = escaped(action.summary)
                if !action.aliases.isEmpty { text += " Also: " + escaped(action.aliases.joined(separator: ", ")) + "." }
                lines.append(text)
                for paragraph in paragraphs(action.details) { lines += [".br", escaped(paragraph)] }
            }
        }
        lines.append(".SH OPTIONS")
        for option in TodoCommand.globalOptions {
            lines += [".TP", "\\fB\(escaped(option.names))\\fR", escaped(option.meaning)]
        }
        lines += [
            ".SH FILES",
            ".TP", "\\fItodo.txt\\fR",
            "The tasks: \\-f FILE, else $TODO_FILE, else $TODO_DIR/todo.txt, else a todo.sh config's, else",
            "todo.txt in the current directory, else ~/todo.txt.",
            escaped("`todo where` says which one is used and why."),
            ".TP", "\\fIdone.txt\\fR",
            "Archived tasks, beside the todo file unless DONE_FILE says otherwise.",
            ".TP", "\\fI~/.todo/config\\fR",
            "A todo.sh config file (also ~/todo.cfg, ~/.todo.cfg, ~/.config/todo/config): read by todo.sh,",
            "and by todo only to find the files when nothing more explicit is given.",
            ".SH ENVIRONMENT",
        ]
        for variable in environment {
            lines += [".TP", "\\fB\(escaped(variable.name))\\fR", escaped(variable.meaning)]
        }
        lines += [
            ".SH EXIT STATUS",
            ".TP", "\\fB0\\fR", "Done.",
            ".TP", "\\fB1\\fR",
            "The action could not be done (one line on standard error names the file and the problem), or",
            "there is an answer to give: sort \\-\\-check found the file unsorted, merge left a conflict.",
            ".TP", "\\fB2\\fR", "The command line is wrong (one line on standard error ends with the usage).",
            ".SH EXAMPLES",
        ]
        for example in TodoCommand.examples("todo") {
            lines += [".TP", "\\fB\(escaped(example.command))\\fR", escaped(example.meaning)]
        }
        lines += [".SH SEE ALSO", "\\fBgit\\-merge\\fR(1), \\fBgitattributes\\fR(5)", ""]
        return lines.joined(separator: "\n")
    }

    /// `help ACTION`'s detail lines as paragraphs: a line indented with spaces continues the one
    /// before (the terminal needs the break, the man page fills its own lines).
    static func paragraphs(_ details: [String]) -> [String] {
        var result: [String] = []
        for line in details {
            let text = String(line.drop { $0 == " " })
            if line.hasPrefix(" "), let last = result.popLast() {
                result.append(last + " " + text)
            } else {
                result.append(text)
            }
        }
        return result
    }

    /// `text` safe in man(7): backslashes written `\e`, hyphens `\-` (a minus sign, so options can be
    /// searched and copied), and a line never starts with a control character.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            default: result.append(character)
            }
        }
        if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
        return result
    }
}
