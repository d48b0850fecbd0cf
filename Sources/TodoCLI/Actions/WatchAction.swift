import Dispatch
import TodoFileSystem
import TodoTxt

/// `todo watch [--poll SECONDS] [--list] [--reconcile] [--sync] [-q] [FILE]`: keeps the file sorted while
/// people edit it and sync clients replace it (docs/files.md section 3).
///
/// The file is sorted once at start, then again after every settled change, with the same rules and
/// the same safe replacement as `todo sort`. A sort that changes nothing writes nothing, so the
/// watcher's own write (which comes back as an event) ends in one read and no second write, and two
/// watchers on one file settle after at most one write each.
///
/// Logs one line when it starts (`watching todo.txt`) and one per action on stderr (`sorted
/// todo.txt: 2 completed tasks moved`); `-q` silences
/// them, errors are always shown. Runs until SIGINT or SIGTERM (exit 0, between two writes, no
/// temporary file left), or until the path leads to no directory (the directory or one above it
/// removed or renamed) or becomes unusable (exit 1). It follows the path when it comes to lead to
/// another file (a symlink re-pointed), and retries a sort that failed for a reason that may pass
/// (docs/todo-command.md, "`todo watch`").
///
/// `TODO_WATCH_SETTLE` (seconds) overrides the settle time, the quiet period awaited after a change
/// before the file is read (default `FileWatcher.defaultSettle`, 150 ms).
enum WatchAction {
    static let spec = ActionSpec(
        name: "watch",
        options: [
            .valued("--poll", value: "SECONDS", meaning: "look at the file every SECONDS instead of using file notifications."),
            .flag("--list", meaning: "print the list after every sort."),
            .flag("--reconcile", meaning: "merge sync-conflict copies as they appear (see reconcile)."),
            .flag("--sync", meaning: "run todo sync after every settled change, and every 300 s otherwise."),
            .valued("--sync-every", value: "SECONDS", meaning: "with --sync (which it implies): every SECONDS instead of 300."),
            .flag("-q", "--quiet", meaning: "no log lines; errors are still shown."),
        ],
        arguments: "[FILE]",
        summary: "Keep the file sorted while it changes: re-sort after every save until stopped.",
        completes: .files,
        group: .file,
        notes: ["TODO_WATCH_SETTLE: seconds the file must be quiet before it is read (default \(defaultSettleSeconds))."],
        parsed: { invocation, parsed, usage throws(CLIError) in
            var backend = FileWatcherBackend.automatic
            if let text = parsed.values["--poll"] {
                guard let interval = seconds(text, allowingZero: false) else {
                    throw .usage("--poll takes a number of seconds between 0.01 and 86400, not '\(text)'")
                }
                backend = .polling(interval: interval)
            }
            var settle = FileWatcher.defaultSettle
            if let text = invocation.environment["TODO_WATCH_SETTLE"], !text.isEmpty {
                guard let value = seconds(text, allowingZero: true) else {
                    // The range `seconds(_:allowingZero: true)` accepts, so the user knows what to give;
                    // a text that is no number at all is told so rather than "out of range".
                    let problem = Double(text).map { !$0.isNaN } == true ? "is out of range" : "is not a number"
                    throw .usage("TODO_WATCH_SETTLE: '\(text)' \(problem); give 0 or seconds from 0.01 to 86400")
                }
                settle = value
            }
            var syncInterval: Duration? = parsed.flags.contains("--sync") ? .seconds(300) : nil
            if let text = parsed.values["--sync-every"] {
                guard let interval = seconds(text, allowingZero: false), interval >= .seconds(1) else {
                    throw .usage("--sync-every takes a number of seconds between 1 and 86400, not '\(text)'")
                }
                syncInterval = interval
            }
            let options = WatchOptions(
                path: invocation.todoFilePath(explicit: parsed.positionals.first),
                backend: backend, settle: settle,
                lists: parsed.flags.contains("--list"),
                reconciles: parsed.flags.contains("--reconcile"),
                syncInterval: syncInterval,
                quiet: invocation.quiet || parsed.flags.contains("-q") || parsed.flags.contains("--quiet"))
            return try WatchSession(options, invocation: invocation).run()
        })

