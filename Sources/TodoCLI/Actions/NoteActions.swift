import TodoFileSystem
import TodoTxt

/// `todo note NR|UID` and `todo open NR|UID` (docs/todo-command.md, "Notes and links").
///
/// `note`: one transaction of the todo file tags the task with a `note:` tag naming its uid plus
/// `.md` (docs/todo-command.md, "Notes and links"; a task without a uid gets one in the same
/// write, since the note is named by it; a task that names a note already keeps it), then the
/// note `notes/NAME` beside the todo file is created if missing and opened in the editor
/// `todo edit` runs. The file is never locked while the editor runs, and no note is ever
/// deleted. `open`: the task's first URL (`TodoItem.firstURL`), else its note, handed to the
/// opener (`$TODO_OPENER`, else the platform's, `Opener`).
enum NoteActions {
    static let noteSpec = ActionSpec(
        name: "note", arguments: "NR|UID", argumentCount: 1...1,
        summary: "Open the task's note (in notes/, named by its uid) in $VISUAL/$EDITOR (created, and tagged note:, once).",
        completes: .task, availability: .todoOnly, group: .tasks,
        notes: ActionTable.singleAddressDetails + [
            "The note lies in notes/ beside the todo file; a task without a uid gets one (the note's name).",
        ],
        parsed: { invocation, parsed, usage throws(CLIError) in
            try note(parsed.positionals[0], usage: usage, &invocation)
        })

    static let openSpec = ActionSpec(
        name: "open", arguments: "NR|UID", argumentCount: 1...1,
        summary: "Open the task's first URL, else its note, with $TODO_OPENER or xdg-open/open.",
        completes: .task, availability: .todoOnly, group: .tasks,
        notes: ActionTable.singleAddressDetails + [
            "A URL is a word of the task that starts with scheme:// (https://, file://, obsidian://…).",
        ],
        parsed: { invocation, parsed, usage throws(CLIError) in
            try open(parsed.positionals[0], usage: usage, &invocation)
        })

    /// The folder of the notes: `notes` in the todo file's folder.
    static func notesFolder(forTodoFile path: String) -> String {
        FileAccess.directoryName(of: path) + "/notes"
    }

    static func refuseList(_ address: String, _ name: String, usage: String) throws(CLIError) {
        if address.contains(",") { throw .usage("'\(address)' names more than one task; \(name) takes one; usage: \(usage)") }
    }

    static func note(_ address: String, usage: String, _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        try refuseList(address, "note", usage: usage)
        let file = TodoFileEdit(invocation)
        let done = invocation.files.documentIfReadable(invocation.doneFilePath(forTodoFile: file.path))
        var generator = UIDRandomness(environment: invocation.environment)
        var pinned: [TaskTarget]?
        let tagged = try file.transact({ (document: inout TodoDocument, notices: inout [String]) throws(CLIError) -> (number: Int, line: [UInt8], changed: Bool) in
            let index = try file.targets([address], pinned: &pinned, in: document, invocation, notices: &notices)[0].index
            let item = document.item(at: index)
            let line: [UInt8]
            do throws(TaskEditError) {
                line = try lineWithNote(item) { UID.generate(using: &generator, unusedIn: document, and: done) }
            } catch {
                throw .failure("\(file.path): line \(index + 1): \(error)")
            }
            let changed = !line.elementsEqual(item.content)
            if changed { document.replaceContent(at: index, with: line) }
            return (index + 1, line, changed)
        }, invocation)
        let name = try noteName(TodoItem(tagged.line), number: tagged.number, path: file.path)
        if tagged.changed {
            invocation.echoTask(tagged.number, tagged.line)
            invocation.report("\(TodoShContext.prefix(of: file.path)): \(tagged.number) has note notes/\(name).")
        }
        let notePath = try createNote(name, todoFile: file.path, invocation.files.fileSystem)
        return EditAction.runEditor(EditAction.editorCommand(invocation.environment), [notePath], environment: invocation.environment)
    }

