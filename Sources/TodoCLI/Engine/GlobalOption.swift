/// One option of the name `todo` before the action, declared once: the parser (`TodoCommand`), the
/// synopsis, `--help`, the man page and the completion scripts all read `GlobalOption.all`.
struct GlobalOption: Sendable {
    /// Every spelling: one-letter (`-f`, bundled getopts style: `-qa`, `-fFILE`) or long (`--file`,
    /// `--file=FILE`, `--file FILE`).
    let names: [String]
    /// The value's placeholder (`FILE`) for an option that takes one; nil for a flag.
    var value: String?
    /// The words that complete the value (`--color`'s modes); empty: file names.
    var values: [String] = []
    /// What a missing value is told: `option -f needs a file`.
    var needs = ""
    /// What `--help` says; nil: the option shares the line of the one before it (`-p, -c`).
    let meaning: String?
    /// Whether `--help`, the man page and the completions show it (`--colour` is accepted, not shown).
    var listed = true
    /// Whether the one-line synopsis shows it.
    var inSynopsis = false
    /// What the option does: sets the invocation, or returns an exit status when it is itself the
    /// command (`--help`, `--version`). Gets the value ("" for a flag).
    let apply: @Sendable (inout Invocation, String) throws(CLIError) -> Int32?

    init(_ names: String..., value: String? = nil, values: [String] = [], needs: String = "", meaning: String?,
         listed: Bool = true, inSynopsis: Bool = false,
         apply: @escaping @Sendable (inout Invocation, String) throws(CLIError) -> Int32?) {
        self.names = names
        self.value = value
        self.values = values
        self.needs = needs
        self.meaning = meaning
        self.listed = listed
        self.inSynopsis = inSynopsis
        self.apply = apply
    }

    /// A flag that only sets something.
    static func flag(_ names: String..., meaning: String?, inSynopsis: Bool = false,
                     sets: @escaping @Sendable (inout Invocation) -> Void) -> GlobalOption {
        GlobalOption(names: names, meaning: meaning, inSynopsis: inSynopsis) { invocation, _ in sets(&invocation); return nil }
    }

    private init(names: [String], meaning: String?, inSynopsis: Bool,
                 apply: @escaping @Sendable (inout Invocation, String) throws(CLIError) -> Int32?) {
        self.names = names
        self.meaning = meaning
        self.inSynopsis = inSynopsis
        self.apply = apply
    }

    /// `-f FILE` or `--file=FILE` (`--color=always|never|auto` in the synopsis).
    func spelled(_ name: String, synopsis: Bool = false) -> String {
        guard let value else { return name }
        if name.hasPrefix("--") { return name + "=" + (synopsis && !values.isEmpty ? values.joined(separator: "|") : value) }
        return name + " " + value
    }

    /// The options in `--help` order.
    static let all: [GlobalOption] = [
        GlobalOption("-f", "--file", value: "FILE", needs: "a file", meaning: "the todo file (done.txt is beside it)",
                     inSynopsis: true) { invocation, path in invocation.fileOption = path; return nil },
        .flag("-q", "--quiet", meaning: "no reports, only errors", inSynopsis: true) { $0.quiet = true },
        .flag("-a", "--all", meaning: "listings also show tasks hidden by h:1 or a future t:") { $0.showAll = true },
        GlobalOption("--color", value: "WHEN", values: ["always", "never", "auto"], needs: "always, never or auto",
                     meaning: "always, never or auto (colour on a terminal unless NO_COLOR is set)", inSynopsis: true,
                     apply: setColor),
        GlobalOption("--colour", value: "WHEN", values: ["always", "never", "auto"], needs: "always, never or auto",
                     meaning: nil, listed: false, apply: setColor),
        .flag("-p", meaning: "no colour, colour (todo.sh's spellings)") { $0.colorMode = .never },
        .flag("-c", meaning: nil) { $0.colorMode = .always },
        .flag("-t", meaning: "add with, without a creation date") { $0.dateOnAddOption = true },
        .flag("-T", "--no-date", meaning: nil) { $0.dateOnAddOption = false },
        .flag("-n", meaning: "del removes the line, leaves it empty (the default)") { $0.preserveLineNumbersOption = false },
        .flag("-N", meaning: nil) { $0.preserveLineNumbersOption = true },
        .flag("-A", meaning: "do archives the completed tasks afterwards") { $0.autoArchiveOption = true },
        .flag("-@", meaning: "listings hide contexts, projects, priorities") { $0.hideContexts.toggle() },
        .flag("-+", meaning: nil) { $0.hideProjects.toggle() },
        .flag("-P", meaning: nil) { $0.hidePriorities.toggle() },
        .flag("-v", meaning: "more output (-vv: todo.sh's debug lines)") { $0.verboseCount += 1 },
        .flag("-x", meaning: "no TODOTXT_FINAL_FILTER") { $0.disableFilter = true },
        GlobalOption("-d", value: "CONFIG", needs: "a config file", meaning: "read this todo.sh config file") { invocation, path in
            invocation.configFile = path
            return nil
        },
        .flag("--force", meaning: "no confirmation prompts (del, move)") { $0.force = true },
        GlobalOption("-h", "--help", meaning: "this help") { invocation, _ throws(CLIError) in
            try HelpAction.spec.run(&invocation, [])
        },
        GlobalOption("-V", "--version", meaning: "the version") { invocation, _ throws(CLIError) in
            try VersionAction.spec.run(&invocation, [])
        },
    ]

    @Sendable private static func setColor(_ invocation: inout Invocation, _ value: String) throws(CLIError) -> Int32? {
        guard let mode = Invocation.ColorMode(rawValue: value) else {
            throw TodoCommand.usageError("--color takes always, never or auto, not '\(value)'", invocation)
        }
        invocation.colorMode = mode
        return nil
    }

    /// The option spelled `name`.
    static func named(_ name: String) -> GlobalOption? { all.first { $0.names.contains(name) } }

    /// The lines of `--help` and the man page: the spellings sharing a line, and what they mean.
    static var helpLines: [(names: String, meaning: String)] {
        var lines: [(names: String, meaning: String)] = []
        for option in all where option.listed {
            let names = option.names.map { option.spelled($0) }.joined(separator: ", ")
            if let meaning = option.meaning {
                lines.append((names, meaning))
            } else if let last = lines.popLast() {
                lines.append((last.names + ", " + names, last.meaning))
            }
        }
        return lines
    }

    /// Every listed spelling, for the completion scripts; a long option with a fixed set of values
    /// as `--color=` (a file is given as the next word: `--file`).
    static var completionWords: [String] {
        all.filter(\.listed).flatMap { option in option.names.map { $0.hasPrefix("--") && !option.values.isEmpty ? $0 + "=" : $0 } }
    }

    /// The spellings that take the next word as their value (`-f FILE`), for the completion scripts.
    static var spellingsTakingAFile: [String] {
        all.filter { $0.value != nil && $0.values.isEmpty }.flatMap(\.names)
    }
}