    /// The watcher's default settle time in seconds, as `help watch` states it.
    static var defaultSettleSeconds: Double {
        let settle = FileWatcher.defaultSettle.components
        return Double(settle.seconds) + Double(settle.attoseconds) / 1e18
    }

    /// A duration from a decimal number of seconds: at least 10 ms (or zero when allowed), at most a day.
    static func seconds(_ text: String, allowingZero: Bool) -> Duration? {
        guard let value = Double(text), value.isFinite, value <= 86_400 else { return nil }
        if value == 0 && allowingZero { return .zero }
        guard value >= 0.01 else { return nil }
        return .nanoseconds(Int64((value * 1e9).rounded()))
    }

    /// How many completed tasks `order` (a sorted order of `document`) puts somewhere else.
    ///
    /// Complexity: O(n) in the number of lines.
    static func completedTasksMoved(by order: [Int], in document: TodoDocument) -> Int {
        var moved = 0
        for (position, index) in order.enumerated() where position != index {
            if TodoItem.classify(document.content(at: index)).isCompleted { moved += 1 }
        }
        return moved
    }

    /// The task list as `--list` prints it: one line per non-blank line, `NR text` with the number
    /// zero-padded to the width of the line count (as todo.sh does), then a `--` summary line.
    /// Control characters are escaped when `escaping` (output to a terminal).
    static func listing(_ document: TodoDocument, path: String, escaping: Bool) -> [UInt8] {
        let width = String(document.lineCount).utf8.count
        var out: [UInt8] = []
        var tasks = 0
        var done = 0
        for index in 0..<document.lineCount {
            let content = document.content(at: index)
            let kind = TodoItem.classify(content)
            if kind.isBlank { continue }
            tasks += 1
            if kind.isCompleted { done += 1 }
            let number = String(index + 1)
            out += Array(String(repeating: "0", count: max(0, width - number.utf8.count)).utf8) + Array(number.utf8)
            out.append(0x20)
            out += escaping ? TerminalText.escapingControls(content) : Array(content)
            out.append(0x0A)
        }
        out += Array("-- \(path): \(tasks) task\(tasks == 1 ? "" : "s"), \(done) done\n".utf8)
        return out
    }
}

/// What `todo watch` was asked to do.
struct WatchOptions: Sendable {
    let path: String
    let backend: FileWatcherBackend
    let settle: Duration
    let lists: Bool
    let reconciles: Bool
    /// `--sync`: how often to sync besides after every change; nil: never.
    var syncInterval: Duration?
    let quiet: Bool
}

/// One run of `todo watch`: a `LiveTodoFile` (the watching and the safe writes every live program
/// uses), the termination signals, and the sorting they trigger.
///
/// Concurrency: every handler (file events, sibling names, signals) runs on `queue`, one at a time,
/// and the mutable state is touched only there. A signal therefore never interrupts a replacement:
/// it is handled after the current write has finished (or failed and cleaned up). The calling thread
/// waits on a semaphore and does the teardown.
final class WatchSession: @unchecked Sendable {
    private let options: WatchOptions
    private let invocation: Invocation
    private let queue = DispatchQueue(label: "todo.watch")
    private let finished = DispatchSemaphore(value: 0)
    private let syncing: WatchSync?

    // Touched only on `queue`.
    private var exitCode: Int32?
    private var waitingForFile = false
    /// The file did not exist at start and has not appeared yet.
    private var neverSeen = false
    /// What `--list` printed last, so that a version that lists the same (a blank line added) does
    /// not print the same list again.
    private var lastListing: [UInt8]?
    /// The sorts that failed in a row for a reason that may pass (a lock held, no write permission,
    /// a full disk), and the last such reason reported: retried with backoff until one works.
    private var failedSorts = 0
    private var reportedFailure: String?
    /// Bumped by every sort, so that only the retry scheduled by the latest failure runs.
    private var sortGeneration = 0

