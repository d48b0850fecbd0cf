import TodoFileSystem
import TodoTxt

extension SyncSession {
    /// Fetch, merge, push; a push rejected because another machine pushed first starts the round
    /// again, at most `SyncAction.pushAttempts` rounds in all.
    /// `prefetched`: the first round's fetch, already run.
    mutating func exchange(with upstream: Upstream, prefetched: SyncGit.Result? = nil) throws(CLIError) {
        var prefetched = prefetched
        for _ in 1...SyncAction.pushAttempts {
            try fetch(upstream, done: prefetched)
            prefetched = nil
            // Both branches exist (the usual case): the same commit (nothing to do, read from the
            // refs' files when they are loose), or one `rev-list` counts; else look which is missing.
            let local = "refs/heads/\(branch)"
            let same = git.looseRef(local, files).map { $0 == git.looseRef(upstream.trackingRef, files) } ?? false
            let known = same ? (ahead: 0, behind: 0) : counts(local, upstream.trackingRef)
            let heads = known == nil ? self.heads(upstream) : (local: local, tracking: upstream.trackingRef)
            var needsPush: Bool
            if let tracking = heads.tracking {
                let counts = known ?? heads.local.flatMap { self.counts($0, tracking) } ?? (ahead: 0, behind: 1)
                needsPush = counts.ahead > 0
                if counts.behind > 0 {
                    var committedAgain = false
                    try withFileLocks { (session: inout SyncSession) throws(CLIError) in
                        committedAgain = try session.merge(upstream, behind: counts.behind, diverged: counts.ahead > 0)
                    }
                    needsPush = needsPush || committedAgain
                }
            } else {
                // Not on the remote yet (an empty remote, a new branch): the push creates it.
                needsPush = heads.local != nil
            }
            guard needsPush else { return }
            if try push(upstream) {
                done.append("pushed to \(upstream.shown)")
                return
            }
            done.append("push to \(upstream.shown) rejected: another machine pushed meanwhile; fetching and merging again")
        }
        throw CLIError(.pushRejected(times: SyncAction.pushAttempts))
    }

    func fetchArguments(_ upstream: Upstream) -> [String] { EarlyFetch.arguments + [upstream.remote] }

    /// Fetches the upstream's remote (or takes the result of a fetch of it already run: `done`).
    func fetch(_ upstream: Upstream, done: SyncGit.Result? = nil) throws(CLIError) {
        let fetched = done ?? git.run(fetchArguments(upstream))
        guard fetched.succeeded else {
            throw CLIError(.unreachable(remote: upstream.remote, reason: fetched.reason, committed: committed))
        }
    }

