import TodoTxt
import TodoFileSystem

/// todo.sh's built-in actions and its dispatch (docs/todosh.md section 1): `command X` bypasses add-ons, an
/// executable in the actions directory overrides a built-in, anything else unknown gives usage. Which
/// built-in answers to which name is declared in `ActionTable`, with the `todo` name's actions.
enum TodoShActions {
    typealias Action = @Sendable (inout TodoShContext, [String]) throws(CLIError) -> Int32

    /// Runs `arguments` (action first).
    static func dispatch(_ arguments: [String], _ context: inout TodoShContext) throws(CLIError) -> Int32 {
        var arguments = arguments
        var action = arguments[0].lowercased()
        if action == "command" {
            arguments.removeFirst()
            guard let first = arguments.first else { return 0 }
            action = first.lowercased()
        } else if let status = try TodoShAddons.runIfPresent(action, arguments, context) {
            return status
        }
        guard let spec = ActionTable.todoShActions[action] else { throw context.usage() }
        guard let builtin = spec.todoSh else { return try runAddition(spec, Array(arguments.dropFirst()), context) }
        return try builtin(&context, Array(arguments.dropFirst()))
    }

    /// Runs one of `todo`'s additions (sort, watch, merge, …; docs/todo-command.md) under the name `todo.sh`, on
    /// the files todo.sh's config chose. Additions never shadow a built-in or an add-on.
    static func runAddition(_ addition: ActionSpec, _ arguments: [String], _ context: TodoShContext) throws(CLIError) -> Int32 {
        var invocation = context.invocation
        invocation.programPath = context.programPath
        invocation.fileOption = context.settings.todoFile
        invocation.configVariables = ["DONE_FILE": context.settings.doneFile]
        invocation.quiet = context.settings.verbose == 0
        invocation.colorMode = context.settings.plain ? .never : .auto
        do {
            return try addition.run(&invocation, arguments)
        } catch .usage(let text) {
            // todo.sh's actions exit 1 on a usage error; so do the additions under its name.
            throw .todoSh(message: "\(invocation.programName): \(text)", onStandardOutput: false, status: 1)
        }
    }

    // MARK: Shared pieces

    /// Task text from arguments: joined with single spaces; CR and LF become spaces.
    static func taskText(_ arguments: [String]) -> [UInt8] {
        Array(arguments.joined(separator: " ").utf8).map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }
    }

    static func string(_ bytes: some Collection<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }

    /// Resolves a task address in `document` (docs/todosh.md section 2; docs/todo-command.md, uid addressing): digits are a
    /// line number (an empty line or one past the end is `P: No task N.`); otherwise a uid, `uid:V`
    /// or unique uid prefix; anything else gives the action's usage line. Returns the 0-based index and
    /// the number to echo.
    static func resolve(_ address: String, in document: TodoDocument, file: String, usage: String,
                        _ context: TodoShContext) throws(CLIError) -> (index: Int, shown: String) {
        guard !address.isEmpty else { throw context.actionUsage(usage) }
        if context.settings.rules.strictFiles {
            // Under `todo`, every unresolvable address is a failure naming the file (docs/todo-command.md).
            do {
                let reference = try document.resolve(address)
                return (reference.index, String(reference.index + 1))
            } catch {
                throw .failure("\(file): \(error)")
            }
        }
        if address.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            let number = Int(address) ?? 0
            guard number >= 1, number <= document.lineCount, !document.content(at: number - 1).isEmpty else {
                throw context.die("\(TodoShContext.prefix(of: file)): No task \(address).")
            }
            return (number - 1, address)
        }
        do {
            let reference = try document.resolve(address)
            return (reference.index, String(reference.index + 1))
        } catch {
            if case .ambiguous = error { throw context.die("TODO: \(error.description)") }
            throw context.actionUsage(usage)
        }
    }

    /// Line `index` of the snapshot, found again in `current` after another writer may have changed
    /// the file (the safe write re-applies edits): by its bytes, so a re-applied edit never hits a
    /// different task. Dies when the task is gone or no longer unique.
    static func relocate(_ index: Int, _ content: [UInt8], in current: TodoDocument, shown: String,
                         _ context: TodoShContext) throws(CLIError) -> Int {
        guard let found = TaskIdentity.relocate(index: index, content: content, in: current) else {
            throw context.die("TODO: task \(shown) changed while this command ran; nothing done.")
        }
        return found
    }

    /// NR arguments of do/depri: each argument split on commas, empty pieces dropped.
    static func numberList(_ arguments: [String]) -> [String] {
        var numbers: [String] = []
        for argument in arguments {
            for piece in argument.split(whereSeparator: { $0 == "," || $0 == " " }) { numbers.append(String(piece)) }
        }
        return numbers
    }

    /// todo.sh's `confirm`: force skips it; else one character from stdin decides (`y` only), the
    /// prompt shows only on a terminal (stderr), and a newline always follows on stdout.
    static func confirm(_ prompt: String, _ context: TodoShContext) -> Bool {
        if context.settings.force { return true }
        if ProcessContext.isTerminal(0) { context.io.writeError(Array("\(prompt)? (y/n) ".utf8)) }
        let answer = ProcessSpawning.readOneByteFromStandardInput()
        context.say("")
        return answer == UInt8(ascii: "y")
    }
}
