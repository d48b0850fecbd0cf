import Dispatch

/// One raw observation a backend hands to the `FileWatcher` facade, always on the watcher's queue.
///
/// Backends report what they saw; the facade decides what to tell its handler (debounce, `stat`,
/// de-duplication). "Target" is the watched file's name in the watched directory.
enum WatchSignal: Sendable, Equatable {
    /// The target's content is complete and may differ: closed after writing, renamed in, a polled
    /// change, or an event-queue overflow (anything may have happened).
    case written
    /// The target was created and is presumably still open for writing; wait for `written`.
    case creating
    /// The target was deleted or renamed away.
    case removed
    /// The target's metadata changed (chmod, utimes) without a write being seen.
    case attributes
    /// The directory's own metadata changed (permissions may have been lost).
    case directoryAttributes
    /// Another name was created in the directory and is presumably still being written.
    case siblingCreating(String)
    /// Another name was closed after writing.
    case siblingWritten(String)
    /// Another name appeared complete (renamed in, or found by a directory scan).
    case siblingAppeared(String)
    /// Another name was deleted or renamed away.
    case siblingRemoved(String)
    /// The watched directory was removed, renamed, or its filesystem unmounted.
    case directoryGone
    /// The backend cannot go on (read error, lost permission); the text says what and where.
    case failed(String)
}

/// Where a backend looks: the canonical directory and the file name inside it.
struct WatchTarget: Sendable, Equatable {
    let directory: String
    let name: String
    var path: String { directory == "/" ? "/" + name : directory + "/" + name }
}

/// A source of `WatchSignal`s. All methods are called on the watcher's queue and every signal is
/// delivered on it.
///
/// `start()` opens descriptors and enters the watcher's `closing` group once per descriptor;
/// `stop()` cancels the dispatch sources, whose cancel handlers close the descriptors and leave the
/// group. `stop()` is idempotent; after it returns no further signals are delivered.
protocol WatchBackend: AnyObject, Sendable {
    var mechanism: FileWatcherMechanism { get }
    func start() throws(FileWatcherError)
    func stop()
}

/// The parameters every backend is built from.
struct WatchBackendContext: Sendable {
    let target: WatchTarget
    /// The watcher's serial queue: sources target it, signals are delivered on it.
    let queue: DispatchQueue
    /// Entered once per open descriptor, left when its source's cancel handler has closed it.
    let closing: DispatchGroup
    /// Whether anyone listens for sibling names (backends may skip directory scans if not).
    let wantsSiblings: Bool
    let sink: @Sendable (WatchSignal) -> Void
}

extension Duration {
    /// The duration as a Dispatch interval, clamped to 0...~292 years and rounded to nanoseconds.
    var dispatchInterval: DispatchTimeInterval {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return .nanoseconds(0) }
        guard seconds < Int64.max / 1_000_000_000 - 1 else { return .never }
        return .nanoseconds(Int(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
    }
}
