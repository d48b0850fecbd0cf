// Steps 4–6 of `FileSystem.replace` (FileSystem+Replace.swift), each a named step: fill the
// temporary file, settle it against the target (compare-and-swap, late appends before the rename),
// swap it in, and carry over what was appended to the old file around the rename.

extension FileSystem {
    /// Steps 4–6. Owns the temporary file: removes it on every exit except a successful rename.
    ///
    /// Write-back of the temporary file is started as it is written, and the compare-and-swap check
    /// runs before its `fsync`: the disk and the comparison work at the same time, so the `fsync` finds
    /// little left to do (measured in docs/notes/file-layer.md). A `stat` after the
    /// `fsync` closes the gap: the target must still have the identity (device, inode, size,
    /// modification time) the check saw, or the attempt starts over. On Linux 6.13 and later
    /// (multigrain timestamps) any write after that check's `stat` changes the modification time; on
    /// older kernels a same-size rewrite in place within one clock tick could go unseen, the same
    /// kind of window as the few calls between any check and a rename.
    func writeAndSwap(
        _ target: ResolvedPath, old: Snapshot, new: ReplacementContent,
        earlyCheck: BackgroundJob<Result<CheckResult, FileSystemError>>?, refusingNUL: Bool, writerWait: Duration
    ) throws(FileSystemError) -> AttemptResult {
        let (createdPath, temporary) = try createTemporaryFile(beside: target, existing: old.status != nil)
        // Where the temporary file is now: renamed to its displaced name just before the swap.
        var temporaryPath = createdPath
        var renamed = false
        defer {
            system.closeQuietly(temporary)
            if !renamed { _ = try? system.unlink(temporaryPath) }
        }

        var writer = TemporaryFileWriter(system: system, descriptor: temporary)
        try fillTemporaryFile(&writer, target, old: old, new: new)
        guard let settled = try settle(&writer, target, old: old, earlyCheck: earlyCheck, refusingNUL: refusingNUL,
                                       writerWait: writerWait) else { return .conflict }
        var notes: [ReplaceNote] = []
        if !settled.copiedLate.isEmpty { notes.append(.lateAppend(byteCount: settled.copiedLate.count, afterRename: false)) }

        // Named before the swap, so that the old file is never under a name that does not say how
        // much of it the new file holds (FileSystem+DisplacedFiles.swift).
        if let status = old.status {
            let accounted = Int64(old.bytes.count) + Int64(settled.copiedLate.count)
            temporaryPath = nameForSwap(temporaryPath, target, accounted: accounted, old: status.identity)
        }
        let displaced: String?
        switch try swapIntoPlace(temporaryPath, target, old: old, renamed: &renamed) {
        case .conflict: return .conflict
        case .inPlace(let displacedOldFile): displaced = displacedOldFile ? temporaryPath : nil
        }
        notes += carryOverAfterRename(&writer, target, old: old, settled: settled, writerWait: writerWait)
        // Only now, with what was appended to it copied into the new file and synced: until here a
        // kill leaves the old file for the next writer to recover (FileSystem+DisplacedFiles.swift).
        if let displaced { _ = try? system.unlink(displaced) }
        do { try syncDirectory(target.directory) } catch { notes.append(.notDurable(error)) }
        return .written(notes)
    }

    /// Step 4: the new content into the temporary file (write-back started), then the target's
    /// owner, mode and extended attributes.
    private func fillTemporaryFile(
        _ writer: inout TemporaryFileWriter, _ target: ResolvedPath, old: Snapshot, new: ReplacementContent
    ) throws(FileSystemError) {
        do {
            try writer.append(new, old: old.bytes)
            try writer.startWriteback()
        } catch {
            throw .failed(.write, path: target.path, error)
        }
        guard let status = old.status else { return }
        let temporary = writer.descriptor
        // Owner before mode: chown clears set-id bits, chmod restores them.
        do { try system.fchown(temporary, owner: status.owner, group: status.group) } catch where error == .notPermitted {
            // Not root and not the owner: the file becomes ours, as with any editor's save.
        } catch {
            throw .failed(.setPermissions, path: target.path, error)
        }
        do { try system.fchmod(temporary, status.permissions) } catch {
            throw .failed(.setPermissions, path: target.path, error)
        }
        // After the mode: chmod would rewrite a copied ACL's mask (FileSystem+Attributes.swift).
        if let source = old.descriptor { try copyExtendedAttributes(from: source, to: temporary, path: target.path) }
    }

