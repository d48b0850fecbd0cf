import TodoFileSystem
import TodoTxt

/// `todo archive [FILE]`: completed tasks move from the todo file to the done file.
///
/// Order of writes, so that a crash can duplicate a task but never lose one: the done file is first
/// replaced (safely: all the completed lines at its end, or none) and synced; only then is the todo
/// file replaced without them.
/// The replacement removes exactly the lines that were archived (matched by content, as a multiset),
/// so a task completed by another writer in between stays in the todo file for the next archive.
/// Blank lines stay where they are (todo.sh deletes them; here line numbers of open tasks only shift
/// by the archived lines).
///
/// Idempotent: a task already at the end of the done file (the same line, or a completed task with
/// the same uid, among its last lines) is not appended again. A run stopped between the two writes
/// (a kill, a full disk) leaves the tasks in both files; the next run removes them from the todo
/// file without a second copy in the done file (docs/todo-command.md, "Archive").
enum ArchiveAction {
    static let spec = ActionSpec(
        name: "archive", arguments: "[FILE]",
        summary: "Move completed tasks to the done file (done.txt beside the todo file).",
        completes: .files,
        group: .file,
        notes: ["Says nothing when there is nothing to archive. A rerun after an interrupted archive appends nothing twice."],
        parsed: { invocation, parsed, _ throws(CLIError) in
            let todoPath = invocation.todoFilePath(explicit: parsed.positionals.first)
            let donePath = invocation.doneFilePath(forTodoFile: todoPath)
            let archived = try FileAccess.withLock(todoPath, timeout: invocation.lockTimeout) { () throws(CLIError) in
                try archive(todoPath: todoPath, donePath: donePath, files: invocation.files, warn: invocation.warn)
            }
            if archived.isEmpty {
                // Nothing to do says nothing (cron mails any output); -v says it.
                if invocation.verboseCount > 0 { invocation.log("\(todoPath): no completed tasks to archive") }
            } else {
                if !invocation.quiet {
                    // One write for all the lines: 60,000 archived tasks are 60,000 lines.
                    var output: [UInt8] = []
                    output.reserveCapacity(archived.reduce(0) { $0 + $1.count + 1 })
                    for line in archived {
                        if invocation.io.outputIsTerminal { output += invocation.displayed(line) } else { output += line }
                        output.append(0x0A)
                    }
                    invocation.io.writeOutput(output)
                }
                invocation.log("archived \(archived.count) completed task\(archived.count == 1 ? "" : "s") to \(donePath)")
            }
            return 0
        }, todoSh: { context, _ throws(CLIError) in try TodoShActions.archive(&context) })

    /// Moves completed tasks; returns the archived lines' contents, in file order. The caller holds
    /// the todo file's lock.
    ///
    /// One transaction of the todo file (`FileAccess.transactBytes`): the file is read once, under
    /// the lock, and the plan made on those bytes. Inside it, before the todo file is replaced, the
    /// done file gets the new lines by its own transaction, synced: so a crash between the two
    /// writes can duplicate a task but never lose one. When the todo file changed meanwhile (an
    /// editor), the plan is made again on the new content; the done file's own idempotence
    /// (`ArchivePlan.notYetArchived`) keeps a second run from appending anything twice.
    static func archive(todoPath: String, donePath: String, files: FileAccess,
                        warn: (String) -> Void) throws(CLIError) -> [ArraySlice<UInt8>] {
        var archived: [ArraySlice<UInt8>] = []
        var doneWritten = false
        do {
            try files.transactBytes(todoPath, lockTimeout: .seconds(5), lockHeldByCaller: true, warn: warn) {
                (current: [UInt8]) throws(CLIError) -> ReplacementContent? in
                // A NUL byte is refused before the done file is touched, not by the replacement's check.
                try FileAccess.refuseNULBytes(current, path: todoPath)
                let plan = ArchivePlan(current)
                archived = plan.lines
                guard !plan.lines.isEmpty else { return nil }
                try appendToDoneFile(plan, donePath: donePath, todoPath: todoPath, files: files, warn: warn)
                doneWritten = true
                if let kept = plan.kept { return .pieces(kept) }
                return .bytes(ArchivePlan.removing(plan.lines, from: current))
            }
        } catch {
            guard doneWritten else { throw error }
            let count = archived.count
            throw .failure("\(error.text); the \(count) completed task\(count == 1 ? " is" : "s are") in \(donePath) and still in \(todoPath): run archive again to finish (nothing is appended twice)")
        }
        return archived
    }

    /// The done file gets the plan's lines not yet at its end by a safe replacement, not an append:
    /// an append killed halfway leaves half a batch (and half a line), which no rerun could tell from
    /// a task. The caller holds the todo file's lock.
    private static func appendToDoneFile(_ plan: ArchivePlan, donePath: String, todoPath: String, files: FileAccess,
                                         warn: (String) -> Void) throws(CLIError) {
        do {
            try files.updateHoldingLock(donePath, createIfMissing: true, warn: warn) { current throws(CLIError) in
                try FileAccess.refuseNULBytes(current, path: donePath)
                try TodoFileEdit.refuseConflictMarkers(current, path: donePath)
                let newLines = ArchivePlan.notYetArchived(plan.lines, doneBytes: current)
                guard !newLines.isEmpty else { return nil }
                return current + FileAccess.bytesAppending(newLines, after: current, terminatorOfNewFile: plan.terminator)
            }
        } catch {
            throw .failure("\(error.text); nothing archived: \(todoPath) and \(donePath) are as they were")
        }
    }
}
