import TodoTxt
import TodoFileSystem

/// `add`, `addm`, `addto` (docs/todosh.md section 5, "Adding").
extension TodoShActions {
    static func add(_ context: inout TodoShContext, _ arguments: [String]) throws(CLIError) -> Int32 {
        let text = try textOrPrompt(arguments, prompt: "Add: ", usage: "add \"TODO ITEM\"", context)
        try addLine(text, to: context.settings.todoFile, context)
        return 0
    }

    static func addMultiple(_ context: inout TodoShContext, _ arguments: [String]) throws(CLIError) -> Int32 {
        let text: [UInt8]
        if arguments.isEmpty || arguments.allSatisfy(\.isEmpty) {
            text = try textOrPrompt(arguments, prompt: "Add: ", usage: "addm \"TODO ITEM\"", context)
        } else {
            text = Array(arguments.joined(separator: " ").utf8)
        }
        for line in text.split(separator: 0x0A) where !line.isEmpty {
            try addLine(Array(line).map { $0 == 0x0D ? 0x20 : $0 }, to: context.settings.todoFile, context)
        }
        return 0
    }

    static func addTo(_ context: inout TodoShContext, _ arguments: [String]) throws(CLIError) -> Int32 {
        let usage = "addto DEST \"TODO ITEM\""
        guard let destination = arguments.first, !destination.isEmpty else { throw context.actionUsage(usage) }
        let path = fileArgument(destination, context)
        guard arguments.count > 1, !arguments[1].isEmpty else { throw context.actionUsage(usage) }
        let kind = context.files.fileSystem.kind(of: path)
        guard kind == .regular || kind == .characterDevice else {
            throw context.die("TODO: Destination file \(path) does not exist.")
        }
        try addLine(taskText(Array(arguments.dropFirst())), to: path, context)
        return 0
    }

    /// The text from arguments; with none, a prompt on stdin unless forced (then the usage line).
    static func textOrPrompt(_ arguments: [String], prompt: String, usage: String,
                             _ context: TodoShContext) throws(CLIError) -> [UInt8] {
        if let first = arguments.first, !first.isEmpty { return taskText(arguments) }
        if context.settings.force { throw context.actionUsage(usage) }
        context.sayBytes(Array(prompt.utf8))
        var line: [UInt8] = []
        while let byte = ProcessSpawning.readOneByteFromStandardInput(), byte != 0x0A { line.append(byte) }
        return line.map { $0 == 0x0D ? 0x20 : $0 }
    }

    /// The line `add` writes for `text`: lowercase `(x) ` upper-cased, the date after an optional
    /// `(X) ` when date-on-add is on, then `(P) ` from `TODOTXT_PRIORITY_ON_ADD` if there is none.
    static func newTaskLine(_ text: [UInt8], _ settings: TodoShSettings, today: TodoDate) -> [UInt8] {
        var line = text
        if line.count >= 3, line[0] == 0x28, line[1] >= 0x61, line[1] <= 0x7A, line[2] == 0x29 {
            line[1] -= 0x20
        }
        let hasPriority = line.count >= 3 && line[0] == 0x28 && line[1] >= 0x41 && line[1] <= 0x5A && line[2] == 0x29
        if settings.dateOnAdd {
            let at = hasPriority && line.count >= 4 && line[3] == 0x20 ? 4 : 0
            line.insert(contentsOf: today.bytes + [0x20], at: at)
        }
        if !settings.priorityOnAdd.isEmpty && !hasPriority {
            line = Array("(\(settings.priorityOnAdd)) ".utf8) + line
        }
        return line
    }

    /// Appends a task to `path` (fixing a missing final newline first) and reports `N text` and
    /// `P: N added.` where N is the file's new line count.
    static func addLine(_ text: [UInt8], to path: String, _ context: TodoShContext) throws(CLIError) {
        let line = newTaskLine(text, context.settings, today: context.clock.today)
        let lineCount = context.files.fileSystem.kind(of: path) == .characterDevice ? 1 : try context.appendLine(path, line)
        context.inform("\(lineCount) \(string(line))")
        context.inform("\(TodoShContext.prefix(of: path)): \(lineCount) added.")
    }
}
