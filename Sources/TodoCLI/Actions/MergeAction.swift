import TodoFileSystem
import TodoTxt

/// `todo merge BASE OURS THEIRS [MARKER_SIZE]`: git's merge-driver contract (docs/sync.md section 1).
///
/// git calls the driver as `todo merge %O %A %B %L` with three temporary files; the merged result
/// goes into OURS (`%A`). Exit 0 when clean, 1 when a conflict remains or the merge could not be done
/// (then OURS is left exactly as it was, and git falls back to reporting a conflict); never above 128.
/// Inputs holding NUL bytes are taken to be binary and not merged.
///
/// `todo merge --setup` registers the driver in the current repository: `git config` for
/// `merge.todotxt.*` and `todo.txt`/`done.txt merge=todotxt` lines in the top-level `.gitattributes`.
enum MergeAction {
    static let spec = ActionSpec(
        name: "merge",
        options: [ActionOption(names: ["--setup"], value: nil, values: [],
                               meaning: ["register the driver in this git repository (git config and .gitattributes)."],
                               inUsage: false),
                  ActionOption(names: ["--settle"], value: nil, values: [],
                               meaning: ["leave no conflict: keep both versions, the other tagged conflict:HOST or",
                                         "conflict:remote, as reconcile does (how todo sync runs the driver)."],
                               inUsage: false)],
        arguments: "BASE OURS THEIRS [MARKER_SIZE [PATH [BASE_LABEL OURS_LABEL THEIRS_LABEL]]] | --setup",
        argumentCount: nil,
        summary: "Git merge driver: merge todo.txt versions by task; --setup registers it in this repository.",
        completes: .files,
        group: .sync,
        notes: ["Git runs 'todo merge %O %A %B %L %P %S %X %Y'; the merged file replaces OURS; exit 1 on a conflict."],
        parsed: { invocation, parsed, usage throws(CLIError) in
            if parsed.flags.contains("--setup") {
                guard parsed.positionals.isEmpty else { throw .usage("--setup takes no files; usage: \(usage)") }
                return try setUp(invocation)
            }
            let words = parsed.positionals
            guard (3...8).contains(words.count) else { throw .usage("usage: \(usage)") }
            var options = ThreeWayOptions()
            if parsed.flags.contains("--settle") {
                let host = ProcessContext.hostName().split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: "-")
                options.settlement = ConflictSettlement(oursTag: host, theirsTag: "remote")
            }
            if words.count >= 4 {
                guard let size = Int(words[3]), (1...64).contains(size) else {
                    throw .usage("marker size must be a number from 1 to 64, not '\(words[3])'")
                }
                options.markerSize = size
            }
            // git before 2.44 passes `%S`, `%X`, `%Y` as they are: no label then.
            func given(_ index: Int) -> String? {
                guard index < words.count, !words[index].isEmpty, !(words[index].count == 2 && words[index].hasPrefix("%")) else { return nil }
                return words[index]
            }
            if let label = given(6) { options.oursLabel = label }
            if let label = given(7) { options.theirsLabel = label }
            if let path = given(4) {
                if (path.split(separator: "/").last.map(String.init) ?? path) == "done.txt" {
                    options.isDoneFile = true
                } else {
                    options.archivedUIDs = archivedUIDs(doneFileBeside: path, base: words[0], theirs: words[2], invocation)
                }
            }
            return try merge(base: words[0], ours: words[1], theirs: words[2], options: options, invocation: invocation)
        })

    static func merge(base: String, ours: String, theirs: String, options: ThreeWayOptions,
                      invocation: Invocation) throws(CLIError) -> Int32 {
        let baseBytes = try invocation.files.read(base)
        // BASE is indexed on a second core while THEIRS and OURS are read (docs/notes/speed-commands.md);
        // joined before the merge, or on the way out when something fails first.
        var preparing = BackgroundJob.start { _ in TodoMerge.prepareBase(baseBytes) }
        defer { preparing?.wait() }
        let theirsBytes = try invocation.files.read(theirs)
        // THEIRS is lined up against BASE on a thread of its own while OURS is read and lined up.
        var aligningTheirs = BackgroundJob.start { _ in TodoMerge.prepareSide(theirsBytes, against: baseBytes) }
        defer { aligningTheirs?.wait() }
        func refuseNUL(_ path: String, _ bytes: [UInt8]) throws(CLIError) {
            if holdsNUL(bytes) { throw .failure("merge: \(path) holds NUL bytes (a binary file?); not merging, \(ours) left as it was") }
        }
        try refuseNUL(base, baseBytes)
        var reports: [MergeReport] = [], conflicts: [MergeConflict] = []
        // OURS is read once, by the transaction, and merged there; the result goes to the file as
        // runs of the three inputs (`MergeOutput`), never built whole (docs/notes/speed-commands.md).
        // Without the writers' lock: git runs the driver on its own temporary OURS file, which no
        // other todo process writes, and where directories cannot be locked the lock would leave a
        // sidecar `.NAME.lock` in the work tree.
        try invocation.files.transactBytes(ours, refusesConflictBlocks: false, lockTimeout: .seconds(5), lockHeldByCaller: true,
                                           warn: invocation.warn) { (oursBytes: [UInt8]) throws(CLIError) -> ReplacementContent? in
            try refuseNUL(ours, oursBytes)
            try refuseNUL(theirs, theirsBytes)
            let merged = TodoMerge.unmergedThreeWay(base: baseBytes, ours: oursBytes, theirs: theirsBytes)
                ?? preparedMerge(base: baseBytes, ours: oursBytes, theirs: theirsBytes, options: options,
                                 preparing: &preparing, aligningTheirs: &aligningTheirs)
            reports = merged.reports
            conflicts = merged.conflicts
            return .gathered(sources: merged.sources, pieces: merged.pieces)
        }
        // One write for every line: a large merge reports thousands.
        let said = reports.map { "todo merge: \($0)" } + conflicts.map { "todo merge: conflict: \($0.text)" }
        if !said.isEmpty { invocation.log(said.joined(separator: "\n")) }
        // git's contract for a driver: 0 when clean, 1 when a conflict remains.
        return conflicts.isEmpty ? 0 : 1
    }

    /// The merge of inputs that differ, on BASE indexed and THEIRS lined up by their jobs (taken, not
    /// shared, so the merge extends them in place; a second attempt of the transaction, after the
    /// file changed, prepares them again here) and OURS lined up against BASE meanwhile.
    static func preparedMerge(base: [UInt8], ours: [UInt8], theirs: [UInt8], options: ThreeWayOptions,
                              preparing: inout BackgroundJob<PreparedMergeBase>?,
                              aligningTheirs: inout BackgroundJob<PreparedMergeSide>?) -> MergeOutput {
        let oursSide = TodoMerge.prepareSide(ours, against: base)
        let theirsSide = aligningTheirs.take()?.takeValue() ?? TodoMerge.prepareSide(theirs, against: base)
        let preparedBase = preparing.take()?.takeValue() ?? TodoMerge.prepareBase(base)
        return TodoMerge.threeWay(base: preparedBase, ours: consume oursSide, theirs: consume theirsSide, options: options,
                                  workers: .twoThreads)
    }

    /// Whether `bytes` holds a NUL byte (the file layer's `memchr` search: three inputs of a large
    /// file are searched before merging).
    static func holdsNUL(_ bytes: [UInt8]) -> Bool {
        FileSystem.firstNUL(in: bytes) != nil
    }

    /// The uids of tasks that will be archived in the result, from the done file beside the todo file
    /// `path` (relative to the work tree's top, where git runs drivers) (docs/sync.md section 1,
    /// "Archived is not deleted"):
    /// - OURS' done file: the work tree's (an untracked done.txt is ours alone) and `HEAD`'s;
    /// - plus what THEIRS archived since BASE: completed in THEIRS' done file but not in BASE's. Only
    ///   that part of THEIRS' done file reaches the result of a cherry-pick or a rebase step (which
    ///   apply one commit's change); a merge brings all of it, and the older part is in OURS' anyway.
    /// BASE is found by its commit, never by its bytes alone: many commits can hold the same todo file
    /// (an empty one above all), and the done file of a commit that merely holds BASE's bytes can
    /// already have the very archive THEIRS brings, which would then not count (docs/notes/sync.md,
    /// "An archived task open again after a merge"). git names THEIRS' commit to a driver only during
    /// `git merge` (`GITHEAD_<sha>`): BASE is then the merge base of `HEAD` and it. Otherwise
    /// (`stash pop`, `cherry-pick`, a rebase step: each applies one commit onto its parent) THEIRS
    /// is a commit among the last 300 that touched `path` on any ref (the stash included) whose `path`
    /// holds exactly THEIRS' bytes and whose parent's holds exactly BASE's, and BASE that parent;
    /// only when no commit and parent match both are the commits holding each side's bytes taken,
    /// as before. Every git call is quiet (`cat-file --batch` reports a missing file on stdout).
    static func archivedUIDs(doneFileBeside path: String, base baseFile: String, theirs theirsFile: String,
                             _ invocation: Invocation) -> Set<String> {
        let directory = FileAccess.directoryName(of: path)
        let donePath = directory == "." ? "done.txt" : directory + "/done.txt"
        func git(_ arguments: [String], input: [UInt8]? = nil) -> [UInt8]? {
            let outcome = ProcessSpawning.run(["git"] + arguments, environment: invocation.environment, input: input,
                                              captureOutput: true)
            return outcome.status == 0 ? outcome.output : nil
        }
        func lines(_ bytes: [UInt8]?) -> [String] {
            (bytes ?? []).split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
        }
        /// The blob `path` names in each of `commits`, in their order.
        func blobs(_ commits: [String]) -> [String] {
            guard !commits.isEmpty else { return [] }
            return lines(git(["cat-file", "--batch-check=%(objectname)"], input: Array(commits.map { "\($0):\(path)\n" }.joined().utf8)))
        }
        /// THEIRS' commits and BASE's, as the doc comment above says.
        func sides() -> (theirs: [String], base: [String]) {
            let heads = invocation.environment.keys.filter { $0.hasPrefix("GITHEAD_") }.map { String($0.dropFirst(8)) }.sorted()
            if !heads.isEmpty {
                return (heads, heads.flatMap { lines(git(["merge-base", "--all", "HEAD", $0])) })
            }
            let touching = lines(git(["log", "--all", "--format=%H", "-n", "300", "--", path]))
            let held = blobs(touching)
            guard let theirsBlob = lines(git(["hash-object", "--", theirsFile])).first,
                  let baseBlob = lines(git(["hash-object", "--", baseFile])).first else { return ([], []) }
            let theirsCandidates = zip(touching, held).filter { $0.1 == theirsBlob }.map(\.0)
            // The first parent: the one a pick, a rebase step or a stash is applied from (a stash's
            // second parent is its index). `--no-walk` without a path gives the real parents.
            let listed = theirsCandidates.isEmpty ? nil : git(["log", "--no-walk=unsorted", "--format=%H %P"] + theirsCandidates)
            let parented = lines(listed).map { $0.split(separator: " ").map(String.init) }.filter { $0.count >= 2 }
            let pairs = zip(parented, blobs(parented.map { $0[1] })).filter { $0.1 == baseBlob }.map(\.0).prefix(3)
            if !pairs.isEmpty { return (pairs.map { $0[0] }, pairs.map { $0[1] }) }
            let baseCandidates = zip(touching, held).filter { $0.1 == baseBlob }.map(\.0)
            return (Array(theirsCandidates.prefix(3)), Array(baseCandidates.prefix(3)))
        }
        /// The uids completed in `commit`'s done file (none when it has none).
        func archived(in commit: String) -> Set<String> {
            // Found: `<sha> blob <size>` LF, the content, LF.
            guard let output = git(["cat-file", "--batch"], input: Array("\(commit):\(donePath)\n".utf8)),
                  let header = output.firstIndex(of: 0x0A),
                  !String(decoding: output[..<header], as: UTF8.self).hasSuffix(" missing"), output.last == 0x0A else { return [] }
            return completedUIDs(Array(output[(header + 1)..<(output.count - 1)]))
        }
        var ours = archived(in: "HEAD")
        if let local = try? invocation.files.readIfExists(donePath) { ours.formUnion(completedUIDs(local)) }
        let (theirsCommits, baseCommits) = sides()
        let theirs = theirsCommits.reduce(into: Set<String>()) { $0.formUnion(archived(in: $1)) }
        let base = baseCommits.reduce(into: Set<String>()) { $0.formUnion(archived(in: $1)) }
        return ours.union(theirs.subtracting(base))
    }

    /// The uids of the completed tasks of a done file's bytes (none for a binary file).
    static func completedUIDs(_ bytes: [UInt8]) -> Set<String> {
        guard !holdsNUL(bytes) else { return [] }
        let document = TodoDocument(bytes: bytes)
        var uids = Set<String>()
        for index in 0..<document.lineCount {
            let item = document.item(at: index)
            if item.isCompleted, let uid = item.uid { uids.insert(uid) }
        }
        return uids
    }

    static func setUp(_ invocation: Invocation) throws(CLIError) -> Int32 {
        let environment = invocation.environment
        // git's own `fatal: …` goes to /dev/null: the one line below says it (README, "todo merge --setup").
        let topLevel = ProcessSpawning.run(["sh", "-c", "exec git rev-parse --show-toplevel 2>/dev/null"], environment: environment,
                                           input: nil, captureOutput: true)
        guard topLevel.status != 127 else { throw .failure("merge --setup: git is not installed (no git in PATH)") }
        guard topLevel.status == 0 else { throw .failure("merge --setup: not inside a git repository") }
        let root = String(decoding: topLevel.output, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "."
        let driverProgram = invocation.programPath.contains("/") ? invocation.programPath : "todo"
        let settings = [
            ("merge.todotxt.name", "todo.txt: merge by task (todo merge)"),
            ("merge.todotxt.driver", "\(shellQuoted(driverProgram)) merge %O %A %B %L %P %S %X %Y"),
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
        try invocation.files.updateHoldingLock(attributesPath, createIfMissing: true, warn: invocation.warn) { current throws(CLIError) in
            var document = TodoDocument(bytes: current)
            let present = Set((0..<document.lineCount).map { document.text(at: $0) })
            for line in wanted where !present.contains(line) { document.appendLine(Array(line.utf8)) }
            return document.rendered()
        }
        invocation.say("registered the todo.txt merge driver in \(invocation.shown(root)) (git config merge.todotxt.*, .gitattributes)")
        return 0
    }

    /// Quotes a path for the shell git runs the driver through.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
