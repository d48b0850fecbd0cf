import TodoTxt

/// `todo archive [FILE]`: completed tasks move from the todo file to the done file.
///
/// Order of writes, so that a crash can duplicate a task but never lose one: the completed lines are
/// first appended to the done file and fsynced; only then is the todo file replaced without them.
/// The replacement removes exactly the lines that were appended (matched by content, as a multiset),
/// so a task completed by another writer in between stays in the todo file for the next archive.
/// Blank lines stay where they are (todo.sh deletes them; here line numbers of open tasks only shift
/// by the archived lines).
enum ArchiveAction {
    static let spec = ActionSpec(
        name: "archive", aliases: [], arguments: "[FILE]",
        summary: "Move completed tasks to the done file (done.txt beside the todo file).",
        options: [], completes: .files,
        run: { invocation, arguments throws(CLIError) in
            let usage = "\(invocation.programName) archive [FILE]"
            let parsed = try ParsedArguments(arguments, flags: [], valued: [], usage: usage)
            guard parsed.positionals.count <= 1 else { throw .usage("too many arguments; usage: \(usage)") }
            let todoPath = invocation.todoFilePath(explicit: parsed.positionals.first)
            let donePath = invocation.doneFilePath(forTodoFile: todoPath)
            let archived = try FileAccess.withLock(todoPath, timeout: invocation.lockTimeout) { () throws(CLIError) in
                try archive(todoPath: todoPath, donePath: donePath)
            }
            if archived.isEmpty {
                invocation.log("\(todoPath): no completed tasks to archive")
            } else {
                if !invocation.quiet {
                    for line in archived { invocation.io.writeOutput(invocation.displayed(line) + [0x0A]) }
                }
                invocation.log("archived \(archived.count) completed task\(archived.count == 1 ? "" : "s") to \(donePath)")
            }
            return 0
        })

    /// Moves completed tasks; returns the archived lines' contents, in file order. The caller holds
    /// the todo file's lock.
    static func archive(todoPath: String, donePath: String) throws(CLIError) -> [[UInt8]] {
        let bytes = try FileAccess.read(todoPath)
        try TodoFileEdit.refuseConflictMarkers(bytes, path: todoPath)
        let snapshot = TodoDocument(bytes: bytes)
        let completed = (0..<snapshot.lineCount).filter { snapshot.item(at: $0).isCompleted }
        guard !completed.isEmpty else { return [] }
        let lines = completed.map { Array(snapshot.content(at: $0)) }
        try FileAccess.appendLinesDurably(donePath, lines, terminatorOfNewFile: snapshot.dominantTerminator)
        try FileAccess.updateHoldingLock(todoPath) { current throws(CLIError) in
            try TodoFileEdit.refuseConflictMarkers(current, path: todoPath)
            var document = TodoDocument(bytes: current)
            var pending: [[UInt8]: Int] = [:]
            for line in lines { pending[line, default: 0] += 1 }
            for index in (0..<document.lineCount).reversed() {
                let content = Array(document.content(at: index))
                if let count = pending[content], count > 0, document.item(at: index).isCompleted {
                    pending[content] = count - 1
                    document.removeLine(at: index)
                }
            }
            return document.rendered()
        }
        return lines
    }
}
