import TodoFileSystem
import TodoTxt

/// git as `todo sync` runs it: always `git -C TOP …` in the repository that holds the todo file,
/// with a fixed environment in which git never stops to ask (docs/sync.md section 3):
/// no terminal prompt for credentials (`GIT_TERMINAL_PROMPT=0`), no editor (`GIT_EDITOR=true`,
/// `GIT_MERGE_AUTOEDIT=no`), no pager, ssh in batch mode unless the user configured ssh for git,
/// git's messages in English (only porcelain output and a message's file names are parsed),
/// pathspecs taken literally, and none of the caller's `GIT_DIR`, `GIT_WORK_TREE` or
/// `GIT_INDEX_FILE`, which would point git elsewhere. The user's hooks run (a commit is theirs).
/// Standard input is `/dev/null`; output and errors are captured, never shown as they are.
struct SyncGit: Sendable {
    /// The work tree's top directory, absolute.
    let top: String
    /// The repository's git directory, absolute.
    let gitDirectory: String
    let environment: [String: String]

    /// What one git command left: its status, standard output and standard error.
    struct Result: Sendable {
        let status: Int32
        let output: [UInt8]
        let error: [UInt8]
        var succeeded: Bool { status == 0 }
        var text: String { String(decoding: output, as: UTF8.self) }
        /// The first line of stdout, trimmed.
        var firstLine: String { text.split(separator: "\n").first.map(String.init) ?? "" }
        /// git's reason in one line: its `fatal:` or `error:` line (prefix dropped), else the first
        /// line of stderr; empty when it said nothing.
        var reason: String {
            let lines = String(decoding: error, as: UTF8.self).split(separator: "\n").map(String.init)
            for line in lines {
                for prefix in ["fatal: ", "error: "] where line.hasPrefix(prefix) { return String(line.dropFirst(prefix.count)) }
            }
            return lines.first ?? ""
        }
    }

