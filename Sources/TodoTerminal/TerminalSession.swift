// A controlling terminal exists only on macOS and Linux: on iOS and visionOS this module holds
// the key decoder, the line editor and display width alone (docs/architecture.md, "Platforms").
#if os(macOS) || os(Linux)
import Dispatch

/// The controlling terminal of a full-screen program (`todo ui`): raw mode on the way in and the
/// saved mode on every way out, the window size, key bytes with a timeout, and the signals a
/// full-screen program must answer (window resized; terminate, hang up, interrupt; continued after
/// a stop). Its C calls are `TerminalPlatform`'s; this type holds the logic.
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
    private let saved: TerminalPlatform.Mode
    private let rawMode: LockedValue<Bool>
    private let pipeRead: Int32
    private let pipeWrite: Int32
    private let pending: PendingInputs
    private let sources: [any DispatchSourceSignal]
    private let queue = DispatchQueue(label: "todo.TerminalSession")

    /// The terminal on `input` and `output`; nil when `input` is not a terminal.
    public init?(input: Int32 = 0, output: Int32 = 1) {
        guard let mode = TerminalPlatform.mode(of: input), let ends = TerminalPlatform.makeWakePipe() else {
            return nil
        }
        self.input = input
        self.output = output
        saved = mode
        rawMode = LockedValue(false)
        pipeRead = ends.read
        pipeWrite = ends.write
        let pending = PendingInputs()
        self.pending = pending
        var made: [any DispatchSourceSignal] = []
        let wake = ends.write
        let events: [(Int32, Input)] = [(TerminalPlatform.windowChanged, .resized),
                                        (TerminalPlatform.terminate, .terminate("SIGTERM")),
                                        (TerminalPlatform.hangUp, .terminate("SIGHUP")),
                                        (TerminalPlatform.interrupt, .terminate("SIGINT")),
                                        (TerminalPlatform.continued, .continued)]
        TerminalPlatform.setBlocked(events.map(\.0), true)
        for (number, event) in events {
            TerminalPlatform.ignore(number)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                pending.events.withLock { $0.append(event) }
                var byte: UInt8 = 1
                _ = TerminalPlatform.write(wake, &byte, 1)
            }
            source.resume()
            made.append(source)
        }
        sources = made
    }

    deinit {
        restore()
        for source in sources { source.cancel() }
        let numbers = [TerminalPlatform.windowChanged, TerminalPlatform.terminate, TerminalPlatform.hangUp,
                       TerminalPlatform.interrupt, TerminalPlatform.continued]
        for number in numbers { TerminalPlatform.restoreDefault(number) }
        TerminalPlatform.setBlocked(numbers, false)
        TerminalPlatform.close(pipeRead)
        TerminalPlatform.close(pipeWrite)
    }

    /// Raw mode: bytes as typed, no echo, no line editing, no signals from keys (Ctrl-C, Ctrl-Z
    /// arrive as bytes), output as written (a line break is `\r\n`).
    public func enterRawMode() {
        TerminalPlatform.setMode(TerminalPlatform.raw(saved), of: input)
        rawMode.withLock { $0 = true }
    }

    /// The mode the terminal had before `enterRawMode`. Idempotent.
    public func restore() {
        let wasRaw = rawMode.withLock { raw -> Bool in
            defer { raw = false }
            return raw
        }
        guard wasRaw else { return }
        TerminalPlatform.setMode(saved, of: input)
    }

    /// Suspends the process as Ctrl-Z would in a cooked terminal: the caller has restored the
    /// screen; the terminal mode is restored here, the process stops, and when it is continued raw
    /// mode is back (a `.continued` input follows).
    public func suspend() {
        restore()
        TerminalPlatform.stopProcess()
        enterRawMode()
    }

    /// The window size in columns and rows (80×24 when the terminal does not say).
    public var size: (columns: Int, rows: Int) {
        TerminalPlatform.windowSize(of: output) ?? (80, 24)
    }

    /// Waits at most `timeout` for key bytes or a signal.
    public func read(timeout: Duration) -> Input {
        if let event = takePending() { return event }
        let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let ready = TerminalPlatform.waitReadable(input, pipeRead, milliseconds: milliseconds)
        if ready.wake {
            var drain = [UInt8](repeating: 0, count: 64)
            while TerminalPlatform.read(pipeRead, &drain, drain.count) > 0 {}
        }
        if let event = takePending() { return event }
        guard ready.anyReady, ready.input else { return .timeout }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = TerminalPlatform.read(input, &buffer, buffer.count)
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
            let written = bytes[offset...].withUnsafeBytes { TerminalPlatform.write(output, $0.baseAddress, $0.count) }
            if written < 0 && TerminalPlatform.wasInterrupted { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}

/// The signals that arrived and were not read yet (shared with the signal handlers).
private final class PendingInputs: Sendable {
    let events = LockedValue<[TerminalSession.Input]>([])
}
#endif
