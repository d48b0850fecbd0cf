// A controlling terminal exists only on macOS and Linux: on iOS and visionOS this module holds
// the key decoder, the line editor and display width alone (docs/architecture.md, "Platforms").
#if os(macOS) || os(Linux)
#if os(Linux)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("TodoTerminal supports Linux (Glibc) and Darwin only")
#endif

/// Every C call `TerminalSession` makes, and the one place the platforms differ for it: termios,
/// `TIOCGWINSZ`'s type, the signal mask a Linux `signalfd` needs, `poll`, `read` and `write`.
/// `TerminalSession` keeps the logic (when to enter raw mode, which signal means what, the
/// self-pipe protocol) and imports no C library.
enum TerminalPlatform {
    /// A terminal's saved mode (`struct termios`).
    typealias Mode = termios

    /// The signals a full-screen program answers.
    static let windowChanged = SIGWINCH
    static let terminate = SIGTERM
    static let hangUp = SIGHUP
    static let interrupt = SIGINT
    static let continued = SIGCONT

    /// The mode of the terminal on `descriptor`; nil when it is not a terminal.
    static func mode(of descriptor: Int32) -> Mode? {
        var mode = termios()
        guard isatty(descriptor) == 1, tcgetattr(descriptor, &mode) == 0 else { return nil }
        return mode
    }

    /// `mode` with raw input and output (`cfmakeraw`).
    static func raw(_ mode: Mode) -> Mode {
        var raw = mode
        cfmakeraw(&raw)
        return raw
    }

    /// Sets the mode of the terminal on `descriptor`, once pending output is written.
    static func setMode(_ mode: Mode, of descriptor: Int32) {
        var mode = mode
        _ = tcsetattr(descriptor, TCSAFLUSH, &mode)
    }

    /// A pipe whose ends are close-on-exec and non-blocking: (read end, write end).
    static func makeWakePipe() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC); _ = fcntl(end, F_SETFL, O_NONBLOCK) }
        return (ends[0], ends[1])
    }

    static func close(_ descriptor: Int32) {
        #if os(Linux)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }

    /// The signal is ignored by the process (a dispatch source still sees it).
    static func ignore(_ number: Int32) { signal(number, SIG_IGN) }

    /// The signal's default action is back.
    static func restoreDefault(_ number: Int32) { signal(number, SIG_DFL) }

    /// Blocks (or unblocks) `numbers` in the calling thread, and so in every thread it starts later.
    /// On Linux a dispatch signal source reads its signal from a `signalfd`, which sees only a
    /// signal no thread takes: one delivered to a thread that has it unblocked meets `SIG_IGN` and is
    /// gone (a SIGTERM or SIGWINCH lost now and then). Blocked, a signal waits for the `signalfd`.
    /// kqueue sees a signal as it is sent, so elsewhere nothing is blocked.
    static func setBlocked(_ numbers: [Int32], _ blocked: Bool) {
        #if os(Linux)
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers { sigaddset(&set, number) }
        _ = pthread_sigmask(blocked ? SIG_BLOCK : SIG_UNBLOCK, &set, nil)
        #endif
    }

    /// Stops the process as Ctrl-Z in a cooked terminal would (SIGTSTP with its default action);
    /// returns once it is continued.
    static func stopProcess() {
        signal(SIGTSTP, SIG_DFL)
        kill(getpid(), SIGTSTP)
    }

    /// The window size of the terminal on `descriptor`, nil when it does not say.
    static func windowSize(of descriptor: Int32) -> (columns: Int, rows: Int)? {
        var window = winsize()
        #if os(Linux)
        let request = UInt(TIOCGWINSZ)
        #else
        let request = TIOCGWINSZ
        #endif
        guard ioctl(descriptor, request, &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return nil }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Waits at most `milliseconds` for `input` or `wake` to be readable (`poll`): whether any
    /// descriptor is ready, and which.
    static func waitReadable(_ input: Int32, _ wake: Int32, milliseconds: Int32)
        -> (anyReady: Bool, input: Bool, wake: Bool) {
        var descriptors = [pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&descriptors, 2, milliseconds)
        return (ready > 0, descriptors[0].revents != 0, descriptors[1].revents != 0)
    }

    /// `read(2)`: the byte count, 0 at end of input, negative on failure.
    static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        #if os(Linux)
        Glibc.read(descriptor, buffer, count)
        #else
        Darwin.read(descriptor, buffer, count)
        #endif
    }

    /// `write(2)`: the byte count, negative on failure.
    static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if os(Linux)
        Glibc.write(descriptor, buffer, count)
        #else
        Darwin.write(descriptor, buffer, count)
        #endif
    }

    /// Whether the last failed call was interrupted by a signal (`EINTR`).
    static var wasInterrupted: Bool { errno == EINTR }
}

/// A value that only one thread at a time reads or changes, behind a `pthread_mutex_t` on the heap
/// (a mutex must not move): what `Synchronization.Mutex` gives, on every platform Package.swift
/// declares (`Mutex` needs macOS 15; docs/architecture.md, "Platforms").
final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    // Touched only with `mutex` held.
    private var value: Value

    init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` on the value with the lock held.
    func withLock<T>(_ body: (inout Value) -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&value)
    }
}
#endif
