import TodoTxt
import TodoFileSystem

/// `do`, `archive`, `del`, `move`, `deduplicate`, `report` (docs/todosh.md section 5, "Completing and removing",
/// "Reporting").
extension TodoShActions {
    static func markDone(_ context: inout TodoShContext, _ arguments: [String]) throws(CLIError) -> Int32 {
        let usage = "do NR [NR ...]"
        let numbers = numberList(arguments)
        guard !numbers.isEmpty else { throw context.actionUsage(usage) }
        var status: Int32 = 0
        let today = context.clock.today.bytes
        func markedDone(_ line: [UInt8]) -> [UInt8] { TodoShDialect.markedDone(line, today: today) }
        // With auto-archive (todo.sh's default) the edits and the archive are one write of the todo
        // file: the done file is appended first, then the todo file replaced once.
        if context.settings.autoArchive {
            let path = context.settings.todoFile
            let document = try context.document(path)
            var edits: [ArchiveEdit] = []
            var planned = document
            for address in numbers {
                let opened: (index: Int, shown: String, line: [UInt8])?
                do {
                    opened = try openTask(address, in: planned, file: path, usage: usage, context)
                } catch {
                    // todo.sh completes the tasks before a bad address one by one, then dies
                    // without archiving (`do 1 9`: task 1 done, `TODO: No task 9.`, exit 1). The
                    // `todo` name writes nothing then (docs/todo-command.md, "Addressing a task").
                    if !context.settings.rules.allOrNothingAddresses, !edits.isEmpty {
                        try completeWithoutArchiving(edits, in: path, context)
                    }
                    throw error
                }
                guard let (index, shown, old) = opened else {
                    status = 1
                    continue
                }
                let new = markedDone(old)
                planned.replaceContent(at: index, with: new)
                edits.append(ArchiveEdit(index: index, shown: shown, old: old, new: new))
            }
            let announcer = context
            _ = try archive(&context, applying: edits, snapshot: document) {
                for edit in edits {
                    announcer.inform("\(edit.shown) \(string(edit.new))")
                    announcer.inform("TODO: \(edit.shown) marked as done.")
                }
            }
            return status
        }
        for address in numbers {
            let path = context.settings.todoFile
            let document = try context.document(path)
            guard let (_, shown, _) = try openTask(address, in: document, file: path, usage: usage, context) else {
                status = 1
                continue
            }
            let result = try editTask(address, usage: usage, context, document: document, markedDone)
            context.inform("\(result.shown) \(string(result.new))")
            context.inform("TODO: \(shown) marked as done.")
        }
        return status
    }

    /// Writes `edits` (the tasks `do` completed before an address that stops it) to `path`, each
    /// found again by its bytes, and reports them as todo.sh did before it died: no archive.
    static func completeWithoutArchiving(_ edits: [ArchiveEdit], in path: String, _ context: TodoShContext) throws(CLIError) {
        try context.update(path) { (current: TodoDocument) throws(CLIError) -> TodoDocument? in
            var edited = current
            for edit in edits {
                edited.replaceContent(at: try relocate(edit.index, edit.old, in: edited, shown: edit.shown, context), with: edit.new)
            }
            return edited
        }
        for edit in edits {
            context.inform("\(edit.shown) \(string(edit.new))")
            context.inform("TODO: \(edit.shown) marked as done.")
        }
    }

    /// The task `address` names, for `do`: nil (after todo.sh's soft error) when it is already done.
    static func openTask(_ address: String, in document: TodoDocument, file: String, usage: String,
                         _ context: TodoShContext) throws(CLIError) -> (index: Int, shown: String, line: [UInt8])? {
        let (index, shown) = try resolve(address, in: document, file: file, usage: usage, context)
        let line = Array(document.content(at: index))
        guard !TodoShDialect.isDone(line) else {
            context.softError("TODO: \(shown) is already marked done.")
            return nil
        }
        return (index, shown, line)
    }

    /// One line `do` rewrites before archiving: found again by its bytes if the file changed.
    struct ArchiveEdit {
        let index: Int
        let shown: String
        let old: [UInt8]
        let new: [UInt8]
    }

