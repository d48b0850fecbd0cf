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
    /// A directory on the way to the target (its own, one above it, one holding a symlink that was
    /// followed) was renamed or removed, or a followed symlink was replaced: the path may lead
    /// elsewhere now, so the facade resolves it again.
    case routeChanged
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
    /// A watched directory's filesystem was unmounted: final, whatever the path leads to now.
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

/// Where a watched path leads at one moment, and every place whose change could make it lead
/// elsewhere. Two routes are equal when the path leads to the same file through the same
/// directories (the same inodes, not only the same names).
struct WatchRoute: Sendable, Equatable {
    /// The device and inode of a directory.
    struct DirectoryIdentity: Sendable, Equatable {
        let device: UInt64
        let inode: UInt64
    }

    /// The path as given to the watcher.
    let path: String
    /// The file finally reached: symlinks followed, its directory canonical.
    let target: WatchTarget
    /// Each symlink followed on the way, as the canonical directory holding it and its name.
    let links: [WatchTarget]
    /// The directories above the target's and the links' directories (canonical, without `/`):
    /// renaming or removing one of them takes the file away from the path.
    let ancestors: [String]
    /// The identities of the target's directory, then of each link's directory.
    let directories: [DirectoryIdentity]

    /// The directories above `directory`, nearest first: `/a/b/c` → `/a/b`, `/a`.
    static func ancestors(of directory: String) -> [String] {
        var result: [String] = []
        var current = directory
        while true {
            let parent = WatchSystem.split(current).directory
            guard parent != current, parent != "/", parent != "." else { break }
            result.append(parent)
            current = parent
        }
        return result
    }
}

/// Why a path does not lead to a watchable file right now.
enum WatchRouteProblem: Error, Sendable, Equatable {
    /// The file's directory does not exist (removed, renamed, or a directory above it was).
    case directoryMissing(String)
    /// Anything else (a symlink loop, no permission, the path is a directory): the message says what.
    case failed(FileWatcherError)
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
    /// Where the path led when the backend was made; backends watch its target, links and ancestors.
    let route: WatchRoute
    var target: WatchTarget { route.target }
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
