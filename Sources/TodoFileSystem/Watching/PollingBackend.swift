import Dispatch

/// Finds changes by `stat`ing the file and its directory every `interval`.
///
/// For filesystems without notifications (network mounts, FUSE), for `--poll`, and as the fallback
/// when the native backend cannot be set up. It compares the file's identity (device, inode, size,
/// modification time in nanoseconds): a rewrite that keeps all four is missed. Each tick it also
/// resolves the path again (`WatchSystem.resolveRoute`) and reports `.routeChanged` when it leads
/// elsewhere: a directory on the way renamed, removed or replaced, a followed symlink re-pointed. When sibling names are wanted it also lists
/// the directory each tick and reports names that were not there before.
///
/// Cost: one timer wake-up per interval (with 10% leeway), the route's `lstat`/`realpath`/`stat`
/// calls and one `stat` of the file, plus one directory listing if sibling names are wanted.
final class PollingBackend: WatchBackend, @unchecked Sendable {
    let mechanism = FileWatcherMechanism.polling

    private let context: WatchBackendContext
    private let interval: Duration
    // Touched only on the watcher's queue.
    private var timer: (any DispatchSourceTimer)?
    private var lastFile: PathStatus = .absent
    private var lastResolution: Result<WatchRoute, WatchRouteProblem>
    private var knownNames: Set<String> = []

    init(context: WatchBackendContext, interval: Duration) {
        self.context = context
        self.interval = interval
        lastResolution = .success(context.route)
    }

    func start() throws(FileWatcherError) {
        guard interval > .zero else {
            throw FileWatcherError("cannot poll \(context.target.path): the interval must be positive")
        }
        switch WatchSystem.status(of: context.target.directory) {
        case .present(let identity) where !identity.isDirectory:
            throw FileWatcherError("cannot poll \(context.target.path): \(context.target.directory) is not a directory")
        case .present:
            break
        case .absent:
            throw FileWatcherError("cannot poll \(context.target.path): \(context.target.directory) does not exist")
        case .failed(let code):
            throw FileWatcherError("cannot poll \(context.target.path): \(context.target.directory): \(WatchSystem.message(forErrno: code))")
        }
        lastFile = WatchSystem.status(of: context.target.path)
        if context.wantsSiblings { knownNames = WatchSystem.names(in: context.target.directory) ?? [] }
        let timer = DispatchSource.makeTimerSource(queue: context.queue)
        let period = interval.dispatchInterval
        let leeway = (interval / 10).dispatchInterval
        timer.schedule(deadline: .now() + period, repeating: period, leeway: leeway)
        timer.setEventHandler { @Sendable [weak self] in self?.poll() }
        self.timer = timer
        timer.resume()
    }

    func stop() {
        timer?.cancel()
        timer = nil
    }

    private func poll() {
        guard timer != nil else { return }
        let target = context.target
        // The path resolved again: a directory renamed, removed or replaced (even by one of the
        // same name) anywhere on the way, or a followed symlink re-pointed, and the facade decides.
        // Reported once per new resolution, so that the facade's settle time can pass.
        let resolution = WatchSystem.resolveRoute(context.route.path)
        if resolution != lastResolution {
            lastResolution = resolution
            if resolution != .success(context.route) { context.sink(.routeChanged) }
        }
        guard resolution == .success(context.route) else { return }
        let now = WatchSystem.status(of: target.path)
        if now != lastFile {
            let previous = lastFile
            lastFile = now
            switch (previous, now) {
            case (.present, .absent): context.sink(.removed)
            case (_, .failed(let code)):
                context.sink(.failed("\(target.path): \(WatchSystem.message(forErrno: code))"))
                return
            default: context.sink(.written)
            }
        }
        guard context.wantsSiblings, timer != nil, let names = WatchSystem.names(in: target.directory) else { return }
        for name in names.subtracting(knownNames) where name != target.name {
            context.sink(.siblingAppeared(name))
        }
        for name in knownNames.subtracting(names) where name != target.name {
            context.sink(.siblingRemoved(name))
        }
        knownNames = names
    }
}
