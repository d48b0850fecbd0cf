import TodoFileSystem
import TodoTxt

/// The CLI's only door to the file layer: maps file-system errors to `CLIError` lines that name the
/// file and the problem.
///
/// Every rewrite goes through the file layer's one transaction (`FileSystem.transact`: the writers'
/// lock, one read under it, NUL bytes and conflict blocks refused, compare-and-swap, nothing written
/// when nothing changed), by `transact` (an edit of the document), `transactBytes`, or the older
/// byte-level doors `update`, `updateHoldingLock` and `resort` that forward to
/// it; appends go through `appendLines` or `appendDurably`. Every read and write
/// goes through `fileSystem`, which the command is given (`TodoCommand.run`): the real one, or one
/// whose system calls fail on purpose, so that in-process tests can fail the Nth write of a command.
struct FileAccess: Sendable {
    let fileSystem: FileSystem

    init(fileSystem: FileSystem) { self.fileSystem = fileSystem }

    /// How long a command waits for the file's writers' lock before giving up (docs/files.md §2:
    /// never wait forever). `TODO_LOCK_TIMEOUT` (seconds) overrides it.
    static func lockTimeout(_ environment: [String: String]) -> Duration {
        guard let text = environment["TODO_LOCK_TIMEOUT"], !text.isEmpty else { return .seconds(5) }
        return parseLockTimeout(text) ?? .seconds(5)
    }

    /// `TODO_LOCK_TIMEOUT` as a duration: a finite, non-negative number of seconds (at most a day:
    /// a longer wait is a hung cron job, not a timeout); nil for anything else.
    static func parseLockTimeout(_ text: String) -> Duration? {
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0, seconds <= 86_400 else { return nil }
        return .milliseconds(Int(seconds * 1000))
    }

    /// The directory part of `path` (`.` for a bare name).
    static func directoryName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// Reads the whole file.
    func read(_ path: String) throws(CLIError) -> [UInt8] {
        do {
            return try fileSystem.read(path).bytes
        } catch {
            throw .failure(error.description)
        }
    }

    /// The file's document, or nil when it does not exist or cannot be read: where that is no error
    /// (the done file a new uid is checked against, the file a shell completion reads).
    func documentIfReadable(_ path: String) -> TodoDocument? {
        (try? readIfExists(path))?.map { TodoDocument(bytes: $0) }
    }

    /// Reads the whole file, or nil when it does not exist. A symlink whose target is missing (an
    /// unmounted disk, a moved sync folder) is a failure, not an empty file: listing it as "no
    /// tasks" would hide the problem.
    func readIfExists(_ path: String) throws(CLIError) -> [UInt8]? {
        do {
            return try fileSystem.read(path).bytes
        } catch .notFound {
            if fileSystem.kind(of: path, followingLinks: false) == .symbolicLink {
                throw .failure("\(path): no such file (a symbolic link whose target is missing)")
            }
            return nil
        } catch {
            throw .failure(error.description)
        }
    }

    /// Feeds the file to `scan` in pieces of whole lines (`FileSystem.readInPieces`), never holding
    /// it whole. A missing file is empty; a symbolic link whose target is missing is a failure, as
    /// in `readIfExists`.
    func scanInPieces(_ path: String, into scan: inout AppendScan) throws(CLIError) {
        let status: FileStatus?
        do {
            status = try fileSystem.readInPieces(path, endingAt: 0x0A) { scan.consume($0) }
        } catch {
            throw .failure(error.description)
        }
        if status == nil, fileSystem.kind(of: path, followingLinks: false) == .symbolicLink {
            throw .failure("\(path): no such file (a symbolic link whose target is missing)")
        }
    }

    /// Replaces the file's content with `transform(old)`, safely (docs/files.md §1) and under the writers'
    /// lock; `transform` returns nil (or the same bytes) for "no change", and then nothing is written.
    ///
    /// `transform` may run more than once (when another writer changed the file meanwhile, the edit is
    /// re-applied on top of the new content), so it must not print: collect messages and print after
    /// `update` returns. With `createIfMissing`, a missing file counts as empty and is created.
    /// Returns whether the file was written.
    @discardableResult
    func update(_ path: String, createIfMissing: Bool = false, lockTimeout: Duration = .seconds(5),
                       warn: (String) -> Void,
                       _ transform: ([UInt8]) throws(CLIError) -> [UInt8]?) throws(CLIError) -> Bool {
        try transactBytes(path, createIfMissing: createIfMissing, refusesConflictBlocks: false, lockTimeout: lockTimeout,
                          warn: warn) { (old: [UInt8]) throws(CLIError) -> ReplacementContent? in
            try transform(old).map { .bytes($0) }
        }
    }