    init(_ options: WatchOptions, invocation: Invocation) {
        self.options = options
        self.invocation = invocation
        syncing = options.syncInterval.map { WatchSync(path: options.path, interval: $0, invocation: invocation, quiet: options.quiet) }
    }

    /// Watches until a signal or a fatal event; returns the exit code.
    func run() throws(CLIError) -> Int32 {
        let path = options.path
        let warn = invocation.warn
        let file: LiveTodoFile
        do {
            file = try LiveTodoFile(path: path, fileSystem: invocation.files.fileSystem, lockTimeout: invocation.lockTimeout,
                                    settle: options.settle, backend: options.backend, queue: queue) { note in
                if let message = FileAccess.message(for: note, path: path) { warn(message) }
            }
        } catch {
            // A path that cannot even be read (a directory, no permission) cannot be watched either.
            throw .failure("watch: cannot watch \(path): \(error)")
        }
        let signals = TerminationSignals(queue: queue) { [self] _ in finish(0) }
        var onSibling: (@Sendable (String) -> Void)?
        if options.reconciles { onSibling = { @Sendable [self] name in siblingAppeared(name, file) } }
        do throws(FileWatcherError) {
            try file.start(onSibling: onSibling) { @Sendable [self] event in handle(event, file) }
        } catch {
            signals.cancel()
            throw .failure("watch: \(error.message)")
        }
        if let reason = file.watchStatus?.fallbackReason {
            log("\(path): file notifications unavailable (\(reason)); polling instead")
        }
        queue.async { [self] in startUp(file) }
        syncing?.start()
        finished.wait()
        syncing?.stop()
        file.stop()
        signals.cancel()
        return queue.sync { exitCode ?? 0 }
    }

    // MARK: - On queue

    private func finish(_ code: Int32) {
        guard exitCode == nil else { return }
        exitCode = code
        finished.signal()
    }

    private func startUp(_ file: LiveTodoFile) {
        guard exitCode == nil else { return }
        // One line to say it runs (a service's log, or a terminal that would otherwise stay blank).
        log("watching \(options.path)")
        if options.reconciles { reconcile(file) }
        if invocation.files.fileSystem.exists(options.path) {
            sort(file)
            if options.lists { list(file.document) }
        } else {
            waitingForFile = true
            neverSeen = true
            log("\(options.path) does not exist yet; waiting for it")
        }
    }

    private func handle(_ event: LiveFileEvent, _ file: LiveTodoFile) {
        guard exitCode == nil else { return }
        switch event {
        case .changed:
            if waitingForFile {
                waitingForFile = false
                log(neverSeen ? "\(options.path) appeared" : "\(options.path) is back")
                neverSeen = false
            }
            sort(file)
            if options.lists { list(file.document) }
            syncing?.changed()
        case .removed:
            waitingForFile = true
            log("\(options.path) removed; waiting for it to come back")
        case .relocated(let place):
            log("\(options.path) now leads to \(place); watching it there")
        case .unreadable(let error):
            report(.failure(error.description))
        case .directoryGone:
            let directory = FileAccess.directoryName(of: options.path)
            fail("watch: the directory of \(options.path) (\(directory)) was removed, renamed or unmounted; stopping")
        case .watchFailed(let message):
            fail("watch: \(message); stopping")
        }
    }

    private func siblingAppeared(_ name: String, _ file: LiveTodoFile) {
        guard exitCode == nil, let status = file.watchStatus else { return }
        let doneName = invocation.doneFilePath(forTodoFile: options.path).split(separator: "/").last.map(String.init) ?? "done.txt"
        let isCopy = [status.name, doneName].contains { !ConflictCopies.copies(of: $0, in: [name]).isEmpty }
        guard isCopy else { return }
        reconcile(file)
        sort(file)
        if options.lists { list(file.document) }
    }