    /// What `settle` found: the late appends already copied into the temporary file, and whether an
    /// appender had to be waited for (which calls for a second look after the rename).
    struct Settled {
        var copiedLate: [UInt8]
        var waitedForWriters: Bool
    }

    /// Step 5: waits for appenders to close, runs (or joins) the compare-and-swap check, copies the
    /// late appends it saw, syncs the temporary file, and checks the target's identity once more.
    /// `nil`: the target changed in a way that needs the edit re-applied (a conflict).
    private func settle(
        _ writer: inout TemporaryFileWriter, _ target: ResolvedPath, old: Snapshot,
        earlyCheck: BackgroundJob<Result<CheckResult, FileSystemError>>?, refusingNUL: Bool, writerWait: Duration
    ) throws(FileSystemError) -> Settled? {
        // An appender that has the file open must finish first: what it writes after the rename would
        // go to the old inode. Once it has closed, its lines are late appends like any other, so the
        // comparison runs again, inline (the early one may predate them).
        var waitedForWriters = false
        if let fd = old.descriptor {
            do {
                waitedForWriters = try waitForOtherWriters(fd, timeout: writerWait)
            } catch {
                earlyCheck?.cancel()
                _ = earlyCheck?.join()
                throw .openForWriting(path: target.path, waited: writerWait)
            }
        }
        let firstCheck: CheckResult
        if let earlyCheck, !waitedForWriters {
            firstCheck = try earlyCheck.join().get()
        } else {
            if let earlyCheck {
                earlyCheck.cancel()
                _ = earlyCheck.join()
            }
            firstCheck = try compareAndSwapCheck(target, old: old, refusingNUL: refusingNUL)
        }
        guard case .current(let checkedIdentity, let late) = firstCheck else { return nil }
        var copiedLate: [UInt8] = []
        try copyLate(late, after: &copiedLate, into: &writer, path: target.path)
        do { try system.fsync(writer.descriptor) } catch { throw .failed(.sync, path: target.path, error) }
        if try currentIdentity(target) != checkedIdentity {
            // Something happened during the write or the fsync. Lines appended with `>>` are carried
            // over after a second, inline comparison (anything else starts the attempt over); a
            // steady appender cannot keep the file from ever being written this way. What lands after
            // this point is the post-rename copy's business, as in the original recipe.
            guard case .current(_, let lateNow) = try compareAndSwapCheck(target, old: old, refusingNUL: refusingNUL),
                  lateNow.starts(with: copiedLate) else { return nil }
            try copyLate(lateNow, after: &copiedLate, into: &writer, path: target.path)
            do { try system.fsync(writer.descriptor) } catch { throw .failed(.sync, path: target.path, error) }
        }
        return Settled(copiedLate: copiedLate, waitedForWriters: waitedForWriters)
    }

    /// Whether the temporary file took the target's place.
    enum PlacementResult {
        /// It is the target now (`renamed` was set). `displacedOldFile`: the swap left the old file
        /// under the temporary name, for the caller to remove once its late appends are copied.
        case inPlace(displacedOldFile: Bool)
        /// Another file came in the way (created meanwhile, or an editor's save in the last
        /// instant): the attempt starts over on it; the temporary file is still ours to remove.
        case conflict
    }

