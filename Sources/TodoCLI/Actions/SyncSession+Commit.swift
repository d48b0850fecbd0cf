import TodoFileSystem
import TodoTxt

extension SyncSession {
    /// A commit of the todo and done files about to be made.
    struct PendingChange {
        /// The tracked paths that differ from HEAD (in the index or the work tree) or are new.
        var paths: [String]
        /// Those git does not know yet (`??`): added to the index first, as nothing else would be.
        var untracked: [String]
        var message: String
    }

    /// What the driver's registration lacks: its git configuration, and the attribute lines of
    /// `.git/info/attributes` (or the work tree's `.gitattributes`) that send the files to it.
    func missingRegistration() -> (driver: Bool, attributes: [String]) {
        let names = Set(["todo.txt", "done.txt"] + trackedPaths.map { String($0.split(separator: "/").last ?? "") })
        func lines(_ path: String) -> Set<String> {
            let bytes = (try? invocation.files.readIfExists(path)) ?? nil
            return Set(String(decoding: bytes ?? [], as: UTF8.self).split(separator: "\n").map {
                $0.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
            })
        }
        let present = lines(git.gitDirectory + "/info/attributes").union(lines(git.top + "/.gitattributes"))
        return (configuration["merge.todotxt.driver"] == nil,
                names.sorted().map { "\($0) merge=todotxt" }.filter { !present.contains($0) })
    }

    /// The driver's command for git, by the path this program was run as (`todo merge --setup`'s rule).
    var driverCommand: String {
        let program = invocation.programPath.contains("/") ? invocation.programPath : "todo"
        return "\(MergeAction.shellQuoted(program)) merge %O %A %B %L %P %S %X %Y"
    }

    /// Registers the merge driver where it is missing, as `todo merge --setup` does, except that
    /// the attributes go to `.git/info/attributes`, so that no file of the work tree changes; says
    /// so once.
    mutating func registerDriver() throws(CLIError) {
        let missing = missingRegistration()
        guard missing.driver || !missing.attributes.isEmpty else { return }
        if missing.driver {
            for (key, value) in [("merge.todotxt.name", "todo.txt: merge by task (todo merge)"), ("merge.todotxt.driver", driverCommand)] {
                let set = git.run(["config", key, value])
                guard set.succeeded else { throw CLIError(.gitFailed(command: "config \(key)", reason: set.reason)) }
                configuration[key.lowercased()] = value
            }
        }
        if !missing.attributes.isEmpty {
            let information = git.gitDirectory + "/info"
            if !files.exists(information) {
                let made = ProcessSpawning.run(["mkdir", "-p", information], environment: git.environment, input: nil, captureOutput: true)
                guard made.status == 0 else { throw .failure("sync: cannot create \(information)") }
            }
            try invocation.files.updateHoldingLock(information + "/attributes", createIfMissing: true, warn: invocation.warn) { current throws(CLIError) in
                var document = TodoDocument(bytes: current)
                for line in missing.attributes { document.appendLine(Array(line.utf8)) }
                return document.rendered()
            }
        }
        // Said at once: a stop later in this run must not make the next run say it again.
        if !invocation.quiet {
            invocation.say(invocation.shown("registered the todo.txt merge driver in \(git.top) (git config merge.todotxt.*, .git/info/attributes)"))
        }
    }

    /// Commits the todo and done files if they changed, and nothing else: `git commit --only`
    /// takes exactly those paths from the work tree and leaves every other entry of the index, staged
    /// or not, as it was. The caller holds the files' writers' locks.
    /// Returns whether it committed.
    @discardableResult
    mutating func commit() throws(CLIError) -> Bool {
        guard let change = try pendingChange() else { return false }
        if !change.untracked.isEmpty {
            let added = git.run(["add", "--"] + change.untracked)
            guard added.succeeded else { throw commitFailure("add", added) }
        }
        let made = git.run(["commit", "-q", "--no-edit", "-m", change.message, "--only", "--"] + change.paths)
        guard made.succeeded else { throw commitFailure("commit", made) }
        committed = true
        done.append("committed \"\(change.message)\"")
        return true
    }

