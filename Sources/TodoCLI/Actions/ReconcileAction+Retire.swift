import TodoFileSystem
import TodoTxt

/// Taking a merged copy away without losing a line written to it after it was read
/// (docs/sync.md section 2, "A copy that changes while it is merged").
extension ReconcileAction {
    /// What became of a merged copy.
    enum Retirement: Equatable {
        /// Removed, or with `--keep` renamed `NAME.reconciled`; every byte it held is merged.
        case retired
        /// Still there (under its name, or the hidden name the reason gives); what it held when it
        /// was last read is merged, and a later run merges it again.
        case leftInPlace(String)
    }

    /// Removes the copy at `copyPath` (renames it `NAME.reconciled` with `keep`) only once the bytes
    /// it holds are exactly the ones merged: it is renamed to a hidden name first, so that nobody
    /// opens it by its name any more; then, once no other process has it open for writing, it is
    /// read again, and whatever it gained is merged into `target` too, until it holds nothing new.
    /// A copy still open for writing after the lock timeout, or one that cannot be read again, is
    /// put back under its name (`leftInPlace`). Failing to write `target` puts it back and throws.
    static func retire(_ copyPath: String, merged: [UInt8], into target: String, doneUIDs: Set<String>, keep: Bool,
                       reports: inout [MergeReport], invocation: Invocation) throws(CLIError) -> Retirement {
        let fileSystem = invocation.files.fileSystem
        let copyName = lastComponent(copyPath), targetName = lastComponent(target)
        let aside: SetAsideFile
        do {
            aside = try fileSystem.setAside(copyPath)
        } catch .notFound {
            // Gone since it was read: another reconcile took it, and merges what it holds.
            return .retired
        } catch {
            throw .failure("merged \(copyName) into \(targetName), but could not \(keep ? "move" : "remove") it: \(error)")
        }
        var mergedBytes = merged
        while true {
            let settled: SettledContent
            do {
                settled = try fileSystem.settledContent(of: aside, expected: mergedBytes, writerWait: invocation.lockTimeout)
            } catch .openForWriting(_, let waited) {
                return putBack(aside, invocation: invocation, reason: "another program kept it open for writing "
                               + "(waited \(FileSystemError.format(waited))): left in place to be reconciled again")
            } catch {
                return putBack(aside, invocation: invocation, reason: "it could not be read again (\(error)): left in place")
            }
            guard case .changed(let now) = settled else { break }
            if let offset = FileSystem.firstNUL(in: now) {
                let line = FileSystem.lineNumber(ofOffset: offset, in: now)
                return putBack(aside, invocation: invocation, reason: "it changed meanwhile and now holds a NUL byte "
                               + "on line \(line): left in place")
            }
            do {
                reports += try mergeCopy(appendedBytes(now, after: mergedBytes) ?? now, into: target,
                                         doneUIDs: doneUIDs, invocation: invocation)
            } catch {
                _ = putBack(aside, invocation: invocation, reason: "")
                throw error
            }
            mergedBytes = now
        }
        do {
            if keep {
                try fileSystem.moveFile(aside.path, to: copyPath + ".reconciled")
            } else {
                try fileSystem.removeFile(aside.path)
            }
        } catch {
            _ = putBack(aside, invocation: invocation, reason: "")
            throw .failure("merged \(copyName) into \(targetName), but could not \(keep ? "move" : "remove") it: \(error)")
        }
        return .retired
    }

    /// What `now` holds beyond `earlier` when it only grew by whole lines (an appender's work);
    /// nil when it was changed otherwise, so that all of it is merged again.
    static func appendedBytes(_ now: [UInt8], after earlier: [UInt8]) -> [UInt8]? {
        guard now.count > earlier.count, earlier.isEmpty || earlier.last == UInt8(ascii: "\n"),
              now.starts(with: earlier) else { return nil }
        return Array(now[earlier.count...])
    }

    /// Renames a set-aside copy back to its name; the reason, with the hidden name added when even
    /// that failed (the copy then waits there, holding only merged lines and what came later).
    static func putBack(_ aside: SetAsideFile, invocation: Invocation, reason: String) -> Retirement {
        do {
            try invocation.files.fileSystem.putBack(aside)
            return .leftInPlace(reason)
        } catch {
            invocation.warn("could not put \(lastComponent(aside.originalPath)) back under its name: \(error); it is at \(aside.path)")
            return .leftInPlace(reason)
        }
    }

    /// The part of `path` after its last `/`.
    static func lastComponent(_ path: String) -> String { String(path.split(separator: "/").last ?? "") }
}
