import Dispatch
import TodoTxt

/// A todo file kept open by an interactive program (`todo ui`, `todo watch`, an app): the current
/// document, a callback with every new version the file takes on disk, and edits written at once,
/// each as a compare-and-swap against the file's bytes at that moment (docs/files.md section 1).
///
/// The program never holds a copy of the file that it writes back: every edit reads the file as it
/// is now, finds its task again by identity (`TaskIdentity`: uid, else the same bytes), changes that
/// one line and writes. A change another program made meanwhile, to any other line, is kept; a task
/// that vanished meanwhile is an error (`LiveEditError.taskGone`), never an edit of another task.
///
/// ```swift
/// // A SwiftUI-style model: the view shows `document`, buttons call `complete(_:)`.
/// @MainActor final class TasksModel: ObservableObject {
///     @Published var document = TodoDocument()
///     @Published var problem: String?
///     private let file: LiveTodoFile
///
///     init(path: String) throws {
///         file = try LiveTodoFile(path: path)
///         document = file.document
///         try file.start { [weak self] document in
///             Task { @MainActor in self?.document = document }
///         }
///     }
///
///     // Or, from a view's `.task { await model.follow() }`, the file now and then every change:
///     func follow() async {
///         guard let events = try? file.updates() else { return }
///         for await event in events {
///             if case .changed(let new) = event { document = new }
///         }
///     }
///
///     func complete(_ index: Int, today: TodoDate) {
///         do {
///             document = try file.edit(TaskIdentity(index: index, in: document)) { item in
///                 item.completed(on: today)
///             }
///         } catch {
///             problem = error.description   // the file is as it was; show why
///         }
///     }
/// }
/// ```
///
/// Thread-safe: `document` may be read from any thread, edits may come from any thread (they are
/// serialised by the writers' lock), and the watching callbacks run on the watcher's queue.
///
/// Every write is `todo`'s safe replacement with a writer's guarantees (docs/files.md): under the
/// writers' lock, refusing a file that holds NUL bytes or unresolved conflict markers, carrying over
/// what appenders write meanwhile, and writing nothing when the change leaves the bytes as they are.
public final class LiveTodoFile: Sendable {
    /// The file, as given.
    public let path: String
    let fileSystem: FileSystem
    let lockTimeout: Duration
    private let noteSink: @Sendable (ReplaceNote) -> Void
    let current: LockedValue<Version>
    let watcher: FileWatcher
    /// Who hears the watching: the `start` callback and every `events()`/`updates()` sequence
    /// (LiveTodoFile+Listeners.swift).
    let listeners = LockedValue(Listeners())

    /// What this object last saw of the file.
    struct Version {
        var document: TodoDocument
        /// The file did not exist (its document is then empty).
        var isMissing: Bool
    }

    /// Opens `path` (a file that does not exist yet reads as empty; it is created by the first edit).
    ///
    /// - Parameters:
    ///   - path: the todo file; a symlink is followed, and stays a symlink when the file is written.
    ///   - fileSystem: the file layer to read and write through (`FileSystem()`: the real one).
    ///   - lockTimeout: how long an edit waits for the writers' lock (`FileLock`) before it fails.
    ///   - settle: how quiet the file must be before a change is read (see `FileWatcher`).
    ///   - backend: how changes are noticed (`FileWatcherBackend`: notifications, or polling).
    ///   - queue: where the watching callbacks run (default: a queue of the watcher's own).
    ///   - notes: what a write had to tell (late appends carried over, hard links detached, a
    ///     write not yet durable); the write itself succeeded.
    public init(path: String, fileSystem: FileSystem = FileSystem(), lockTimeout: Duration = .seconds(5),
                settle: Duration = FileWatcher.defaultSettle, backend: FileWatcherBackend = .automatic,
                queue: DispatchQueue? = nil,
                notes: @escaping @Sendable (ReplaceNote) -> Void = { _ in }) throws(FileSystemError) {
        self.path = path
        self.fileSystem = fileSystem
        self.lockTimeout = lockTimeout
        noteSink = notes
        let read = try LiveTodoFile.readIfExists(path, fileSystem)
        current = LockedValue(Version(document: read ?? TodoDocument(), isMissing: read == nil))
        watcher = FileWatcher(path: path, backend: backend, settle: settle, queue: queue)
    }

    /// The file as last read or written (empty while the file does not exist).
    public var document: TodoDocument { current.withLock { $0.document } }

    /// How the file is watched (nil before `start` and after the watching ended).
    public var watchStatus: FileWatcherStatus? { watcher.status }

