import Dispatch

/// What a `FileWatcher` tells its handler after a burst of activity has settled.
public enum FileWatchEvent: Sendable, Equatable, CustomStringConvertible {
    /// The file exists and its content may have changed: it was written and closed, renamed over,
    /// recreated, or came back after `.removed`. Read it again; it may also be unchanged (`touch`).
    case changed
    /// The file is gone. The watcher keeps watching; if the file comes back you get `.changed`.
    case removed
    /// The path leads somewhere else now (a followed symlink re-pointed, the file replaced by a
    /// symlink, its directory replaced by another of the same name): the watcher watches there now
    /// (`status` says where) and reports the file's state there next (`.changed` or `.removed`).
    case relocated
    /// The watched directory was removed, renamed or unmounted (or a directory above it was), and the
    /// path leads to no directory now. The watcher has stopped.
    case directoryGone
    /// Watching cannot go on: the path became a directory, permission was lost, a read failed.
    /// The message says what and where. The watcher has stopped.
    case error(String)

    /// "changed", "removed", "directory gone", "error: <message>".
    public var description: String {
        switch self {
        case .changed: "changed"
        case .removed: "removed"
        case .relocated: "relocated"
        case .directoryGone: "directory gone"
        case .error(let message): "error: \(message)"
        }
    }
}

/// How a `FileWatcher` learns about changes.
public enum FileWatcherBackend: Sendable, Equatable {
    /// The platform's notifications (inotify on Linux, kqueue on macOS), falling back to polling
    /// every `FileWatcher.fallbackPollInterval` if they cannot be set up (for example the inotify
    /// instance limit is reached).
    case automatic
    /// `stat` the file (and its directory) every `interval`, for filesystems without notifications.
    case polling(interval: Duration)
}

/// The mechanism a running watcher actually uses.
public enum FileWatcherMechanism: String, Sendable, Equatable {
    /// Linux inotify on the directory (`InotifyBackend`).
    case inotify
    /// macOS kqueue `EVFILT_VNODE` on the directory and the file (`KqueueBackend`).
    case kqueue
    /// Periodic `stat` (`PollingBackend`).
    case polling
}

/// A snapshot of what a running watcher watches and how.
public struct FileWatcherStatus: Sendable, Equatable {
    /// The mechanism in use.
    public let mechanism: FileWatcherMechanism
    /// The canonical directory watched (symlinks resolved).
    public let directory: String
    /// The file name filtered for inside `directory`.
    public let name: String
    /// Why `.automatic` fell back to polling, if it did: "inotify_init1: Too many open files".
    public let fallbackReason: String?
    /// The file watched: `directory` and `name` joined.
    public var path: String { directory == "/" ? "/" + name : directory + "/" + name }
}

/// Why a watcher could not start: the message names the path and the reason.
public struct FileWatcherError: Error, Sendable, Equatable, CustomStringConvertible {
    /// "cannot watch /x/todo.txt: directory /x: No such file or directory".
    public let message: String
    /// Wraps a complete message.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// Watches one file by watching its directory, and reports each settled burst of changes once.
///
/// The path is resolved first: symlinks on the file are followed (the target's directory is watched)
/// and the directory is canonicalised. Editors and sync clients replace files by renaming a temporary
/// over them or by deleting and recreating them, so the watch is on the directory and events are
/// filtered by name; it survives every such save, and the file disappearing and coming back.
///
/// After a relevant event the watcher waits until no further event for the file has arrived for
/// `settle`, then `stat`s the file and calls the handler once: `.changed` if it exists, `.removed` if
/// it does not (only once per disappearance). `.directoryGone` and `.error` end the watch.
/// The path is resolved again after every burst (`FileWatcher+Route.swift`): when it leads
/// elsewhere now the watcher moves there (`.relocated`); when it leads to no directory, `.directoryGone`.
///
/// ```swift
/// let watcher = FileWatcher(path: "todo.txt")
/// try watcher.start { event in
///     if event == .changed { resort() }
/// }
/// // ...
/// watcher.stop()
/// ```
///
/// Concurrency: all state is confined to one private serial queue that targets `queue`; handlers run
/// on it, one at a time. `start` and `stop` may be called from any thread and from inside the
/// handlers. Do not call them from a block running directly on `queue` (outside the handlers) when
/// `queue` is serial: that would wait on itself.
///
/// Idle cost: with inotify or kqueue, zero wake-ups while nothing in the directory changes.
public final class FileWatcher: @unchecked Sendable {
    /// The default settle time: long enough for an editor's save burst, short enough to feel live.
    public static let defaultSettle: Duration = .milliseconds(150)
    /// The polling interval `.automatic` uses when notifications are unavailable.
    public static let fallbackPollInterval: Duration = .seconds(1)

