/// The two slower paths of `FileSystem.appendDurably`: a long append made by replacement, and the
/// removal of a failed append's bytes (docs/files.md, "Appending").
extension FileSystem {
    /// The size of the unit in which Linux copies a `write` into the page cache and between which it
    /// checks for a fatal signal (a page; a large folio only makes the unit bigger). Pages of 16 or
    /// 64 KiB hold whole 4 KiB ones, so this is safe everywhere.
    static let killAtomicUnit: Int64 = 4096

    /// Whether `count` bytes written at offset `size` stay within one `killAtomicUnit` of the file,
    /// so that a kill cannot stop the write half way.
    static func staysWithinOnePage(size: Int64, count: Int) -> Bool {
        count == 0 || size / killAtomicUnit == (size + Int64(count) - 1) / killAtomicUnit
    }

    /// Appends `payload` by replacing the file with its content plus `payload` (see `replace`), so a
    /// kill leaves the old file or the new one. `nil` when the directory does not let a temporary
    /// file be made: the caller then appends in place.
    func appendByReplacing(_ target: ResolvedPath, _ payload: [UInt8], created: Bool) throws(FileSystemError) -> AppendResult? {
        let outcome: ReplaceOutcome
        do {
            outcome = try replace(target.path, options: ReplaceOptions(createIfMissing: true)) { (old: [UInt8]) -> [UInt8]? in
                old + payload
            }
        } catch {
            switch error {
            case .fileSystem(.readOnly): return nil
            case .fileSystem(let failure): throw failure
            case .transform(let never): switch never {}
            }
        }
        var notes: [ReplaceNote] = []
        if case .written(_, let written) = outcome { notes = written }
        var directoryFailure: FileSystemError?
        for note in notes { if case .notDurable(let failure) = note { directoryFailure = failure } }
        return AppendResult(appended: payload, created: created, directorySyncFailure: directoryFailure,
                            notes: notes.filter { if case .notDurable = $0 { false } else { true } })
    }

    /// The error for an append whose write or `fsync` failed with `cause` after `written` bytes of
    /// `payload` went out, once those bytes are removed again.
    ///
    /// With `O_APPEND` the descriptor's offset is where this process's bytes ended, so they are
    /// exactly the `written` bytes before it; whatever another process appended after them stays.
    /// They are cut out by `replace` (compare-and-swap, late appends carried over; the caller holds
    /// the writers' lock), and only if the path still names the file written to and holds those
    /// bytes there. Never a truncation to an earlier size, which would cut a concurrent `>>` too.
    /// When the removal fails as well (a full disk has no room for the temporary file), the error
    /// says how many bytes are left and where.
    func removeFailedAppend(_ fd: FileDescriptor, target: ResolvedPath, payload: [UInt8], written: Int,
                            cause: Errno) -> FileSystemError {
        let failure = FileSystemError.failed(.append, path: target.path, cause)
        guard written > 0 else { return failure }
        func left(at offset: Int64, _ repair: String) -> FileSystemError {
            .appendLeftBytes(path: target.path, cause, byteCount: written, offset: offset, repair: repair)
        }
        let end: Int64, ours: FileIdentity
        do {
            end = try system.currentOffset(fd)
            ours = try system.fstat(fd).identity
        } catch {
            return left(at: -1, "cannot tell where they are: \(error.message)")
        }
        let start = end - Int64(written)
        do {
            let now = try system.stat(target.path).identity
            guard now.device == ours.device, now.inode == ours.inode else {
                return left(at: start, "the file was replaced meanwhile")
            }
        } catch {
            return left(at: start, error.message)
        }
        let expected = payload[0..<written]
        do {
            _ = try replace(target.path) { (old: [UInt8]) throws(AppendRepairRefusal) -> ReplacementContent? in
                guard Int64(old.count) >= end, old[Int(start)..<Int(end)].elementsEqual(expected) else {
                    throw AppendRepairRefusal()
                }
                return .pieces([0..<Int(start), Int(end)..<old.count])
            }
        } catch {
            switch error {
            case .fileSystem(let repairFailure): return left(at: start, repairFailure.description)
            case .transform: return left(at: start, "the file no longer holds them there")
            }
        }
        return failure
    }
}

/// The removal of a failed append's bytes found other bytes where they were written.
struct AppendRepairRefusal: Error {}

extension System {
    /// `writeAll` that keeps count in `written`, so that after a failure the caller knows how many
    /// bytes reached the file.
    func writeAll(_ fd: FileDescriptor, _ bytes: [UInt8], written: inout Int) throws(Errno) {
        while written < bytes.count {
            let from = written
            let result = bytes.withUnsafeBytes { raw in calls.write(fd, UnsafeRawBufferPointer(rebasing: raw[from...])) }
            switch result {
            case .success(let count) where count > 0: written += count
            case .success: throw .ioError
            case .failure(let error) where error == .interrupted: continue
            case .failure(let error): throw error
            }
        }
    }

    /// Where the descriptor's offset is (`lseek(fd, 0, SEEK_CUR)`), EINTR retried.
    func currentOffset(_ fd: FileDescriptor) throws(Errno) -> Int64 {
        while true {
            switch calls.currentOffset(fd) {
            case .success(let offset): return offset
            case .failure(let error) where error == .interrupted: continue
            case .failure(let error): throw error
            }
        }
    }
}
