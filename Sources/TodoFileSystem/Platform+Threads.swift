// A mutex, a value behind it and a background thread without Foundation, Dispatch or Synchronization.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("TodoFileSystem supports Linux (Glibc) and Darwin only")
#endif
import CTodoSystem

// MARK: - a mutex without Foundation or Synchronization

/// A `pthread_mutex_t` on the heap (a mutex must not move, so it cannot live inline in a Swift value).
/// Guards the fault injector's counters, which all closures of one `Syscalls` value share.
final class PlatformMutex: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    func withLock<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}

/// A value that only one thread at a time reads or changes, behind a `PlatformMutex`: what
/// `Synchronization.Mutex` gives, on every platform Package.swift declares (`Mutex` needs macOS 15,
/// iOS 18 or visionOS 2; docs/architecture.md, "Platforms"). For the live file's current version and
/// the CLI's hand-overs between threads.
package final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let mutex = PlatformMutex()
    // Touched only inside `mutex.withLock`.
    private var value: Value

    /// Guards `value` from now on.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` on the value with the lock held; nothing else reads or changes it meanwhile.
    package func withLock<T, Failure: Error>(_ body: (inout Value) throws(Failure) -> T) throws(Failure) -> T {
        let outcome: Result<T, Failure> = mutex.withLock { Result { () throws(Failure) in try body(&value) } }
        return try outcome.get()
    }
}

// MARK: - a background thread without Foundation or Dispatch

/// Work running on a thread of its own while the caller goes on; `join()` waits for its value.
///
/// Used where two cores can overlap two independent steps (the compare-and-swap check of a large
/// file runs while the new content is computed and written). `join()` must be called before
/// anything the work uses goes away; it is idempotent. The value is written by the thread and read
/// only after `pthread_join`, which orders the two, hence `@unchecked Sendable`.
package final class BackgroundJob<Value: Sendable>: @unchecked Sendable {
    private let mutex = PlatformMutex()
    private var cancelled = false
    private var value: Value?
    #if canImport(Glibc)
    private var thread = pthread_t()
    #else
    private var thread: pthread_t?
    #endif
    private var joined = false

    private init() {}

    /// Starts `body` on a new thread; `nil` if the system refused one (the caller then does the
    /// work itself). `body` receives the job, to poll `isCancelled`.
    package static func start(_ body: @escaping @Sendable (BackgroundJob<Value>) -> Value) -> BackgroundJob<Value>? {
        let job = BackgroundJob<Value>()
        let start = ThreadStart { job.value = body(job) }
        let context = Unmanaged.passRetained(start).toOpaque()
        guard pthread_create(&job.thread, nil, threadEntry, context) == 0 else {
            Unmanaged<ThreadStart>.fromOpaque(context).release()
            return nil
        }
        return job
    }

    /// Whether `cancel()` was called: long work checks it now and then and stops early.
    package var isCancelled: Bool { mutex.withLock { cancelled } }

    /// Asks the work to stop early; its value is then meaningless.
    package func cancel() { mutex.withLock { cancelled = true } }

    /// Waits for the work to finish and hands its value over, keeping no reference to it: a large
    /// value the caller then changes in place is not copied first. Called at most once, and not
    /// after `join()` needs the value again.
    package func takeValue() -> Value {
        let taken = join()
        value = nil
        return taken
    }

    /// Waits for the work to finish, its value left unread (a job whose work was not needed).
    package func wait() {
        if !joined {
            #if canImport(Glibc)
            pthread_join(thread, nil)
            #else
            if let thread { pthread_join(thread, nil) }
            #endif
            joined = true
        }
    }

    /// Waits for the work to finish and returns its value.
    package func join() -> Value {
        wait()
        guard let value else { preconditionFailure("BackgroundJob: the thread ended without a value") }
        return value
    }
}

/// The closure a new thread runs, passed through `pthread_create`'s context pointer.
private final class ThreadStart {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

#if canImport(Glibc)
private func threadEntry(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    Unmanaged<ThreadStart>.fromOpaque(context).takeRetainedValue().run()
    return nil
}
#else
private func threadEntry(_ context: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    Unmanaged<ThreadStart>.fromOpaque(context).takeRetainedValue().run()
    return nil
}
#endif