    /// Step 6's rename: swaps the temporary file in (or, for a new file, renames it without
    /// replacing one created meanwhile). Sets `renamed` once the temporary name no longer holds our
    /// file, so the caller's cleanup leaves it alone.
    private func swapIntoPlace(
        _ temporaryPath: String, _ target: ResolvedPath, old: Snapshot, renamed: inout Bool
    ) throws(FileSystemError) -> PlacementResult {
        let swap: SwapOutcome
        do {
            if let status = old.status {
                swap = try swapIn(temporaryPath, target.path, expected: status.identity)
            } else {
                // Creating: someone else may create the file at this very moment (a sync client).
                guard try renameCreating(temporaryPath, target.path) else { return .conflict }
                swap = .renamed
            }
        } catch {
            throw .renameFailed(from: temporaryPath, to: target.path, error)
        }
        switch swap {
        case .renamed, .swapped:
            break
        case .undone:
            // An editor saved in the instant before: its file is back in place, ours is the
            // temporary file again (removed by the caller), and the edit starts over on it.
            return .conflict
        case .undoFailed(let error):
            renamed = true
            throw .renameFailed(from: temporaryPath, to: target.path, error)
        }
        renamed = true
        // The swap left the old file under the temporary (displaced) name; the caller keeps it there
        // until its late appends are carried over.
        if case .swapped = swap { return .inPlace(displacedOldFile: true) }
        return .inPlace(displacedOldFile: false)
    }

    /// Step 6 after the rename: notes a detached hard link, waits for a writer that opened the old
    /// file in the instant before, and copies what was appended to the old file into the new one,
    /// with a second look when an appender is at work. Never throws; problems become notes.
    private func carryOverAfterRename(
        _ writer: inout TemporaryFileWriter, _ target: ResolvedPath, old: Snapshot, settled: Settled, writerWait: Duration
    ) -> [ReplaceNote] {
        guard let fd = old.descriptor, let status = old.status else { return [] }
        var notes: [ReplaceNote] = []
        // How much of the old file the new one already reflects.
        let accounted = Int64(old.bytes.count) + Int64(settled.copiedLate.count)
        if status.linkCount > 1 { notes.append(.hardLinksDetached(linkCount: status.linkCount)) }
        // One that opened the old file in the instant before the rename writes there: wait for
        // it to close, then its bytes are copied below.
        var waitedAfterRename = false
        do {
            waitedAfterRename = try waitForOtherWriters(fd, timeout: writerWait)
        } catch {
            notes.append(.stillOpenForWriting(waited: writerWait))
        }
        var copied = copyLateAppends(from: fd, accounted: accounted, continuing: !settled.copiedLate.isEmpty,
                                     into: &writer, path: target.path)
        notes += copied.notes
        // A second look when an appender is at work: one whose `open` found the old file just
        // before the rename, and was preempted before it counted as a writer, shows up only
        // now (a Python appender lost lines so on a loaded machine; docs/files.md section 1 states
        // the window that remains).
        if !settled.copiedLate.isEmpty || settled.waitedForWriters || waitedAfterRename || copied.count > 0 {
            system.sleep(Self.secondLookDelay)
            do {
                _ = try waitForOtherWriters(fd, timeout: writerWait)
            } catch {
                notes.append(.stillOpenForWriting(waited: writerWait))
            }
            copied = copyLateAppends(from: fd, accounted: accounted + Int64(copied.count),
                                     continuing: !settled.copiedLate.isEmpty || copied.count > 0, into: &writer, path: target.path)
            notes += copied.notes
        }
        return notes
    }

    /// Whether the file of `fd` was open for writing by another process, waiting (polling every
    /// 2 ms) until it is not. Throws `Errno.wouldBlock` when it is still open after `timeout`; where
    /// this cannot be told (no lease, no `/proc`), nobody is waited for.
    func waitForOtherWriters(_ fd: FileDescriptor, timeout: Duration) throws(Errno) -> Bool {
        guard (try? system.othersWriting(fd)) == true else { return false }
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < timeout {
            system.sleep(.milliseconds(2))
            if (try? system.othersWriting(fd)) != true { return true }
        }
        throw .wouldBlock
    }
}
