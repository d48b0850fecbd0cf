import TodoFileSystem
import TodoTxt

/// `todo reconcile [--keep] [FILE]`: merges sync-conflict copies of the todo file and of its done
/// file (Dropbox, Syncthing, Nextcloud/ownCloud names) into them (sync.md section 2).
///
/// Each copy is merged with the two-way rules, the result written safely (compare-and-swap, so an
/// edit made meanwhile is kept and the merge re-applied on top), and only then is the copy removed,
/// or with `--keep` renamed to `NAME.reconciled` so that no name matches a conflict pattern again.
enum ReconcileAction {
    static let arguments = "[--keep] [FILE]"
    static let spec = ActionSpec(
        name: "reconcile", aliases: [], arguments: arguments,
        summary: "Merge sync-conflict copies (Dropbox, Syncthing, Nextcloud) back into the file.",
        options: ["--keep"], completes: .files,
        run: { invocation, arguments throws(CLIError) in
            let usage = "\(invocation.programName) reconcile \(ReconcileAction.arguments)"
            let parsed = try ParsedArguments(arguments, flags: ["--keep"], valued: [], usage: usage)
            guard parsed.positionals.count <= 1 else { throw .usage("too many arguments; usage: \(usage)") }
            let todoPath = invocation.todoFilePath(explicit: parsed.positionals.first)
            let merged = try reconcile(todoPath: todoPath, keep: parsed.flags.contains("--keep"), invocation: invocation)
            if merged == 0 { invocation.log("\(todoPath): no conflict copies found") }
            return 0
        })

    /// Reconciles every copy; returns how many were merged. Used by `todo watch --reconcile` too.
    static func reconcile(todoPath: String, keep: Bool, invocation: Invocation) throws(CLIError) -> Int {
        let fileSystem = FileSystem()
        let realTodo: String
        do { realTodo = try fileSystem.realPath(todoPath) } catch { throw .failure(error.description) }
        let realDone: String
        do { realDone = try fileSystem.realPath(invocation.doneFilePath(forTodoFile: todoPath)) } catch { throw .failure(error.description) }
        var merged = 0
        // The done file first, so that tasks archived on the other machine are known when the todo
        // file's copies are merged and are not resurrected.
        for target in [realDone, realTodo] where FileAccess.exists(target) {
            let directory = FileAccess.directoryName(of: target)
            let name = String(target.split(separator: "/").last ?? "")
            let listing = ProcessSpawning.directoryEntries(directory) ?? []
            for copy in ConflictCopies.copies(of: name, in: listing) {
                let copyPath = directory + "/" + copy.name
                let copyDocument = TodoDocument(bytes: try FileAccess.read(copyPath))
                let doneUIDs: Set<String>
                if target == realDone {
                    doneUIDs = []
                } else {
                    let done = try FileAccess.readIfExists(realDone) ?? []
                    doneUIDs = UIDIndex(TodoDocument(bytes: done)).allUIDs
                }
                var reports: [MergeReport] = []
                try FileAccess.update(target, lockTimeout: invocation.lockTimeout, warn: invocation.warn) { current throws(CLIError) in
                    let result = TodoMerge.twoWay(file: TodoDocument(bytes: current), copy: copyDocument, doneUIDs: doneUIDs)
                    reports = result.reports
                    return result.bytes
                }
                do {
                    if keep {
                        try fileSystem.moveFile(copyPath, to: copyPath + ".reconciled")
                    } else {
                        try fileSystem.removeFile(copyPath)
                    }
                } catch {
                    throw .failure("merged \(copy.name) into \(name), but could not \(keep ? "move" : "remove") it: \(error)")
                }
                merged += 1
                invocation.say("merged \(copy.name) into \(name)\(keep ? " (kept as \(copy.name).reconciled)" : "")")
                for report in reports { invocation.say("  \(report)") }
            }
        }
        return merged
    }
}