    /// Removes empty lines from the todo file and moves every `x ` line to the done file.
    ///
    /// `edits` (from `do`) are applied first, in the same single write of the todo file; `announce`
    /// runs once the files are written, before archive's own messages, so nothing is reported done
    /// that was not written.
    static func archive(_ context: inout TodoShContext, applying edits: [ArchiveEdit] = [],
                        snapshot read: TodoDocument? = nil, announce: () -> Void = {}) throws(CLIError) -> Int32 {
        let todoPath = context.settings.todoFile
        let donePath = context.settings.doneFile
        let original: TodoDocument
        if let read { original = read } else { original = try context.document(todoPath) }
        let originalBytes = original.rendered()
        /// `document` with the edits applied, each found again by its bytes.
        func applyingEdits(to document: TodoDocument) throws(CLIError) -> TodoDocument {
            var edited = document
            for edit in edits {
                let found = try relocate(edit.index, edit.old, in: edited, shown: edit.shown, context)
                edited.replaceContent(at: found, with: edit.new)
            }
            return edited
        }
        let snapshot = edits.isEmpty ? original : try applyingEdits(to: original)
        let snapshotBytes = edits.isEmpty ? originalBytes : snapshot.rendered()
        let plan = ArchivePlan(snapshotBytes, blankLines: .dropped)
        let doneLines = plan.lines
        if !doneLines.isEmpty {
            try context.update(donePath) { (document: TodoDocument) throws(CLIError) -> TodoDocument? in
                var edited = document
                for line in doneLines { edited.appendLine(Array(line)) }
                return edited
            }
        }
        // Only the lines just appended to the done file leave the todo file (as a multiset): a task
        // another writer completed in between stays for the next archive instead of being lost.
        // When the file is still the snapshot (the usual case), that is every done line, found
        // without hashing them.
        var editFailure: CLIError?
        try context.updateBytes(todoPath) { current in
            if ProcessSpawning.sameBytes(current, originalBytes), let kept = plan.keptBytes(of: snapshotBytes) { return kept }
            // Only now, when someone else wrote meanwhile, are the archived lines counted (hashing
            // them all showed in the time of a large `do`).
            var archived: [[UInt8]: Int] = [:]
            for line in doneLines { archived[Array(line), default: 0] += 1 }
            do throws(CLIError) {
                let edited = edits.isEmpty ? current : try applyingEdits(to: TodoDocument(bytes: current)).rendered()
                return ArchivePlan.removingTodoShArchived(archived, from: edited)
            } catch {
                editFailure = error
                return nil
            }
        }
        if let editFailure { throw editFailure }
        announce()
        if doneLines.isEmpty {
            context.inform("TODO: \(todoPath) does not contain any done tasks.")
        } else {
            if context.settings.verbose > 0 {
                // One write for all the lines (each as `say` would print it).
                var output: [UInt8] = []
                for line in doneLines {
                    if line.allSatisfy({ $0 < 0x80 }) { output += line } else { output += Array(string(line).utf8) }
                    output.append(0x0A)
                }
                context.sayBytes(output)
            }
            context.inform("TODO: \(todoPath) archived.")
        }
        return 0
    }

    static func delete(_ context: inout TodoShContext, _ arguments: [String]) throws(CLIError) -> Int32 {
        let usage = "del NR [TERM]"
        let path = context.settings.todoFile
        let document = try context.document(path)
        let (index, shown) = try resolve(arguments.first ?? "", in: document, file: path, usage: usage, context)
        let old = Array(document.content(at: index))
        if arguments.count >= 2 {
            let term = arguments[1]
            let new = TodoShDialect.removingTerm(Array(term.utf8), from: old)
            guard new != old else {
                context.inform("\(shown) \(string(old))")
                throw context.die("TODO: '\(term)' not found; no removal done.")
            }
            try context.update(path) { (current: TodoDocument) throws(CLIError) -> TodoDocument? in
                let found = try relocate(index, old, in: current, shown: shown, context)
                var edited = current
                edited.replaceContent(at: found, with: TodoShDialect.removingTerm(Array(term.utf8), from: Array(current.content(at: found))))
                return edited
            }
            context.inform("\(shown) \(string(old))")
            context.inform("TODO: Removed '\(term)' from task.")
            context.inform("\(shown) \(string(new))")
            return 0
        }
        guard confirm("Delete '\(string(old))'", context) else { throw context.die("TODO: No tasks were deleted.") }
        try removeTask(at: index, old, shown: shown, from: path, context)
        context.inform("\(shown) \(string(old))")
        context.inform("TODO: \(shown) deleted.")
        return 0
    }

