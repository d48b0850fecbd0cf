/// What an injected fault does when its call comes up.
package enum FaultAction: Sendable {
    /// The call fails with this errno without reaching the system (so `EINTR` gets retried by the
    /// seam and the retry, being the next call of its kind, reaches the system).
    case fail(Errno)
    /// Runs the closure, then performs the real call: simulates another process acting at exactly
    /// this moment (an editor saving, `echo task >> todo.txt`).
    case before(@Sendable () -> Void)
}

/// One planned fault: the `occurrence`-th call (1-based) of `kind`, or every call if `nil`.
package struct Fault: Sendable {
    /// Which kind of call to intercept.
    package var kind: SyscallKind
    /// Which call of that kind, counting from 1; `nil` intercepts every one.
    package var occurrence: Int?
    /// What happens instead of (or before) the call.
    package var action: FaultAction

    /// Plans `action` for the `occurrence`-th call of `kind`.
    package init(_ kind: SyscallKind, occurrence: Int?, _ action: FaultAction) {
        self.kind = kind
        self.occurrence = occurrence
        self.action = action
    }
}

/// Builds `Syscalls` values that count every call, record their order, and apply planned faults.
///
/// Thread-safe: the counters are shared by all closures of the `Syscalls` it returns and guarded by a
/// mutex; hooks run outside the mutex so they may perform I/O of their own (through the live calls).
package final class FaultInjector: @unchecked Sendable {
    private let mutex = PlatformMutex()
    private var faults: [Fault]
    private var counts: [SyscallKind: Int] = [:]
    private var log: [SyscallKind] = []

    /// An injector applying `faults`; with none it only counts and records calls.
    package init(_ faults: [Fault] = []) { self.faults = faults }

    /// Every counted call so far, in order.
    package var calls: [SyscallKind] { mutex.withLock { log } }

    /// Forgets the calls seen so far (faults stay planned, counted from the next call).
    package func resetCounts() {
        mutex.withLock {
            counts = [:]
            log = []
        }
    }

    /// Counts the call and returns the errno to fail it with, if one is planned; runs a planned hook.
    private func intercept(_ kind: SyscallKind) -> Errno? {
        let action: FaultAction? = mutex.withLock {
            let n = counts[kind, default: 0] + 1
            counts[kind] = n
            log.append(kind)
            return faults.first { $0.kind == kind && ($0.occurrence == nil || $0.occurrence == n) }?.action
        }
        switch action {
        case .fail(let error): return error
        case .before(let hook):
            hook()
            return nil
        case nil: return nil
        }
    }

    /// `base` with every counted call routed through this injector.
    package func syscalls(wrapping base: Syscalls = .live) -> Syscalls {
        Syscalls(
            open: { a, b, c in self.intercept(.open).map { .failure($0) } ?? base.open(a, b, c) },
            createExclusive: { a, b in self.intercept(.createExclusive).map { .failure($0) } ?? base.createExclusive(a, b) },
            read: { a, b in self.intercept(.read).map { .failure($0) } ?? base.read(a, b) },
            pread: { a, b, c in self.intercept(.pread).map { .failure($0) } ?? base.pread(a, b, c) },
            write: { a, b in self.intercept(.write).map { .failure($0) } ?? base.write(a, b) },
            writeVector: { a, b in self.intercept(.writeVector).map { .failure($0) } ?? base.writeVector(a, b) },
            startWriteback: { a, b, c in self.intercept(.startWriteback).map { .failure($0) } ?? base.startWriteback(a, b, c) },
            fsync: { a in self.intercept(.fsync).map { .failure($0) } ?? base.fsync(a) },
            ftruncate: { a, b in self.intercept(.ftruncate).map { .failure($0) } ?? base.ftruncate(a, b) },
            fchmod: { a, b in self.intercept(.fchmod).map { .failure($0) } ?? base.fchmod(a, b) },
            fchown: { a, b, c in self.intercept(.fchown).map { .failure($0) } ?? base.fchown(a, b, c) },
            fstat: { a in self.intercept(.fstat).map { .failure($0) } ?? base.fstat(a) },
            stat: { a in self.intercept(.stat).map { .failure($0) } ?? base.stat(a) },
            lstat: { a in self.intercept(.lstat).map { .failure($0) } ?? base.lstat(a) },
            access: { a, b in self.intercept(.access).map { .failure($0) } ?? base.access(a, b) },
            rename: { a, b in self.intercept(.rename).map { .failure($0) } ?? base.rename(a, b) },
            renameNoReplace: { a, b in self.intercept(.renameNoReplace).map { .failure($0) } ?? base.renameNoReplace(a, b) },
            renameExchange: { a, b in self.intercept(.renameExchange).map { .failure($0) } ?? base.renameExchange(a, b) },
            unlink: { a in self.intercept(.unlink).map { .failure($0) } ?? base.unlink(a) },
            close: { a in self.intercept(.close).map { .failure($0) } ?? base.close(a) },
            flock: { a, b in self.intercept(.flock).map { .failure($0) } ?? base.flock(a, b) },
            realpath: { a in self.intercept(.realpath).map { .failure($0) } ?? base.realpath(a) },
            makeDirectory: { a, b in self.intercept(.makeDirectory).map { .failure($0) } ?? base.makeDirectory(a, b) },
            directoryEntries: { a, b in self.intercept(.directoryEntries).map { .failure($0) } ?? base.directoryEntries(a, b) },
            sleep: base.sleep,
            random: base.random,
            currentOffset: base.currentOffset, fileSizeLimit: base.fileSizeLimit)
    }
}
