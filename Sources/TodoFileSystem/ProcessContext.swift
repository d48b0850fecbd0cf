// Platform.swift refuses any platform other than Linux and Darwin, once for the module.
#if canImport(Glibc)
@preconcurrency import Glibc
#else
import Darwin
#endif
import CTodoSystem
import Dispatch

/// What the command line needs from the process and the OS, outside files: the environment, the
/// clock in local time, whether a stream is a terminal, and writing to the standard streams.
///
/// It lives here so that the CLI holds no platform code.
package enum ProcessContext {
    /// The process environment as a dictionary (later duplicates win, as getenv would not; in practice
    /// there are none).
    package static func environment() -> [String: String] {
        var result: [String: String] = [:]
        // `environ` through C: Darwin's headers do not declare it.
        guard var pointer = ctodo_environment() else { return result }
        while let entry = pointer.pointee {
            let pair = String(cString: entry)
            if let equals = pair.firstIndex(of: "=") {
                result[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }

    /// One variable of the process environment, or nil when it is unset.
    package static func environmentValue(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// This machine's name as `gethostname` reports it (`todo sync`'s commit messages), or
    /// `unknown-host` when it has none.
    package static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "unknown-host" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "unknown-host" : name
    }

    /// Seconds since the epoch, now.
    package static func now() -> Int {
        Int(time(nil))
    }

    /// The local calendar date and time of `seconds` since the epoch (respects `TZ`).
    package static func localTime(_ seconds: Int) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        var value = time_t(seconds)
        var parts = tm()
        localtime_r(&value, &parts)
        return (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }

    /// Ignores SIGXFSZ for the rest of the process, so that a write beyond the file size limit
    /// (`ulimit -f`) fails with `EFBIG`, which the file layer reports and repairs, instead of killing
    /// the process with half a line written (docs/files.md, "Appending"). Children get the default
    /// back (`ProcessSpawning`).
    package static func ignoreFileSizeSignal() { signal(SIGXFSZ, SIG_IGN) }

    /// The effective user id (`geteuid`): who owns what this process would run.
    package static func effectiveUserID() -> UInt32 { UInt32(geteuid()) }

    /// Whether file descriptor `descriptor` is a terminal.
    package static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// This process's id (`getpid`).
    package static func processID() -> Int32 { getpid() }

    /// Whether a process with this id exists (`kill(pid, 0)`; one of another user's counts too).
    package static func processExists(_ pid: Int32) -> Bool { pid > 0 && (kill(pid, 0) == 0 || errno == EPERM) }

    /// Writes all of `bytes` to `descriptor` (1 or 2), retrying short writes and EINTR. Errors such
    /// as EPIPE end the write silently: there is nowhere left to report them.
    package static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        bytes.withUnsafeBytes { buffer in
            guard var pointer = buffer.baseAddress else { return }
            var remaining = buffer.count
            while remaining > 0 {
                let written = write(descriptor, pointer, remaining)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                pointer += written
                remaining -= written
            }
        }
    }
}

extension ProcessContext {
    /// Ends the process with `status`.
    package static func exit(_ status: Int32) -> Never {
        #if canImport(Glibc)
        Glibc.exit(status)
        #else
        Darwin.exit(status)
        #endif
    }
}


/// SIGINT and SIGTERM delivered as events on a dispatch queue instead of ending the process, so a
/// long-running command (`todo watch`) can stop between two writes and leave no temporary file.
///
/// The signals are ignored first (otherwise their default action would kill the process before the
/// dispatch source sees them), then watched with `DispatchSource.makeSignalSource`. The handler runs
/// on `queue`, so when `queue` is the one that does the writes, a signal waits until the current
/// write has finished. `cancel()` stops the sources and restores the default actions.
///
/// Idle cost: none; the sources wake nothing until a signal arrives.
package final class TerminationSignals: @unchecked Sendable {
    /// The signals handled: SIGINT, SIGTERM.
    package static let numbers: [Int32] = [SIGINT, SIGTERM]

    // Written once in init, then only read.
    private let sources: [any DispatchSourceSignal]

    /// Starts handling SIGINT and SIGTERM: `handler` gets the signal's name ("SIGINT", "SIGTERM")
    /// on `queue`, once per delivery.
    package init(queue: DispatchQueue, handler: @escaping @Sendable (String) -> Void) {
        var made: [any DispatchSourceSignal] = []
        for number in Self.numbers {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            let name = number == SIGINT ? "SIGINT" : "SIGTERM"
            source.setEventHandler { @Sendable in handler(name) }
            source.resume()
            made.append(source)
        }
        sources = made
    }

    /// Stops the sources and restores the default actions of the signals. Idempotent.
    package func cancel() {
        for source in sources where !source.isCancelled { source.cancel() }
        for number in Self.numbers { signal(number, SIG_DFL) }
    }
}
