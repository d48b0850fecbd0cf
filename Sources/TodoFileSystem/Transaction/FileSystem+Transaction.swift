import TodoTxt

/// How a `FileSystem.transact` behaves where writers differ (docs/files.md section 1, "One
/// transaction per write").
public struct TransactionOptions: Sendable, Hashable {
    /// A missing file counts as empty; an edit that leaves it non-empty creates it (mode
    /// `0666 & ~umask`, as `ReplaceOptions.createIfMissing` says). Without it, a missing file is
    /// `FileSystemError.notFound`.
    public var createIfMissing: Bool
    /// Refuse a file holding an unresolved conflict block (`<<<<<<<` … `>>>>>>>`, the rule of
    /// `ConflictMarkers`) with `TransactionError.conflictBlock`, before the edit runs, even when the
    /// edit would change nothing. The `todo` name and the live file refuse; the todo.sh name, a
    /// drop-in for a tool that knows no conflict blocks, does not.
    public var refusesConflictBlocks: Bool
    /// How long to wait for the writers' lock, and (in the replacement) for another process to
    /// close the file it has open for writing (`ReplaceOptions.writerWait`).
    public var lockTimeout: Duration
    /// The caller already holds the writers' lock of the file (several writes that must not
    /// interleave with another todo process, such as archive's done file, then its todo file).
    public var lockHeldByCaller: Bool

    /// Defaults: the file must exist, conflict blocks refused, the lock taken with a 5 s wait.
    public init(createIfMissing: Bool = false, refusesConflictBlocks: Bool = true, lockTimeout: Duration = .seconds(5),
                lockHeldByCaller: Bool = false) {
        self.createIfMissing = createIfMissing
        self.refusesConflictBlocks = refusesConflictBlocks
        self.lockTimeout = lockTimeout
        self.lockHeldByCaller = lockHeldByCaller
    }
}

/// Why a `FileSystem.transact` wrote nothing. In every case the file is as it was.
public enum TransactionError<EditError: Error>: Error, CustomStringConvertible {
    /// Locking, reading or writing failed, or the file holds a NUL byte (`FileSystemError.holdsNUL`:
    /// a todo file never holds one, so it is most likely a binary file given by mistake).
    case fileSystem(FileSystemError)
    /// The file holds an unresolved conflict block starting at this line (1-based); `path` as given.
    case conflictBlock(path: String, line: Int)
    /// The edit threw.
    case edit(EditError)

    /// One line: what, where and why.
    public var description: String {
        switch self {
        case .fileSystem(let error): error.description
        case .conflictBlock(let path, let line): LiveEditError.conflictMarkers(path: path, line: line).description
        case .edit(let error): "\(error)"
        }
    }
}

/// What a `FileSystem.transact` did.
public struct TransactionOutcome<Value> {
    /// What the edit returned, the last time it ran (on the content that was written, or found
    /// unchanged).
    public var value: Value
    /// Whether the file was written (false: the edit changed no byte, and the file was not touched).
    public var written: Bool
    /// What the user must hear about the write (`ReplaceNote`); empty when nothing was written.
    public var notes: [ReplaceNote]
}

extension TransactionOutcome: Sendable where Value: Sendable {}