    /// The task's line tagged with its note: unchanged when it names one already; else
    /// a `note:` tag (its uid plus `.md`) added, the task first given a uid from `freshUID` when it
    /// has none.
    static func lineWithNote(_ item: TodoItem, freshUID: () -> String) throws(TaskEditError) -> [UInt8] {
        guard item.noteTag == nil else { return Array(item.content) }
        var current = item
        if current.uid == nil { current = TodoItem(current.settingTag("uid", to: freshUID())) }
        return try current.addingNoteTag(TodoItem.noteFileName(forUID: current.uid ?? ""))
    }

    /// The note `name` in the notes folder of `todoFile`, the folder and an empty note created when
    /// missing (an existing note is never written); returns its path.
    static func createNote(_ name: String, todoFile: String, _ fileSystem: FileSystem) throws(CLIError) -> String {
        let folder = notesFolder(forTodoFile: todoFile)
        let notePath = folder + "/" + name
        guard fileSystem.makeDirectories(folder) else { throw .failure("\(folder): cannot create the notes folder") }
        if !fileSystem.exists(notePath) {
            do {
                try fileSystem.appendDurably(notePath, [], options: AppendOptions(startOnNewLine: false, createIfMissing: true))
            } catch {
                throw .failure(error.description)
            }
        }
        return notePath
    }

    /// The task's note name, checked to be a plain file name in the notes folder.
    static func noteName(_ item: TodoItem, number: Int, path: String) throws(CLIError) -> String {
        guard let name = item.noteTag else { throw .failure("\(path): line \(number): the task has no note:") }
        guard TodoItem.isPlainNoteName(name) else {
            throw .failure("\(path): line \(number): note:\(name) is not a file name in the notes folder")
        }
        return name
    }

    static func open(_ address: String, usage: String, _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        try refuseList(address, "open", usage: usage)
        let file = TodoFileEdit(invocation)
        let document = try file.snapshot()
        let index = try file.targets([address], in: document, invocation)[0].identity.index
        let target = try openTarget(document.item(at: index), number: index + 1, todoFile: file.path, invocation)
        return try runOpener(target, environment: invocation.environment, invocation.files.fileSystem)
    }

    /// What `open` opens for the task at line `number`: its first URL, else its note's path.
    static func openTarget(_ item: TodoItem, number: Int, todoFile: String, _ invocation: Invocation) throws(CLIError) -> String {
        if let url = item.firstURL { return url }
        guard item.noteTag != nil else {
            throw .failure("\(todoFile): line \(number): no URL and no note to open ('\(invocation.programName) note \(number)' makes a note)")
        }
        let notePath = notesFolder(forTodoFile: todoFile) + "/" + (try noteName(item, number: number, path: todoFile))
        guard invocation.files.fileSystem.exists(notePath) else {
            throw .failure("\(todoFile): line \(number): its note \(notePath) does not exist ('\(invocation.programName) note \(number)' creates it)")
        }
        return notePath
    }

    /// Runs the opener on `target` sharing our terminal: `$TODO_OPENER` through `sh -c`, else the
    /// platform's from `PATH`; returns its exit status.
    static func runOpener(_ target: String, environment: [String: String], _ fileSystem: FileSystem) throws(CLIError) -> Int32 {
        if let opener = environment["TODO_OPENER"], !opener.isEmpty {
            return ProcessSpawning.runInheriting(["sh", "-c", opener + " \"$@\"", "todo-open", target], environment: environment)
        }
        guard let program = Opener.platformProgram(onPath: environment["PATH"] ?? "", fileSystem) else {
            throw .failure("no program to open \(target) with: \(Opener.platformName) is not on PATH and TODO_OPENER is not set")
        }
        return ProcessSpawning.runInheriting([program, target], environment: environment)
    }
}

/// The program that opens a URL or a file the way the desktop does: `open` on macOS, `xdg-open`
/// elsewhere. The one place that platform difference lives.
enum Opener {
    #if os(macOS)
    static let platformName = "open"
    #else
    static let platformName = "xdg-open"
    #endif

    /// The platform's opener as found on `path` (a `PATH` value), or nil when no directory of it
    /// holds an executable of that name.
    static func platformProgram(onPath path: String, _ fileSystem: FileSystem) -> String? {
        for directory in path.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = directory + "/" + platformName
            if fileSystem.isExecutable(candidate), fileSystem.kind(of: candidate) == .regular { return candidate }
        }
        return nil
    }
}
