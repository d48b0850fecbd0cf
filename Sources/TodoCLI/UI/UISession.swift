import TodoFileSystem
import TodoTerminal
import TodoTxt

/// `todo ui [FILE]`: a live full-screen list (README, "A live list: todo ui"). Every change is
/// written at once through `LiveTodoFile`, as an edit of its task's line found again in the file as
/// it is then; changes made by anything else arrive through the file watcher and are shown, with
/// the selection kept on the same task.
enum UIAction {
    static let view = ActionOption.valued("--view", value: "NAME", meaning: "start filtered by the terms of the saved view NAME (views.txt).")

    static let spec = ActionSpec(
        name: "ui", options: [view], arguments: "[FILE]",
        summary: "A live full-screen list: move, complete, add, edit, filter; changes made elsewhere show at once.",
        completes: .files,
        group: .listing, notes: [
            "Keys: j/k or arrows move, x or space done/not done, a add, e or Enter edit, d delete,",
            "      p then a letter priority, / filter, v a saved view, n note, o open, u undo, s sort,",
            "      ? all keys, q quit.",
            "Time: t starts or stops tracking the selected task (as todo start and todo stop do).",
            "-a, --all: also the tasks hidden by h:1 or by a t: threshold in the future.",
        ],
        parsed: { invocation, parsed, _ throws(CLIError) in
            let filter = try parsed.values["--view"].map { name throws(CLIError) in try UISession.viewFilter(named: name, invocation) }
            return try UISession.run(invocation, path: invocation.todoFilePath(explicit: parsed.positionals.first), filter: filter)
        }).available(.todoOnly)
}

/// One change `u` can take back, and what the status line called it.
struct UndoStep {
    let record: ChangeRecord
    let what: String
}

final class UISession {
    enum Mode {
        case list
        case adding(LineEditor)
        case editing(UIEdit)
        case resolvingEdit(UIEditConflict)
        case filtering(LineEditor)
        case choosingView(LineEditor)
        case confirmingDelete(TaskIdentity)
        case choosingPriority(TaskIdentity)
        case offeringAdd(String)
        case help
    }

    let invocation: Invocation
    let file: LiveTodoFile
    let terminal: TerminalSession
    let inbox: UIInbox
    let today: TodoDate
    var list: TaskList
    var mode = Mode.list
    var message = ""
    var undoSteps: [UndoStep] = []
    /// The saved views' names, read when `v` asks for one.
    var viewNames: [String] = []
    /// An add or edit refused for a value that is not a date (`resolvingRelativeDates`): `a`, or `e`
    /// on the same task, opens it again as it was typed.
    var refusedField: Mode?
    var decoder = KeyDecoder()
    var uids: UIDRandomness
    /// The clock's minute at the last draw: a tracked task's timer counts minutes, so the screen is
    /// drawn again when the minute changes, whether or not a key came.
    var drawnMinute = 0
    /// What `todo add` puts on a new task (a creation date, a uid, `TODOTXT_PRIORITY_ON_ADD`), from
    /// the same settings.
    let addsCreationDate: Bool
    let addsUID: Bool
    let priorityOnAdd: Priority?

    init(invocation: Invocation, file: LiveTodoFile, inbox: UIInbox, terminal: TerminalSession) {
        self.invocation = invocation
        self.file = file
        self.inbox = inbox
        self.terminal = terminal
        today = invocation.clock.today
        uids = UIDRandomness(environment: invocation.environment)
        let settings = TodoNameActions.settings(for: invocation)
        addsCreationDate = settings.dateOnAdd
        addsUID = settings.uidOnAdd
        priorityOnAdd = Priority(settings.priorityOnAdd.uppercased())
        list = TaskList(document: file.document, today: today, showHidden: invocation.showAll)
    }

