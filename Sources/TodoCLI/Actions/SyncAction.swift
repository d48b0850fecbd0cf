import TodoFileSystem
import TodoTxt

/// `todo sync [--dry-run] [--setup [REMOTE-URL]] [FILE]`: the git round trip in one unattended
/// command (docs/sync.md section 3): the todo and done files committed if they changed (nothing
/// else), the upstream fetched and merged with the merge driver, every conflict settled as
/// `reconcile` settles conflict copies, and the result pushed, a rejected push fetched and merged
/// again a bounded number of times. Never leaves the repository mid-merge, mid-rebase or detached.
enum SyncAction {
    static let spec = ActionSpec(
        name: "sync",
        options: [
            .flag("-v", "--verbose", meaning: "say what was done: committed, merged, pushed (or that there was nothing to do)."),
            .flag("-q", "--quiet", meaning: "say nothing but errors, not even conflicts settled or the driver registered."),
            .flag("--dry-run", meaning: "say what would be committed and synced; change nothing, fetch nothing."),
            ActionOption(names: ["--setup"], value: nil, values: [],
                         meaning: ["make the todo file's folder a git repository (if it is not one), add REMOTE-URL",
                                   "as origin, and sync for the first time."], inUsage: false),
        ],
        arguments: "[FILE] | --setup [REMOTE-URL]",
        summary: "Commit the todo and done files, merge what other machines pushed, push: git sync in one command.",
        completes: .files,
        group: .sync,
        notes: ["Finds the repository from the todo file, not the current directory. Says nothing when it worked",
                "(for cron) but conflicts it settled; -v says what it did. Exit 1 with one line when it cannot sync.",
                "Rules: docs/sync.md section 3."],
        parsed: { invocation, parsed, usage throws(CLIError) in
            var options = SyncOptions(verbose: invocation.verboseCount > 0 || parsed.flags.contains("-v"),
                                      dryRun: parsed.flags.contains("--dry-run"))
            if parsed.flags.contains("-q") { invocation.quiet = true }
            var todoPath = invocation.todoFilePath()
            if parsed.flags.contains("--setup") {
                guard parsed.positionals.count <= 1 else { throw .usage("too many arguments; usage: \(usage)") }
                guard !options.dryRun else { throw .usage("--setup and --dry-run do not go together; usage: \(usage)") }
                options.setupURL = parsed.positionals.first ?? ""
            } else {
                guard parsed.positionals.count <= 1 else { throw .usage("too many arguments; usage: \(usage)") }
                if let file = parsed.positionals.first { todoPath = file }
            }
            var session = try SyncSession.start(todoPath: todoPath, options: options, invocation: invocation)
            return try session.run()
        })

    /// How many times a push rejected because another machine pushed meanwhile is followed by
    /// another fetch and merge before giving up.
    static let pushAttempts = 5
}

/// What `todo sync` was asked.
struct SyncOptions {
    var verbose = false
    var dryRun = false
    /// `--setup`: the remote URL (empty: none given).
    var setupURL: String?
}

/// Why a sync stopped: each one line, exit 1 (docs/sync.md section 3, "When it cannot sync").
enum SyncProblem: Error, Equatable {
    case gitMissing
    case notARepository(directory: String)
    case inProgress(repository: String, what: String)
    case detachedHead(repository: String)
    case indexLocked(repository: String)
    case busy(repository: String)
    case conflictMarkers(file: String, line: Int)
    case noRemote(repository: String)
    case noUpstream(branch: String, remote: String)
    case unreachable(remote: String, reason: String, committed: Bool)
    case gitStopped(files: [String], reason: String)
    case pushFailed(remote: String, reason: String)
    case pushRejected(times: Int)
    case gitFailed(command: String, reason: String)
    case remoteInUse(url: String)

    var message: String {
        let kept = "; the local commit is kept"
        switch self {
        case .gitMissing: return "sync: git is not installed (no git in PATH)"
        case .notARepository(let directory):
            return "sync: \(directory) is not in a git repository (todo sync --setup REMOTE-URL makes it one)"
        case .inProgress(let repository, let what):
            return "sync: \(repository): \(what) is in progress; finish or abort it first (nothing synced)"
        case .detachedHead(let repository):
            return "sync: \(repository): HEAD is detached (no branch checked out); check out a branch first (nothing synced)"
        case .indexLocked(let repository):
            return "sync: \(repository)/.git/index.lock exists: another git command is running, or one crashed (remove the file if none runs); nothing synced"
        case .busy(let repository): return "sync: \(repository): another todo sync kept running for 60 s; nothing synced"
        case .conflictMarkers(let file, let line):
            return "sync: \(file): line \(line): unresolved merge conflict (<<<<<<< … >>>>>>>); resolve it, then run again (nothing synced)"
        case .noRemote(let repository):
            return "sync: \(repository) has no remote (todo sync --setup REMOTE-URL adds one)\(kept)"
        case .noUpstream(let branch, let remote):
            return "sync: branch \(branch) has no upstream (git push -u \(remote) \(branch) sets one)\(kept)"
        case .unreachable(let remote, let reason, let committed):
            return "sync: cannot fetch from \(remote): \(reason)" + (committed ? kept : "") + "; nothing lost, the next sync sends it"
        case .gitStopped(let files, let reason):
            return "sync: git stopped on \(files.joined(separator: ", ")) (\(reason)); merge aborted\(kept)"
        case .pushFailed(let remote, let reason): return "sync: cannot push to \(remote): \(reason)\(kept)"
        case .pushRejected(let times):
            return "sync: the push was rejected \(times) times (other machines kept pushing)\(kept); run sync again"
        case .gitFailed(let command, let reason): return "sync: git \(command) failed: \(reason)"
        case .remoteInUse(let url): return "sync --setup: remote origin is already \(url); not changing it"
        }
    }
}

extension CLIError {
    /// A sync problem as the one line it is (exit 1).
    init(_ problem: SyncProblem) { self = .failure(problem.message) }
}
