/// Cleaning up after writers that died mid-write.
///
/// `replace` removes its temporary file on every failure it sees, but a writer killed with SIGKILL,
/// by a crash or by a power cut cannot: its `.NAME.XXXXXX.tmp` stays beside the todo file, as big
/// as the file, and sync clients may even upload it. The next writer removes it.
extension FileSystem {
    /// How long (in seconds) a temporary file must have gone unmodified before it counts as
    /// abandoned: ten minutes, far longer than any write of a todo file takes.
    package static let abandonedTemporaryFileAge: Int64 = 600

    /// Whether `name` is a name `replace` gives its temporary files beside a file called `target`:
    /// `.TARGET.` then six lowercase letters or digits, then `.tmp`.
    static func isTemporaryName(_ name: String, for target: String) -> Bool {
        let prefix = "." + target + "."
        guard name.hasPrefix(prefix), name.hasSuffix(".tmp") else { return false }
        let middle = name.utf8.dropFirst(prefix.utf8.count).dropLast(4)
        return middle.count == 6 && middle.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
    }

    /// Removes the temporary files that writers killed mid-write left beside `path` (symlinks
    /// resolved): regular files named as `replace` names them and last modified at least
    /// `minimumAge` seconds before `now` (seconds since the epoch). Returns the removed paths.
    ///
    /// Call it only while holding `path`'s `FileLock`. Every writer creates its temporary file under
    /// that lock, so one that exists while the lock is held belongs to a writer that died; the age
    /// is a second guard, for a writer that does not lock. Best effort: an unreadable directory or
    /// a failed removal is skipped, because these files are clutter, never the only copy of anything
    /// (the todo file is only ever replaced by a complete, synced temporary file).
    @discardableResult
    package func removeAbandonedTemporaryFiles(
        beside path: String, now: Int64, minimumAge: Int64 = abandonedTemporaryFileAge
    ) -> [String] {
        guard let target = try? resolve(path),
              let names = directoryEntries(target.directory, withPrefix: "." + target.name + ".") else { return [] }
        var removed: [String] = []
        for name in names where FileSystem.isTemporaryName(name, for: target.name) {
            let candidate = PathName.join(target.directory, name)
            guard let status = try? system.lstat(candidate), status.kind == .regular,
                  now - status.identity.modificationSeconds >= minimumAge else { continue }
            if (try? system.unlink(candidate)) != nil { removed.append(candidate) }
        }
        return removed
    }
}
