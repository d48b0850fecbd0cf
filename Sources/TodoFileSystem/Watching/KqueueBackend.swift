// Every Darwin platform has kqueue and Dispatch's file-system-object sources (macOS, iOS, visionOS);
// this project's CI runs on Linux and neither builds nor runs this file (docs/architecture.md, "Platforms").
#if canImport(Darwin)
import Darwin
import Dispatch

/// The native backend on Darwin (macOS, iOS, visionOS).
func makeNativeWatchBackend(context: WatchBackendContext) -> any WatchBackend {
    KqueueBackend(context: context)
}

/// Watches a directory, and the file while it exists, with kqueue `EVFILT_VNODE` filters (through
/// Dispatch's file-system-object sources, which register exactly that filter).
///
/// The directory descriptor (`open(O_EVTONLY)`) reports `NOTE_WRITE` when an entry is added, removed
/// or renamed, and `NOTE_DELETE`/`NOTE_RENAME`/`NOTE_REVOKE` when the directory itself goes. kqueue
/// does not say which entry, so on each directory write the backend `stat`s the file and compares
/// its identity (and lists the directory when sibling names are wanted). The file descriptor, opened
/// while the file exists, reports writes in place (`NOTE_WRITE`, `NOTE_EXTEND`), metadata
/// (`NOTE_ATTRIB`) and its own deletion or rename; it is reopened whenever the inode changes.
///
/// kqueue has no close-after-write event: in-place writes are reported as they happen and the
/// facade's settle time is what waits for the writer to finish.
///
/// Not tested on this project's CI (Linux); kept small on purpose.
final class KqueueBackend: WatchBackend, @unchecked Sendable {
    let mechanism = FileWatcherMechanism.kqueue

    private let context: WatchBackendContext
    // Touched only on the watcher's queue.
    private var directorySource: (any DispatchSourceFileSystemObject)?
    private var fileSource: (any DispatchSourceFileSystemObject)?
    private var fileIdentity: WatchedIdentity?
    private var knownNames: Set<String> = []
    private var stopped = false

    init(context: WatchBackendContext) {
        self.context = context
    }

    func start() throws(FileWatcherError) {
        let directory = context.target.directory
        let fd = open(directory, O_EVTONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw FileWatcherError("open \(directory): \(WatchSystem.message(forErrno: errno))")
        }
        directorySource = makeSource(fd: fd, mask: [.write, .delete, .rename, .revoke, .attrib]) { [weak self] in
            guard let self, let events = self.directorySource?.data else { return }
            self.directoryEvent(events)
        }
        if context.wantsSiblings { knownNames = WatchSystem.names(in: directory) ?? [] }
        watchFile()
    }

    func stop() {
        stopped = true
        directorySource?.cancel()
        directorySource = nil
        fileSource?.cancel()
        fileSource = nil
    }

    private func makeSource(fd: Int32, mask: DispatchSource.FileSystemEvent,
                            handler: @escaping @Sendable () -> Void)
        -> any DispatchSourceFileSystemObject {
        let source = DispatchSource.makeFileSystemObjectSource(fileDescriptor: fd, eventMask: mask,
                                                               queue: context.queue)
        let closing = context.closing
        closing.enter()
        source.setEventHandler { @Sendable in handler() }
        source.setCancelHandler { @Sendable in
            close(fd)
            closing.leave()
        }
        source.resume()
        return source
    }

    /// Opens a vnode source on the file if it exists and is not already watched under this inode.
    private func watchFile() {
        let status = WatchSystem.status(of: context.target.path)
        guard case .present(let identity) = status, !identity.isDirectory else {
            fileSource?.cancel()
            fileSource = nil
            fileIdentity = nil
            return
        }
        if fileSource != nil, fileIdentity?.device == identity.device, fileIdentity?.inode == identity.inode {
            fileIdentity = identity
            return
        }
        fileSource?.cancel()
        fileSource = nil
        fileIdentity = identity
        let fd = open(context.target.path, O_EVTONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fileSource = makeSource(fd: fd, mask: [.write, .extend, .attrib, .delete, .rename, .revoke]) { [weak self] in
            guard let self, let events = self.fileSource?.data else { return }
            self.fileEvent(events)
        }
    }

    private func directoryEvent(_ events: DispatchSource.FileSystemEvent) {
        guard !stopped else { return }
        if events.contains(.revoke) {
            context.sink(.directoryGone)
            return
        }
        if !events.isDisjoint(with: [.delete, .rename]) {
            context.sink(.routeChanged)
            return
        }
        if events.contains(.attrib) { context.sink(.directoryAttributes) }
        guard events.contains(.write) else { return }
        let before = fileIdentity
        watchFile()
        switch (before, fileIdentity) {
        case (.some, .none): context.sink(.removed)
        case (.none, .some): context.sink(.written)
        case (.some(let old), .some(let new)) where old != new: context.sink(.written)
        default: break
        }
        guard context.wantsSiblings, !stopped, let names = WatchSystem.names(in: context.target.directory) else { return }
        for name in names.subtracting(knownNames) where name != context.target.name {
            context.sink(.siblingAppeared(name))
        }
        for name in knownNames.subtracting(names) where name != context.target.name {
            context.sink(.siblingRemoved(name))
        }
        knownNames = names
    }

    private func fileEvent(_ events: DispatchSource.FileSystemEvent) {
        guard !stopped else { return }
        if !events.isDisjoint(with: [.delete, .rename, .revoke]) {
            watchFile()
            context.sink(fileIdentity == nil ? .removed : .written)
        } else if !events.isDisjoint(with: [.write, .extend]) {
            if case .present(let now) = WatchSystem.status(of: context.target.path),
               now.device == fileIdentity?.device, now.inode == fileIdentity?.inode {
                fileIdentity = now
            }
            context.sink(.written)
        } else if events.contains(.attrib) {
            context.sink(.attributes)
        }
    }
}
#endif
