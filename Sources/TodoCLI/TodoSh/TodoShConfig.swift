import TodoFileSystem

/// The todo.sh config file: found in todo.sh's order and *executed* by bash, as todo.sh sources it
/// (docs/todosh.md section 1). The variables it leaves behind are read back through file descriptor 3.
enum TodoShConfig {
    /// The colour map and display defaults todo.sh defines before the config runs; values for these
    /// names in the environment are ignored.
    static let presetScript = """
        export NONE='' BLACK='\\\\033[0;30m' RED='\\\\033[0;31m' GREEN='\\\\033[0;32m' \
        BROWN='\\\\033[0;33m' BLUE='\\\\033[0;34m' PURPLE='\\\\033[0;35m' CYAN='\\\\033[0;36m' \
        LIGHT_GREY='\\\\033[0;37m' DARK_GREY='\\\\033[1;30m' LIGHT_RED='\\\\033[1;31m' \
        LIGHT_GREEN='\\\\033[1;32m' YELLOW='\\\\033[1;33m' LIGHT_BLUE='\\\\033[1;34m' \
        LIGHT_PURPLE='\\\\033[1;35m' LIGHT_CYAN='\\\\033[1;36m' WHITE='\\\\033[1;37m' DEFAULT='\\\\033[0m'
        export PRI_A=$YELLOW PRI_B=$GREEN PRI_C=$LIGHT_BLUE PRI_X=$WHITE
        export COLOR_DONE=$LIGHT_GREY COLOR_PROJECT=$NONE COLOR_CONTEXT=$NONE COLOR_DATE=$NONE
        export COLOR_NUMBER=$NONE COLOR_META=$NONE
        export SENTENCE_DELIMITERS=',.:;'

        """

    /// The names of the colour presets (kept from the script above, not from the environment).
    static let presetNames: Set<String> = [
        "NONE", "BLACK", "RED", "GREEN", "BROWN", "BLUE", "PURPLE", "CYAN", "LIGHT_GREY", "DARK_GREY",
        "LIGHT_RED", "LIGHT_GREEN", "YELLOW", "LIGHT_BLUE", "LIGHT_PURPLE", "LIGHT_CYAN", "WHITE", "DEFAULT",
        "PRI_A", "PRI_B", "PRI_C", "PRI_X", "COLOR_DONE", "COLOR_PROJECT", "COLOR_CONTEXT", "COLOR_DATE",
        "COLOR_NUMBER", "COLOR_META", "SENTENCE_DELIMITERS",
    ]