    /// This branch's commit and the remote-tracking branch's (nil for one that does not exist).
    func heads(_ upstream: Upstream) -> (local: String?, tracking: String?) {
        let listed = git.run(["for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/\(branch)", upstream.trackingRef])
        var heads: [String: String] = [:]
        for line in listed.text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2 { heads[String(parts[0])] = String(parts[1]) }
        }
        return (heads["refs/heads/\(branch)"], heads[upstream.trackingRef])
    }

    /// How many commits `local` has that `tracking` lacks, and the other way round; nil when one of
    /// them does not exist.
    func counts(_ local: String, _ tracking: String) -> (ahead: Int, behind: Int)? {
        let counted = git.run(["rev-list", "--left-right", "--count", "\(local)...\(tracking)", "--"])
        let numbers = counted.firstLine.split(whereSeparator: { $0 == "\t" || $0 == " " }).compactMap { Int($0) }
        return counted.succeeded && numbers.count == 2 ? (numbers[0], numbers[1]) : nil
    }

    /// Merges the remote-tracking branch with the driver in its settling form, so that no conflict
    /// block is left in the todo files, without ever starting a merge in the work tree: the merge is
    /// made by `git merge-tree --write-tree` (git 2.38 or later) and committed by `git commit-tree`,
    /// then the branch is moved to it (`move`), which updates only the files the merge changed and
    /// keeps every other entry of the index and the work tree as it was, staged or not. A
    /// fast-forward is the same move. Returns whether it committed the todo files
    /// again. The caller holds the files' writers' locks.
    ///
    /// git replaces a file it updates (a new inode); the old ones are held open across the update,
    /// and bytes another program wrote to an old one meanwhile (an `echo >>` that opened it before)
    /// are merged into the new file and committed. When a todo file changed since the commit (such
    /// an append), it is committed and the merge made once more.
    mutating func merge(_ upstream: Upstream, behind: Int, diverged: Bool) throws(CLIError) -> Bool {
        let held = [todoPath, donePath].compactMap { try? files.hold($0) }
        let before = held.map { try? $0.contents() }
        var committedHere = false
        var attempt = 0
        while true {
            attempt += 1
            let heads = self.heads(upstream)
            guard let tracking = heads.tracking else { return committedHere }
            let moved: SyncGit.Result
            if let local = heads.local {
                let target = diverged || committedHere ? try mergeCommit(upstream, local, tracking) : tracking
                moved = move(from: local, to: target, upstream)
            } else {
                // Nothing committed here yet: the remote's branch is checked out.
                moved = git.run(["merge", "-q", "--ff-only", tracking])
            }
            if moved.succeeded { break }
            let stoppedOn = Self.filesNamed(in: moved)
            guard attempt == 1, !stoppedOn.isEmpty, stoppedOn.allSatisfy(trackedPaths.contains), try commit() else {
                throw CLIError(.gitStopped(files: stoppedOn.isEmpty ? [repositoryName] : stoppedOn.map(invocation.shown),
                                           reason: moved.reason.isEmpty ? "could not update the work tree" : moved.reason))
            }
            committedHere = true
        }
        let commits = "\(behind) commit\(behind == 1 ? "" : "s")"
        done.append(diverged || committedHere ? "merged \(commits) from \(upstream.shown)"
                                              : "fast-forwarded to \(upstream.shown) (\(commits))")
        var lateBytes = false
        for (file, old) in zip(held, before) where !file.isStillAtPath {
            guard let old, let now = try? file.contents(), !ProcessSpawning.sameBytes(now, old) else { continue }
            try invocation.files.update(file.path, createIfMissing: true, lockTimeout: invocation.lockTimeout,
                                        warn: invocation.warn) { current throws(CLIError) in
                TodoMerge.threeWay(base: TodoDocument(bytes: old), ours: TodoDocument(bytes: current),
                                   theirs: TodoDocument(bytes: now),
                                   options: ThreeWayOptions(settlement: ConflictSettlement(oursTag: host, theirsTag: "late"))).bytes
            }
            done.append("\(file.path): merged what was written to it during the merge")
            lateBytes = true
        }
        if lateBytes, try commit() { committedHere = true }
        return committedHere
    }

    /// Moves the branch from `local` to `target` as a checkout would: `git read-tree -m -u` (the
    /// two-tree form) updates the files that differ between the two commits, carries every other
    /// index entry and work-tree change over unchanged, and refuses, changing nothing, when one of
    /// the files it would update has changes of its own; then the branch is moved, only if it is
    /// still at `local` (else the files go back).
    private func move(from local: String, to target: String, _ upstream: Upstream) -> SyncGit.Result {
        _ = git.run(["update-index", "-q", "--refresh"])
        let updated = git.run(["read-tree", "-m", "-u", local, target])
        guard updated.succeeded else { return updated }
        let moved = git.run(["update-ref", "-m", "todo sync: \(upstream.shown)", "refs/heads/\(branch)", target, local])
        if !moved.succeeded { _ = git.run(["read-tree", "-m", "-u", target, local]) }
        return moved
    }

    /// The merge of `local` and `tracking` as a commit (not yet on any branch): `merge-tree` with
    /// the settling driver, then `commit-tree`. git stopping on a file (a conflict in another file,
    /// a todo file deleted on one side and changed on the other) changes nothing and is one line.
    private mutating func mergeCommit(_ upstream: Upstream, _ local: String, _ tracking: String) throws(CLIError) -> String {
        let settling = driverCommand.replacing(" merge ", with: " merge --settle ", maxReplacements: 1)
        var arguments = ["-c", "merge.todotxt.driver=" + settling, "merge-tree", "--write-tree", "-z"]
        if options.setupURL != nil { arguments.append("--allow-unrelated-histories") }
        // The driver finds THEIRS' commit, and the merge base, by the variable `git merge` sets
        // (`GITHEAD_<sha>`); `merge-tree` sets none (docs/notes/sync.md, "Where the driver finds the done files").
        let theirs = git.run(["rev-parse", "--verify", "-q", tracking + "^{commit}"])
        let named = theirs.succeeded && !theirs.firstLine.isEmpty ? ["GITHEAD_" + theirs.firstLine: upstream.shown] : [:]
        let merged = git.run(arguments + [local, tracking], extra: named)
        for line in String(decoding: merged.error, as: UTF8.self).split(separator: "\n") where line.hasPrefix("todo merge: ") {
            let report = "sync: \(line.dropFirst("todo merge: ".count))"
            if line.contains("kept both versions") { notices.append(report) } else { done.append(report) }
        }
        let fields = merged.output.split(separator: 0, omittingEmptySubsequences: false)
        guard merged.status == 0, let tree = fields.first.map({ String(decoding: $0, as: UTF8.self) }), !tree.isEmpty else {
            var names: [String] = []
            for field in fields.dropFirst() {
                guard !field.isEmpty else { break }
                guard let tab = field.firstIndex(of: 0x09) else { continue }
                let name = String(decoding: field[(tab + 1)...], as: UTF8.self)
                if !names.contains(name) { names.append(name) }
            }
            if merged.status == 1 {
                throw CLIError(.gitStopped(files: names.isEmpty ? [repositoryName] : names.map(invocation.shown),
                                           reason: "a conflict git cannot settle"))
            }
            throw CLIError(.gitFailed(command: "merge-tree --write-tree (git 2.38 or later)", reason: merged.reason))
        }
        let made = git.run(["commit-tree", tree, "-p", local, "-p", tracking, "-m", "todo: merge \(upstream.shown) (on \(host))"])
        guard made.succeeded, !made.firstLine.isEmpty else { throw CLIError(.gitFailed(command: "commit-tree", reason: made.reason)) }
        return made.firstLine
    }

    /// The files a refusal names: `Entry 'NAME' not uptodate`, `Entry 'NAME' would be overwritten`,
    /// or the indented list under `… would be overwritten by merge:`.
    static func filesNamed(in result: SyncGit.Result) -> [String] {
        var names: [String] = []
        for line in String(decoding: result.error, as: UTF8.self).split(separator: "\n") {
            var name: String?
            if let entry = line.firstRange(of: "Entry '"), let end = line[entry.upperBound...].firstRange(of: "' ") {
                name = String(line[entry.upperBound..<end.lowerBound])
            } else if line.first == " " || line.first == "\t" {
                name = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
            }
            if let name, !name.isEmpty, !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// Pushes this branch to its upstream: true when it landed, false when it was rejected because
    /// the remote moved on (another machine pushed first: fetch and merge again).
    func push(_ upstream: Upstream) throws(CLIError) -> Bool {
        let pushed = git.run(["push", "--porcelain", upstream.remote, "HEAD:\(upstream.branch)"])
        if pushed.succeeded { return true }
        for line in pushed.text.split(separator: "\n") where line.hasPrefix("!") {
            if line.contains("[rejected]") { return false }
            // Two pushes at the same instant: the other one held the ref's lock.
            if line.contains("[remote rejected]") && (line.contains("lock") || line.contains("failed to update ref")) { return false }
            if let open = line.lastIndex(of: "("), line.hasSuffix(")") {
                throw CLIError(.pushFailed(remote: upstream.remote, reason: String(line[line.index(after: open)..<line.index(before: line.endIndex)])))
            }
        }
        throw CLIError(.pushFailed(remote: upstream.remote, reason: pushed.reason))
    }
}