    /// Removes task `index` (found again by its content) from `path`, as `del NR` and `mv` do.
    static func removeTask(at index: Int, _ content: [UInt8], shown: String, from path: String,
                           _ context: TodoShContext) throws(CLIError) {
        let preserve = context.settings.preserveLineNumbers
        try context.update(path) { (current: TodoDocument) throws(CLIError) -> TodoDocument? in
            let found = try relocate(index, content, in: current, shown: shown, context)
            return TodoShDialect.removingTask(at: found, from: current, preserveLineNumbers: preserve)
        }
    }

    static func move(_ context: inout TodoShContext, _ arguments: [String]) throws(CLIError) -> Int32 {
        let usage = "mv NR DEST [SRC]"
        guard arguments.count >= 2, !arguments[0].isEmpty, !arguments[1].isEmpty else {
            throw context.actionUsage(usage)
        }
        let destination = fileArgument(arguments[1], context)
        let source = arguments.count >= 3 && !arguments[2].isEmpty ? fileArgument(arguments[2], context) : context.settings.todoFile
        func isFile(_ path: String) -> Bool {
            let kind = context.files.fileSystem.kind(of: path)
            return kind == .regular || kind == .characterDevice
        }
        let rules = context.settings.rules
        guard isFile(source) else {
            throw rules.ownMessages ? .failure("\(source): no such file") : context.die("TODO: Source file \(source) does not exist.")
        }
        guard isFile(destination) else {
            throw rules.ownMessages ? .failure("\(destination): no such file (move moves a task to an existing file)")
                : context.die("TODO: Destination file \(destination) does not exist.")
        }
        // DEST already holds every task of SRC when they are one file: the `todo` name's rule
        // (nothing appended twice) would then only remove the task.
        if rules.movesEachTaskOnce, context.files.fileSystem.isSameFile(source, destination) {
            throw .failure("\(source): \(destination) is this same file; nothing moved")
        }
        let sourceBytes = try context.bytes(source)
        if context.settings.rules.refusesUnsafeFiles {
            // The destination is written first: refuse a binary source before touching it.
            try FileAccess.refuseNULBytes(sourceBytes, path: source)
        }
        let document = TodoDocument(bytes: sourceBytes)
        let (index, shown) = try resolve(arguments[0], in: document, file: source, usage: usage, context)
        let line = Array(document.content(at: index))
        let sourcePrefix = TodoShContext.prefix(of: source)
        let question = "Move '\(string(line))' from \(source) to \(destination)"
        if rules.movesEachTaskOnce {
            guard confirmOnTerminal(question, context) else {
                throw .failure("\(source): task \(shown) not moved (answer y, or use --force)")
            }
            return try moveOnce(index: index, line: line, shown: shown, from: source, to: destination, context)
        }
        guard confirm(question, context) else {
            throw context.die("\(sourcePrefix): No tasks moved.")
        }
        // The destination first: a crash between the two writes leaves the task in both files, never
        // in neither. (todo.sh removes it from the source first; a retry appends it again, as
        // todo.sh's would: docs/todosh.md section 8.)
        var newCount = 0
        try context.update(destination) { (current: TodoDocument) throws(CLIError) -> TodoDocument? in
            var edited = current
            edited.appendLine(line)
            newCount = edited.lineCount
            return edited
        }
        try removeTask(at: index, line, shown: shown, from: source, context)
        context.inform("\(shown) \(string(line))")
        context.inform("\(sourcePrefix): \(shown) moved to \(newCount) in \(TodoShContext.prefix(of: destination)).")
        return 0
    }