    /// `update` for a caller that already holds the lock of `path` (see `withLock`).
    @discardableResult
    func updateHoldingLock(_ path: String, createIfMissing: Bool = false, writerWait: Duration = .seconds(5),
                                  warn: (String) -> Void,
                                  _ transform: ([UInt8]) throws(CLIError) -> [UInt8]?) throws(CLIError) -> Bool {
        try transactBytes(path, createIfMissing: createIfMissing, refusesConflictBlocks: false, lockTimeout: writerWait,
                          lockHeldByCaller: true, warn: warn) { (old: [UInt8]) throws(CLIError) -> ReplacementContent? in
            try transform(old).map { .bytes($0) }
        }
    }

    /// What the user must hear about a replacement that happened: never silent about a name that
    /// still shows the old content or bytes that could not be carried over (docs/todo-command.md,
    /// "Hard links"). A late append that was carried over needs no word.
    static func message(for note: ReplaceNote, path: String) -> String? {
        switch note {
        case .lateAppend:
            return nil
        case .hardLinksDetached(let count):
            return "\(path): the file had \(count) hard links; it was written as a new file, so its other names still show the old content"
        case .lateAppendLost(let count, let error):
            return "\(path): \(count) bytes another program appended during this write could not be carried over (\(error)); they are only in the old file's copy"
        case .stillOpenForWriting(let waited):
            return "\(path): another program still had the old file open for writing after \(waited.components.seconds) s; what it writes from now on is not in the new file"
        case .notDurable(let error):
            return "\(path): written, but not yet safe from a crash (\(error))"
        }
    }

    /// Runs `body` holding the writers' lock of `path`, waiting at most `timeout` for it. Several
    /// steps that must not interleave with another writer (archive: append to done, then
    /// replace todo) run inside one `withLock`.
    static func withLock<T>(_ path: String, timeout: Duration = .seconds(5),
                            _ body: () throws(CLIError) -> T) throws(CLIError) -> T {
        let lock: FileLock
        do {
            lock = try FileLock(for: path, timeout: timeout)
        } catch {
            throw .failure(error.description)
        }
        let result: Result<T, CLIError>
        do {
            result = .success(try body())
        } catch {
            result = .failure(error)
        }
        lock.release()
        return try result.get()
    }

    /// `update` for the re-sorting commands (`todo sort`, `todo watch`): the transform may describe
    /// the new content as pieces of the old (`ReplacementContent.pieces`), which writes a reordering
    /// without building it, and a file holding a NUL byte (most likely a binary file given by mistake)
    /// or a conflict block is refused by the transaction, even when it is already sorted.
    @discardableResult
    func resort(_ path: String, lockTimeout: Duration = .seconds(5), warn: (String) -> Void,
                       content: ([UInt8]) throws(CLIError) -> ReplacementContent?) throws(CLIError) -> Bool {
        try transactBytes(path, lockTimeout: lockTimeout, warn: warn, content)
    }

    /// Changes the file's document with `edit` in one transaction of the file layer
    /// (`FileSystem.transact`: the writers' lock, one read under it, a NUL byte and, with
    /// `refusesConflictBlocks`, a conflict block refused, compare-and-swap, a write only on change).
    /// `edit` may run more than once, so it must not print: it returns what to print, and this
    /// returns that with whether the file was written. Warnings about the write go to `warn`.
    func transact<Value>(_ path: String, createIfMissing: Bool = false, refusesConflictBlocks: Bool = true,
                         lockTimeout: Duration, warn: (String) -> Void,
                         _ edit: (inout TodoDocument) throws(CLIError) -> Value) throws(CLIError) -> (value: Value, written: Bool) {
        let options = TransactionOptions(createIfMissing: createIfMissing, refusesConflictBlocks: refusesConflictBlocks,
                                         lockTimeout: lockTimeout)
        let outcome = try Self.report(fileSystem.transact(path, options: options, edit: edit), path: path, warn: warn)
        return (outcome.value, outcome.written)
    }

