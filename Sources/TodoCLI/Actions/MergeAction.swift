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
