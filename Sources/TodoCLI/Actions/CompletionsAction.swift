import TodoTxt

/// `todo completions bash|zsh|fish`: prints a completion script generated from `ActionTable`, the
/// same table that drives parsing and help, so completions never drift from the real actions. One
/// script serves both names, `todo` and `todo.sh` (`scripts/install.sh` installs it under both).
///
/// What the file holds is completed live, through hidden actions run by the name being completed
/// (so `todo.sh` completes from its config's file): `__complete-words` prints every `+project` and
/// `@context`, `__complete-tasks` every task's uid (or line number, for a task without one) and text,
/// `__complete-views` the names of the saved views (`ViewAction.namesSpec`).
enum CompletionsAction {
    static let shells = ["bash", "zsh", "fish"]

    static let spec = ActionSpec(
        name: "completions", arguments: "bash|zsh|fish",
        summary: "Print a shell completion script (e.g. eval \"$(todo completions bash)\").",
        completes: .shells,
        group: .program,
        words: { invocation, arguments throws(CLIError) in
            let usage = "\(invocation.programName) completions bash|zsh|fish"
            guard arguments.count == 1, let shell = arguments.first, shells.contains(shell) else {
                throw .usage("usage: \(usage)")
            }
            switch shell {
            case "bash": invocation.say(bashScript())
            case "zsh": invocation.say(zshScript())
            default: invocation.say(fishScript())
            }
            return 0
        })

    /// Hidden helper for the scripts: every project and context of the todo file, one per line.
    static let wordsSpec = helper("__complete-words") { document in
        var seen = Set<String>()
        var words: [String] = []
        for index in 0..<document.lineCount {
            let fields = document.item(at: index).fields
            for word in fields.projects.map({ "+" + $0 }) + fields.contexts.map({ "@" + $0 }) where seen.insert(word).inserted {
                words.append(word)
            }
        }
        return words.sorted()
    }

    /// Hidden helper for the scripts: `ADDRESS<TAB>TEXT` per open task (then per completed one),
    /// the address being the uid, or the line number of a task without one; control characters in
    /// the text are shown as `?` (a completion menu is a terminal).
    static let tasksSpec = helper("__complete-tasks") { document in
        var open: [String] = [], done: [String] = []
        for index in 0..<document.lineCount {
            let item = document.item(at: index)
            guard item.isTask else { continue }
            let text = String(decoding: item.content.map { $0 < 0x20 || $0 == 0x7F ? UInt8(ascii: "?") : $0 }, as: UTF8.self)
            let line = "\(item.uid ?? String(index + 1))\t\(text)"
            if item.isCompleted { done.append(line) } else { open.append(line) }
        }
        return open + done
    }

    /// Hidden helper for the scripts: the add-on actions of the actions directory, one per line
    /// (add-ons are completed like the built-ins, from the directory as it is when Tab is pressed).
    static let addonsSpec = ActionSpec(
        name: "__complete-addons", arguments: "", placement: .leadingThenText, summary: "", completes: .nothing,
        group: .program,
        words: { invocation, _ throws(CLIError) in
            let context = TodoShContext(settings: TodoNameActions.settings(for: invocation), invocation: invocation)
            for name in TodoShAddons.names(context) where ActionTable.find(name) == nil { invocation.say(name) }
            return 0
        })

    /// A hidden action that prints `lines` of the todo file, one per line: nothing when the file
    /// cannot be read (a completion prints nothing rather than an error in the middle of the
    /// command line being typed).
    static func helper(_ name: String, lines: @escaping @Sendable (TodoDocument) -> [String]) -> ActionSpec {
        ActionSpec(name: name, arguments: "", placement: .leadingThenText, summary: "", completes: .nothing,
                   group: .program,
                   words: { invocation, _ throws(CLIError) in
                       guard let document = invocation.files.documentIfReadable(invocation.todoFilePath()) else { return 0 }
                       for line in lines(document) { invocation.say(invocation.shown(line)) }
                       return 0
                   })
    }

    /// The programs every script completes.
    static let programs = ["todo", "todo.sh"]

    static var visibleActions: [ActionSpec] { ActionTable.todoActions.filter { !$0.summary.isEmpty } }

