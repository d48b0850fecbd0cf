import Dispatch

/// Following the path: after every settled burst the watcher resolves its path again, and when it
/// leads elsewhere (a followed symlink re-pointed, the file replaced by a symlink, its directory or
/// one above it renamed and another put in its place) it watches the new place instead of going
/// silent on the old one (docs/notes/watch.md, "Following the path").
extension FileWatcher {
    /// What `followRoute` found.
    enum RouteOutcome {
        /// The path leads where it led: nothing to do.
        case unchanged
        /// The path leads elsewhere and the watcher now watches there; `.relocated` was reported.
        case relocated
        /// The watcher stopped: the path leads to no directory (`.directoryGone`), a new backend
        /// could not be set up (`.error`), or the handler stopped it.
        case stopped
    }

    /// Resolves the path again and follows it if it leads elsewhere. On the watcher's queue.
    ///
    /// A resolution that fails for another reason than a missing directory (a symlink loop, the
    /// path now a directory) is left to the caller's `stat` of the old target, which reports it.
    /// The same directory path on another device is a filesystem unmounted from under the watch
    /// (or mounted over it): that ends the watch, as the unmount event does.
    func followRoute() -> RouteOutcome {
        guard running, let route else { return .stopped }
        switch WatchSystem.resolveRoute(path) {
        case .success(let now) where now == route:
            return .unchanged
        case .success(let now):
            if now.target.directory == route.target.directory,
               now.directories.first?.device != route.directories.first?.device {
                finish(with: .directoryGone)
                return .stopped
            }
            do throws(FileWatcherError) {
                active?.stop()
                active = nil
                let (chosen, fallbackReason) = try makeBackend(for: now, wantsSiblings: wantsSiblings)
                active = chosen
                self.route = now
                target = now.target
                currentStatus = FileWatcherStatus(mechanism: chosen.mechanism, directory: now.target.directory,
                                                  name: now.target.name, fallbackReason: fallbackReason)
            } catch {
                finish(with: .error(error.message))
                return .stopped
            }
            handler?(.relocated)
            return running ? .relocated : .stopped
        case .failure(.directoryMissing):
            finish(with: .directoryGone)
            return .stopped
        case .failure(.failed):
            return .unchanged
        }
    }

    /// Builds and starts the backend for `route`: the requested one, or for `.automatic` the native
    /// one, falling back to polling (with the reason) when it cannot be set up.
    func makeBackend(for route: WatchRoute, wantsSiblings: Bool) throws(FileWatcherError) -> (any WatchBackend, String?) {
        let context = WatchBackendContext(
            route: route, queue: queue, closing: closing, wantsSiblings: wantsSiblings,
            sink: { [weak self] signal in self?.receive(signal) })
        switch backend {
        case .polling(let interval):
            let polling = PollingBackend(context: context, interval: interval)
            try polling.start()
            return (polling, nil)
        case .automatic:
            let native = makeNativeBackend(context)
            do throws(FileWatcherError) {
                try native.start()
                return (native, nil)
            } catch {
                let polling = PollingBackend(context: context, interval: Self.fallbackPollInterval)
                try polling.start()
                return (polling, error.message)
            }
        }
    }
}
