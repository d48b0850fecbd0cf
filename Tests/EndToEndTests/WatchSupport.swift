import Foundation
import TodoTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A running `todo watch` process for end-to-end tests: stdout and stderr go to files in a scratch
/// directory of their own (never the watched one, so they cause no events there).
final class WatchProcess {
    let pid: pid_t
    let outPath: String
    let errPath: String
    private let scratch: String
    private(set) var exitCode: Int32?

    /// The settle time the tests use (seconds), short so that they are fast.
    static let testSettle = "0.05"

    /// Starts `todo watch ARGUMENTS` with `TODO_WATCH_SETTLE=settle` and default signal handling.
    init?(_ arguments: [String], settle: String = WatchProcess.testSettle, environment: [String: String] = [:]) {
        scratch = Spawn.makeTemporaryDirectory("watch-log")
        outPath = scratch + "/out"
        errPath = scratch + "/err"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        // The child must not inherit a blocked or ignored SIGINT/SIGTERM from a test-runner thread.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var env = ProcessInfo.processInfo.environment
        env["TODO_WATCH_SETTLE"] = settle
        for (key, value) in environment { env[key] = value }
        let cArguments = ([Spawn.todo, "watch"] + arguments).map { strdup($0) } + [nil]
        let cEnvironment = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var child: pid_t = 0
        guard posix_spawn(&child, Spawn.todo, &actions, &attributes, cArguments, cEnvironment) == 0 else { return nil }
        pid = child
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: scratch)
    }

    /// Everything written to stderr so far.
    var log: String { Files.text(errPath) }
    /// Everything written to stdout so far.
    var output: String { Files.text(outPath) }
    /// The stderr lines so far.
    var logLines: [String] { log.split(separator: "\n").map(String.init) }
    /// The `sorted …` lines so far.
    var sortLines: [String] { logLines.filter { $0.hasPrefix("sorted ") } }

    /// Whether the process holds an inotify descriptor (its watch is in place).
    var hasInotify: Bool {
        let directory = "/proc/\(pid)/fd"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return entries.contains { entry in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + entry)) == "anon_inode:inotify"
        }
    }

    /// Waits until the watch is in place (the inotify descriptor exists), then a little longer for the
    /// start-up sort to finish. Returns false if that did not happen within `timeout`.
    func waitUntilWatching(timeout: Double = 5) -> Bool {
        guard eventually(timeout: timeout, { self.hasInotify || !self.isRunning }) else { return false }
        usleep(100_000)
        return isRunning
    }

    /// Whether the process has not exited yet (reaps it if it has).
    var isRunning: Bool {
        if exitCode != nil { return false }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid {
            exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
            return false
        }
        return true
    }

    /// Sends `signal`.
    func send(_ signal: Int32) { kill(pid, signal) }

    /// Waits for the process to exit within `timeout`; returns its exit code, or nil if it is still running.
    func waitForExit(timeout: Double) -> Int32? {
        _ = eventually(timeout: timeout) { !self.isRunning }
        return exitCode
    }

    /// Kills the process (SIGKILL) if it still runs and reaps it.
    func stop() {
        guard isRunning else { return }
        kill(pid, SIGKILL)
        _ = waitForExit(timeout: 5)
    }

    /// utime + stime of the process, in clock ticks (/proc/PID/stat fields 14 and 15).
    var cpuTicks: Int? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state); utime is field 14, stime field 15.
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }
}

/// Polls `condition` every 5 ms until it holds or `timeout` seconds have passed.
func eventually(timeout: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(5_000)
    }
    return condition()
}

/// Runs `script` with `sh -c` in `directory` (a real writer process) and waits for it.
@discardableResult
func shell(_ script: String, in directory: String) -> ProcessResult {
    Spawn.run(["sh", "-c", "cd \"$1\" && " + script, "sh", directory])
}

/// What identifies one version of a file on disk: inode, size and modification time.
struct DiskIdentity: Equatable, CustomStringConvertible {
    let inode: UInt64
    let size: Int
    let seconds: Int
    let nanoseconds: Int

    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        inode = UInt64(info.st_ino)
        size = Int(info.st_size)
        seconds = info.st_mtim.tv_sec
        nanoseconds = info.st_mtim.tv_nsec
    }

    var description: String { "inode \(inode), \(size) bytes, mtime \(seconds).\(nanoseconds)" }
}

/// The temporary files (`.NAME.XXXXXX.tmp`) left in `directory`.
func temporaryFiles(in directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".tmp") }
}