    /// `transact` on the raw bytes, for edits that never need the lines parsed or that describe
    /// their result as pieces of the old content (`todo sort`, archive). `lockHeldByCaller`: the
    /// caller holds the writers' lock (`withLock`), and `lockTimeout` is only the wait for appenders.
    @discardableResult
    func transactBytes(_ path: String, createIfMissing: Bool = false, refusesConflictBlocks: Bool = true,
                       lockTimeout: Duration, lockHeldByCaller: Bool = false, warn: (String) -> Void,
                       _ content: ([UInt8]) throws(CLIError) -> ReplacementContent?) throws(CLIError) -> Bool {
        let options = TransactionOptions(createIfMissing: createIfMissing, refusesConflictBlocks: refusesConflictBlocks,
                                         lockTimeout: lockTimeout, lockHeldByCaller: lockHeldByCaller)
        return try Self.report(fileSystem.transact(path, options: options, content: content), path: path, warn: warn).written
    }

    /// A transaction's result as the CLI words it: its notes as warnings (`message(for:path:)`),
    /// its failures as `CLIError` lines naming the file.
    static func report<Value>(_ run: @autoclosure () throws(TransactionError<CLIError>) -> TransactionOutcome<Value>,
                              path: String, warn: (String) -> Void) throws(CLIError) -> TransactionOutcome<Value> {
        let outcome: TransactionOutcome<Value>
        do {
            outcome = try run()
        } catch {
            switch error {
            case .fileSystem(let failure): throw .failure(failure.description)
            case .conflictBlock(let path, let line): throw .failure(TodoFileEdit.conflictMessage(path: path, line: line))
            case .edit(let failure): throw failure
            }
        }
        for note in outcome.notes { if let message = message(for: note, path: path) { warn(message) } }
        return outcome
    }

    /// Appends `bytes` to `path` with `O_APPEND` and syncs them (`FileSystem.appendDurably`), the
    /// file created when missing; the caller holds the writers' lock and has ended the last line.
    /// What an append made by replacement has to tell (docs/files.md section 5) goes to `warn`.
    func appendDurably(_ path: String, _ bytes: [UInt8], warn: (String) -> Void) throws(CLIError) {
        let result: AppendResult
        do throws(FileSystemError) {
            result = try fileSystem.appendDurably(path, bytes, options: AppendOptions(startOnNewLine: false, createIfMissing: true))
        } catch {
            throw .failure(error.description)
        }
        Self.tell(result, path: path, warn: warn)
    }

    /// The notes of an append (`AppendResult`): those of a replacement, and a new file whose name
    /// could not be synced; never silent about a write that is not yet safe from a crash.
    static func tell(_ result: AppendResult, path: String, warn: (String) -> Void) {
        for note in result.notes { if let message = message(for: note, path: path) { warn(message) } }
        if let failure = result.directorySyncFailure, let message = message(for: .notDurable(failure), path: path) {
            warn(message)
        }
    }

    /// The failure for a file holding a NUL byte, as the file layer words it for a replacement.
    static func refuseNULBytes(_ bytes: [UInt8], path: String) throws(CLIError) {
        if let offset = FileSystem.firstNUL(in: bytes) {
            throw .failure(FileSystemError.holdsNUL(path: path, line: FileSystem.lineNumber(ofOffset: offset, in: bytes)).description)
        }
    }

    /// The bytes that append `lines` to a file holding `existing` (`AppendScan.bytesAppending`).
    static func bytesAppending(_ lines: [ArraySlice<UInt8>], after existing: [UInt8],
                               terminatorOfNewFile: LineTerminator = .lf) -> [UInt8] {
        AppendScan(wholeFile: existing).bytesAppending(lines, newFile: terminatorOfNewFile)
    }

    /// Appends the lines `makeLines` returns for the file's current bytes (read under the writers'
    /// lock, a missing file counting as empty and then created) and fsyncs them before returning:
    /// an append, never a rewrite, so a concurrent appender or editor loses nothing.
    ///
    /// Each line ends with the file's dominant terminator (CRLF when every line has one); a last
    /// line without a terminator first gets one. A line ending in CR gets CR LF, so the CR stays its
    /// content. Returns the 1-based number of the first appended line.
    func appendLines(_ path: String, lockTimeout: Duration, warn: (String) -> Void,
                            _ makeLines: ([UInt8]) throws(CLIError) -> [[UInt8]]) throws(CLIError) -> Int {
        try Self.withLock(path, timeout: lockTimeout) { () throws(CLIError) -> Int in
            let existing = try readIfExists(path) ?? []
            try Self.refuseNULBytes(existing, path: path)
            let lines = try makeLines(existing)
            let scan = AppendScan(wholeFile: existing)
            guard !lines.isEmpty else { return scan.lineCount + 1 }
            let bytes = scan.bytesAppending(lines.map { $0[...] })
            try appendDurably(path, bytes, warn: warn)
            return scan.lineCount + 1
        }
    }

}
