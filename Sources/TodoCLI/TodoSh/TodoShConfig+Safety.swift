import TodoFileSystem

/// What the `todo` name runs of todo.sh's setup, and what it refuses (docs/todo-command.md,
/// "Config files and add-ons"). The `todo.sh` name keeps todo.sh's behaviour byte for byte.
extension TodoShConfig {
    /// `environment` without a relative `XDG_CONFIG_HOME`: the XDG base directory specification says
    /// such a value is invalid and must be ignored, and honouring it would run a config or add-ons
    /// from whatever directory the command happens to run in.
    static func ignoringRelativeXDGConfigHome(_ environment: [String: String]) -> [String: String] {
        guard let value = environment["XDG_CONFIG_HOME"], !value.isEmpty, !value.hasPrefix("/") else { return environment }
        var cleaned = environment
        cleaned["XDG_CONFIG_HOME"] = nil
        return cleaned
    }

    /// Why `path` (a config file bash would run, or an add-on) must not be run, as ssh refuses a
    /// config others can write: it, or the directory holding it, can be changed by someone other
    /// than its user and root. nil when it is safe to run. A directory writable by all but sticky
    /// (`/tmp`) does not let others replace a file they do not own, so it passes. Only a regular file
    /// is judged: `-d /dev/null`, todo.sh's way of running no config, holds nothing to run.
    static func refusal(toRun path: String, as what: String, fileSystem: FileSystem) -> String? {
        guard let file = fileSystem.status(of: path), file.kind == .regular else { return nil }
        let user = ProcessContext.effectiveUserID()
        if file.owner != user && file.owner != 0 {
            return "not running \(what) \(path): it belongs to another user (uid \(file.owner))"
        }
        if file.permissions & 0o022 != 0 {
            return "not running \(what) \(path): others can write it (chmod go-w '\(path)')"
        }
        let directory = FileAccess.directoryName(of: (try? fileSystem.realPath(path)) ?? path)
        if let holder = fileSystem.status(of: directory), holder.permissions & 0o022 != 0, holder.permissions & 0o1000 == 0 {
            return "not running \(what) \(path): others can write its directory \(directory) (chmod go-w '\(directory)')"
        }
        return nil
    }
}
