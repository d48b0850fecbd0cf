import TodoFileSystem
import TodoTxt

/// The task edits under the name `todo`: `append`, `prepend`, `replace`, `pri`, `depri`, `do`,
/// `undo`, `del`. Each is a library edit (TodoItem+TaskEdits, TodoItem+Editing) on the lines it
/// targets, made through `TodoFileEdit`: every address resolved first, one safe write, reports
/// printed only after the write succeeded.
///
/// Reports keep todo.sh's wording on stdout (`3 x 2026-12-01 …`, `TODO: 3 marked as done.`), so a
/// todo.sh user's scripts that read them carry over; `-q` silences them. Failures are one line on
/// stderr naming the file, exit 1; a bad command line is a usage error, exit 2, ending with the
/// action's usage line as `todo help ACTION` shows it.
enum TaskActions {
    /// `todo NAME ARGUMENTS` as the action table declares it (one source for help and errors).
    static func usage(_ name: String, _ invocation: Invocation) -> String {
        ActionTable.find(name)?.usage(programName: invocation.programName) ?? "\(invocation.programName) \(name)"
    }

    /// A usage error: `what; usage: todo NAME ARGUMENTS`.
    static func usageError(_ what: String, _ name: String, _ invocation: Invocation) -> CLIError {
        .usage("\(what); usage: \(usage(name, invocation))")
    }

    /// The sentence delimiters after which `append` joins without a space (todo.sh's
    /// `SENTENCE_DELIMITERS`, configurable there too).
    static func delimiters(_ invocation: Invocation) -> [UInt8] {
        Array(TodoNameActions.settings(for: invocation).sentenceDelimiters.utf8)
    }

    /// The `NR TEXT` of `append`, `prepend` and `replace` (the words after the declared options; a
    /// `--` before TEXT is dropped): the text checked (blank text, or for `replace` a text that is
    /// only a header such as `(A) `, is a usage error, as for `add`); the address is resolved inside
    /// the write, in the file as read under the lock.
    static func addressAndText(_ name: String, _ arguments: [String],
                               _ invocation: inout Invocation) throws(CLIError) -> (TodoFileEdit, String, [UInt8]) {
        var words = arguments
        if words.count >= 2, words[1] == "--" { words.remove(at: 1) }
        guard words.count >= 2 else { throw usageError("missing arguments", name, invocation) }
        let text = TodoShActions.taskText(Array(words.dropFirst()))
        guard !isBlank(text), name != "replace" || TodoItem(text).hasDescription else {
            throw usageError("the text is empty", name, invocation)
        }
        return (TodoFileEdit(invocation), words[0], try RelativeDateInput.resolve(text, action: name, invocation))
    }

    /// The addresses of `do`, `undo`, `depri` (the words after the declared options, each split at
    /// commas and spaces).
    static func addresses(_ arguments: [String], _ name: String, _ invocation: inout Invocation) throws(CLIError) -> [String] {
        let addresses = TodoShActions.numberList(arguments)
        guard !addresses.isEmpty else { throw usageError("missing arguments", name, invocation) }
        return addresses
    }

    /// `append|prepend NR TEXT`.
    static func appendOrPrepend(_ name: String, _ arguments: [String], _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        let (file, address, text) = try addressAndText(name, arguments, &invocation)
        let joins = delimiters(invocation)
        var pinned: [TaskTarget]?
        let result = try file.transact({ (document: inout TodoDocument, notices: inout [String]) throws(CLIError) -> (number: Int, line: [UInt8]) in
            let (target, index) = try file.targets([address], pinned: &pinned, in: document, invocation, notices: &notices)[0]
            let item = document.item(at: index)
            do throws(TaskEditError) {
                let edited = name == "append" ? try item.appendingDescription(text, joinDirectlyBefore: joins)
                                              : try item.prependingDescription(text)
                document.replaceContent(at: index, with: edited)
                return (index + 1, edited)
            } catch {
                throw file.failure(error, target)
            }
        }, invocation)
        invocation.echoTask(result.number, result.line)
        return 0
    }

    /// `replace NR TEXT`: the description replaced; completion, dates, priority and uid kept unless
    /// TEXT gives its own.
    static func replace(_ arguments: [String], _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        let (file, address, text) = try addressAndText("replace", arguments, &invocation)
        var pinned: [TaskTarget]?
        let result = try file.transact({ (document: inout TodoDocument, notices: inout [String]) throws(CLIError) -> (number: Int, old: [UInt8], new: [UInt8]) in
            let (target, index) = try file.targets([address], pinned: &pinned, in: document, invocation, notices: &notices)[0]
            let old = document.content(at: index)
            do throws(TaskEditError) {
                let new = try document.item(at: index).replacingDescription(with: text)
                document.replaceContent(at: index, with: new)
                return (index + 1, Array(old), new)
            } catch {
                throw file.failure(error, target)
            }
        }, invocation)
        invocation.echoTask(result.number, result.old)
        invocation.report("\(invocation.reportPrefix): Replaced task with:")
        invocation.echoTask(result.number, result.new)
        return 0
    }

