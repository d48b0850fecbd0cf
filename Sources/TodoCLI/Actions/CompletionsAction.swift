import TodoTxt

/// `todo completions bash|zsh|fish`: prints a completion script generated from `ActionTable`, the
/// same table that drives parsing and help, so completions never drift from the real actions.
///
/// Projects and contexts are completed from the live file through the hidden action
/// `todo __complete-words`, which prints every `+project` and `@context` of the todo file.
enum CompletionsAction {
    static let shells = ["bash", "zsh", "fish"]

    static let spec = ActionSpec(
        name: "completions", aliases: [], arguments: "bash|zsh|fish",
        summary: "Print a shell completion script (e.g. eval \"$(todo completions bash)\").",
        options: [], completes: .shells,
        run: { invocation, arguments throws(CLIError) in
            let usage = "\(invocation.programName) completions bash|zsh|fish"
            guard arguments.count == 1, let shell = arguments.first, shells.contains(shell) else {
                throw .usage("usage: \(usage)")
            }
            let program = invocation.programName
            switch shell {
            case "bash": invocation.say(bashScript(program: program))
            case "zsh": invocation.say(zshScript(program: program))
            default: invocation.say(fishScript(program: program))
            }
            return 0
        })

    /// Hidden helper for the scripts: every project and context of the todo file, one per line.
    static let wordsSpec = ActionSpec(
        name: "__complete-words", aliases: [], arguments: "",
        summary: "", options: [], completes: .nothing, availability: .todoOnly,
        run: { invocation, _ throws(CLIError) in
            let path = invocation.todoFilePath()
            guard let bytes = try? invocation.files.read(path) else { return 0 }
            let document = TodoDocument(bytes: bytes)
            var seen = Set<String>()
            var words: [String] = []
            for index in 0..<document.lineCount {
                let fields = document.item(at: index).fields
                for word in fields.projects.map({ "+" + $0 }) + fields.contexts.map({ "@" + $0 }) where seen.insert(word).inserted {
                    words.append(word)
                }
            }
            for word in words.sorted() { invocation.say(word) }
            return 0
        })

    static var visibleActions: [ActionSpec] { ActionTable.todoActions.filter { !$0.summary.isEmpty } }

    static func names(_ action: ActionSpec) -> [String] { [action.name] + action.aliases }

    static func bashScript(program: String) -> String {
        let function = "_" + program.replacing(".", with: "_") + "_complete"
        var cases: [String] = []
        for action in visibleActions {
            let options = action.options.joined(separator: " ")
            let positional: String
            switch action.completes {
            case .files: positional = "COMPREPLY=( $(compgen -f -- \"$cur\" || :) )"
            case .shells: positional = "COMPREPLY=( $(compgen -W 'bash zsh fish' -- \"$cur\" || :) )"
            case .nothing, .tasks, .projectsAndContexts: positional = "COMPREPLY=()"
            }
            cases.append("""
                    \(names(action).joined(separator: "|")))
                        if [[ "$cur" == -* ]]; then
                            COMPREPLY=( $(compgen -W '\(options)' -- "$cur" || :) )
                        else
                            \(positional)
                        fi
                        ;;
            """)
        }
        let actionWords = visibleActions.flatMap(names).joined(separator: " ")
        return """
        # bash completion for \(program); load with: eval "$(\(program) completions bash)"
        \(function)() {
            local cur="${COMP_WORDS[COMP_CWORD]}" action="" i
            for (( i = 1; i < COMP_CWORD; i++ )); do
                case "${COMP_WORDS[i]}" in
                    -f|--file) (( i++ )) ;;
                    -*) ;;
                    *) action="${COMP_WORDS[i]}"; break ;;
                esac
            done
            if [[ "$cur" == [+@]* ]]; then
                COMPREPLY=( $(compgen -W "$(\(program) __complete-words 2>/dev/null)" -- "$cur" || :) )
                return 0
            fi
            if [[ -z "$action" ]]; then
                COMPREPLY=( $(compgen -W '\(actionWords) -f --file -q -a --all -T --force --color= --help --version' -- "$cur" || :) )
                return 0
            fi
            case "$action" in
        \(cases.joined(separator: "\n"))
            esac
            return 0
        }
        complete -F \(function) \(program)
        """
    }

    static func zshScript(program: String) -> String {
        let described = visibleActions.flatMap { action in
            names(action).map { "'\($0):\(action.summary.replacing("'", with: "'\\''").replacing(":", with: "\\:"))'" }
        }.joined(separator: "\n        ")
        return """
        #compdef \(program)
        # zsh completion for \(program); load with: source <(\(program) completions zsh)
        _\(program.replacing(".", with: "_"))() {
            local -a actions
            actions=(
                \(described)
            )
            if [[ "$PREFIX" == [+@]* ]]; then
                local -a words
                words=(${(f)"$(\(program) __complete-words 2>/dev/null)"})
                compadd -a words
                return
            fi
            if (( CURRENT == 2 )); then
                _describe 'action' actions
            else
                _files
            fi
        }
        compdef _\(program.replacing(".", with: "_")) \(program)
        """
    }

    static func fishScript(program: String) -> String {
        var lines = ["# fish completion for \(program); load with: \(program) completions fish | source",
                     "complete -c \(program) -f"]
        for action in visibleActions {
            for name in names(action) {
                let summary = action.summary.replacing("'", with: "\\'")
                lines.append("complete -c \(program) -n '__fish_use_subcommand' -a '\(name)' -d '\(summary)'")
            }
            for option in action.options {
                let bare = option.hasSuffix("=") ? String(option.dropLast()) : option
                // fish names a long option with -l, a one-letter one (`-q`) with -s.
                let flag = bare.hasPrefix("--") ? "-l '\(bare.dropFirst(2))'" : "-s '\(bare.dropFirst())'"
                lines.append("complete -c \(program) -n '__fish_seen_subcommand_from \(action.name)' \(flag)")
            }
        }
        lines.append("complete -c \(program) -n 'string match -qr \"^[+@]\" -- (commandline -ct)' -a '(\(program) __complete-words 2>/dev/null)'")
        return lines.joined(separator: "\n")
    }
}
