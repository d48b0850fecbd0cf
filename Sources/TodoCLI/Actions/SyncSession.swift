import TodoFileSystem
import TodoTxt

/// One run of `todo sync` on the repository that holds the todo file (docs/sync.md section 3).
///
/// Order, so that every stop keeps what was done before it: checks that change nothing (a
/// repository, no merge or rebase in progress, a branch, no `index.lock`); the sync lock; the
/// driver registered; the todo and done files committed; then up to `SyncAction.pushAttempts`
/// rounds of fetch, merge, push. The files' writers' locks are held only while git works on them
/// (the commit, the merge), never across the network.
struct SyncSession {
    let invocation: Invocation
    let options: SyncOptions
    var git: SyncGit
    /// The todo and done files, absolute, symlinks resolved.
    let todoPath: String
    let donePath: String
    /// The paths of the todo and done files inside the work tree (the done file left out when it
    /// lies outside it).
    let trackedPaths: [String]
    let host: String
    /// The branch checked out (short name), once known.
    var branch = ""
    var configuration: [String: String] = [:]
    /// Whether this run made a commit (said in the messages of the stops after it).
    var committed = false
    /// What `-v` prints at the end, and what is always printed (settled conflicts).
    var done: [String] = []
    var notices: [String] = []

    var files: FileSystem { invocation.files.fileSystem }
    var repositoryName: String { invocation.shown(git.top) }

    /// Finds the repository of `todoPath` (made first by `--setup` when there is none).
    static func start(todoPath: String, options: SyncOptions, invocation: Invocation) throws(CLIError) -> SyncSession {
        let files = invocation.files.fileSystem
        let todo = try absoluteRealPath(todoPath, files)
        let done = try absoluteRealPath(invocation.doneFilePath(forTodoFile: todoPath), files)
        let directory = FileAccess.directoryName(of: todo)
        let environment = SyncGit.unattended(invocation.environment)
        if let git = SyncGit.plainRepository(above: directory, environment: environment, files) {
            return SyncSession(invocation: invocation, options: options, git: git, todoPath: todo, donePath: done,
                               trackedPaths: trackedPaths([todo, done], in: git), host: ProcessContext.hostName())
        }
        var located = SyncGit.run(in: directory, ["rev-parse", "--show-toplevel", "--absolute-git-dir"], environment: environment)
        if located.status == 127 { throw CLIError(.gitMissing) }
        if !located.succeeded, options.setupURL != nil {
            try initialize(directory, environment: environment)
            invocation.say("made \(invocation.shown(directory)) a git repository")
            located = SyncGit.run(in: directory, ["rev-parse", "--show-toplevel", "--absolute-git-dir"], environment: environment)
        }
        let lines = located.text.split(separator: "\n").map(String.init)
        guard located.succeeded, lines.count == 2 else { throw CLIError(.notARepository(directory: invocation.shown(directory))) }
        let git = SyncGit(top: lines[0], gitDirectory: lines[1], environment: environment)
        return SyncSession(invocation: invocation, options: options, git: git, todoPath: todo, donePath: done,
                           trackedPaths: trackedPaths([todo, done], in: git), host: ProcessContext.hostName())
    }

    /// The paths of `paths` inside the work tree, those outside left out.
    static func trackedPaths(_ paths: [String], in git: SyncGit) -> [String] {
        paths.compactMap { path in path.hasPrefix(git.top + "/") ? String(path.dropFirst(git.top.count + 1)) : nil }
    }

    /// `path` made absolute with symlinks resolved; a file that does not exist yet, in its
    /// directory's real path.
    static func absoluteRealPath(_ path: String, _ files: FileSystem) throws(CLIError) -> String {
        do { return try files.realPath(path) } catch {
            let name = String(path.split(separator: "/").last ?? "todo.txt")
            do { return try files.realPath(FileAccess.directoryName(of: path)) + "/" + name } catch {
                throw .failure(error.description)
            }
        }
    }

    /// `git init` in `directory`, on branch `main` unless the user's configuration names another.
    static func initialize(_ directory: String, environment: [String: String]) throws(CLIError) {
        let configured = SyncGit.run(in: directory, ["config", "--get", "init.defaultBranch"], environment: environment)
        let branch = configured.succeeded ? [] : ["-b", "main"]
        let made = SyncGit.run(in: directory, ["init", "-q"] + branch, environment: environment)
        guard made.succeeded else { throw CLIError(.gitFailed(command: "init", reason: made.reason)) }
    }

    mutating func run() throws(CLIError) -> Int32 {
        if options.dryRun {
            try refuseUnfinishedState()
            configuration = git.configuration()
            return try dryRun()
        }
        let lockPath = git.gitDirectory + "/todo-sync"
        let lock: FileLock
        do { lock = try FileLock(for: lockPath, timeout: .seconds(60), fileSystem: files) } catch {
            if case .locked = error { throw CLIError(.busy(repository: repositoryName)) }
            throw .failure(error.description)
        }
        let outcome: Result<Int32, CLIError>
        do { outcome = .success(try runHoldingSyncLock()) } catch {
            // What was done before the stop (a commit) is worth knowing with -v.
            if options.verbose && !invocation.quiet { for line in done { invocation.say(invocation.shown(line)) } }
            outcome = .failure(error)
        }
        lock.release()
        return try outcome.get()
    }

