import Dispatch
import Synchronization
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
/// serialised by the writers' lock), and `onChange` runs on the watcher's queue.
public final class LiveTodoFile: Sendable {
    /// The file, as given.
    public let path: String
    let fileSystem: FileSystem
    let lockTimeout: Duration
    private let current: Mutex<TodoDocument>
    private let watcher: FileWatcher

    /// Opens `path` (a file that does not exist yet reads as empty; it is created by the first edit).
    /// `settle`: how quiet the file must be before a change is read (see `FileWatcher`).
    public init(path: String, fileSystem: FileSystem = FileSystem(), lockTimeout: Duration = .seconds(5),
                settle: Duration = FileWatcher.defaultSettle, backend: FileWatcherBackend = .automatic) throws(FileSystemError) {
        self.path = path
        self.fileSystem = fileSystem
        self.lockTimeout = lockTimeout
        current = Mutex(try LiveTodoFile.read(path, fileSystem))
        watcher = FileWatcher(path: path, backend: backend, settle: settle)
    }

    /// The file as last read or written.
    public var document: TodoDocument { current.withLock { $0 } }

    /// Starts watching: `onChange` gets every new version of the file (not the ones this object
    /// wrote itself), `onProblem` what stops the watching or a failed read (the last document stays).
    public func start(onProblem: @escaping @Sendable (String) -> Void = { _ in },
                      onChange: @escaping @Sendable (TodoDocument) -> Void) throws(FileWatcherError) {
        try watcher.start { [self] event in
            switch event {
            case .changed, .removed:
                do throws(FileSystemError) {
                    let fresh = try LiveTodoFile.read(path, fileSystem)
                    let isNew = current.withLock { document -> Bool in
                        guard !FileSystem.sameBytes(document.rendered()[...], fresh.rendered()[...]) else { return false }
                        document = fresh
                        return true
                    }
                    if isNew { onChange(fresh) }
                } catch {
                    onProblem(error.description)
                }
            case .directoryGone:
                onProblem("\(path): its directory is gone; changes are no longer seen")
            case .error(let message):
                onProblem(message)
            }
        }
    }

    /// Stops watching. Idempotent.
    public func stop() { watcher.stop() }

    /// Re-reads the file now (after a resume from suspension, say); returns the document.
    @discardableResult
    public func reload() throws(FileSystemError) -> TodoDocument {
        let fresh = try LiveTodoFile.read(path, fileSystem)
        current.withLock { $0 = fresh }
        return fresh
    }

    /// Changes the task `task` (as the caller saw it) with `change`, which gets the task as it is
    /// in the file now and returns its new line (nil: leave it as it is). Returns the document as
    /// written.
    @discardableResult
    public func edit(_ task: TaskIdentity,
                     _ change: @escaping (TodoItem) throws(TaskEditError) -> [UInt8]?) throws(LiveEditError) -> TodoDocument {
        try update { (document: inout TodoDocument) throws(LiveEditError) in
            let index = try locate(task, in: document)
            let new: [UInt8]?
            do throws(TaskEditError) { new = try change(document.item(at: index)) } catch { throw .edit(error) }
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
    @discardableResult
    public func update(_ change: (inout TodoDocument) throws(LiveEditError) -> Void) throws(LiveEditError) -> TodoDocument {
        let lock: FileLock
        do { lock = try FileLock(for: path, timeout: lockTimeout, fileSystem: fileSystem) } catch { throw .file(error) }
        let result: Result<TodoDocument, LiveEditError> = replaceHoldingLock(change)
        lock.release()
        let written = try result.get()
        current.withLock { $0 = written }
        return written
    }

    /// `update`'s replacement, under the lock the caller holds.
    private func replaceHoldingLock(_ change: (inout TodoDocument) throws(LiveEditError) -> Void) -> Result<TodoDocument, LiveEditError> {
        var written: TodoDocument?
        var options = ReplaceOptions()
        options.createIfMissing = true
        do {
            _ = try fileSystem.replace(path, options: options) { (old: [UInt8]) throws(LiveEditError) -> [UInt8]? in
                if let line = ConflictMarkers.firstBlockLine(in: old) { throw .conflictMarkers(path: path, line: line) }
                var document = TodoDocument(bytes: old)
                try change(&document)
                written = document
                return document.rendered()
            }
        } catch {
            switch error {
            case .fileSystem(let problem): return .failure(.file(problem))
            case .transform(let problem): return .failure(problem)
            }
        }
        return .success(written ?? document)
    }

    /// The file's document; a file that does not exist is empty.
    static func read(_ path: String, _ fileSystem: FileSystem) throws(FileSystemError) -> TodoDocument {
        do {
            return TodoDocument(bytes: try fileSystem.read(path).bytes)
        } catch .notFound {
            return TodoDocument()
        }
    }
}

/// Why a live edit was not made. In every case the file is as it was.
public enum LiveEditError: Error, Sendable, CustomStringConvertible {
    /// The task is no longer in the file (deleted, or changed by someone else beyond recognition).
    case taskGone(path: String, task: TaskIdentity)
    /// The file holds an unresolved conflict block (`<<<<<<<`), starting at this line (1-based).
    case conflictMarkers(path: String, line: Int)
    /// The edit itself was refused (`TaskEditError`).
    case edit(TaskEditError)
    /// Reading, locking or writing failed.
    case file(FileSystemError)

    public var description: String {
        switch self {
        case .taskGone(let path, let task):
            let text = String(decoding: task.content, as: UTF8.self)
            return "\(path): the task is gone (changed or deleted elsewhere): \(text)"
        case .conflictMarkers(let path, let line):
            return "\(path): line \(line): unresolved conflict markers; resolve them first"
        case .edit(let problem): return problem.description
        case .file(let problem): return problem.description
        }
    }
}