    /// The environment git runs with: the caller's, made unattended.
    static func unattended(_ base: [String: String]) -> [String: String] {
        var environment = base
        for key in ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX", "GIT_COMMON_DIR", "LANGUAGE"] {
            environment[key] = nil
        }
        if let all = environment["LC_ALL"] {
            if environment["LC_CTYPE"] == nil { environment["LC_CTYPE"] = all }
            environment["LC_ALL"] = nil
        }
        environment["LC_MESSAGES"] = "C"
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["GIT_EDITOR"] = "true"
        environment["GIT_SEQUENCE_EDITOR"] = "true"
        environment["GIT_MERGE_AUTOEDIT"] = "no"
        environment["GIT_PAGER"] = "cat"
        environment["GIT_LITERAL_PATHSPECS"] = "1"
        return environment
    }

    /// This runner with ssh in batch mode (never a passphrase or host-key question), unless the
    /// user chose how git runs ssh (`GIT_SSH_COMMAND`, `GIT_SSH`, `core.sshCommand`).
    func withBatchSSH(_ configuration: [String: String]) -> SyncGit {
        guard environment["GIT_SSH_COMMAND"] == nil, environment["GIT_SSH"] == nil,
              configuration["core.sshcommand"] == nil else { return self }
        var environment = environment
        environment["GIT_SSH_COMMAND"] = "ssh -o BatchMode=yes"
        return SyncGit(top: top, gitDirectory: gitDirectory, environment: environment)
    }

    /// Runs `git ARGUMENTS` in `directory` with `environment` (before the repository is known).
    static func run(in directory: String, _ arguments: [String], environment: [String: String],
                    input: [UInt8]? = nil) -> Result {
        let outcome = ProcessSpawning.run(["git", "-C", directory] + arguments, environment: environment, input: input,
                                          captureOutput: true, captureError: true)
        return Result(status: outcome.status, output: outcome.output, error: outcome.error)
    }

    /// Runs `git ARGUMENTS` at the top of the work tree.
    func run(_ arguments: [String], input: [UInt8]? = nil, extra: [String: String] = [:]) -> Result {
        var environment = environment
        for (key, value) in extra { environment[key] = value }
        return Self.run(in: top, arguments, environment: environment, input: input)
    }

    /// Starts `git ARGUMENTS` on another thread (the fetch, while the commit is made here).
    func start(_ arguments: [String]) -> PendingGit { PendingGit(self, arguments) }

    /// Every configuration value (`git config -l -z`), the last of a key winning, keys as git
    /// prints them (section and name lower-cased).
    func configuration() -> [String: String] {
        var values: [String: String] = [:]
        for entry in run(["config", "-l", "-z"]).output.split(separator: 0) {
            let text = String(decoding: entry, as: UTF8.self)
            if let newline = text.firstIndex(of: "\n") {
                values[String(text[..<newline])] = String(text[text.index(after: newline)...])
            } else {
                values[text] = "true"
            }
        }
        return values
    }

    /// The blob of `path` in `revision` (nil when it has none), for every `revision:path` asked,
    /// in one `git cat-file --batch`.
    func blobs(_ specs: [String]) -> [[UInt8]?] {
        let output = run(["cat-file", "--batch"], input: Array(specs.map { $0 + "\n" }.joined().utf8)).output
        var results: [[UInt8]?] = []
        var index = 0
        while results.count < specs.count {
            guard let newline = output[index...].firstIndex(of: 0x0A) else { break }
            let header = String(decoding: output[index..<newline], as: UTF8.self)
            index = newline + 1
            let fields = header.split(separator: " ")
            guard fields.count == 3, let size = Int(fields[2]), index + size <= output.count else {
                results.append(nil)
                continue
            }
            results.append(fields[1] == "blob" ? Array(output[index..<(index + size)]) : nil)
            index += size + 1
        }
        while results.count < specs.count { results.append(nil) }
        return results
    }

    /// The commit a loose ref names (`.git/refs/heads/main` holds it as hex digits and a newline,
    /// gitrepository-layout(5)); nil when the ref is packed, symbolic, stored otherwise (reftable),
    /// or missing, for which git is asked instead.
    func looseRef(_ name: String, _ files: FileSystem) -> String? {
        guard let bytes = try? files.read(gitDirectory + "/" + name).bytes, bytes.count == 41 || bytes.count == 65,
              bytes.last == 0x0A else { return nil }
        let hex = bytes.dropLast()
        guard hex.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        return String(decoding: hex, as: UTF8.self)
    }

    /// Whether `name` exists in the git directory (`MERGE_HEAD`, `rebase-merge`, `index.lock`).
    func hasState(_ name: String, _ files: FileSystem) -> Bool {
        files.exists(gitDirectory + "/" + name)
    }
}

/// A git command running on another thread; `wait` returns its result.
///
/// A thread of its own (`BackgroundJob`), not Dispatch's pool: the fetch it runs is on the critical
/// path of every sync, and the pool's first use costs more than starting one thread. When no thread
/// can be started, the command runs at once on the caller's thread.
final class PendingGit: Sendable {
    private let job: BackgroundJob<SyncGit.Result>?
    private let ranHere: SyncGit.Result?

    init(_ git: SyncGit, _ arguments: [String]) {
        job = BackgroundJob.start { _ in git.run(arguments) }
        ranHere = job == nil ? git.run(arguments) : nil
    }

    func wait() -> SyncGit.Result {
        job?.join() ?? ranHere ?? SyncGit.Result(status: 127, output: [], error: [])
    }
}

extension SyncGit {
    /// The repository holding `directory` when it is the plain kind, found without running git:
    /// the nearest directory at or above it with a `.git` directory holding `HEAD`. Anything
    /// else (a `.git` file of a linked worktree or a submodule, none at all) is left to
    /// `git rev-parse`, which knows every layout.
    static func plainRepository(above directory: String, environment: [String: String], _ files: FileSystem) -> SyncGit? {
        var candidate = directory
        while true {
            if files.kind(of: candidate + "/.git", followingLinks: false) == .directory {
                guard files.exists(candidate + "/.git/HEAD") else { return nil }
                return SyncGit(top: candidate, gitDirectory: candidate + "/.git", environment: environment)
            }
            if files.exists(candidate + "/.git") || candidate == "/" || candidate.isEmpty { return nil }
            candidate = FileAccess.directoryName(of: candidate)
        }
    }
}
