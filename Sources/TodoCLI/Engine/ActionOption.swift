/// One option of an action (or of the program, before the action), declared once: the parser, the
/// usage line, `todo help ACTION`, `ACTION --help`, the completion scripts and the man page all read
/// this declaration (docs/architecture.md, "The action table").
struct ActionOption: Sendable {
    /// Every spelling, the one shown in usage lines first: `["-q", "--quiet"]`.
    let names: [String]
    /// The value's placeholder (`KEYS`) for an option that takes one; nil for a flag.
    let value: String?
    /// The words that complete the value (`--by`'s sort keys); empty: file names.
    let values: [String]
    /// What `todo help ACTION` says about the option, one entry per printed line.
    let meaning: [String]
    /// Whether the usage line shows the option (`merge --setup` is an alternative form, shown apart).
    var inUsage = true

    /// A flag: `ActionOption.flag("--force", meaning: "no confirmation prompt.")`.
    static func flag(_ names: String..., meaning: String...) -> ActionOption {
        ActionOption(names: names, value: nil, values: [], meaning: meaning)
    }

    /// An option with a value, written `--name VALUE` or `--name=VALUE`.
    static func valued(_ names: String..., value: String, values: [String] = [], meaning: String...) -> ActionOption {
        ActionOption(names: names, value: value, values: values, meaning: meaning)
    }

    /// `--by KEYS` as a usage line shows it: the first name, and the placeholder.
    var usage: String { (names.first ?? "") + (value.map { " " + $0 } ?? "") }

    /// `--by KEYS: order …` and its continuation lines, as `todo help ACTION` prints them.
    var helpLines: [String] {
        let head = names.joined(separator: ", ") + (value.map { " " + $0 } ?? "") + ": "
        let indent = String(repeating: " ", count: head.count)
        return meaning.enumerated().map { $0.offset == 0 ? head + $0.element : indent + $0.element }
    }
}

/// Where an action's options may stand among its words.
enum OptionPlacement: Sendable {
    /// Anywhere (`todo sort FILE --check`); an undeclared `-word` is a usage error.
    case anywhere
    /// Before the first argument (a task address never starts with `-`); an undeclared `-word`
    /// there is a usage error.
    case leading
    /// Before the first argument; an undeclared `-word` is the first argument (a task's text, a
    /// `-TERM` that hides matches).
    case leadingThenText
}

/// An action's words split into the options it declares and its arguments. Every spelling of a
/// given option is recorded (`-q` given: `flags` holds `-q` and `--quiet`). `--` ends the options
/// and is dropped; `-` alone is an argument.
struct ParsedArguments {
    var flags: Set<String> = []
    var values: [String: String] = [:]
    var positionals: [String] = []

    init(_ arguments: [String], options: [ActionOption], placement: OptionPlacement = .anywhere,
         usage: String) throws(CLIError) {
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                if placement != .anywhere { optionsEnded = true }
                continue
            }
            if argument == "--" { optionsEnded = true; continue }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard let option = options.first(where: { $0.names.contains(name) }),
                  option.value != nil || inlineValue == nil else {
                if placement == .leadingThenText {
                    positionals.append(argument)
                    optionsEnded = true
                    continue
                }
                throw .usage("unknown option \(argument); usage: \(usage)")
            }
            if option.value == nil {
                flags.formUnion(option.names)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw .usage("option \(name) needs a value; usage: \(usage)")
            }
            for spelling in option.names { values[spelling] = value }
        }
    }
}