    private mutating func runHoldingSyncLock() throws(CLIError) -> Int32 {
        // Under the lock: another sync's merge in progress is not the user's.
        try refuseUnfinishedState()
        // The first fetch runs while the configuration is read and the files are committed: the
        // three touch different things. It starts first when it can without the configuration.
        let early = options.setupURL == nil ? EarlyFetch.start(git, files) : nil
        configuration = git.configuration()
        git = git.withBatchSSH(configuration)
        let upstreamBeforeCommit = options.setupURL == nil ? try? self.upstream() : nil
        let prefetch: PendingGit?
        if let early, early.matches(git, configuration: configuration, upstream: upstreamBeforeCommit) {
            prefetch = early.pending
        } else {
            // Not the fetch the configuration asks for: finished before the right one starts.
            _ = early?.pending.wait()
            prefetch = upstreamBeforeCommit.map { git.start(fetchArguments($0)) }
        }
        try registerDriver()
        if let setupURL = options.setupURL { try setUpRemote(setupURL) }
        do {
            try withFileLocks { (session: inout SyncSession) throws(CLIError) in try session.commit() }
        } catch {
            _ = prefetch?.wait()
            throw error
        }
        let upstream = try self.upstream()
        try exchange(with: upstream, prefetched: prefetch?.wait())
        report()
        return 0
    }

    /// Stops, before anything is changed, on a state an unattended run must not build on.
    mutating func refuseUnfinishedState() throws(CLIError) {
        for (name, what) in [("MERGE_HEAD", "a merge"), ("rebase-merge", "a rebase"), ("rebase-apply", "a rebase or git am"),
                             ("CHERRY_PICK_HEAD", "a cherry-pick"), ("REVERT_HEAD", "a revert")] where git.hasState(name, files) {
            throw CLIError(.inProgress(repository: repositoryName, what: what))
        }
        if git.hasState("index.lock", files) { throw CLIError(.indexLocked(repository: repositoryName)) }
        // `.git/HEAD` names the branch (`ref: refs/heads/NAME`), or holds a commit when detached.
        let head = String(decoding: (try? invocation.files.readIfExists(git.gitDirectory + "/HEAD")) ?? nil ?? [], as: UTF8.self)
        let prefix = "ref: refs/heads/"
        let name = head.hasPrefix(prefix) ? String(head.dropFirst(prefix.count).prefix { $0 != "\n" && $0 != "\r" }) : ""
        guard !name.isEmpty else { throw CLIError(.detachedHead(repository: repositoryName)) }
        branch = name
    }

    /// Runs `body` holding the writers' locks of the todo file, then the done file (the order
    /// `archive` takes them in), so that no `todo` writer changes them while git does. A file that
    /// does not exist is not locked (its lock would be its directory's, which the other file may
    /// need too): a writer creating it meanwhile makes git refuse to overwrite it, which stops the
    /// merge with nothing lost.
    mutating func withFileLocks(_ body: (inout SyncSession) throws(CLIError) -> Void) throws(CLIError) {
        let timeout = invocation.lockTimeout
        let files = self.files
        var session = self
        func locking(_ paths: ArraySlice<String>) throws(CLIError) {
            guard let path = paths.first else { return try body(&session) }
            guard files.exists(path) else { return try locking(paths.dropFirst()) }
            try FileAccess.withLock(path, timeout: timeout) { () throws(CLIError) in try locking(paths.dropFirst()) }
        }
        // Written back even when `body` throws: what it did before the stop is still done.
        defer { self = session }
        try locking([todoPath, donePath][...])
    }

    /// The remote and the branch there that this branch merges from and pushes to.
    struct Upstream {
        let remote: String
        /// `refs/heads/NAME` on the remote.
        let branch: String
        /// `refs/remotes/REMOTE/NAME` here.
        var trackingRef: String { "refs/remotes/\(remote)/" + branch.replacing("refs/heads/", with: "", maxReplacements: 1) }
        var shown: String { "\(remote)/" + branch.replacing("refs/heads/", with: "", maxReplacements: 1) }
    }

    func upstream() throws(CLIError) -> Upstream {
        if let remote = configuration["branch.\(branch).remote"], let merge = configuration["branch.\(branch).merge"] {
            return Upstream(remote: remote, branch: merge)
        }
        let remotes = configuration.keys.filter { $0.hasPrefix("remote.") && $0.hasSuffix(".url") }.sorted()
        guard let first = remotes.first else { throw CLIError(.noRemote(repository: repositoryName)) }
        throw CLIError(.noUpstream(branch: branch, remote: String(first.dropFirst(7).dropLast(4))))
    }

    /// What was done, on stdout: the settled conflicts always (the user must look at them), the
    /// rest with `-v` (`nothing to do` when nothing was); `-q` silences all of it.
    func report() {
        guard !invocation.quiet else { return }
        for notice in notices { invocation.say(invocation.shown(notice)) }
        guard options.verbose else { return }
        if done.isEmpty { invocation.say("sync: \(repositoryName): nothing to do") }
        for line in done { invocation.say(invocation.shown(line)) }
    }
}