extension FileSystem {
    /// The one way a todo file is changed: lock, read once under the lock, refuse a NUL byte and
    /// (with `refusesConflictBlocks`) a conflict block, edit, compare-and-swap, write only on
    /// change, notes.
    ///
    /// 1. The writers' `FileLock` of `path` is taken (waiting at most `options.lockTimeout`),
    ///    unless the caller holds it.
    /// 2. The file is read once, under the lock, by `replace` (its snapshot); the edit gets those
    ///    bytes as a `TodoDocument` and changes it in place. Addresses are resolved there, on the
    ///    file as it is now, not on an earlier read.
    /// 3. `replace` writes the rendered document only when it differs from the bytes read, after its
    ///    compare-and-swap check (the file's second and last read); when someone changed the file
    ///    meanwhile (an editor that does not lock), the edit runs again on the new content, so it must
    ///    depend only on the document it is given and must not print: return what to print instead.
    /// 4. After a write, temporary files a dead writer left beside the file are removed (the lock
    ///    makes any of ours a dead one's), and the lock is released.
    ///
    /// Throws `TransactionError`; in every case nothing was written. After the rename nothing
    /// throws: problems are `notes`.
    public func transact<Value, EditError: Error>(
        _ path: String,
        options: TransactionOptions = TransactionOptions(),
        edit: (inout TodoDocument) throws(EditError) -> Value
    ) throws(TransactionError<EditError>) -> TransactionOutcome<Value> {
        var value: Value?
        let outcome = try transact(path, options: options) { (bytes: [UInt8]) throws(EditError) -> ReplacementContent? in
            var document = TodoDocument(bytes: bytes)
            value = try edit(&document)
            return .bytes(document.rendered())
        }
        // `replace` always runs the edit before it returns (a failure before that throws).
        guard let value else { preconditionFailure("FileSystem.transact: the edit never ran") }
        return TransactionOutcome(value: value, written: outcome.written, notes: outcome.notes)
    }

    /// `transact` for an edit of the raw bytes that may describe its result as pieces of them
    /// (`ReplacementContent.pieces`: `todo sort`, archive), or return `nil` for "no change".
    public func transact<EditError: Error>(
        _ path: String,
        options: TransactionOptions = TransactionOptions(),
        content: ([UInt8]) throws(EditError) -> ReplacementContent?
    ) throws(TransactionError<EditError>) -> TransactionOutcome<Void> {
        if options.lockHeldByCaller { return try transactHoldingLock(path, options: options, content: content) }
        let lock: FileLock
        do { lock = try FileLock(for: path, timeout: options.lockTimeout, fileSystem: self) } catch { throw .fileSystem(error) }
        let result: Result<TransactionOutcome<Void>, TransactionError<EditError>>
        do { result = .success(try transactHoldingLock(path, options: options, content: content)) } catch { result = .failure(error) }
        lock.release()
        return try result.get()
    }

    /// Steps 2–4 of `transact`, under the lock.
    private func transactHoldingLock<EditError: Error>(
        _ path: String,
        options: TransactionOptions,
        content: ([UInt8]) throws(EditError) -> ReplacementContent?
    ) throws(TransactionError<EditError>) -> TransactionOutcome<Void> {
        // Before the read, so the edit sees them: lines a killed writer left in the old file it displaced.
        if let target = try? resolve(path) { recoverDisplacedFiles(target) }
        let replaceOptions = ReplaceOptions(createIfMissing: options.createIfMissing, refusesNULBytes: true,
                                            writerWait: options.lockTimeout)
        let outcome: ReplaceOutcome
        do throws(ReplaceError<TransactionError<EditError>>) {
            outcome = try replace(path, options: replaceOptions) { (old: [UInt8]) throws(TransactionError<EditError>) -> ReplacementContent? in
                if options.refusesConflictBlocks, let line = ConflictMarkers.firstBlockLine(in: old) {
                    throw .conflictBlock(path: path, line: line)
                }
                do throws(EditError) { return try content(old) } catch { throw .edit(error) }
            }
        } catch {
            switch error {
            case .fileSystem(let failure): throw .fileSystem(failure)
            case .transform(let refusal): throw refusal
            }
        }
        guard case .written(_, let notes) = outcome else { return TransactionOutcome(value: (), written: false, notes: []) }
        // Only after a write: a no-op run (cron's `todo sort` of a sorted file) costs no directory listing.
        removeAbandonedTemporaryFiles(beside: path, now: Int64(ProcessContext.now()))
        return TransactionOutcome(value: (), written: true, notes: notes)
    }
}
