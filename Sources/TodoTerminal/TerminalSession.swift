#if canImport(Glibc)
@preconcurrency import Glibc
#else
import Darwin
#endif
import Dispatch
import Synchronization

/// The controlling terminal of a full-screen program (`todo ui`): raw mode on the way in and the
/// saved mode on every way out, the window size, key bytes with a timeout, and the signals a
/// full-screen program must answer (window resized; terminate, hang up, interrupt; continued after
/// a stop). The one place that knows termios, `TIOCGWINSZ` and the signal numbers.
///
/// Signals are turned into events a `read` returns (`TerminalSession.Input.signal`) through a
/// self-pipe, so the program handles them on its own thread, between two redraws, never inside a
/// write of the todo file.
public final class TerminalSession: @unchecked Sendable {
    /// What a wait for input brings.
    public enum Input: Sendable, Equatable {
        /// Bytes typed (or pasted).
        case bytes([UInt8])
        /// The window was resized.
        case resized
        /// SIGTERM, SIGHUP or SIGINT: restore the terminal and end.
        case terminate(String)
        /// The process was continued after a stop (`fg`): raw mode is back; redraw everything.
        case continued
        /// Nothing within the timeout.
        case timeout
    }

    let input: Int32
    let output: Int32
    private let saved: termios
    private let rawMode: Mutex<Bool>
    private let pipeRead: Int32
    private let pipeWrite: Int32
    private let pending: PendingInputs
    private let sources: [any DispatchSourceSignal]
    private let queue = DispatchQueue(label: "todo.TerminalSession")

    /// The terminal on `input` and `output`; nil when `input` is not a terminal.
    public init?(input: Int32 = 0, output: Int32 = 1) {
        var mode = termios()
        guard isatty(input) == 1, tcgetattr(input, &mode) == 0 else { return nil }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC); _ = fcntl(end, F_SETFL, O_NONBLOCK) }
        self.input = input
        self.output = output
        saved = mode
        rawMode = Mutex(false)
        pipeRead = ends[0]
        pipeWrite = ends[1]
        let pending = PendingInputs()
        self.pending = pending
        var made: [any DispatchSourceSignal] = []
        let wake = ends[1]
        let events: [(Int32, Input)] = [(SIGWINCH, .resized), (SIGTERM, .terminate("SIGTERM")),
                                        (SIGHUP, .terminate("SIGHUP")), (SIGINT, .terminate("SIGINT")),
                                        (SIGCONT, .continued)]
        Self.setBlocked(events.map(\.0), SIG_BLOCK)
        for (number, event) in events {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                pending.events.withLock { $0.append(event) }
                var byte: UInt8 = 1
                _ = systemWrite(wake, &byte, 1)
            }
            source.resume()
            made.append(source)
        }
        sources = made
    }

    deinit {
        restore()
        for source in sources { source.cancel() }
        let numbers = [SIGWINCH, SIGTERM, SIGHUP, SIGINT, SIGCONT]
        for number in numbers { signal(number, SIG_DFL) }
        Self.setBlocked(numbers, SIG_UNBLOCK)
        close(pipeRead)
        close(pipeWrite)
    }

    /// Blocks (or unblocks) `numbers` in the calling thread, and so in every thread it starts later.
    /// On Linux a dispatch signal source reads its signal from a `signalfd`, which sees only a
    /// signal no thread takes: one delivered to a thread that has it unblocked meets `SIG_IGN` and is
    /// gone (a SIGTERM or SIGWINCH lost now and then). Blocked, a signal waits for the `signalfd`.
    /// kqueue sees a signal as it is sent, so elsewhere nothing is blocked.
    private static func setBlocked(_ numbers: [Int32], _ how: Int32) {
        #if canImport(Glibc)
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers { sigaddset(&set, number) }
        _ = pthread_sigmask(how, &set, nil)
        #endif
    }

    /// Raw mode: bytes as typed, no echo, no line editing, no signals from keys (Ctrl-C, Ctrl-Z
    /// arrive as bytes), output as written (a line break is `\r\n`).
    public func enterRawMode() {
        var mode = saved
        cfmakeraw(&mode)
        _ = tcsetattr(input, TCSAFLUSH, &mode)
        rawMode.withLock { $0 = true }
    }

    /// The mode the terminal had before `enterRawMode`. Idempotent.
    public func restore() {
        let wasRaw = rawMode.withLock { raw -> Bool in
            defer { raw = false }
            return raw
        }
        guard wasRaw else { return }
        var mode = saved
        _ = tcsetattr(input, TCSAFLUSH, &mode)
    }

    /// Suspends the process as Ctrl-Z would in a cooked terminal: the caller has restored the
    /// screen; the terminal mode is restored here, the process stops, and when it is continued raw
    /// mode is back (a `.continued` input follows).
    public func suspend() {
        restore()
        signal(SIGTSTP, SIG_DFL)
        kill(getpid(), SIGTSTP)
        enterRawMode()
    }

    /// The window size in columns and rows (80×24 when the terminal does not say).
    public var size: (columns: Int, rows: Int) {
        var window = winsize()
        #if canImport(Glibc)
        let request = UInt(TIOCGWINSZ)
        #else
        let request = TIOCGWINSZ
        #endif
        guard ioctl(output, request, &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return (80, 24) }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Waits at most `timeout` for key bytes or a signal.
    public func read(timeout: Duration) -> Input {
        if let event = takePending() { return event }
        var descriptors = [pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: pipeRead, events: Int16(POLLIN), revents: 0)]
        let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let ready = poll(&descriptors, 2, milliseconds)
        if descriptors[1].revents != 0 {
            var drain = [UInt8](repeating: 0, count: 64)
            while systemRead(pipeRead, &drain, drain.count) > 0 {}
        }
        if let event = takePending() { return event }
        guard ready > 0, descriptors[0].revents != 0 else { return .timeout }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = systemRead(input, &buffer, buffer.count)
        guard count > 0 else { return count == 0 ? .terminate("end of input") : .timeout }
        return .bytes(Array(buffer[0..<count]))
    }

    private func takePending() -> Input? {
        pending.events.withLock { queue in queue.isEmpty ? nil : queue.removeFirst() }
    }

    /// Writes `bytes` to the terminal, all of them.
    public func write(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { systemWrite(output, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}

/// The signals that arrived and were not read yet (shared with the signal handlers).
private final class PendingInputs: Sendable {
    let events = Mutex<[TerminalSession.Input]>([])
}

/// `write(2)` and `read(2)`, named apart from the type's own `write` and `read`.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, buffer, count)
    #else
    Darwin.write(descriptor, buffer, count)
    #endif
}

private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(descriptor, buffer, count)
    #else
    Darwin.read(descriptor, buffer, count)
    #endif
}