    static func run(_ invocation: Invocation, path: String, filter: String? = nil) throws(CLIError) -> Int32 {
        guard let terminal = TerminalSession() else {
            throw .failure("ui needs a terminal: standard input is not one")
        }
        let file: LiveTodoFile
        let inbox = UIInbox()
        do {
            // What a write had to tell (hard links detached, say) goes to the status line.
            file = try LiveTodoFile(path: path, fileSystem: invocation.files.fileSystem,
                                    lockTimeout: invocation.lockTimeout, settle: .milliseconds(50)) { note in
                if let message = FileAccess.message(for: note, path: path) { inbox.problem.withLock { $0 = message } }
            }
        } catch {
            throw .failure(error.description)
        }
        try FileAccess.refuseNULBytes(file.document.rendered(), path: path)
        // Before the screen is taken: a path that cannot be watched (its directory missing, a
        // symlink loop) is a mistyped path, said on the command line like `todo watch` says it.
        do throws(FileWatcherError) {
            try file.start(onProblem: { problem in inbox.problem.withLock { $0 = problem } },
                           onChange: { document in inbox.document.withLock { $0 = document } })
        } catch {
            throw .failure("ui: \(error.message)")
        }
        let session = UISession(invocation: invocation, file: file, inbox: inbox, terminal: terminal)
        if let filter { session.list.setFilter(filter) }
        return session.loop()
    }

    // MARK: - The loop