    /// Starts watching: `onEvent` gets every new version of the file (not the ones this object
    /// wrote itself), its removal, a failed read, and the end of the watching. One such callback
    /// at a time (a second `start` throws); any number of `events()` and `updates()` sequences
    /// besides it share the same watching.
    ///
    /// Between `init` and `start` nothing is watched: a change made then is not an event. It is
    /// not lost either: the next event compares against what `init` read, and `updates()` starts
    /// with the file as it is when the sequence is made.
    ///
    /// - Parameters:
    ///   - onSibling: the name of each other file that appears in the directory (to spot a
    ///     sync client's conflict copy); see `FileWatcher.start`. Only the first watching's is used.
    ///   - onEvent: each `LiveFileEvent`, on the watcher's queue, one at a time.
    public func start(onSibling: (@Sendable (String) -> Void)? = nil,
                      onEvent: @escaping @Sendable (LiveFileEvent) -> Void) throws(FileWatcherError) {
        try setCallback(onEvent)
        do throws(FileWatcherError) { try ensureWatching(onSibling: onSibling) } catch {
            clearCallback()
            throw error
        }
    }

    /// What the watcher's `event` means for this file: nil when nothing new is to be told.
    func liveEvent(for event: FileWatchEvent) -> LiveFileEvent? {
        switch event {
        case .changed, .removed:
            do throws(FileSystemError) {
                return try news(LiveTodoFile.readIfExists(path, fileSystem))
            } catch {
                return .unreadable(error)
            }
        case .relocated:
            return .relocated(to: watcher.status?.path ?? path)
        case .directoryGone:
            return .directoryGone
        case .error(let message):
            return .watchFailed(message)
        }
    }

    /// Starts watching, for a program that only shows the file: `onChange` gets every new version
    /// (an empty document when the file is removed), `onProblem` a failed read or the end of the
    /// watching, worded for the user (the last document stays).
    public func start(onProblem: @escaping @Sendable (String) -> Void = { _ in },
                      onChange: @escaping @Sendable (TodoDocument) -> Void) throws(FileWatcherError) {
        let path = path
        try start { event in
            switch event {
            case .changed(let document): onChange(document)
            case .removed: onChange(TodoDocument())
            case .relocated: break
            case .unreadable(let error): onProblem(error.description)
            case .directoryGone: onProblem("\(path): its directory is gone; changes are no longer seen")
            case .watchFailed(let message): onProblem(message)
            }
        }
    }

    /// What the file read as `fresh` (nil: missing) means next to the last version seen, which it
    /// becomes: nil when nothing changed.
    func news(_ fresh: TodoDocument?) -> LiveFileEvent? {
        current.withLock { seen -> LiveFileEvent? in
            guard let fresh else {
                if seen.isMissing { return nil }
                seen = Version(document: TodoDocument(), isMissing: true)
                return .removed
            }
            if !seen.isMissing && FileSystem.sameBytes(seen.document.rendered()[...], fresh.rendered()[...]) { return nil }
            seen = Version(document: fresh, isMissing: false)
            return .changed(fresh)
        }
    }

    /// Stops watching: the `start` callback is dropped and every sequence ends. Idempotent.
    public func stop() { stopWatching() }

    /// Re-reads the file now (after a resume from suspension, say); returns the document.
    @discardableResult
    public func reload() throws(FileSystemError) -> TodoDocument {
        let fresh = try LiveTodoFile.readIfExists(path, fileSystem)
        let version = Version(document: fresh ?? TodoDocument(), isMissing: fresh == nil)
        current.withLock { $0 = version }
        return version.document
    }

    /// Changes the task `task` (as the caller saw it) with `change`, which gets the task as it is
    /// in the file now and returns its new line (nil: leave it as it is). Returns the document as
    /// written.
    ///
    /// `change` may throw any error, so a closure needs no annotation
    /// (`try file.edit(task) { item in try item.replacingDescription(with: text) }`): a
    /// `TaskEditError` is `LiveEditError.edit`, any other error `LiveEditError.refused`.
    @discardableResult
    public func edit<Failure: Error>(_ task: TaskIdentity,
                                     _ change: (TodoItem) throws(Failure) -> [UInt8]?) throws(LiveEditError) -> TodoDocument {
        try update { (document: inout TodoDocument) throws(LiveEditError) in
            let index = try locate(task, in: document)
            let new: [UInt8]?
            do throws(Failure) { new = try change(document.item(at: index)) } catch { throw LiveEditError(editFailure: error) }
            if let new { document.replaceContent(at: index, with: new) }
        }
    }

    /// Removes the task `task` (its line; the others keep their order).
    @discardableResult
    public func delete(_ task: TaskIdentity) throws(LiveEditError) -> TodoDocument {
        try update { (document: inout TodoDocument) throws(LiveEditError) in
            document.removeLine(at: try locate(task, in: document))
        }
    }

    /// Where `task` is in `document` (a version of this file), or `LiveEditError.taskGone`: for
    /// changes written with `update`.
    public func locate(_ task: TaskIdentity, in document: TodoDocument) throws(LiveEditError) -> Int {
        guard let index = task.locate(in: document) else { throw .taskGone(path: path, task: task) }
        return index
    }

