#if os(Linux)
@preconcurrency import Glibc
import Dispatch

/// The native backend on Linux.
func makeNativeWatchBackend(context: WatchBackendContext) -> any WatchBackend {
    InotifyBackend(context: context)
}

/// Watches a directory with inotify and turns its events for one name into `WatchSignal`s.
///
/// One inotify instance (`inotify_init1(IN_NONBLOCK | IN_CLOEXEC)`) with one watch on the directory;
/// a `DispatchSource` read source on its descriptor (epoll underneath), so there are no wake-ups
/// while the directory is quiet. Each wake-up reads until `EAGAIN` and parses the raw records
/// (16-byte header, then `len` NUL-padded name bytes).
///
/// The same instance also watches the route (`WatchRoute`): each directory holding a followed
/// symlink, for that name being created, deleted or renamed (`linkMask`), and each directory above,
/// for being renamed or deleted itself (`ancestorMask`, no per-entry events, so a busy `/tmp` above
/// costs nothing). Either is reported as `.routeChanged`. These watches are best effort: a directory
/// that cannot be watched (no read permission) is skipped.
///
/// `IN_MODIFY` is not subscribed: it fires for every write and after a truncation, when the file is
/// still incomplete. Content is complete at `IN_CLOSE_WRITE` or `IN_MOVED_TO`.
final class InotifyBackend: WatchBackend, @unchecked Sendable {
    let mechanism = FileWatcherMechanism.inotify

    /// The events subscribed on the directory.
    static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE
                             | IN_DELETE_SELF | IN_MOVE_SELF | IN_ATTRIB | IN_ONLYDIR)

    /// The events subscribed on a directory holding a followed symlink, added to any other mask.
    static let linkMask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO
                                 | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR) | UInt32(IN_MASK_ADD)
    /// The events subscribed on a directory above: only its own rename or removal.
    static let ancestorMask = UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR) | UInt32(IN_MASK_ADD)

    private let context: WatchBackendContext
    private let targetName: [UInt8]
    // Set in `start`, read on the watcher's queue.
    private var linkNames: [Int32: [[UInt8]]] = [:]
    private var routeDescriptors = Set<Int32>()
    // Touched only on the watcher's queue.
    private var source: (any DispatchSourceRead)?
    private var watchDescriptor: Int32 = -1
    private var stopped = false
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    init(context: WatchBackendContext) {
        self.context = context
        self.targetName = Array(context.target.name.utf8)
    }

    func start() throws(FileWatcherError) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else {
            throw FileWatcherError("inotify_init1: \(WatchSystem.message(forErrno: errno))")
        }
        let wd = inotify_add_watch(fd, context.target.directory, Self.mask)
        guard wd >= 0 else {
            let code = errno
            close(fd)
            throw FileWatcherError("inotify_add_watch \(context.target.directory): \(WatchSystem.message(forErrno: code))")
        }
        watchDescriptor = wd
        for link in context.route.links {
            let linkWD = inotify_add_watch(fd, link.directory, Self.linkMask)
            guard linkWD >= 0 else { continue }
            linkNames[linkWD, default: []].append(Array(link.name.utf8))
            routeDescriptors.insert(linkWD)
        }
        for ancestor in context.route.ancestors {
            let ancestorWD = inotify_add_watch(fd, ancestor, Self.ancestorMask)
            if ancestorWD >= 0 { routeDescriptors.insert(ancestorWD) }
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: context.queue)
        let closing = context.closing
        closing.enter()
        source.setEventHandler { @Sendable [weak self] in self?.drain(fd) }
        source.setCancelHandler { @Sendable in
            close(fd)
            closing.leave()
        }
        self.source = source
        source.resume()
    }

    func stop() {
        stopped = true
        source?.cancel()
        source = nil
    }

    /// Reads every pending record, stopping at `EAGAIN`.
    private func drain(_ fd: Int32) {
        while !stopped {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                parse(count: count)
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && errno != EAGAIN && errno != EWOULDBLOCK {
                let message = WatchSystem.message(forErrno: errno)
                context.sink(.failed("reading inotify events for \(context.target.directory): \(message)"))
            }
            return
        }
    }

    private func parse(count: Int) {
        var records: [(wd: Int32, mask: UInt32, name: ArraySlice<UInt8>)] = []
        buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset + 16 <= count {
                let wd = raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let start = offset + 16
                let end = min(start + length, count)
                var nameEnd = start
                while nameEnd < end && raw[nameEnd] != 0 { nameEnd += 1 }
                records.append((wd, mask, buffer[start..<nameEnd]))
                offset = start + length
            }
        }
        for record in records where !stopped {
            handle(wd: record.wd, mask: record.mask, name: record.name)
        }
    }

    private func handle(wd: Int32, mask: UInt32, name: ArraySlice<UInt8>) {
        func has(_ flag: Int32) -> Bool { mask & UInt32(flag) != 0 }
        if has(IN_Q_OVERFLOW) {
            context.sink(.written)
            return
        }
        if has(IN_UNMOUNT) {
            context.sink(.directoryGone)
            return
        }
        let selfEvent = has(IN_DELETE_SELF) || has(IN_MOVE_SELF) || has(IN_IGNORED)
        if selfEvent && (wd == watchDescriptor || routeDescriptors.contains(wd)) {
            context.sink(.routeChanged)
            return
        }
        if let names = linkNames[wd], names.contains(where: { name.elementsEqual($0) }),
           has(IN_CREATE) || has(IN_DELETE) || has(IN_MOVED_FROM) || has(IN_MOVED_TO) {
            context.sink(.routeChanged)
            return
        }
        guard wd == watchDescriptor else { return }
        if name.isEmpty {
            if has(IN_ATTRIB) { context.sink(.directoryAttributes) }
            return
        }
        if name.elementsEqual(targetName) {
            if has(IN_CLOSE_WRITE) || has(IN_MOVED_TO) { context.sink(.written) }
            else if has(IN_CREATE) { context.sink(has(IN_ISDIR) ? .written : .creating) }
            else if has(IN_DELETE) || has(IN_MOVED_FROM) { context.sink(.removed) }
            else if has(IN_ATTRIB) { context.sink(.attributes) }
            return
        }
        guard context.wantsSiblings, !has(IN_ISDIR) else { return }
        let sibling = String(decoding: name, as: UTF8.self)
        if has(IN_CLOSE_WRITE) { context.sink(.siblingWritten(sibling)) }
        else if has(IN_MOVED_TO) { context.sink(.siblingAppeared(sibling)) }
        else if has(IN_CREATE) { context.sink(.siblingCreating(sibling)) }
        else if has(IN_DELETE) || has(IN_MOVED_FROM) { context.sink(.siblingRemoved(sibling)) }
    }
}
#endif