    /// `pri NR PRIORITY [NR PRIORITY …]`.
    static func prioritize(_ arguments: [String], _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        let words = arguments
        guard words.count >= 2 else { throw usageError("missing arguments", "pri", invocation) }
        guard words.count % 2 == 0 else { throw usageError("a priority is missing", "pri", invocation) }
        var pairs: [(address: String, priority: Priority)] = []
        for pair in stride(from: 0, to: words.count, by: 2) {
            let letter = Array(words[pair + 1].utf8)
            let upper = letter.first.map { $0 &- 0x61 < 26 ? $0 - 0x20 : $0 }
            guard letter.count == 1, let upper, let priority = Priority(letter: upper) else {
                throw usageError("'\(words[pair + 1])' is not a priority A-Z", "pri", invocation)
            }
            pairs.append((words[pair], priority))
        }
        return try setPriorities(pairs.map(\.address), pairs.map(\.priority), invocation)
    }

    /// `depri NR…`.
    static func deprioritize(_ arguments: [String], _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        let addresses = try addresses(arguments, "depri", &invocation)
        return try setPriorities(addresses, Array(repeating: nil, count: addresses.count), invocation)
    }

    /// What one target of a multi-task action came to.
    enum Outcome {
        case changed(number: Int, line: [UInt8], report: String?)
        case unchanged(message: String)
        case refused(CLIError)
        /// Done as asked, with something the user should know (an unusable `rec:`): one line on
        /// stderr, the exit status unchanged.
        case warning(String)
        /// A line of the report on stdout that echoes no task (`TODO: 5 is free now.`).
        case note(String)
    }

    /// The frame every multi-task action shares: one transaction of the todo file
    /// (`TodoFileEdit.transact`) in which the addresses are resolved on the file as read under the
    /// lock, then `decide` gives each target's outcome in order, given the target's position among
    /// the addresses and its line now (the edit may run again when another writer changed the file,
    /// so outcomes start afresh each time), then the reports.
    /// `finishing` runs once per edit after the targets (a `rec:` task's next instance).
    static func editEach(_ addresses: [String], _ invocation: Invocation,
                         finishing: (inout TodoDocument, inout [Outcome]) throws(CLIError) -> Void = { _, _ in },
                         _ decide: (inout TodoDocument, Int, TaskTarget, Int, TodoFileEdit) -> Outcome) throws(CLIError) -> Int32 {
        let file = TodoFileEdit(invocation)
        var pinned: [TaskTarget]?
        let outcomes = try file.transact({ (document: inout TodoDocument, notices: inout [String]) throws(CLIError) -> [Outcome] in
            let targets = try file.targets(addresses, pinned: &pinned, in: document, invocation, notices: &notices)
            var outcomes: [Outcome] = []
            for (position, (target, index)) in targets.enumerated() {
                outcomes.append(decide(&document, position, target, index, file))
            }
            try finishing(&document, &outcomes)
            return outcomes
        }, invocation)
        return finish(outcomes, invocation)
    }

    /// Sets (nil: removes) each target's priority, in order. A task that already has it, or has none
    /// to remove, is a soft error (todo.sh's rule): reported, the others done, exit 1.
    static func setPriorities(_ addresses: [String], _ priorities: [Priority?], _ invocation: Invocation) throws(CLIError) -> Int32 {
        try editEach(addresses, invocation) { document, position, target, index, file in
            setPriority(priorities[position], of: target, at: index, in: &document, file)
        }
    }

    /// One target of `pri`/`depri`.
    static func setPriority(_ priority: Priority?, of target: TaskTarget, at index: Int, in document: inout TodoDocument,
                            _ file: TodoFileEdit) -> Outcome {
        let item = document.item(at: index)
        let shown = index + 1
        if item.isCompleted { return .refused(file.failure(.completedTask, target)) }
        if item.priority == priority {
            let message = priority.map { "\(shown) already prioritized (\($0))" } ?? "\(shown) is not prioritized"
            return .unchanged(message: "\(file.path): \(message)")
        }
        do throws(TaskEditError) {
            let edited = try item.prioritized(priority)
            document.replaceContent(at: index, with: edited)
            let prefix = TodoShContext.prefix(of: file.path)
            let report: String
            switch (item.priority, priority) {
            case (let old?, let new?): report = "\(prefix): \(shown) re-prioritized from (\(old)) to (\(new))."
            case (nil, let new?): report = "\(prefix): \(shown) prioritized (\(new))."
            default: report = "\(prefix): \(shown) deprioritized."
            }
            return .changed(number: shown, line: edited, report: report)
        } catch {
            return .refused(file.failure(error, target))
        }
    }

