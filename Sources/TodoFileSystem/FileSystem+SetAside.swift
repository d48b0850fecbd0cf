/// A file moved out of the way under a hidden name in its own folder, so that nobody opening the old
/// name finds it any more, while its bytes are checked before it is removed (docs/sync.md section 2).
package struct SetAsideFile: Sendable, Hashable {
    /// Where the file was.
    package let originalPath: String
    /// Where it is now: `.NAME.<16 hex digits>.reconciling` beside `originalPath`.
    package let path: String
    /// When it was renamed there: `settledContent`'s first second look is due `secondLookDelay`
    /// after this, which the comparison before it has often taken already.
    package let renamedAt: ContinuousClock.Instant
}

/// What a set-aside file holds once settled, told against the bytes the caller expected
/// (`FileSystem.settledContent`).
package enum SettledContent: Sendable, Equatable {
    /// Exactly the expected bytes.
    case unchanged
    /// These bytes instead.
    case changed([UInt8])
}

/// Taking a merged conflict copy out of the way without losing what someone appended to it after it
/// was read: rename it to a hidden name (new openers by name no longer find it), wait until no other
/// process has it open for writing, and only then read what it finally holds. The caller merges
/// those bytes if they differ from what it merged, and removes the file only once they are equal.
///
/// Every call goes through the `Syscalls` seam.
extension FileSystem {
    /// The suffix of a set-aside file's name; such names never match a conflict-copy pattern.
    package static let setAsideSuffix = ".reconciling"

    /// Renames `path` to a fresh hidden name in the same folder, never replacing anything there.
    ///
    /// Throws `.notFound` when `path` is gone (another process took it), `.renameFailed` otherwise.
    package func setAside(_ path: String) throws(FileSystemError) -> SetAsideFile {
        let directory = PathName.directory(of: path)
        let name = PathName.lastComponent(of: path)
        var lastError = Errno.fileExists
        for _ in 0..<8 {
            let random = String(system.random(), radix: 16)
            let hidden = PathName.join(directory, "." + name + "." + String(repeating: "0", count: 16 - random.count)
                                       + random + Self.setAsideSuffix)
            do {
                try renameWithoutReplacing(path, hidden)
                return SetAsideFile(originalPath: path, path: hidden, renamedAt: ContinuousClock.now)
            } catch where error == .noSuchFile {
                throw .notFound(path: path)
            } catch where error == .fileExists {
                lastError = error
                continue
            } catch {
                throw .renameFailed(from: path, to: hidden, error)
            }
        }
        throw .renameFailed(from: path, to: directory, lastError)
    }

    /// Puts a set-aside file back under its old name, unless something new took that name meanwhile
    /// (then it stays under its hidden name and the error says so).
    package func putBack(_ file: SetAsideFile) throws(FileSystemError) {
        do {
            try renameWithoutReplacing(file.path, file.originalPath)
        } catch {
            throw .renameFailed(from: file.path, to: file.originalPath, error)
        }
        try syncDirectory(PathName.directory(of: file.originalPath))
    }

    /// What a set-aside file holds once no other process has it open for writing, told against
    /// `expected` (the bytes the caller merged): `.unchanged` when it holds exactly those, else
    /// `.changed` with what it holds.
    ///
    /// Waits (polling) up to `writerWait` for every writer to close it: a writer that opened it
    /// before the rename can still append. Then compares or reads it, and once `secondLookDelay`
    /// has passed since the rename (the first time) or since the comparison (after a change), looks
    /// again (a writer whose `open` found the old name just before the rename counts as a writer
    /// only once its `open` returns, which that delay covers): when writers are gone and size and
    /// modification time are as seen, the answer is returned, else it looks again. The comparison
    /// reads the file a chunk at a time into one small buffer (`compareFile`), so the usual case, a
    /// copy nobody touched since it was read, costs no second buffer the size of the file and none
    /// of its page faults; only a changed file is read whole. The second look is an `fstat`. Where writers
    /// cannot be told (no leases and no `/proc`: macOS, or another user's file on a file system
    /// without leases), nobody is waited for, and only the second look protects a late append.
    ///
    /// Throws `.openForWriting(path: originalPath, …)` when a writer kept it open the whole wait,
    /// `.keptChanging` when it changed between every pair of looks.
    package func settledContent(of file: SetAsideFile, expected: [UInt8], writerWait: Duration) throws(FileSystemError) -> SettledContent {
        let attempts = 20
        for attempt in 0..<attempts {
            let fd = try openForReading(file.path)
            defer { system.closeQuietly(fd) }
            try waitForWriters(fd, file: file, writerWait: writerWait)
            let status = try readableStatus(fd, path: file.path)
            let content: SettledContent
            let same: Bool
            if status.identity.size == Int64(expected.count) {
                do { same = try FileSystem.compareFile(descriptor: fd, with: expected, system: system).same } catch {
                    throw .failed(.read, path: file.path, error)
                }
            } else {
                same = false
            }
            if same {
                content = .unchanged
            } else {
                // Read from the start: `compareFile` reads with `pread`, so the offset is still 0.
                content = .changed(try readOpenFile(fd, path: file.path).1)
            }
            // The delay that covers an `open` begun before the rename runs from the rename; after a
            // change, from this comparison, as for any look.
            let secondLookDue = (attempt == 0 ? file.renamedAt : ContinuousClock.now) + Self.secondLookDelay
            let untilDue = secondLookDue - ContinuousClock.now
            if untilDue > .zero { system.sleep(untilDue) }
            try waitForWriters(fd, file: file, writerWait: writerWait)
            let again: FileStatus
            do { again = try system.fstat(fd) } catch { throw .failed(.inspect, path: file.path, error) }
            let heldCount: Int64 = switch content {
            case .unchanged: Int64(expected.count)
            case .changed(let bytes): Int64(bytes.count)
            }
            if again.identity == status.identity && heldCount == again.identity.size { return content }
        }
        throw .keptChanging(path: file.originalPath, attempts: attempts)
    }

    /// Returns once no other process has the file of `fd` open for writing, polling every 2 ms;
    /// throws `.openForWriting` after `writerWait`.
    private func waitForWriters(_ fd: FileDescriptor, file: SetAsideFile, writerWait: Duration) throws(FileSystemError) {
        guard othersAreWriting(fd) else { return }
        let clock = ContinuousClock()
        let start = clock.now
        while othersAreWriting(fd) {
            guard clock.now - start < writerWait else { throw .openForWriting(path: file.originalPath, waited: writerWait) }
            system.sleep(.milliseconds(2))
        }
    }

    /// Whether another process has the file of `fd` open for writing; false where this cannot be told.
    private func othersAreWriting(_ fd: FileDescriptor) -> Bool {
        (try? system.othersWriting(fd)) == true
    }

    /// `renameNoReplace`, or where the file system cannot do it (`EINVAL`, `ENOSYS`, `ENOTSUP`), a
    /// look with `lstat` and a plain `rename` (a name taken in between is then replaced: the limit).
    private func renameWithoutReplacing(_ source: String, _ destination: String) throws(Errno) {
        do {
            try system.renameNoReplace(source, destination)
        } catch where [.invalidArgument, .notImplemented, .notSupported, .unsupported].contains(error) {
            if (try? system.lstat(destination)) != nil { throw .fileExists }
            try system.rename(source, destination)
        }
    }
}