    /// The alternate screen and bracketed paste (a paste arrives marked, as `Key.paste`) on; and
    /// off again with the colours reset and the cursor shown.
    static let enterScreen = Array("\u{1B}[?1049h\u{1B}[?2004h".utf8)
    static let leaveScreen = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?2004l\u{1B}[?1049l".utf8)

    func loop() -> Int32 {
        terminal.enterRawMode()
        terminal.write(Self.enterScreen)
        defer {
            file.stop()
            terminal.write(Self.leaveScreen)
            terminal.restore()
        }
        draw()
        while true {
            var redraw = false
            switch terminal.read(timeout: .milliseconds(40)) {
            case .bytes(let bytes):
                if !handle(decoder.keys(from: bytes)) { return 0 }
                redraw = true
            case .resized, .continued:
                redraw = true
            case .terminate:
                return 0
            case .timeout:
                let waiting = decoder.flush()
                if !handle(waiting) { return 0 }
                redraw = !waiting.isEmpty || nowSeconds / 60 != drawnMinute
            }
            if let document = inbox.takeDocument() {
                list.replaceDocument(document)
                followEdit()
                redraw = true
            }
            if let problem = inbox.takeProblem() {
                message = problem
                redraw = true
            }
            if redraw { draw() }
        }
    }

    func draw() {
        let size = terminal.size
        list.scroll(height: max(1, size.rows - 1))
        let screen = UIScreen(columns: size.columns, rows: size.rows, usesColor: invocation.usesColor)
        let now = nowSeconds
        drawnMinute = now / 60
        terminal.write(screen.render(list, status: status, showingHelp: isShowingHelp, today: today, now: now))
    }

    /// The file as the status line names it: under the home directory as `~/…`, to leave room.
    var shownPath: String {
        guard let home = invocation.environment["HOME"], !home.isEmpty, home != "/", file.path.hasPrefix(home + "/") else { return file.path }
        return "~" + file.path.dropFirst(home.count)
    }

    var isShowingHelp: Bool {
        if case .help = mode { return true }
        return false
    }

    var status: UIScreen.Status {
        switch mode {
        case .adding(let editor): return .prompt(label: "add: ", editor: editor)
        case .editing(let edit): return .prompt(label: "edit: ", editor: edit.editor)
        case .resolvingEdit(let conflict): return .message(conflict.question)
        case .filtering(let editor): return .prompt(label: "/", editor: editor)
        case .choosingView(let editor): return .prompt(label: viewPromptLabel, editor: editor)
        case .confirmingDelete: return .message("delete this task? (y/n)")
        case .choosingPriority: return .message("priority: a letter A-Z, space for none")
        // The question first: a narrow screen cuts the text, never the (y/n).
        case .offeringAdd(let text): return .message("task gone (changed or deleted elsewhere); add it as new? (y/n) \(text)")
        case .help: return .message("any key: back to the list")
        case .list:
            if !message.isEmpty { return .message(message) }
            let filter = list.filterText.isEmpty ? "" : " — filter: \(list.filterText)"
            return .message("\(shownPath) — \(list.openCount) open, \(list.rows.count - list.openCount) done\(filter) — ? keys, q quit")
        }
    }

    // MARK: - Keys

    /// Handles one key; false to quit.
    func handle(_ key: Key) -> Bool {
        if case .paste(let text) = key, !isTakingText { return pasteOutsideField(text) }
        switch mode {
        case .list:
            message = ""
            return handleInList(key)
        case .help:
            mode = .list
        case .confirmingDelete(let task):
            mode = .list
            if key == .character("y") || key == .character("Y") { delete(task) }
        case .choosingPriority(let task):
            mode = .list
            if case .character(let character) = key, let ascii = character.asciiValue {
                if character == " " {
                    prioritize(task, nil)
                } else if let priority = Priority(letter: ascii & ~0x20), character.isLetter {
                    prioritize(task, priority)
                }
            }
        case .offeringAdd(let text):
            mode = .list
            if key == .character("y") || key == .character("Y") { add(text) }
        case .adding(var editor):
            switch key {
            case .enter:
                mode = .list
                if !editor.text.allSatisfy(\.isWhitespace) { add(editor.text) }
            case .escape: mode = .list
            default:
                _ = editor.handle(key)
                mode = .adding(editor)
            }
        case .editing(let edit): handleEditing(key, edit)
        case .resolvingEdit(let conflict): resolveEdit(key, conflict)
        case .choosingView(let editor): handleChoosingView(key, editor)
        case .filtering(var editor):
            switch key {
            case .enter:
                mode = .list
                list.moveToFirst()
            case .escape:
                mode = .list
                list.setFilter("")
            default:
                _ = editor.handle(key)
                list.setFilter(editor.text)
                mode = .filtering(editor)
            }
        }
        return true
    }

    func handleInList(_ key: Key) -> Bool {
        let page = max(1, terminal.size.rows - 2)
        switch key {
        case .character("q"), .control("c"): return false
        case .character("j"), .down: list.move(by: 1)
        case .character("k"), .up: list.move(by: -1)
        case .character("g"), .home: list.moveToFirst()
        case .character("G"), .end: list.moveToLast()
        case .pageDown: list.move(by: page)
        case .pageUp: list.move(by: -page)
        case .character("x"), .character(" "):
            if let task = list.selectedTask { toggle(task) }
        case .character("a"): openAddField()
        case .character("e"), .enter:
            if let task = list.selectedTask { openEditField(task) }
        case .character("d"):
            if let task = list.selectedTask { mode = .confirmingDelete(task) }
        case .character("p"):
            if let task = list.selectedTask { mode = .choosingPriority(task) }
        case .character("/"): mode = .filtering(LineEditor(list.filterText))
        case .character("v"): startChoosingView()
        case .character("n"):
            if let task = list.selectedTask { editNote(task) }
        case .character("o"):
            if let task = list.selectedTask { openLink(task) }
        case .escape: list.setFilter("")
        case .character("u"): undo()
        case .character("s"): sort()
        case .character("t"): if let task = list.selectedTask { toggleTracking(task) }
        case .character("?"): mode = .help
        case .control("z"): suspend()
        default: break
        }
        return true
    }

    func suspend() {
        terminal.write(Self.leaveScreen)
        terminal.suspend()
        terminal.write(Self.enterScreen)
        if let fresh = try? file.reload() { list.replaceDocument(fresh) }
    }

    // MARK: - Edits (each written at once)

    /// Runs a change of the file; on success shows the new document, records what `u` needs and
    /// says `what` (worked out after `body`, which may have learnt what it did); on failure says why.
    /// Returns whether the file was changed as asked.
    @discardableResult
    func change(_ what: @autoclosure () -> String, _ body: (inout TodoDocument, inout ChangeRecord) throws(LiveEditError) -> TaskIdentity?) -> Bool {
        var record = ChangeRecord()
        var select: TaskIdentity?
        do {
            let written = try file.update { (document: inout TodoDocument) throws(LiveEditError) in
                record = ChangeRecord()
                select = try body(&document, &record)
            }
            list.replaceDocument(written, select: select)
            let said = what()
            if !record.isEmpty { undoSteps.append(UndoStep(record: record, what: said)) }
            message = said
            return true
        } catch {
            message = error.description
            return false
        }
    }
}