    private func commitFailure(_ command: String, _ result: SyncGit.Result) -> CLIError {
        if result.reason.contains("index.lock") { return CLIError(.indexLocked(repository: repositoryName)) }
        return CLIError(.gitFailed(command: command, reason: result.reason))
    }

    /// The commit the files need, or nil when they are as HEAD has them. A file holding a conflict
    /// block is refused: committed, it would reach every machine.
    func pendingChange() throws(CLIError) -> PendingChange? {
        guard !trackedPaths.isEmpty else { return nil }
        let status = git.run(["status", "--porcelain=v1", "-z", "--untracked-files=all", "--"] + trackedPaths)
        guard status.succeeded else { throw commitFailure("status", status) }
        var change = PendingChange(paths: [], untracked: [], message: "")
        var fields = status.output.split(separator: 0, omittingEmptySubsequences: true).makeIterator()
        while let field = fields.next() {
            guard field.count > 3 else { continue }
            let code = String(decoding: field.prefix(2), as: UTF8.self)
            let path = String(decoding: field.dropFirst(3), as: UTF8.self)
            // A rename or copy is followed by its source path.
            if code.hasPrefix("R") || code.hasPrefix("C") { _ = fields.next() }
            guard trackedPaths.contains(path) else { continue }
            change.paths.append(path)
            if code == "??" { change.untracked.append(path) }
        }
        guard !change.paths.isEmpty else { return nil }
        var current: [[UInt8]] = []
        for path in [todoPath, donePath] {
            let bytes = try invocation.files.readIfExists(path) ?? []
            if let line = ConflictMarkers.firstBlockLine(in: bytes) {
                throw CLIError(.conflictMarkers(file: invocation.shown(path), line: line))
            }
            current.append(bytes)
        }
        // The done file outside the work tree is not committed: its old version is its current one.
        let doneRelative = relativePath(donePath)
        let old = git.blobs(["HEAD:" + (relativePath(todoPath) ?? ""), "HEAD:" + (doneRelative ?? "")])
        let summary = TodoChangeSummary(
            oldTodo: TodoDocument(bytes: old[0] ?? []),
            oldDone: TodoDocument(bytes: (doneRelative != nil ? old[1] : current[1]) ?? []),
            newTodo: TodoDocument(bytes: current[0]), newDone: TodoDocument(bytes: current[1]))
        let what = summary.isEmpty ? "order, blank lines or line endings changed" : summary.description
        change.message = "todo: \(what) (on \(host))"
        return change
    }

    /// `path`'s place in the work tree, nil outside it.
    func relativePath(_ path: String) -> String? {
        path.hasPrefix(git.top + "/") ? String(path.dropFirst(git.top.count + 1)) : nil
    }

    /// `--dry-run`: what a sync would do now, from what is here and the last fetch; nothing is
    /// written, nothing fetched.
    mutating func dryRun() throws(CLIError) -> Int32 {
        var lines: [String] = []
        let missing = missingRegistration()
        if missing.driver || !missing.attributes.isEmpty { lines.append("would register the todo.txt merge driver in \(git.top)") }
        if let change = try pendingChange() {
            lines.append("would commit \(change.paths.joined(separator: ", ")): \"\(change.message)\"")
        } else {
            lines.append("nothing to commit")
        }
        let upstream = try self.upstream()
        let heads = self.heads(upstream)
        var known = "not fetched yet"
        if let local = heads.local, let tracking = heads.tracking, let counts = self.counts(local, tracking) {
            known = "as of the last fetch: \(counts.behind) to merge, \(counts.ahead) to push"
        }
        lines.append("would fetch \(upstream.remote), merge \(upstream.shown) and push (\(known))")
        if !invocation.quiet { for line in lines { invocation.say(invocation.shown(line)) } }
        return 0
    }
}