    static func deduplicate(_ context: inout TodoShContext, _ arguments: [String]) throws(CLIError) -> Int32 {
        let path = context.settings.todoFile
        let preserve = context.settings.preserveLineNumbers
        var removed = 0
        try context.update(path) { (document: TodoDocument) throws(CLIError) -> TodoDocument? in
            let result = TodoShDialect.deduplicating(document, preserveLineNumbers: preserve)
            removed = result.removed
            return removed > 0 ? result.document : nil
        }
        guard removed > 0 else {
            guard context.settings.rules.silentWhenNothingToDo else { throw context.die("TODO: No duplicate tasks found") }
            // Nothing to do says nothing and succeeds, as `archive` (cron mails any output); -v says it.
            if context.invocation.verboseCount > 0 { context.invocation.log("\(path): no duplicate tasks") }
            return 0
        }
        // todo.sh prints this even when quiet; under `todo`, `-q` silences every report.
        if context.settings.rules.quietSilencesEveryReport {
            context.inform("TODO: \(removed) duplicate task(s) removed")
        } else {
            context.say("TODO: \(removed) duplicate task(s) removed")
        }
        return 0
    }

    static func report(_ context: inout TodoShContext, _ arguments: [String]) throws(CLIError) -> Int32 {
        let asTodo = context.settings.rules.archivesAsTodoDoes
        if asTodo { try archiveAsTodoDoes(context) } else { _ = try archive(&context) }
        // todo.sh counts lines, its archive having removed the blank ones; the `todo` name keeps
        // blank lines, and counts tasks.
        func count(_ path: String) throws(CLIError) -> Int {
            let document = try context.document(path)
            return asTodo ? (0..<document.lineCount).count(where: { !document.item(at: $0).isBlank }) : document.lineCount
        }
        let open = try count(context.settings.todoFile)
        let done = try count(context.settings.doneFile)
        let counts = "\(open) \(done)"
        let reportPath = context.settings.reportFile
        let report = try context.document(reportPath)
        if report.lineCount > 0 {
            let last = Array(report.content(at: report.lineCount - 1))
            if let space = last.firstIndex(of: 0x20), string(last[(space + 1)...]) == counts {
                context.say(string(last))
                context.inform("TODO: Report file is up-to-date.")
                return 0
            }
        }
        let line = "\(context.clock.timestamp) \(counts)"
        try context.update(reportPath) { (document: TodoDocument) throws(CLIError) -> TodoDocument? in
            var edited = document
            edited.appendLine(Array(line.utf8))
            return edited
        }
        context.say(line)
        context.inform("TODO: Report file updated.")
        return 0
    }

    /// `report`'s archive under the name `todo`: `todo archive`'s (blank lines kept, nothing appended
    /// twice) and its output: the archived lines, then one line on stderr; nothing when there was
    /// nothing to archive, unless `-v`.
    static func archiveAsTodoDoes(_ context: TodoShContext) throws(CLIError) {
        let todoPath = context.settings.todoFile, donePath = context.settings.doneFile
        // Archive writes the done file holding only the todo file's lock (locks never nest); the
        // done file's own lock, taken and let go first, removes an earlier version's sidecar lock
        // beside it, as every writer of a file does (`FileLock`).
        try FileAccess.withLock(donePath, timeout: context.settings.lockTimeout) {}
        let archived = try FileAccess.withLock(todoPath, timeout: context.settings.lockTimeout) { () throws(CLIError) in
            try ArchiveAction.archive(todoPath: todoPath, donePath: donePath, files: context.files, warn: context.warnOfReplacement)
        }
        let invocation = context.invocation
        if archived.isEmpty {
            if invocation.verboseCount > 0 { invocation.log("\(todoPath): no completed tasks to archive") }
            return
        }
        if context.settings.verbose > 0 {
            var output: [UInt8] = []
            for line in archived {
                output += context.settings.escapeControls ? TerminalText.escapingControls(line) : Array(line)
                output.append(0x0A)
            }
            context.sayBytes(output)
        }
        invocation.log("archived \(archived.count) completed task\(archived.count == 1 ? "" : "s") to \(donePath)")
    }
}