    /// The path as given to `init`.
    public let path: String
    /// The requested backend.
    public let backend: FileWatcherBackend
    /// How long the file must be quiet before the handler is called.
    public let settle: Duration

    let queue: DispatchQueue
    private let queueKey = DispatchSpecificKey<UInt8>()
    let closing = DispatchGroup()
    let makeNativeBackend: @Sendable (WatchBackendContext) -> any WatchBackend

    // Everything below is touched only on `queue`.
    var running = false
    var active: (any WatchBackend)?
    var currentStatus: FileWatcherStatus?
    var handler: (@Sendable (FileWatchEvent) -> Void)?
    var siblingHandler: (@Sendable (String) -> Void)?
    /// Where the path led when last resolved (`FileWatcher+Route.swift`); `target` is its end.
    var route: WatchRoute?
    var target: WatchTarget?
    var wantsSiblings = false
    /// What the handler was last told (or what `start` found): whether the file exists, and its identity.
    private var lastIdentity: WatchedIdentity?
    private var lastKnownAbsent = false
    /// A write-open creation of the target was seen and its close was not: do not fire yet.
    private var awaitingClose = false
    /// What the current burst contained: `hard` = write/rename/delete, `soft` = only metadata.
    private var pendingHard = false
    private var pendingSoft = false
    private var settleGeneration = 0
    private var siblingsAwaitingClose = Set<String>()
    private var siblingGenerations: [String: Int] = [:]

    /// Creates a watcher; nothing is opened until `start`.
    ///
    /// - Parameters:
    ///   - path: the file to watch; it need not exist yet, but its directory must.
    ///   - backend: `.automatic` (inotify/kqueue, polling fallback) or `.polling(interval:)`.
    ///   - settle: how long the file must be quiet before the handler runs (default 150 ms).
    ///   - queue: where handlers run (through a private serial queue targeting it); default: a
    ///     global queue.
    public convenience init(path: String, backend: FileWatcherBackend = .automatic,
                            settle: Duration = FileWatcher.defaultSettle, queue: DispatchQueue? = nil) {
        self.init(path: path, backend: backend, settle: settle, queue: queue,
                  nativeBackend: makeNativeWatchBackend)
    }

    /// Test seam: `nativeBackend` builds the backend `.automatic` tries first (to exercise the
    /// polling fallback without exhausting the system's inotify instances).
    init(path: String, backend: FileWatcherBackend, settle: Duration, queue: DispatchQueue?,
         nativeBackend: @escaping @Sendable (WatchBackendContext) -> any WatchBackend) {
        self.path = path
        self.backend = backend
        self.settle = settle
        self.makeNativeBackend = nativeBackend
        self.queue = DispatchQueue(label: "todo.FileWatcher", target: queue)
        self.queue.setSpecific(key: queueKey, value: 1)
    }

    deinit {
        active?.stop()
    }

    /// What the watcher watches and how, or nil when it is not running.
    public var status: FileWatcherStatus? {
        onQueue { currentStatus }
    }

    /// Whether the watcher is running (false after `stop`, `.directoryGone` or `.error`).
    public var isRunning: Bool {
        onQueue { running }
    }

