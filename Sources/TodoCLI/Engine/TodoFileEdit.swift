import TodoFileSystem
import TodoTxt

/// The steps every `todo` action that edits the todo file shares, so that each action is only its
/// own rule: one transaction of the file layer (under the writers' lock, with the configured
/// timeout, the file read once, compare-and-swap, nothing written when nothing changed, a file with
/// unresolved conflict markers refused), inside which every address is resolved before anything
/// is changed.
///
/// Errors name the file: `todo: /home/me/todo.txt: no task with uid zzz`.
struct TodoFileEdit {
    let path: String
    let files: FileAccess
    let lockTimeout: Duration
    /// Where a written file's warnings go (hard links detached, late bytes not carried over).
    let warn: (String) -> Void

    init(_ invocation: Invocation, path: String? = nil) {
        self.path = path ?? invocation.todoFilePath()
        files = invocation.files
        lockTimeout = invocation.lockTimeout
        warn = invocation.warn
    }

    /// The file as it is now; a missing file is an empty document. Refused when it holds an
    /// unresolved conflict block.
    func snapshot() throws(CLIError) -> TodoDocument {
        let bytes = try files.readIfExists(path) ?? []
        try TodoFileEdit.refuseConflictMarkers(bytes, path: path)
        return TodoDocument(bytes: bytes)
    }

    /// The failure for a file holding an unresolved conflict block (docs/todo-command.md, "Unresolved conflict markers").
    static func refuseConflictMarkers(_ bytes: [UInt8], path: String) throws(CLIError) {
        if let line = ConflictMarkers.firstBlockLine(in: bytes) { throw .failure(conflictMessage(path: path, line: line)) }
    }

    /// `FILE: line N: unresolved merge conflict; resolve it, then run again`, as the live file says it.
    static func conflictMessage(path: String, line: Int) -> String {
        LiveEditError.conflictMarkers(path: path, line: line).description
    }

    /// Every address resolved in `document` before anything is written: one unknown address fails
    /// the whole command with nothing changed. A uid held by several lines is acted on at its owner
    /// (docs/todo-command.md, "Addressing a task") and reported on stderr.
    func targets(_ addresses: [String], in document: TodoDocument, _ invocation: Invocation) throws(CLIError) -> [TaskTarget] {
        var notices: [String] = []
        defer { for notice in notices { invocation.io.printError(notice) } }
        return try targets(addresses, in: document, invocation, notices: &notices)
    }

    /// `targets` for a caller inside a transaction's edit, which must not print: the lines about
    /// uids held by several lines go to `notices`, to be printed after the transaction.
    func targets(_ addresses: [String], in document: TodoDocument, _ invocation: Invocation,
                 notices: inout [String]) throws(CLIError) -> [TaskTarget] {
        var targets: [TaskTarget] = []
        for address in addresses {
            let reference: TaskReference
            do {
                // No shared index: resolving one address collects only the uids that match it.
                reference = try document.resolve(address)
            } catch {
                throw .failure("\(path): \(error)")
            }
            if let uid = reference.uid, !reference.duplicateIndices.isEmpty {
                let others = reference.duplicateIndices.map { String($0 + 1) }.joined(separator: ", ")
                notices.append("\(invocation.programName): \(path): uid \(uid) is also on line\(reference.duplicateIndices.count == 1 ? "" : "s") \(others); acted on line \(reference.index + 1) ('\(invocation.programName) uid --assign' gives the copies uids of their own)")
            }
            targets.append(TaskTarget(address: address, reference: reference, in: document))
        }
        return targets
    }

    /// One transaction of the todo file whose `edit` resolves its own addresses on the document read
    /// under the lock (no earlier read, see `pinned`) and returns what to print afterwards. A missing
    /// file is an empty document, on which every address fails (so nothing is ever created).
    /// `notices` (lines about duplicate uids) are printed on stderr when the transaction ends,
    /// written or not, before its failure is reported.
    func transact<Value>(_ edit: (inout TodoDocument, inout [String]) throws(CLIError) -> Value,
                         _ invocation: Invocation) throws(CLIError) -> Value {
        var notices: [String] = []
        defer { for notice in notices { invocation.io.printError(notice) } }
        return try files.transact(path, createIfMissing: true, lockTimeout: lockTimeout, warn: warn) {
            (document: inout TodoDocument) throws(CLIError) -> Value in
            try edit(&document, &notices)
        }.value
    }

    /// The targets of `addresses` inside a transaction's edit: resolved on its first run (the file
    /// as read under the lock) and kept in `pinned`; when the edit runs again on a file another
    /// writer changed meanwhile, found again by `TaskTarget.locate` (by uid, else by the line's
    /// bytes), so a retry never turns `3` into whatever line 3 holds now. Returns each target with
    /// its line in `document`, all found before any is edited: a command that names one line twice
    /// (`do 4 4`) edits it once and reports the second as a no-op.
    func targets(_ addresses: [String], pinned: inout [TaskTarget]?, in document: TodoDocument, _ invocation: Invocation,
                 notices: inout [String]) throws(CLIError) -> [(target: TaskTarget, index: Int)] {
        let targets: [TaskTarget]
        if let pinned { targets = pinned } else { targets = try self.targets(addresses, in: document, invocation, notices: &notices) }
        pinned = targets
        var located: [(target: TaskTarget, index: Int)] = []
        for target in targets { located.append((target, try target.locate(in: document, path: path))) }
        return located
    }

    /// `error` from a library edit as a failure naming the task: `FILE: task 3: the text is empty`.
    func failure(_ error: TaskEditError, _ target: TaskTarget) -> CLIError {
        .failure("\(path): task \(target.address): \(error)")
    }
}

/// Where the `todo` name's echoes go: stdout, silenced by `-q`, task text escaped on a terminal.
extension Invocation {
    /// `N text`: a task as an action reports it.
    func echoTask(_ number: Int, _ content: some Collection<UInt8>) {
        guard !quiet else { return }
        io.writeOutput(Array("\(number) ".utf8) + displayed(content) + [0x0A])
    }

    /// A line of the action's report (`TODO: 3 marked as done.`); escaped on a terminal, since its
    /// prefix comes from the file's name and it may quote the command line.
    func report(_ text: String) {
        guard !quiet else { return }
        io.print(io.outputIsTerminal ? String(decoding: TerminalText.escapingControlsKeepingLines(Array(text.utf8)), as: UTF8.self) : text)
    }

    /// Task text as it may be printed: escaped when stdout is a terminal (TerminalText), raw on a pipe.
    func displayed(_ content: some Collection<UInt8>) -> [UInt8] {
        io.outputIsTerminal ? TerminalText.escapingControls(content) : Array(content)
    }

    /// The todo.sh summary prefix of the todo file (`TODO`), used in reports as todo.sh does.
    var reportPrefix: String { TodoShContext.prefix(of: todoFilePath()) }
}