    /// Appends `line` as a new task at the end of the file.
    @discardableResult
    public func append(_ line: [UInt8]) throws(LiveEditError) -> TodoDocument {
        try update { (document: inout TodoDocument) throws(LiveEditError) in _ = document.appendLine(line) }
    }

    /// Any change of the whole document (`todo sort`'s, say), applied to the file as it is now.
    /// A change that leaves the bytes as they are writes nothing.
    @discardableResult
    public func update(_ change: (inout TodoDocument) throws(LiveEditError) -> Void) throws(LiveEditError) -> TodoDocument {
        try transact(lockHeldByCaller: false) { (document: inout TodoDocument) throws(LiveEditError) in try change(&document) }.document
    }

    /// `update` returning what `change` returned (its last run: the one written), for a caller that
    /// may already hold the writers' lock of the file (`TodoStore`'s cancellable lock wait).
    package func transact<Value>(lockHeldByCaller: Bool,
                                 _ change: (inout TodoDocument) throws(LiveEditError) -> Value) throws(LiveEditError) -> (document: TodoDocument, value: Value) {
        // The file layer's one transaction (FileSystem+Transaction.swift): lock, one read under it,
        // NUL bytes and conflict blocks refused, compare-and-swap, a write only on change.
        let options = TransactionOptions(createIfMissing: true, refusesConflictBlocks: true, lockTimeout: lockTimeout,
                                         lockHeldByCaller: lockHeldByCaller)
        let written: (document: TodoDocument, value: Value)
        let before = current.withLock { $0 }
        do {
            let outcome = try fileSystem.transact(path, options: options) {
                (document: inout TodoDocument) throws(LiveEditError) -> (document: TodoDocument, value: Value) in
                let value = try change(&document)
                // Seen before the rename, not after: the watcher may read the new file before this
                // call returns, and must know it for this object's own write.
                let version = Version(document: document, isMissing: false)
                current.withLock { $0 = version }
                return (document, value)
            }
            outcome.notes.forEach(noteSink)
            written = outcome.value
        } catch {
            current.withLock { $0 = before }
            switch error {
            case .fileSystem(let problem): throw .file(problem)
            case .conflictBlock(let path, let line): throw .conflictMarkers(path: path, line: line)
            case .edit(let problem): throw problem
            }
        }
        let version = Version(document: written.document, isMissing: !fileSystem.exists(path))
        current.withLock { $0 = version }
        return written
    }

    /// The file's document, or nil when it does not exist.
    static func readIfExists(_ path: String, _ fileSystem: FileSystem) throws(FileSystemError) -> TodoDocument? {
        do {
            return TodoDocument(bytes: try fileSystem.read(path).bytes)
        } catch .notFound {
            return nil
        }
    }
}

/// What watching a `LiveTodoFile` reports.
public enum LiveFileEvent: Sendable {
    /// The file holds a new version (not one this object wrote): now its `document`.
    case changed(TodoDocument)
    /// The file was removed or renamed away; `document` is empty until it comes back (`changed`).
    case removed
    /// The path leads to another file now (a symlink re-pointed, the directory replaced by another
    /// of the same name), at this real path; watching goes on there. What the file holds there
    /// follows as `changed` (when its bytes differ) or `removed`.
    case relocated(to: String)
    /// A new version could not be read; `document` keeps the last one.
    case unreadable(FileSystemError)
    /// The file's directory was removed, renamed or unmounted: the watching has ended.
    case directoryGone
    /// The watcher failed (this message says why): the watching has ended.
    case watchFailed(String)
}

/// Why a live edit was not made. In every case the file is as it was.
public enum LiveEditError: Error, Sendable, CustomStringConvertible {
    /// The task is no longer in the file (deleted, or changed by someone else beyond recognition).
    case taskGone(path: String, task: TaskIdentity)
    /// The file holds an unresolved conflict block (`<<<<<<<`), starting at this line (1-based).
    case conflictMarkers(path: String, line: Int)
    /// The change needs the file exactly as it was when the change was planned (an undo of a
    /// reordering), and it has changed since.
    case changedMeanwhile(path: String)
    /// The edit itself was refused (`TaskEditError`).
    case edit(TaskEditError)
    /// An edit closure threw an error of its own (not a `TaskEditError`): its description.
    case refused(String)
    /// Reading, locking or writing failed.
    case file(FileSystemError)

    public var description: String {
        switch self {
        case .taskGone(let path, let task):
            let text = String(decoding: task.content, as: UTF8.self)
            return "\(path): the task is gone (changed or deleted elsewhere): \(text)"
        case .conflictMarkers(let path, let line):
            return "\(path): line \(line): unresolved merge conflict (<<<<<<< … >>>>>>>); resolve it, then run again"
        case .changedMeanwhile(let path):
            return "\(path): changed elsewhere meanwhile, so this change no longer applies; nothing written"
        case .edit(let problem): return problem.description
        case .refused(let reason): return "\(reason)"
        case .file(let problem): return problem.description
        }
    }
}
