import TodoTxt

/// The watching of a `LiveTodoFile`, shared by everyone who listens: one `FileWatcher`, one read of
/// each new version, handed to the `start` callback and to every sequence (docs/files.md, "The
/// live file").
///
/// The watcher runs while anyone listens: it starts with the first listener and stops when the
/// last sequence ends and no `start` callback is set (or at `stop()`). A new version is read once
/// and compared once (`news`), so two listeners never disagree about what changed.
extension LiveTodoFile {
    /// The listeners and whether the watcher runs for them.
    struct Listeners {
        var callback: (@Sendable (LiveFileEvent) -> Void)?
        var streams: [Int: AsyncStream<LiveFileEvent>.Continuation] = [:]
        var nextKey = 0
        var watching = false
    }

    /// Every change as an asynchronous sequence, for an app's task:
    /// `for await event in try file.events() { … }`. The same events as
    /// `start(onSibling:onEvent:)`; any number of sequences may run at once, each gets every event.
    /// A sequence ends when the watching does (`directoryGone`, `watchFailed`, `stop()`); dropping
    /// it or cancelling its task ends only that one. Unread events beyond the newest 16 are
    /// dropped (a `changed` carries the whole document, so the newest is enough).
    ///
    /// It holds changes made after it is made; for the file as it is first, use `updates()`.
    public func events() throws(FileWatcherError) -> AsyncStream<LiveFileEvent> {
        try makeStream(startingWithCurrentFile: false)
    }

    /// `events()`, preceded by the file as it is when the sequence is made: first `.changed` with
    /// its document (`.removed` when it does not exist, `.unreadable` when it cannot be read), read
    /// after the watching is in place, so no change made between `init` and the first event is
    /// missed. What a view that shows the file wants: `for await event in try file.updates()`.
    public func updates() throws(FileWatcherError) -> AsyncStream<LiveFileEvent> {
        try makeStream(startingWithCurrentFile: true)
    }

    private func makeStream(startingWithCurrentFile: Bool) throws(FileWatcherError) -> AsyncStream<LiveFileEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: LiveFileEvent.self, bufferingPolicy: .bufferingNewest(16))
        let key = listeners.withLock { listeners in
            let key = listeners.nextKey
            listeners.nextKey += 1
            listeners.streams[key] = continuation
            return key
        }
        continuation.onTermination = { [self] _ in removeStream(key) }
        do throws(FileWatcherError) { try ensureWatching(onSibling: nil) } catch {
            listeners.withLock { _ = $0.streams.removeValue(forKey: key) }
            throw error
        }
        if startingWithCurrentFile { continuation.yield(currentFileEvent()) }
        return stream
    }

    /// The file as it is now, as the first event of `updates()`; it becomes the version seen.
    private func currentFileEvent() -> LiveFileEvent {
        let fresh: TodoDocument?
        do throws(FileSystemError) { fresh = try LiveTodoFile.readIfExists(path, fileSystem) } catch { return .unreadable(error) }
        let version = Version(document: fresh ?? TodoDocument(), isMissing: fresh == nil)
        current.withLock { $0 = version }
        return fresh.map { .changed($0) } ?? .removed
    }

    func setCallback(_ callback: @escaping @Sendable (LiveFileEvent) -> Void) throws(FileWatcherError) {
        let taken = listeners.withLock { listeners in
            if listeners.callback != nil { return true }
            listeners.callback = callback
            return false
        }
        if taken { throw FileWatcherError("cannot watch \(path): already watching") }
    }

    func clearCallback() {
        listeners.withLock { $0.callback = nil }
    }

    /// Starts the watcher unless it runs. Never called with `listeners` held: the watcher's queue
    /// takes it to deliver an event.
    func ensureWatching(onSibling: (@Sendable (String) -> Void)?) throws(FileWatcherError) {
        let starts = listeners.withLock { listeners in
            if listeners.watching { return false }
            listeners.watching = true
            return true
        }
        guard starts else { return }
        do throws(FileWatcherError) {
            try watcher.start(onSibling: onSibling) { [self] event in deliver(event) }
        } catch {
            listeners.withLock { $0.watching = false }
            throw error
        }
    }

    /// One watcher event, read once, to every listener; the end of the watching ends every sequence.
    private func deliver(_ event: FileWatchEvent) {
        guard let live = liveEvent(for: event) else { return }
        let ends: Bool
        switch live {
        case .directoryGone, .watchFailed: ends = true
        case .changed, .removed, .relocated, .unreadable: ends = false
        }
        let (callback, streams) = listeners.withLock { listeners in
            let taken = (listeners.callback, Array(listeners.streams.values))
            if ends {
                listeners.streams = [:]
                listeners.callback = nil
                listeners.watching = false
            }
            return taken
        }
        callback?(live)
        for stream in streams {
            stream.yield(live)
            if ends { stream.finish() }
        }
    }

    /// A sequence ended: the watcher stops when nobody else listens.
    private func removeStream(_ key: Int) {
        let idle = listeners.withLock { listeners in
            guard listeners.streams.removeValue(forKey: key) != nil else { return false }
            guard listeners.streams.isEmpty, listeners.callback == nil, listeners.watching else { return false }
            listeners.watching = false
            return true
        }
        if idle { watcher.stop() }
    }

    func stopWatching() {
        let streams = listeners.withLock { listeners in
            let streams = Array(listeners.streams.values)
            listeners = Listeners(nextKey: listeners.nextKey)
            return streams
        }
        watcher.stop()
        for stream in streams { stream.finish() }
    }
}

extension LiveEditError {
    /// An edit closure's error: its own case when it is a `TaskEditError`.
    init(editFailure error: some Error) {
        if let edit = error as? TaskEditError { self = .edit(edit) } else { self = .refused(String(describing: error)) }
    }
}