    /// The first config file that exists, in todo.sh's order; nil when there is none.
    static func locate(explicit: String?, environment: [String: String], fileSystem: FileSystem,
                       programPath: String) -> String? {
        if let explicit, !explicit.isEmpty, fileSystem.exists(explicit) { return explicit }
        let home = environment["HOME"] ?? ""
        let xdg = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
        let global = environment["TODOTXT_GLOBAL_CFG_FILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "/etc/todo/config"
        let candidates = [
            home + "/.todo/config", home + "/todo.cfg", home + "/.todo.cfg", xdg + "/todo/config",
            FileAccess.directoryName(of: programPath) + "/todo.cfg", global,
        ]
        return candidates.first(where: fileSystem.exists)
    }

    /// What running the config produced.
    struct Outcome {
        /// Every shell variable afterwards.
        var variables: [String: String]
        /// The exported ones (what a child process would see).
        var exported: [String: String]
        /// Set when the config ended the shell itself (`exit N`): todo.sh would have exited too.
        var exitStatus: Int32?
    }

    /// `"${!A@}" … "${!z@}" "${!_@}"`: every variable name, by first character (quoted: immune to IFS).
    static let variablePrefixes = (Array(UInt8(ascii: "A")...UInt8(ascii: "Z")) + Array(UInt8(ascii: "a")...UInt8(ascii: "z"))
        + [UInt8(ascii: "_")]).map { "\"${!" + String(UnicodeScalar($0)) + "@}\"" }.joined(separator: " ")

    /// Runs `path` with bash (stdin from /dev/null, stdout and stderr shared) after the presets, with
    /// `environment` exported, and reads back the variables.
    static func execute(_ path: String, environment: [String: String], programPath: String) -> Outcome {
        // No subshell and one write: `${!X@}` lists the variables starting with X (together: what
        // `compgen -v` lists), `${!name@a}` their attributes (`x` when exported, as `compgen -e`).
        let script = presetScript + """
            . "$1"
            __todo_records=()
            __todo_exported=()
            for __todo_name in \(variablePrefixes); do
              case $__todo_name in __todo_*|BASH*|FUNCNAME|PIPESTATUS|GROUPS|DIRSTACK) continue;; esac
              __todo_records+=("$__todo_name=${!__todo_name}")
              if [[ ${!__todo_name@a} == *x* ]]; then __todo_exported+=("$__todo_name"); fi
            done
            printf '%s\\0' "${__todo_records[@]}" $'\\1' "${__todo_exported[@]}" >&3

            """
        var childEnvironment = environment
        for name in presetNames { childEnvironment[name] = nil }
        let outcome = ProcessSpawning.run(["bash", "-c", script, programPath, path], environment: childEnvironment,
                                          input: nil, captureOutput: false, captureChannel: true)
        var variables: [String: String] = [:]
        var exported: [String: String] = [:]
        var sawMarker = false
        for record in outcome.channel.split(separator: 0, omittingEmptySubsequences: false) {
            if record.isEmpty { continue }
            if record.count == 1 && record.first == 1 { sawMarker = true; continue }
            let text = String(decoding: record, as: UTF8.self)
            if sawMarker {
                if let value = variables[text] { exported[text] = value }
            } else if let equals = text.firstIndex(of: "=") {
                variables[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
        }
        return Outcome(variables: variables, exported: exported, exitStatus: sawMarker ? nil : outcome.status)
    }

    /// Splits `text` into shell words as bash's `eval set -- TEXT` would for plain command lines:
    /// single and double quotes, backslash escapes, `$NAME`/`${NAME}` from `variables`.
    static func shellWords(_ text: String, variables: [String: String]) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var characters = Array(text)
        characters.append(" ")
        var index = 0
        func expand(_ index: inout Int) -> String? {
            // characters[index] is "$"
            var position = index + 1
            var name = ""
            if position < characters.count, characters[position] == "{" {
                position += 1
                while position < characters.count, characters[position] != "}" { name.append(characters[position]); position += 1 }
                index = position
                return variables[name] ?? ""
            }
            while position < characters.count, characters[position].isLetter || characters[position].isNumber
                    || characters[position] == "_" {
                name.append(characters[position])
                position += 1
            }
            guard !name.isEmpty else { return nil }
            index = position - 1
            return variables[name] ?? ""
        }
        while index < characters.count {
            let character = characters[index]
            switch character {
            case " ", "\t", "\n":
                if inWord { words.append(current); current = ""; inWord = false }
            case "'":
                inWord = true
                index += 1
                while index < characters.count, characters[index] != "'" { current.append(characters[index]); index += 1 }
            case "\"":
                inWord = true
                index += 1
                while index < characters.count, characters[index] != "\"" {
                    if characters[index] == "\\", index + 1 < characters.count,
                       "$`\"\\".contains(characters[index + 1]) {
                        index += 1
                        current.append(characters[index])
                    } else if characters[index] == "$", let value = expand(&index) {
                        current += value
                    } else {
                        current.append(characters[index])
                    }
                    index += 1
                }
            case "\\":
                inWord = true
                if index + 1 < characters.count - 1 {
                    index += 1
                    if characters[index] != "\n" { current.append(characters[index]) }
                }
            case "$":
                inWord = true
                if let value = expand(&index) { current += value } else { current.append("$") }
            default:
                inWord = true
                current.append(character)
            }
            index += 1
        }
        return words
    }
}
