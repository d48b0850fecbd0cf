import TodoFileSystem
import TodoTxt

/// `add`, `addm` and `addto` under the name `todo`: new tasks get a creation date and a fresh uid
/// (unless switched off), and are appended under the writers' lock (never a rewrite of the file,
/// so a concurrent appender or editor loses nothing). All the tasks of one command go in one
/// append. Blank text is a usage error and writes nothing.
enum AddActions {
    static func add(_ arguments: [String], _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        let usage = "\(invocation.programName) add TEXT"
        let text = TodoShActions.taskText(arguments)
        guard !TaskActions.isBlank(text) else { throw .usage("the task text is empty; usage: \(usage)") }
        return try append([text], to: invocation.todoFilePath(), action: "add", &invocation)
    }

    /// `addm TEXT`: one task per line of TEXT; empty lines are skipped (as todo.sh does), a line of
    /// only spaces is a usage error.
    static func addMultiple(_ arguments: [String], _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        let usage = "\(invocation.programName) addm TEXT"
        let text = Array(arguments.joined(separator: " ").utf8)
        var lines: [[UInt8]] = []
        for (number, line) in text.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            // A CR before the LF is part of the line break (text pasted from Windows).
            let content = line.last == 0x0D ? line.dropLast() : line[...]
            let cleaned = content.map { $0 == 0x0D ? 0x20 : $0 }
            if cleaned.isEmpty { continue }
            guard !TaskActions.isBlank(cleaned) else {
                throw .usage("line \(number + 1) of the text is blank; usage: \(usage)")
            }
            lines.append(cleaned)
        }
        guard !lines.isEmpty else { throw .usage("the task text is empty; usage: \(usage)") }
        return try append(lines, to: invocation.todoFilePath(), action: "addm", &invocation)
    }

    /// `addto DEST TEXT`: DEST is a file in the todo file's directory, which must exist.
    static func addTo(_ arguments: [String], _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        let usage = "\(invocation.programName) addto DEST TEXT"
        guard arguments.count >= 2 else { throw .usage("missing arguments; usage: \(usage)") }
        guard !arguments[0].isEmpty else { throw .usage("the destination is empty; usage: \(usage)") }
        let text = TodoShActions.taskText(Array(arguments.dropFirst()))
        guard !TaskActions.isBlank(text) else { throw .usage("the task text is empty; usage: \(usage)") }
        let path = FileAccess.directoryName(of: invocation.todoFilePath()) + "/" + arguments[0]
        guard FileAccess.exists(path) else { throw .failure("\(path): no such file (addto adds to an existing file)") }
        return try append([text], to: path, action: "addto", &invocation)
    }

    /// Appends the tasks for `texts` to `path` and reports each as todo.sh does (`N text`,
    /// `TODO: N added.`).
    static func append(_ texts: [[UInt8]], to path: String, action: String,
                       _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        let settings = TodoNameActions.settings(for: invocation)
        let creationDate = settings.dateOnAdd ? invocation.clock.today : nil
        let priorityOnAdd = Priority(settings.priorityOnAdd.uppercased())
        // A text that is only a header (`(A) `, `x 2025-11-01`: `todo add "(A) $task"` with an empty
        // $task) is as empty as no text.
        for text in texts where !TodoItem(TodoItem.newTaskLine(text, creationDate: creationDate, uid: nil)).hasDescription {
            throw .usage("the task text is empty; usage: \(TaskActions.usage(action, invocation))")
        }
        // The done file is read only when a uid must be checked against it (a fresh one, or one the
        // text gives): `todo add` with uids off costs no read of a done file that only grows.
        let checksUIDs = settings.uidOnAdd || texts.contains { TodoItem.identity(inFragment: $0) != nil }
        let done = checksUIDs ? try FileAccess.readIfExists(settings.doneFile).map { TodoDocument(bytes: $0) } : nil
        var added: [[UInt8]] = []
        let first = try FileAccess.appendLines(path, lockTimeout: invocation.lockTimeout) { existing throws(CLIError) in
            try TodoFileEdit.refuseConflictMarkers(existing, path: path)
            var document = TodoDocument(bytes: existing)
            var generator = UIDRandomness(environment: invocation.environment)
            added = []
            var taken: UIDIndex?
            for text in texts {
                // A uid the text gives itself must be free: a second holder would make it ambiguous.
                if let given = TodoItem.identity(inFragment: text) {
                    let index = taken ?? UIDIndex(document)
                    taken = index
                    if let holder = index.holders[given]?.first {
                        throw .failure("\(path): uid \(given) is already task \(holder + 1)'s; leave it out for a fresh one")
                    }
                    if let done, UIDIndex(done).holders[given] != nil {
                        throw .failure("\(path): uid \(given) is already held by a task in \(settings.doneFile)")
                    }
                }
                var uid: String?
                if settings.uidOnAdd {
                    uid = UID.generate(using: &generator, unusedIn: document, and: done ?? TodoDocument(bytes: []))
                }
                var line = TodoItem.newTaskLine(text, creationDate: creationDate, uid: uid)
                if let priorityOnAdd, TodoItem(line).priority == nil, !TodoItem(line).isCompleted {
                    line = priorityOnAdd.headerBytes + [0x20] + line
                }
                document.appendLine(line)
                added.append(line)
            }
            return added
        }
        let prefix = TodoShContext.prefix(of: path)
        for (offset, line) in added.enumerated() {
            invocation.echoTask(first + offset, line)
            invocation.report("\(prefix): \(first + offset) added.")
        }
        return 0
    }
}