    static func names(_ action: ActionSpec) -> [String] { [action.name] + action.aliases }

    /// The global options offered before the action (`GlobalOption.all`).
    static var globalWords: String { GlobalOption.completionWords.joined(separator: " ") }

    /// The spellings of every option of `action`, as completion offers them.
    static func optionWords(_ action: ActionSpec) -> [String] { action.options.flatMap(\.names) }

    /// The options of `action` that take a value, with the words completing it.
    static func valuedOptions(_ action: ActionSpec) -> [(names: [String], values: [String])] {
        action.options.filter { $0.value != nil }.map { ($0.names, $0.values) }
    }

    /// What completes `action`'s arguments, as one shell snippet: `reply` of the one completion when
    /// every argument has it, else `branches` (1-based position and its reply, for all but the last
    /// argument) with the last argument's reply for every further position.
    static func byPosition(_ action: ActionSpec, _ reply: (ActionSpec.Completion) -> String,
                           _ branches: ([(position: Int, reply: String)], String) -> String) -> String {
        let completions = action.argumentCompletions
        guard let last = completions.last, completions.count > 1 else { return reply(completions.first ?? .nothing) }
        return branches(completions.dropLast().enumerated().map { ($0.offset + 1, reply($0.element)) }, reply(last))
    }

    static func bashScript() -> String {
        var cases: [String] = []
        for action in visibleActions {
            let options = optionWords(action).joined(separator: " ")
            var valueCases = ""
            for option in valuedOptions(action) {
                let reply = option.values.isEmpty ? "COMPREPLY=()" : "COMPREPLY=( $(compgen -W '\(option.values.joined(separator: " "))' -- \"$cur\" || :) )"
                let test = option.names.map { "\"$prev\" == \($0)" }.joined(separator: " || ")
                valueCases += "\n            [[ \(test) ]] && { \(reply); return 0; }"
            }
            func reply(_ completion: ActionSpec.Completion) -> String {
                switch completion {
                case .files: return "COMPREPLY=( $(compgen -f -- \"$cur\" || :) )"
                case .shells: return "COMPREPLY=( $(compgen -W 'bash zsh fish' -- \"$cur\" || :) )"
                case .actions: return "COMPREPLY=( $(compgen -W \"$actions\" -- \"$cur\" || :) )"
                case .task, .tasks: return "_todo_tasks"
                case .views: return "COMPREPLY=( $(compgen -W \"$(\"$program\" __complete-views 2>/dev/null)\" -- \"$cur\" || :) )"
                case .nothing, .projectsAndContexts: return "COMPREPLY=()"
                }
            }
            let positional = byPosition(action, reply) { branches, last in
                "case $position in " + branches.map { "\($0.position)) \($0.reply) ;; " }.joined() + "*) \(last) ;; esac"
            }
            cases.append("""
                    \(names(action).joined(separator: "|")))\(valueCases)
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
        # bash completion for todo and todo.sh; load with: eval "$(todo completions bash)"
        _todo_tasks() {
            local IFS=$'\\n' line
            COMPREPLY=()
            for line in $("$program" __complete-tasks 2>/dev/null); do
                [[ "${line%%$'\\t'*}" == "$cur"* ]] && COMPREPLY+=("${line%%$'\\t'*}")
            done
            return 0
        }
        _todo_complete() {
            local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" program="${COMP_WORDS[0]}"
            local action="" position=0 i
            local actions='\(actionWords)'
            actions+=" $("$program" __complete-addons 2>/dev/null | tr '\\n' ' ')"
            if [[ \(GlobalOption.spellingsTakingAFile.map { "\"$prev\" == \($0)" }.joined(separator: " || ")) ]]; then
                COMPREPLY=( $(compgen -f -- "$cur" || :) )
                return 0
            fi
            for (( i = 1; i < COMP_CWORD; i++ )); do
                if [[ -z "$action" ]]; then
                    case "${COMP_WORDS[i]}" in
                        \(GlobalOption.spellingsTakingAFile.joined(separator: "|"))) (( i++ )) ;;
                        -*) ;;
                        *) action="${COMP_WORDS[i]}" ;;
                    esac
                elif [[ "${COMP_WORDS[i]}" != -* ]]; then
                    position=$(( position + 1 ))
                fi
            done
            position=$(( position + 1 ))
            if [[ "$cur" == [+@]* ]]; then
                COMPREPLY=( $(compgen -W "$("$program" __complete-words 2>/dev/null)" -- "$cur" || :) )
                return 0
            fi
            if [[ -z "$action" ]]; then
                COMPREPLY=( $(compgen -W "$actions \(globalWords)" -- "$cur" || :) )
                return 0
            fi
            case "$action" in
        \(cases.joined(separator: "\n"))
            esac
            return 0
        }
        complete -F _todo_complete \(programs.joined(separator: " "))
        """
    }

    /// `text` inside a single-quoted zsh word, with `:` escaped for `_describe`.
    static func zshQuoted(_ text: String) -> String {
        text.replacing("'", with: "'\\''").replacing(":", with: "\\:")
    }

    static func zshScript() -> String {
        let described = visibleActions.flatMap { action in
            names(action).map { "'\($0):\(zshQuoted(action.summary))'" }
        }.joined(separator: "\n        ")
        var cases: [String] = []
        for action in visibleActions {
            func reply(_ completion: ActionSpec.Completion) -> String {
                switch completion {
                case .files: return "_files"
                case .shells: return "compadd bash zsh fish"
                case .actions: return "_describe 'action' actions"
                case .task, .tasks: return "_todo_tasks"
                case .views: return "compadd -- ${(f)\"$(${words[1]} __complete-views 2>/dev/null)\"}"
                case .nothing, .projectsAndContexts: return ":"
                }
            }
            // After `CURRENT -= index - 2`, the action is word 2 and its first argument word 3.
            let positional = byPosition(action, reply) { branches, last in
                "case $(( CURRENT - 2 )) in " + branches.map { "(\($0.position)) \($0.reply) ;; " }.joined() + "(*) \(last) ;; esac"
            }
            let options = optionWords(action).map { "'\($0)'" }.joined(separator: " ")
            var valueTests = ""
            for option in valuedOptions(action) {
                let reply = option.values.isEmpty ? ":" : "compadd -- " + option.values.joined(separator: " ")
                valueTests += "if [[ \"${words[CURRENT-1]}\" == (\(option.names.joined(separator: "|"))) ]]; then \(reply); el"
            }
            cases.append("        \(names(action).joined(separator: "|"))) \(valueTests)if [[ \"$PREFIX\" == -* ]]; then compadd -- \(options); else \(positional); fi ;;")
        }
        return """
        #compdef \(programs.joined(separator: " "))
        # zsh completion for todo and todo.sh; load with: source <(todo completions zsh), or install it
        # as _todo in a directory of $fpath (scripts/install.sh does).
        _todo_tasks() {
            local -a tasks
            local line
            # ADDRESS<TAB>TEXT becomes ADDRESS:TEXT, what _describe shows (an address has no colon).
            for line in ${(f)"$(${words[1]} __complete-tasks 2>/dev/null)"}; do
                tasks+=("${line%%$'\\t'*}:${line#*$'\\t'}")
            done
            _describe -V 'task' tasks
        }
        _todo() {
            local -a actions
            actions=(
                \(described)
            )
            actions+=(${(f)"$(${words[1]} __complete-addons 2>/dev/null)"})
            if [[ "${words[CURRENT-1]}" == (\(GlobalOption.spellingsTakingAFile.joined(separator: "|"))) ]]; then
                _files
                return
            fi
            if [[ "$PREFIX" == [+@]* ]]; then
                local -a found
                found=(${(f)"$(${words[1]} __complete-words 2>/dev/null)"})
                compadd -a found
                return
            fi
            local index=2
            while (( index < CURRENT )) && [[ "${words[index]}" == -* ]]; do
                [[ "${words[index]}" == (\(GlobalOption.spellingsTakingAFile.joined(separator: "|"))) ]] && (( index++ ))
                (( index++ ))
            done
            if (( index == CURRENT )); then
                if [[ "$PREFIX" == -* ]]; then
                    compadd -- \(GlobalOption.completionWords.map { "'\($0)'" }.joined(separator: " "))
                    return
                fi
                _describe 'action' actions
                return
            fi
            (( CURRENT -= index - 2 ))
            case "${words[index]}" in
        \(cases.joined(separator: "\n"))
            esac
        }
        if [[ "${funcstack[1]}" == _todo ]]; then _todo "$@"; else compdef _todo \(programs.joined(separator: " ")); fi
        """
    }

    static func fishScript() -> String {
        var lines = ["# fish completion for todo and todo.sh; load with: todo completions fish | source",
                     "# How many arguments follow the action so far (options and -f FILE before it skipped).",
                     "function __todo_arguments",
                     "    set -l words (commandline -opc)",
                     "    set -l found 0; set -l count 0; set -l skip 0",
                     "    for word in $words[2..-1]",
                     "        if test $skip -eq 1; set skip 0; continue; end",
                     "        if test $found -eq 0",
                     "            switch $word",
                     "                case \(GlobalOption.spellingsTakingAFile.joined(separator: " ")); set skip 1",
                     "                case '-*'",
                     "                case '*'; set found 1",
                     "            end",
                     "        else if not string match -q -- '-*' $word",
                     "            set count (math $count + 1)",
                     "        end",
                     "    end",
                     "    echo $count",
                     "end"]
        for program in programs {
            lines += ["complete -c \(program) -f"]
            for option in GlobalOption.all where option.listed {
                let spellings = option.names.map { $0.hasPrefix("--") ? "-l '\($0.dropFirst(2))'" : "-s '\($0.dropFirst())'" }
                var line = "complete -c \(program) -n '__fish_use_subcommand' " + spellings.joined(separator: " ")
                if option.value != nil { line += option.values.isEmpty ? " -r -F" : " -x -a '\(option.values.joined(separator: " "))'" }
                if let meaning = option.meaning { line += " -d '\(meaning.replacing("'", with: "\\'"))'" }
                lines.append(line)
            }
            lines.append("complete -c \(program) -n '__fish_use_subcommand' -a '(\(program) __complete-addons 2>/dev/null)'")
            for action in visibleActions {
                for name in names(action) {
                    let summary = action.summary.replacing("'", with: "\\'")
                    lines.append("complete -c \(program) -n '__fish_use_subcommand' -a '\(name)' -d '\(summary)'")
                }
                let seen = "__fish_seen_subcommand_from \(names(action).joined(separator: " "))"
                for option in action.options {
                    // fish names a long option with -l, a one-letter one (`-q`) with -s.
                    let flags = option.names.map { $0.hasPrefix("--") ? "-l '\($0.dropFirst(2))'" : "-s '\($0.dropFirst())'" }
                    var line = "complete -c \(program) -n '\(seen)' " + flags.joined(separator: " ")
                    if option.value != nil { line += option.values.isEmpty ? " -x" : " -x -a '\(option.values.joined(separator: " "))'" }
                    lines.append(line)
                }
                let completions = action.argumentCompletions
                for (index, completion) in completions.enumerated() {
                    let flags: String
                    switch completion {
                    case .task, .tasks: flags = "-k -a '(\(program) __complete-tasks 2>/dev/null)'"
                    case .views: flags = "-a '(\(program) __complete-views 2>/dev/null)'"
                    case .files: flags = "-F"
                    case .shells: flags = "-a 'bash zsh fish'"
                    case .actions: flags = "-a '\(visibleActions.flatMap(names).joined(separator: " "))'"
                    case .nothing, .projectsAndContexts: continue
                    }
                    // The arguments typed so far: exactly `index` for this one, at least as many for the last.
                    let condition = completions.count == 1 ? seen
                        : "\(seen); and test (__todo_arguments) \(index == completions.count - 1 ? "-ge" : "-eq") \(index)"
                    lines.append("complete -c \(program) -n '\(condition)' \(flags)")
                }
            }
            lines.append("complete -c \(program) -n 'string match -qr \"^[+@]\" -- (commandline -ct)' -a '(\(program) __complete-words 2>/dev/null)'")
        }
        return lines.joined(separator: "\n")
    }
}
