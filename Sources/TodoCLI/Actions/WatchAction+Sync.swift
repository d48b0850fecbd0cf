import Dispatch
import TodoFileSystem

/// `todo watch --sync`: the same `todo sync` (docs/sync.md section 3) after every settled change and
/// every interval otherwise, on a queue of its own so that a slow network never delays a sort.
///
/// A failed sync is logged (once per distinct reason, as a failed sort is) and tried again at the
/// next change or interval; it never ends the watcher. Changes that arrive while a sync runs ask
/// for one more sync after it, not one per change.
final class WatchSync: @unchecked Sendable {
    private let queue = DispatchQueue(label: "todo.watch.sync")
    private let path: String
    private let interval: Duration
    private let invocation: Invocation
    private let quiet: Bool

    // Touched only on `queue`.
    private var requested = false
    private var stopped = false
    private var timer: DispatchSourceTimer?
    private var reportedFailure: String?
    private var failures = 0

    init(path: String, interval: Duration, invocation: Invocation, quiet: Bool) {
        self.path = path
        self.interval = interval
        self.invocation = invocation
        self.quiet = quiet
    }

    /// Syncs once now, then every interval.
    func start() {
        let nanoseconds = Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000)
        queue.async { [self] in
            let timer = DispatchSource.makeTimerSource(queue: queue)
            timer.schedule(deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
            timer.setEventHandler { [self] in sync() }
            self.timer = timer
            timer.resume()
        }
        changed()
    }

    /// The file changed and settled: sync soon (once, however many changes come meanwhile).
    func changed() {
        queue.async { [self] in
            guard !stopped, !requested else { return }
            requested = true
            queue.async { [self] in sync() }
        }
    }

    /// Stops the timer and waits for a sync in progress to end.
    func stop() {
        queue.sync {
            stopped = true
            timer?.cancel()
            timer = nil
        }
    }

    private func sync() {
        guard !stopped else { return }
        requested = false
        let io = invocation.io
        let quiet = self.quiet
        // What `sync` says on stdout is a log line of the watcher, on stderr.
        let logging = CommandIO(writeOutput: { bytes in if !quiet { io.writeError(bytes) } }, writeError: io.writeError,
                                outputIsTerminal: io.errorIsTerminal, errorIsTerminal: io.errorIsTerminal)
        var syncing = Invocation(programName: invocation.programName, environment: invocation.environment,
                                 io: logging, clock: invocation.clock, files: invocation.files)
        syncing.programPath = invocation.programPath
        syncing.quiet = quiet
        do {
            var session = try SyncSession.start(todoPath: path, options: SyncOptions(), invocation: syncing)
            _ = try session.run()
            if failures > 0, !quiet {
                io.printError("\(path): sync works again (after \(failures) failed attempt\(failures == 1 ? "" : "s"))")
            }
            failures = 0
            reportedFailure = nil
        } catch {
            failures += 1
            guard error.text != reportedFailure else { return }
            reportedFailure = error.text
            CLIError.failure("watch: \(error.text); trying again at the next change or in \(interval.components.seconds) s")
                .report(to: io, programName: invocation.programName)
        }
    }
}
