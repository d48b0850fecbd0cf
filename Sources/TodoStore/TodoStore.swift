import Foundation
import Observation
import TodoFileSystem

/// A todo.txt file as an app's list: `@Observable` on the main actor, with stable ids, live while
/// `follow()` runs, and writes that never block the caller (docs/store.md).
///
/// ```swift
/// let store = try TodoStore(path: path)
/// let task = try await store.add("Buy milk @shop")
/// try await store.toggle(task)
/// ```
///
/// `tasks` is what a list shows: the tasks of the file in `todo sort`'s partition (open ones in
/// file order, then done ones), without hidden ones (`h:1`, a `t:` after today) unless
/// `showsHidden`, narrowed by `filter` (the terms of `todo ls`). It changes when this store
/// writes, and, while `follow()` runs, when anything else changes the file.
///
/// Every write is one transaction of the file layer (`FileSystem.transact`, docs/files.md section
/// 1) run off the main actor: under the writers' lock, on the file as it is at that moment (a task
/// is found again by its uid or its bytes), refusing NUL bytes and conflict blocks, keeping what
/// others append meanwhile, writing nothing when nothing changes.
@MainActor @Observable
public final class TodoStore {
    /// The file, as given.
    public nonisolated let path: String
    public nonisolated let options: Options
    /// The listed tasks (see the type's documentation), in display order.
    public private(set) var tasks: [TodoTask] = []
    /// The terms of `todo ls`, separated by spaces: every term must match (case and diacritics
    /// ignored for plain text, a basic regex when it holds `. [ ] * ^ $ \`), `-TERM` must not.
    public var filter = "" {
        didSet { if filter != oldValue { relist() } }
    }
    /// Whether hidden tasks (`h:1`, a threshold `t:` after today) are listed. Off by default, as
    /// `todo ls` without `-a`.
    public var showsHidden = false {
        didSet { if showsHidden != oldValue { relist() } }
    }
    /// How many of `tasks` are open (they come first).
    public private(set) var openCount = 0
    /// How many of `tasks` are done.
    public private(set) var doneCount = 0
    /// What went wrong last: a write that failed (it also threw), or a problem reading the file
    /// while following it. Cleared by the next successful write or read of the file.
    public var lastError: TodoStoreError?
    /// Whether `undo()` has a change of this store to take back.
    public var canUndo: Bool { !undoStack.isEmpty }

    @ObservationIgnored nonisolated let file: LiveTodoFile
    /// This store's writes, one after another (the lock serialises them with everyone else's).
    @ObservationIgnored nonisolated let writeQueue = DispatchQueue(label: "TodoStore.write")
    /// Where versions read elsewhere are prepared and old states released: a queue of the store's
    /// own, never `DispatchQueue.global()`, whose threads are as many as the cores and can all be
    /// held by an app's (or a test run's) blocking work: the store would then not show a change
    /// until that work ended.
    @ObservationIgnored nonisolated let prepareQueue = DispatchQueue(label: "TodoStore.prepare")
    @ObservationIgnored var state: State
    @ObservationIgnored var hasWritten = false
    /// The main actor's share of the last change read from the file (for the benchmark).
    @ObservationIgnored package private(set) var lastInstallDuration: Duration = .zero
    var undoStack: [UndoEntry] = []

    /// The file as the store last read or wrote it, with the ids of its lines.
    struct State: Sendable {
        var document: TodoDocument
        var ids: TaskIds
        /// Changes with every new `document` or id handed out, so that work prepared off the main
        /// actor on an older state is redone rather than installed.
        var generation = 0
    }

    /// A change of this store, as `undo()` takes it back.
    struct UndoEntry: Sendable {
        let record: ChangeRecord
        /// The ids of the lines as they were before the change, by their bytes then: an undone
        /// removal or edit gives the task its id back.
        let ids: [[UInt8]: String]
    }

    /// Opens the file at `path` and lists it. A file that does not exist yet is an empty list; the
    /// first write creates it.
    ///
    /// Throws `binaryFile` for a file holding a NUL byte and `fileUnreadable` when it cannot be
    /// read. A file with an unresolved conflict block opens (it is listed as it is), with
    /// `lastError` saying so; writes are refused until it is resolved.
    public init(path: String, options: Options = Options()) throws(TodoStoreError) {
        self.path = path
        self.options = options
        do {
            file = try LiveTodoFile(path: path, lockTimeout: options.lockTimeout, settle: options.settle)
        } catch {
            throw TodoStoreError(error, path: path)
        }
        let document = file.document
        if let line = Self.firstNULLine(document) { throw .binaryFile(path: path, line: line) }
        state = State(document: document, ids: TaskIds(document: document))
        install(listing: Self.listing(state, filter: filter, showsHidden: showsHidden, timeZone: options.timeZone))
        lastError = Self.conflict(in: document, path: path)
    }

    /// `init(path:options:)` for a file URL.
    public convenience init(url: URL, options: Options = Options()) throws(TodoStoreError) {
        guard let path = url.withUnsafeFileSystemRepresentation({ $0.map { String(cString: $0) } }) else {
            throw .fileUnreadable(path: url.absoluteString, reason: "not a file URL")
        }
        try self.init(path: path, options: options)
    }

