import TodoFileSystem

/// The fetch a sync starts before it has read git's configuration, so that `git config -l` runs
/// beside the fetch instead of before it (docs/sync.md section 3, "Speed").
///
/// The fetch needs two things from the configuration: the remote (the branch's
/// `branch.NAME.remote`) and whether ssh may be put in batch mode (not when `core.sshCommand` says
/// how to run it). The first needs nothing: `git fetch` with no remote named fetches exactly that
/// remote. The second is known without git when no configuration file git reads, nor the
/// configuration given in the environment, holds the word `sshcommand` or `include` (in any letter
/// case): then no `core.sshCommand` can be set. Otherwise there is no early fetch.
///
/// Invariant: an early fetch is only ever used when it is the fetch the configuration asks for
/// (`matches`); when it is not (a system configuration file at a place not looked at, say), it is
/// waited for and the right fetch runs after it, so the result is the same, only slower.
struct EarlyFetch {
    let pending: PendingGit
    /// The environment the fetch runs with.
    let environment: [String: String]

    /// The configuration words whose presence stops an early fetch.
    static let words: [[UInt8]] = [Array("sshcommand".utf8), Array("include".utf8)]

    /// Starts `git fetch` with no remote named, when the configuration files cannot set
    /// `core.sshCommand`; nil otherwise.
    static func start(_ git: SyncGit, _ files: FileSystem) -> EarlyFetch? {
        let configured = git.withBatchSSH([:])
        guard !mayMention(words, environment: configured.environment, gitDirectory: git.gitDirectory, files) else { return nil }
        return EarlyFetch(pending: configured.start(arguments), environment: configured.environment)
    }

    static let arguments = ["fetch", "-q", "--no-recurse-submodules"]

    /// Whether this fetch is the one `git` (with the configuration read) would run for
    /// `upstream`: the same environment, and a fetch with no remote named that fetches only the
    /// upstream's remote (`fetch.all` would make it fetch every remote).
    func matches(_ git: SyncGit, configuration: [String: String], upstream: SyncSession.Upstream?) -> Bool {
        upstream != nil && environment == git.environment && !Self.isTrue(configuration["fetch.all"])
    }

    /// Whether any configuration git reads for this repository may hold one of `words`: the
    /// environment's (`GIT_CONFIG_PARAMETERS`, `GIT_CONFIG_KEY_n` and `_VALUE_n`), then the
    /// files (git-config(1), "FILES"). A file that exists but cannot be read counts as holding
    /// them.
    static func mayMention(_ words: [[UInt8]], environment: [String: String], gitDirectory: String,
                           _ files: FileSystem) -> Bool {
        for (key, value) in environment where key == "GIT_CONFIG_PARAMETERS" || key.hasPrefix("GIT_CONFIG_KEY_")
            || key.hasPrefix("GIT_CONFIG_VALUE_") {
            if holdsAny(words, Array(value.utf8)) { return true }
        }
        guard let paths = configurationFiles(environment: environment, gitDirectory: gitDirectory) else { return true }
        for path in paths {
            do {
                if holdsAny(words, try files.read(path).bytes) { return true }
            } catch .notFound {
                continue
            } catch {
                return true
            }
        }
        return false
    }

    /// The files git reads its configuration from, by git-config(1): the system file (unless
    /// `GIT_CONFIG_NOSYSTEM`; at `GIT_CONFIG_SYSTEM`, else where the usual builds put it), the
    /// global ones (`GIT_CONFIG_GLOBAL`, else the XDG file and `~/.gitconfig`), the repository's
    /// and its worktree's. Nil when they cannot be told from here: a relative `XDG_CONFIG_HOME`,
    /// which git would take from its own working directory.
    static func configurationFiles(environment: [String: String], gitDirectory: String) -> [String]? {
        var paths: [String] = []
        if !isTrue(environment["GIT_CONFIG_NOSYSTEM"]) {
            if let system = environment["GIT_CONFIG_SYSTEM"] {
                paths.append(system)
            } else {
                paths += ["/etc/gitconfig", "/usr/local/etc/gitconfig", "/opt/homebrew/etc/gitconfig"]
            }
        }
        if let global = environment["GIT_CONFIG_GLOBAL"] {
            paths.append(global)
        } else {
            let home = environment["HOME"] ?? ""
            if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty {
                guard xdg.hasPrefix("/") else { return nil }
                paths.append(xdg + "/git/config")
            } else if !home.isEmpty {
                paths.append(home + "/.config/git/config")
            }
            if !home.isEmpty { paths.append(home + "/.gitconfig") }
        }
        paths += [gitDirectory + "/config", gitDirectory + "/config.worktree"]
        return paths.filter { !$0.isEmpty }
    }

    /// git's reading of a boolean (`GIT_CONFIG_NOSYSTEM`, `fetch.all`): true for `true`, `yes`,
    /// `on` or a non-zero number, in any letter case.
    static func isTrue(_ value: String?) -> Bool {
        guard let value = value?.lowercased() else { return false }
        return ["1", "true", "yes", "on"].contains(value) || (Int(value).map { $0 != 0 } ?? false)
    }

    /// Whether `bytes` hold one of `words` (lower-case ASCII), ASCII letters compared in any case.
    static func holdsAny(_ words: [[UInt8]], _ bytes: [UInt8]) -> Bool {
        words.contains { word in
            guard let first = word.first, bytes.count >= word.count else { return false }
            var start = 0
            while start + word.count <= bytes.count {
                if lowercased(bytes[start]) == first, (1..<word.count).allSatisfy({ lowercased(bytes[start + $0]) == word[$0] }) {
                    return true
                }
                start += 1
            }
            return false
        }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
}