    /// Starts watching and returns once the watch is in place: a change made after `start` returns
    /// is reported.
    ///
    /// - Parameters:
    ///   - onSibling: called with the name of each other file that appears complete in the directory
    ///     (created and closed, or renamed in, and still there after `settle`); used to spot
    ///     sync-conflict copies. Temporary files renamed away within `settle` are not reported.
    ///     Names are decoded as UTF-8 (invalid bytes become U+FFFD).
    ///   - handler: called once per settled burst, on the watcher's queue.
    /// - Throws: `FileWatcherError` if the path cannot be resolved (missing directory, the path is a
    ///   directory, a symlink loop), the watcher is already running, or no backend can be set up.
    public func start(onSibling: (@Sendable (String) -> Void)? = nil,
                      handler: @escaping @Sendable (FileWatchEvent) -> Void) throws(FileWatcherError) {
        let result: Result<Void, FileWatcherError> = onQueue {
            do throws(FileWatcherError) {
                try startOnQueue(onSibling: onSibling, handler: handler)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Stops watching: cancels the sources and closes every descriptor. Idempotent.
    ///
    /// Called from outside the watcher's queue, it returns after the descriptors are closed and no
    /// handler runs afterwards. Called from inside a handler, the descriptors are closed right after
    /// the handler returns.
    public func stop() {
        let inside = DispatchQueue.getSpecific(key: queueKey) != nil
        onQueue { teardown() }
        if !inside { closing.wait() }
    }

    // MARK: - Queue confinement

    private func onQueue<T>(_ body: () -> T) -> T {
        if DispatchQueue.getSpecific(key: queueKey) != nil { return body() }
        return queue.sync(execute: body)
    }

    // MARK: - Lifecycle (on queue)

    private func startOnQueue(onSibling: (@Sendable (String) -> Void)?,
                              handler: @escaping @Sendable (FileWatchEvent) -> Void) throws(FileWatcherError) {
        guard !running else { throw FileWatcherError("cannot watch \(path): already watching") }
        let route: WatchRoute
        switch WatchSystem.resolveRoute(path) {
        case .success(let resolved): route = resolved
        case .failure(.directoryMissing(let directory)):
            throw FileWatcherError("cannot watch \(path): directory \(directory): \(WatchSystem.message(forErrno: WatchSystem.noSuchFile))")
        case .failure(.failed(let error)): throw error
        }
        let target = route.target
        switch WatchSystem.status(of: target.path) {
        case .present(let identity) where identity.isDirectory:
            throw FileWatcherError("cannot watch \(path): \(target.path) is a directory")
        case .present(let identity):
            lastIdentity = identity
            lastKnownAbsent = false
        case .absent:
            lastIdentity = nil
            lastKnownAbsent = true
        case .failed(let code):
            throw FileWatcherError("cannot watch \(path): \(target.path): \(WatchSystem.message(forErrno: code))")
        }
        let wantsSiblings = onSibling != nil
        let (chosen, fallbackReason) = try makeBackend(for: route, wantsSiblings: wantsSiblings)
        self.route = route
        self.target = target
        self.handler = handler
        self.siblingHandler = onSibling
        active = chosen
        running = true
        awaitingClose = false
        pendingHard = false
        pendingSoft = false
        siblingsAwaitingClose = []
        siblingGenerations = [:]
        currentStatus = FileWatcherStatus(mechanism: chosen.mechanism, directory: target.directory,
                                          name: target.name, fallbackReason: fallbackReason)
        self.wantsSiblings = wantsSiblings
    }

    private func teardown() {
        guard running else { return }
        running = false
        active?.stop()
        active = nil
        currentStatus = nil
        handler = nil
        siblingHandler = nil
        settleGeneration += 1
        siblingGenerations = [:]
    }

    /// Stops, then tells the handler why (the handler may start the watcher again).
    func finish(with event: FileWatchEvent) {
        let handler = self.handler
        teardown()
        handler?(event)
    }

    // MARK: - Signals (on queue)

    func receive(_ signal: WatchSignal) {
        guard running else { return }
        switch signal {
        case .written, .removed:
            awaitingClose = false
            pendingHard = true
            armSettle()
        case .creating:
            // A symlink is complete when created: no close will come. Otherwise wait for the
            // writer's close; if none comes (a hard link, a writer that keeps the file open),
            // report anyway after `createTimeout`.
            awaitingClose = false
            if let target, WatchSystem.isSymbolicLink(target.path) {
                pendingHard = true
                armSettle()
                return
            }
            armSettle(after: createTimeout, force: true)
            awaitingClose = true
            pendingHard = true
        case .routeChanged:
            awaitingClose = false  // resolved again when the burst settles, whatever a creation awaits
            pendingHard = true
            armSettle()
        case .attributes, .directoryAttributes:
            pendingSoft = true
            armSettle()
        case .siblingCreating(let name):
            guard siblingHandler != nil else { return }
            siblingsAwaitingClose.insert(name)
            siblingGenerations[name, default: 0] += 1
        case .siblingWritten(let name):
            guard siblingHandler != nil, siblingsAwaitingClose.remove(name) != nil else { return }
            armSibling(name)
        case .siblingAppeared(let name):
            guard siblingHandler != nil else { return }
            siblingsAwaitingClose.remove(name)
            armSibling(name)
        case .siblingRemoved(let name):
            siblingsAwaitingClose.remove(name)
            siblingGenerations[name] = nil
        case .directoryGone:
            finish(with: .directoryGone)
        case .failed(let message):
            finish(with: .error(message))
        }
    }

    /// How long a created file may stay open without a close before it is reported anyway.
    private var createTimeout: Duration { max(settle * 10, .seconds(2)) }

    /// (Re)starts the quiet period; a newer event supersedes the pending one. While a creation
    /// awaits its close, only that creation's own timeout (`force`) is armed.
    private func armSettle(after delay: Duration? = nil, force: Bool = false) {
        guard !awaitingClose else { return }
        settleGeneration += 1
        let generation = settleGeneration
        queue.asyncAfter(deadline: .now() + (delay ?? settle).dispatchInterval) { [weak self] in
            self?.settled(generation: generation, force: force)
        }
    }

    private func settled(generation: Int, force: Bool) {
        guard running, generation == settleGeneration, force || !awaitingClose else { return }
        awaitingClose = false
        var hard = pendingHard
        pendingHard = false
        pendingSoft = false
        switch followRoute() {
        case .stopped: return
        case .unchanged: break
        case .relocated: hard = true
        }
        guard let target else { return }
        switch WatchSystem.status(of: target.path) {
        case .absent:
            lastIdentity = nil
            if !lastKnownAbsent {
                lastKnownAbsent = true
                handler?(.removed)
            }
        case .present(let identity) where identity.isDirectory:
            finish(with: .error("\(target.path) is now a directory"))
        case .present(let identity):
            let wasAbsent = lastKnownAbsent
            let differs = identity != lastIdentity
            lastIdentity = identity
            lastKnownAbsent = false
            if hard || wasAbsent || differs { handler?(.changed) }
        case .failed(let code):
            finish(with: .error("\(target.path): \(WatchSystem.message(forErrno: code))"))
        }
    }

    private func armSibling(_ name: String) {
        siblingGenerations[name, default: 0] += 1
        let generation = siblingGenerations[name, default: 0]
        queue.asyncAfter(deadline: .now() + settle.dispatchInterval) { [weak self] in
            self?.siblingSettled(name, generation: generation)
        }
    }

    private func siblingSettled(_ name: String, generation: Int) {
        guard running, siblingGenerations[name] == generation, let target else { return }
        siblingGenerations[name] = nil
        let path = target.directory == "/" ? "/" + name : target.directory + "/" + name
        if WatchSystem.exists(path) { siblingHandler?(name) }
    }
}