    /// Prints the reports in order and the soft errors on stderr; exit 1 when any target was not
    /// changed as asked.
    static func finish(_ outcomes: [Outcome], _ invocation: Invocation) -> Int32 {
        var status: Int32 = 0
        for outcome in outcomes {
            switch outcome {
            case .changed(let number, let line, let report):
                invocation.echoTask(number, line)
                if let report { invocation.report(report) }
            case .unchanged(let message):
                invocation.io.printError("\(invocation.programName): \(message)")
                status = 1
            case .refused(let error):
                error.report(to: invocation.io, programName: invocation.programName)
                status = 1
            case .warning(let message):
                invocation.warn(message)
            case .note(let text):
                invocation.report(text)
            }
        }
        return status
    }

    /// `do NR…`: completes each task (priority kept as `pri:`), adds the next instance of a `rec:`
    /// task in the same write, and archives afterwards only when auto-archive is switched on.
    static func markDone(_ arguments: [String], _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        let addresses = try addresses(arguments, "do", &invocation)
        let settings = TodoNameActions.settings(for: invocation)
        let today = invocation.clock.today
        let now = invocation.clock.secondsSinceEpoch
        // Read only when a `rec:` task needs a fresh uid, once (a plain `do` never opens it), or up
        // front for auto-archive.
        var doneFile = LazyDocument(path: settings.doneFile, files: invocation.files)
        // Auto-archive writes the done file next: one it cannot read fails `do` before anything is done.
        if settings.autoArchive { _ = try doneFile.document() }
        // The `rec:` tasks completed in this write, whose next instances `finishing` appends.
        var recurring: [(shown: Int, line: [UInt8])] = []
        // The uids of the tasks completed in this write: the tasks waiting for them may be free now.
        var completedUIDs: [String] = []
        let status = try editEach(addresses, invocation, finishing: { document, outcomes throws(CLIError) in
            var generator = UIDRandomness(environment: invocation.environment)
            let prefix = TodoShContext.prefix(of: invocation.todoFilePath())
            let path = invocation.todoFilePath()
            for (shown, original) in recurring {
                let uid = UID.generate(using: &generator, unusedIn: document, and: try doneFile.document())
                // The rule is TodoTxt's (`TodoItem.recurrence(completedOn:uid:)`); each way it yields
                // no next instance, or a changed due date, gets one line (docs/todo-command.md, "do").
                switch TodoItem(original).recurrence(completedOn: today, uid: uid) {
                case .none:
                    continue
                case .invalidRule(let raw):
                    outcomes.append(.warning("\(path): \(shown): rec:\(raw) is not a recurrence (1 to 9999, then d, w, m, y or b, maybe after +); the task is done, no next instance was added"))
                case .beyondCalendar:
                    outcomes.append(.warning("\(path): \(shown): the next instance would be due after 9999-12-31; the task is done, no next instance was added"))
                case .next(let next, let replacedDue):
                    let number = document.appendLine(next) + 1
                    outcomes.append(.changed(number: number, line: next,
                                             report: "\(prefix): \(shown) recurs: next instance added as \(number)."))
                    if let replacedDue {
                        outcomes.append(.warning("\(path): \(shown): due:\(replacedDue) is not a date; the next instance (\(number)) is due counting from today instead"))
                    }
                }
            }
            recurring = []
            outcomes += DepAction.freedNotes(completing: completedUIDs, in: document, prefix: prefix)
            completedUIDs = []
        }) { document, _, _, index, file in
            let shown = index + 1
            var item = document.item(at: index)
            // A tracked task is stopped first, in the same write (docs/todo-command.md, "Time tracking").
            do throws(CLIError) {
                if let stopped = try TimeTrackingActions.stopped(item, number: shown, path: file.path, at: now) {
                    item = TodoItem(stopped)
                }
            } catch {
                return .refused(error)
            }
            guard let edited = item.completed(on: today) else {
                return .unchanged(message: "\(file.path): \(shown) is already marked done")
            }
            document.replaceContent(at: index, with: edited)
            // Only a `rec:` task has a next instance (and needs a fresh uid scanned for).
            if item.recurrence != .absent { recurring.append((shown, Array(item.content))) }
            if let uid = item.uid { completedUIDs.append(uid) }
            return .changed(number: shown, line: edited, report: "\(TodoShContext.prefix(of: file.path)): \(shown) marked as done.")
        }
        if settings.autoArchive {
            _ = try ArchiveAction.spec.run(&invocation, [])
        }
        return status
    }