    /// Re-sorts the file as it is now, under the lock; logs one line when something moved, nothing
    /// otherwise (a sorted file is not written).
    ///
    /// A sort that failed for a reason that may pass by itself (`retries`) is tried again after
    /// `retryDelay`, growing, until one works: the failure is reported once (again only if the
    /// reason changes), the recovery in one log line.
    private func sort(_ file: LiveTodoFile) {
        sortGeneration += 1
        var moved = 0
        do {
            try file.update { (document: inout TodoDocument) throws(LiveEditError) in
                let order = document.sortedOrder()
                moved = WatchAction.completedTasksMoved(by: order, in: document)
                document.reorder(order)
            }
            if failedSorts > 0 {
                log("\(options.path): sorting works again (after \(failedSorts) failed attempt\(failedSorts == 1 ? "" : "s"))")
                failedSorts = 0
                reportedFailure = nil
            }
            if moved > 0 { log("sorted \(options.path): \(moved) completed task\(moved == 1 ? "" : "s") moved") }
        } catch {
            // A conflict block is left alone (reported, watching goes on) until someone resolves it;
            // a file gone between the event and the read is reported as `.removed` next.
            if !invocation.files.fileSystem.exists(options.path) { return }
            guard Self.retries(error) else {
                report(.failure(error.description))
                return
            }
            failedSorts += 1
            if error.description != reportedFailure {
                reportedFailure = error.description
                report(.failure("\(error.description); trying again until it works"))
            }
            let generation = sortGeneration
            queue.asyncAfter(deadline: .now() + Self.retryDelay(afterFailures: failedSorts)) { [self] in
                guard exitCode == nil, generation == sortGeneration else { return }
                sort(file)
                if options.lists { list(file.document) }
            }
        }
    }

    /// Whether a failed sort may work later with the file as it is: not for what only an edit of
    /// the file fixes (a conflict block, a NUL byte, the size limit), which comes as an event anyway.
    static func retries(_ error: LiveEditError) -> Bool {
        switch error {
        case .conflictMarkers, .taskGone, .changedMeanwhile, .edit, .refused: false
        case .file(let problem):
            switch problem {
            case .holdsNUL, .tooLarge, .isDirectory, .notRegularFile, .notFound: false
            // Append failures: a sort never appends, and the process's size limit never changes.
            case .beyondFileSizeLimit, .appendLeftBytes: false
            case .failed, .renameFailed, .readOnly, .keptChanging, .locked, .openForWriting: true
            }
        }
    }

    /// The wait before retry number `failures`: half a second, doubling, at most 30 s.
    static func retryDelay(afterFailures failures: Int) -> DispatchTimeInterval {
        .milliseconds(min(500 << min(failures - 1, 10), 30_000))
    }

    private func reconcile(_ file: LiveTodoFile) {
        let io = invocation.io
        let quiet = options.quiet
        let logging = CommandIO(writeOutput: { bytes in if !quiet { io.writeError(bytes) } },
                                writeError: io.writeError,
                                outputIsTerminal: io.errorIsTerminal, errorIsTerminal: io.errorIsTerminal)
        var reconciling = Invocation(programName: invocation.programName, environment: invocation.environment,
                                     io: logging, clock: invocation.clock, files: invocation.files)
        reconciling.quiet = quiet
        do {
            _ = try ReconcileAction.reconcile(todoPath: options.path, keep: false, invocation: reconciling)
        } catch {
            if !invocation.files.fileSystem.exists(options.path) { return }
            report(error)
        }
    }

    private func list(_ document: TodoDocument) {
        let listing = WatchAction.listing(document, path: options.path, escaping: invocation.io.outputIsTerminal)
        guard listing != lastListing else { return }
        lastListing = listing
        invocation.io.writeOutput(listing)
    }

    // MARK: - Output

    private func log(_ text: String) {
        if !options.quiet { invocation.io.printError(text) }
    }

    private func report(_ error: CLIError) {
        error.report(to: invocation.io, programName: invocation.programName)
    }

    private func fail(_ message: String) {
        report(.failure(message))
        finish(1)
    }
}
