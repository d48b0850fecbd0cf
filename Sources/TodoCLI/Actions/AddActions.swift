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
        return try append([try RelativeDateInput.resolve(text, action: "add", invocation)], to: invocation.todoFilePath(),
                          action: "add", &invocation)
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
            lines.append(try RelativeDateInput.resolve(cleaned, action: "addm", invocation))
        }
        guard !lines.isEmpty else { throw .usage("the task text is empty; usage: \(usage)") }
        return try append(lines, to: invocation.todoFilePath(), action: "addm", &invocation)
    }

    /// `addto DEST TEXT`: DEST is an absolute path, or a file in the todo file's directory; it must
    /// exist.
    static func addTo(_ arguments: [String], _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        let usage = "\(invocation.programName) addto DEST TEXT"
        guard arguments.count >= 2 else { throw .usage("missing arguments; usage: \(usage)") }
        guard !arguments[0].isEmpty else { throw .usage("the destination is empty; usage: \(usage)") }
        let text = TodoShActions.taskText(Array(arguments.dropFirst()))
        guard !TaskActions.isBlank(text) else { throw .usage("the task text is empty; usage: \(usage)") }
        let path = arguments[0].hasPrefix("/") ? arguments[0] : FileAccess.directoryName(of: invocation.todoFilePath()) + "/" + arguments[0]
        let resolved = try RelativeDateInput.resolve(text, action: "addto", invocation)
        guard invocation.files.fileSystem.exists(path) else { throw .failure("\(path): no such file (addto adds to an existing file)") }
        return try append([resolved], to: path, action: "addto", &invocation)
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
        let first: Int, added: [[UInt8]]
        if texts.contains(where: { TodoItem.identity(inFragment: $0) != nil || hasLinks($0) }) {
            (first, added) = try appendGivingUIDs(texts, to: path, settings: settings, creationDate: creationDate,
                                                  priorityOnAdd: priorityOnAdd, invocation)
        } else {
            (first, added) = try appendScanning(texts, to: path, settings: settings, creationDate: creationDate,
                                                priorityOnAdd: priorityOnAdd, invocation)
        }
        let prefix = TodoShContext.prefix(of: path)
        for (offset, line) in added.enumerated() {
            invocation.echoTask(first + offset, line)
            invocation.report("\(prefix): \(first + offset) added.")
        }
        return 0
    }

    /// The task line for `text`: creation date, uid and the configured priority as `todo add` gives them.
    /// The rule is TodoTxt's (`TodoItem.newTaskLine(_:creationDate:uid:priority:)`), shared with TodoStore.
    static func newLine(_ text: [UInt8], creationDate: TodoDate?, uid: String?, priorityOnAdd: Priority?) -> [UInt8] {
        TodoItem.newTaskLine(text, creationDate: creationDate, uid: uid, priority: priorityOnAdd)
    }

    /// The usual `add`: no text names its own uid, so nothing needs the file parsed. Under the
    /// writers' lock, the file is scanned in pieces (`AppendScan`) for its line count, its line
    /// ending, a NUL byte, a conflict block and the fresh uids picked beforehand (the done file for
    /// the uids too); a uid found taken is replaced and the files scanned again. Then one append.
    static func appendScanning(_ texts: [[UInt8]], to path: String, settings: TodoShSettings, creationDate: TodoDate?,
                               priorityOnAdd: Priority?, _ invocation: Invocation) throws(CLIError) -> (Int, [[UInt8]]) {
        try FileAccess.withLock(path, timeout: invocation.lockTimeout) { () throws(CLIError) -> (Int, [[UInt8]]) in
            var generator = UIDRandomness(environment: invocation.environment)
            var candidates: [String] = []
            var takenBefore: Set<String> = []
            func pickFresh(_ index: Int?) {
                let others = candidates
                let fresh = UID.generate(using: &generator) { takenBefore.contains($0) || others.contains($0) }
                if let index { candidates[index] = fresh } else { candidates.append(fresh) }
            }
            if settings.uidOnAdd { for _ in texts { pickFresh(nil) } }
            var scan: AppendScan
            while true {
                scan = AppendScan(uidCandidates: candidates)
                try invocation.files.scanInPieces(path, into: &scan)
                var doneScan = AppendScan(uidCandidates: candidates)
                if !candidates.isEmpty { try invocation.files.scanInPieces(settings.doneFile, into: &doneScan) }
                let taken = candidates.indices.filter { scan.isTaken[$0] || doneScan.isTaken[$0] }
                if taken.isEmpty { break }
                for index in taken {
                    takenBefore.insert(candidates[index])
                    pickFresh(index)
                }
            }
            if let line = scan.firstNULLine { throw .failure(FileSystemError.holdsNUL(path: path, line: line).description) }
            if let line = scan.conflictBlockLine { throw .failure(TodoFileEdit.conflictMessage(path: path, line: line)) }
            let lines = texts.indices.map { index in
                newLine(texts[index], creationDate: creationDate, uid: candidates.isEmpty ? nil : candidates[index],
                        priorityOnAdd: priorityOnAdd)
            }
            try invocation.files.appendDurably(path, scan.bytesAppending(lines.map { $0[...] }), warn: invocation.warn)
            return (scan.lineCount + 1, lines)
        }
    }

    /// `add` of a text that names its own uid or has `after:` links: the file is read and indexed
    /// whole, so that a uid already held is reported with its holder and each link is resolved
    /// (AddActions+Dependencies.swift).
    static func appendGivingUIDs(_ texts: [[UInt8]], to path: String, settings: TodoShSettings, creationDate: TodoDate?,
                                 priorityOnAdd: Priority?, _ invocation: Invocation) throws(CLIError) -> (Int, [[UInt8]]) {
        let done = try invocation.files.readIfExists(settings.doneFile).map { TodoDocument(bytes: $0) }
        var added: [[UInt8]] = []
        let first = try invocation.files.appendLines(path, lockTimeout: invocation.lockTimeout, warn: invocation.warn) { existing throws(CLIError) in
            try TodoFileEdit.refuseConflictMarkers(existing, path: path)
            var document = TodoDocument(bytes: existing)
            var generator = UIDRandomness(environment: invocation.environment)
            added = []
            var taken: UIDIndex?
            for original in texts {
                let text = hasLinks(original)
                    ? try resolvingLinks(original, in: document, done: done, path: path, donePath: settings.doneFile) : original
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
                let line = newLine(text, creationDate: creationDate, uid: uid, priorityOnAdd: priorityOnAdd)
                document.appendLine(line)
                added.append(line)
            }
            return added
        }
        return (first, added)
    }
}