    /// `undo NR…` (alias `undone`): reopens completed tasks, restoring the priority kept in `pri:`.
    static func undo(_ arguments: [String], _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        let addresses = try addresses(arguments, "undo", &invocation)
        return try editEach(addresses, invocation) { document, _, _, index, file in
            guard let reopened = document.item(at: index).uncompleted() else {
                return .unchanged(message: "\(file.path): \(index + 1) is not done")
            }
            document.replaceContent(at: index, with: reopened)
            return .changed(number: index + 1, line: reopened,
                            report: "\(TodoShContext.prefix(of: file.path)): \(index + 1) marked as not done.")
        }
    }

    /// `del NR [TERM]`: deletes the task (its line left blank so other line numbers stay, unless
    /// `-n`), after a confirmation unless `--force`; with TERM, removes TERM from the task (todo.sh's
    /// basic-regex rule), refused when that would leave no description or change its uid.
    static func delete(_ arguments: [String], _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        var words = arguments
        if words.count >= 2, words[1] == "--" { words.remove(at: 1) }
        guard !words.isEmpty else { throw usageError("missing arguments", "del", invocation) }
        guard words.count <= 2 else { throw usageError("too many arguments", "del", invocation) }
        let settings = TodoNameActions.settings(for: invocation)
        let file = TodoFileEdit(invocation)
        let address = words[0]
        let prefix = TodoShContext.prefix(of: file.path)
        // Only the confirmation needs the task before the lock (to show it, and before any wait);
        // otherwise the address is resolved in the transaction, on the file as read under the lock.
        let confirms = words.count == 1 && !(invocation.force || settings.force)
        var pinned: [TaskTarget]? = confirms ? try file.targets([address], in: try file.snapshot(), invocation) : nil
        if words.count == 2 {
            let term = Array(words[1].utf8)
            let result = try file.transact({ (document: inout TodoDocument, notices: inout [String]) throws(CLIError) -> (number: Int, old: [UInt8], new: [UInt8]) in
                let (target, index) = try file.targets([address], pinned: &pinned, in: document, invocation, notices: &notices)[0]
                guard !term.isEmpty else { throw usageError("the term is empty", "del", invocation) }
                let item = document.item(at: index)
                let new = TodoShDialect.removingTerm(term, from: Array(item.content))
                guard new != Array(item.content) else {
                    throw .failure("\(file.path): task \(target.address): '\(words[1])' not found; nothing removed")
                }
                let edited = TodoItem(new)
                guard edited.hasDescription else {
                    throw .failure("\(file.path): task \(target.address): removing '\(words[1])' would leave it empty; use '\(invocation.programName) del \(target.address)' to delete it")
                }
                guard edited.uid == item.uid else {
                    throw .failure("\(file.path): task \(target.address): removing '\(words[1])' would change its uid")
                }
                document.replaceContent(at: index, with: new)
                return (index + 1, Array(item.content), new)
            }, invocation)
            invocation.echoTask(result.number, result.old)
            invocation.report("\(prefix): Removed '\(words[1])' from task.")
            invocation.echoTask(result.number, result.new)
            return 0
        }
        if confirms, let target = pinned?.first {
            // todo.sh's confirmation: one byte from stdin (`echo y | todo del 3` works), the prompt
            // only on a terminal, and on stderr, so stdout stays the report.
            if ProcessContext.isTerminal(0) {
                let shown = TerminalText.escapingControls(target.content)
                invocation.io.writeError(Array("Delete '".utf8) + shown + Array("'? (y/n) ".utf8))
            }
            guard ProcessSpawning.readOneByteFromStandardInput() == UInt8(ascii: "y") else {
                throw .failure("\(file.path): task \(target.address) not deleted (answer y, or use --force)")
            }
        }
        let deleted = try file.transact({ (document: inout TodoDocument, notices: inout [String]) throws(CLIError) -> (number: Int, content: [UInt8]) in
            let (target, index) = try file.targets([address], pinned: &pinned, in: document, invocation, notices: &notices)[0]
            if settings.preserveLineNumbers {
                document.replaceContent(at: index, with: [])
            } else {
                document.removeLine(at: index)
            }
            return (index + 1, target.content)
        }, invocation)
        invocation.echoTask(deleted.number, deleted.content)
        invocation.report("\(prefix): \(deleted.number) deleted.")
        return 0
    }

    /// A file read on first need, then kept: the done file, which only a `rec:` task's fresh uid
    /// must be checked against. A missing file is an empty document.
    struct LazyDocument {
        let path: String
        let files: FileAccess
        private var loaded: TodoDocument?

        init(path: String, files: FileAccess) {
            self.path = path
            self.files = files
        }

        /// The document, read the first time it is asked for.
        mutating func document() throws(CLIError) -> TodoDocument {
            if let loaded { return loaded }
            let read = TodoDocument(bytes: try files.readIfExists(path) ?? [])
            loaded = read
            return read
        }
    }

    /// Empty or only spaces and tabs: never a task.
    static func isBlank(_ text: [UInt8]) -> Bool { TodoItem(text).isBlank }
}
