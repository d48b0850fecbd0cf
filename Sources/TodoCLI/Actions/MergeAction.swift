import TodoFileSystem
import TodoTxt

/// `todo merge BASE OURS THEIRS [MARKER_SIZE]`: git's merge-driver contract (sync.md section 1).
///
/// git calls the driver as `todo merge %O %A %B %L` with three temporary files; the merged result
/// goes into OURS (`%A`). Exit 0 when clean, 1 when a conflict remains or the merge could not be done
/// (then OURS is left exactly as it was, and git falls back to reporting a conflict); never above 128.
/// Inputs holding NUL bytes are taken to be binary and not merged.
///
/// `todo merge --setup` registers the driver in the current repository: `git config` for
/// `merge.todotxt.*` and `todo.txt`/`done.txt merge=todotxt` lines in the top-level `.gitattributes`.
enum MergeAction {
    static let arguments = "BASE OURS THEIRS [MARKER_SIZE] | --setup"
    static let spec = ActionSpec(
        name: "merge", aliases: [], arguments: arguments,
        summary: "Git merge driver: merge todo.txt versions by task; --setup registers it in this repository.",
        options: ["--setup"], completes: .files,
        run: { invocation, arguments throws(CLIError) in
            let usage = "\(invocation.programName) merge \(MergeAction.arguments)"
            let parsed = try ParsedArguments(arguments, flags: ["--setup"], valued: [], usage: usage)
            if parsed.flags.contains("--setup") {
                guard parsed.positionals.isEmpty else { throw .usage("--setup takes no files; usage: \(usage)") }
                return try setUp(invocation)
            }
            guard (3...4).contains(parsed.positionals.count) else { throw .usage("usage: \(usage)") }
            var markerSize = TodoMerge.defaultMarkerSize
            if parsed.positionals.count == 4 {
                guard let size = Int(parsed.positionals[3]), (1...64).contains(size) else {
                    throw .usage("marker size must be a number from 1 to 64, not '\(parsed.positionals[3])'")
                }
                markerSize = size
            }
            return try merge(base: parsed.positionals[0], ours: parsed.positionals[1], theirs: parsed.positionals[2],
                             markerSize: markerSize, invocation: invocation)
        })

    static func merge(base: String, ours: String, theirs: String, markerSize: Int,
                      invocation: Invocation) throws(CLIError) -> Int32 {
        let baseBytes = try FileAccess.read(base)
        let oursBytes = try FileAccess.read(ours)
        let theirsBytes = try FileAccess.read(theirs)
        for (path, bytes) in [(base, baseBytes), (ours, oursBytes), (theirs, theirsBytes)] where holdsNUL(bytes) {
            throw .failure("merge: \(path) holds NUL bytes (a binary file?); not merging, \(ours) left as it was")
        }
        let result = TodoMerge.threeWay(base: TodoDocument(bytes: baseBytes), ours: TodoDocument(bytes: oursBytes),
                                        theirs: TodoDocument(bytes: theirsBytes), markerSize: markerSize)
        // Without the writers' lock: git runs the driver on its own temporary OURS file, which no
        // other todo process writes, and where directories cannot be locked the lock would leave a
        // sidecar `.NAME.lock` in the work tree.
        try FileAccess.updateHoldingLock(ours, warn: invocation.warn) { _ throws(CLIError) in result.bytes }
        for report in result.reports { invocation.log("todo merge: \(report)") }
        for conflict in result.conflicts { invocation.log("todo merge: conflict: \(conflict.text)") }
        return result.exitStatus
    }

    /// Whether `bytes` holds a NUL byte (a plain pointer loop: the generic `contains` took a fifth of
    /// a debug build's merge time on large files).
    static func holdsNUL(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            guard var byte = buffer.baseAddress else { return false }
            let end = byte + buffer.count
            while byte < end {
                if byte.pointee == 0 { return true }
                byte += 1
            }
            return false
        }
    }

    static func setUp(_ invocation: Invocation) throws(CLIError) -> Int32 {
        let environment = invocation.environment
        let topLevel = ProcessSpawning.run(["git", "rev-parse", "--show-toplevel"], environment: environment,
                                           input: nil, captureOutput: true)
        guard topLevel.status == 0 else { throw .failure("merge --setup: not inside a git repository") }
        let root = String(decoding: topLevel.output, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "."
        let driverProgram = invocation.programPath.contains("/") ? invocation.programPath : "todo"
        let settings = [
            ("merge.todotxt.name", "todo.txt: merge by task (todo merge)"),
            ("merge.todotxt.driver", "\(shellQuoted(driverProgram)) merge %O %A %B %L"),
        ]
        for (key, value) in settings {
            let outcome = ProcessSpawning.run(["git", "config", key, value], environment: environment,
                                              input: nil, captureOutput: true)
            guard outcome.status == 0 else { throw .failure("merge --setup: git config \(key) failed") }
        }
        let attributesPath = root + "/.gitattributes"
        let wanted = ["todo.txt merge=todotxt", "done.txt merge=todotxt"]
        // Written safely but without the writers' lock: no todo process writes .gitattributes, and
        // where directories cannot be locked (FileLock's sidecar fallback) the lock would leave an
        // untracked `..gitattributes.lock` in the work tree for the user to commit by mistake.
        try FileAccess.updateHoldingLock(attributesPath, createIfMissing: true, warn: invocation.warn) { current throws(CLIError) in
            var document = TodoDocument(bytes: current)
            let present = Set((0..<document.lineCount).map { document.text(at: $0) })
            for line in wanted where !present.contains(line) { document.appendLine(Array(line.utf8)) }
            return document.rendered()
        }
        invocation.say("registered the todo.txt merge driver in \(root) (git config merge.todotxt.*, .gitattributes)")
        return 0
    }

    /// Quotes a path for the shell git runs the driver through.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }
}

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