    /// Keeps `tasks` in step with the file until the calling task is cancelled (a SwiftUI view's
    /// `.task { await store.follow() }`): first the file as it is now (a change made since `init`
    /// included), then every change made elsewhere (another store, an editor, `todo` in a shell, a
    /// sync client's rename), shown after the file has been quiet for `options.settle`. Ids carry
    /// over (docs/store.md, "Identity"). Any number of stores may follow one file.
    public func follow() async {
        let events: AsyncStream<LiveFileEvent>
        do { events = try file.updates() } catch {
            lastError = .fileUnreadable(path: path, reason: error.description)
            return
        }
        for await event in events {
            switch event {
            case .changed(let document): await absorb(document)
            case .removed: await absorb(TodoDocument())
            case .relocated: continue
            case .unreadable(let problem): lastError = TodoStoreError(problem, path: path)
            case .directoryGone: lastError = .fileUnreadable(path: path, reason: "its folder was removed or renamed")
            case .watchFailed(let message): lastError = .fileUnreadable(path: path, reason: message)
            }
        }
    }

    /// A new version of the file read elsewhere: checked, ids carried over and the list prepared
    /// off the main actor; here only installed (`lastInstallDuration` says how long that took).
    package func absorb(_ document: TodoDocument) async {
        let base = state, filter = filter, showsHidden = showsHidden, timeZone = options.timeZone, path = path
        let news = await Self.offMain(prepareQueue) { () -> (problem: TodoStoreError?, prepared: Prepared?) in
            if let line = Self.firstNULLine(document) { return (.binaryFile(path: path, line: line), nil) }
            let problem = Self.conflict(in: document, path: path)
            guard !TaskIds.sameBytes(base.document.rendered()[...], document.rendered()[...]) else { return (problem, nil) }
            return (problem, Self.prepare(base, document, pins: [:], retired: [:], filter: filter, showsHidden: showsHidden,
                                          timeZone: timeZone))
        }
        let start = ContinuousClock.now
        if lastError != news.problem { lastError = news.problem }
        if let prepared = news.prepared {
            install(prepared, preparedFrom: base, filter: filter, showsHidden: showsHidden, pins: [:], retired: [:])
        }
        lastInstallDuration = ContinuousClock.now - start
    }

    /// A new state and its listing, made from `base` off the main actor.
    struct Prepared: Sendable {
        var state: State
        var listing: Listing
    }

    /// What `tasks` and the counts become.
    struct Listing: Sendable {
        var tasks: [TodoTask]
        var openCount: Int
    }

    nonisolated static func prepare(_ base: State, _ document: TodoDocument, pins: [Int: String], retired: [[UInt8]: String],
                                    filter: String, showsHidden: Bool, timeZone: TimeZone) -> Prepared {
        let ids = base.ids.carried(from: base.document, to: document, pinned: pins, retired: retired)
        let state = State(document: document, ids: ids, generation: base.generation + 1)
        return Prepared(state: state, listing: listing(state, filter: filter, showsHidden: showsHidden, timeZone: timeZone))
    }

    /// Installs `prepared` when nothing changed since its `base` was taken; else makes it again
    /// from the state as it is now, here.
    func install(_ prepared: Prepared, preparedFrom base: State, filter: String, showsHidden: Bool,
                 pins: [Int: String], retired: [[UInt8]: String]) {
        let old = state
        defer { prepareQueue.async { withExtendedLifetime(old) {} } }
        if state.generation == base.generation, filter == self.filter, showsHidden == self.showsHidden {
            state = prepared.state
            install(listing: prepared.listing)
            return
        }
        let again = Self.prepare(state, prepared.state.document, pins: pins, retired: retired, filter: self.filter,
                                 showsHidden: self.showsHidden, timeZone: options.timeZone)
        state = again.state
        install(listing: again.listing)
    }

    func install(listing: Listing) {
        // The old list is let go of on another thread: freeing a hundred thousand tasks is work the
        // main actor need not do.
        let old = tasks
        tasks = listing.tasks
        openCount = listing.openCount
        doneCount = listing.tasks.count - listing.openCount
        prepareQueue.async { withExtendedLifetime(old) {} }
    }

    /// The list again after `filter` or `showsHidden` changed.
    func relist() {
        install(listing: Self.listing(state, filter: filter, showsHidden: showsHidden, timeZone: options.timeZone))
    }

    /// The listing rules are TodoTxt's (`TaskList`, the one `todo ui` shows): partition, hidden
    /// tasks, the filter's terms.
    nonisolated static func listing(_ state: State, filter: String, showsHidden: Bool, timeZone: TimeZone) -> Listing {
        var list = TaskList(document: state.document, today: TodoDate.today(in: timeZone), showHidden: showsHidden)
        if !filter.isEmpty { list.setFilter(filter) }
        let document = state.document, ids = state.ids.ids
        let tasks = list.rows.map { TodoTask(id: ids[$0], line: $0 + 1, bytes: document.content(at: $0)) }
        return Listing(tasks: tasks, openCount: list.openCount)
    }

    /// The 1-based line of the first NUL byte, if any: one `memchr` over the file's bytes.
    nonisolated static func firstNULLine(_ document: TodoDocument) -> Int? {
        let bytes = document.rendered()
        let offset: Int? = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, let found = memchr(base, 0, buffer.count) else { return nil }
            return UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
        }
        guard let offset else { return nil }
        return bytes[..<offset].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
    }

    nonisolated static func conflict(in document: TodoDocument, path: String) -> TodoStoreError? {
        ConflictMarkers.firstBlockLine(in: document.rendered()).map { .conflictMarkers(path: path, line: $0) }
    }

    /// Runs `body` on `queue` and returns its result to the caller's actor.
    nonisolated static func offMain<Value: Sendable>(_ queue: DispatchQueue, _ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }
}
