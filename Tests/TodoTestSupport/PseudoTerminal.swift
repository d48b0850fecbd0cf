import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `todo ui` (or any program) running in a pseudo-terminal of its own: its own session with the
/// terminal as its controlling one, so it gets raw mode, window-size changes and signals exactly
/// as in a real terminal. What it writes is applied to a `ScreenModel`. Used by the UI's end-to-end
/// tests and by the benchmark's `ui` section.
public final class PseudoTerminalProcess {
    public let master: Int32
    public let pid: pid_t
    public private(set) var screen: ScreenModel
    /// Every byte the program wrote.
    public private(set) var output: [UInt8] = []
    private var exitStatus: Int32?

    public init?(_ argv: [String], environment: [String: String], columns: Int = 80, rows: Int = 24) {
        guard let pty = PseudoTerminalCalls.load() else { return nil }
        let master = pty.openpt(O_RDWR | O_NOCTTY)
        guard master >= 0, pty.grantpt(master) == 0, pty.unlockpt(master) == 0, let name = pty.ptsname(master) else { return nil }
        let slavePath = String(cString: name)
        var window = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &window)
        _ = fcntl(master, F_SETFL, fcntl(master, F_GETFL) | O_NONBLOCK)
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A session of its own (POSIX_SPAWN_SETSID), so opening the terminal makes it the
        // controlling one.
        posix_spawnattr_setflags(&attributes, Int16(0x80))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var child: pid_t = 0
        guard posix_spawn(&child, argv[0], &actions, &attributes, cArguments, cEnvironment) == 0 else {
            close(master)
            return nil
        }
        self.master = master
        pid = child
        screen = ScreenModel(columns: columns, rows: rows)
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        close(master)
    }

    /// Sends text as typed.
    public func send(_ text: String) { send(Array(text.utf8)) }

    /// Sends bytes as typed. Gives up when the terminal no longer takes them (the program has
    /// ended), rather than retrying forever.
    public func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
            } else if written < 0 && errno != EAGAIN && errno != EINTR {
                return
            } else {
                pump()
                usleep(1000)
            }
        }
    }

    /// Reads what the program wrote so far into the screen.
    public func pump() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(master, &buffer, buffer.count)
            guard count > 0 else { return }
            output += buffer[0..<count]
            screen.apply(Array(buffer[0..<count]))
        }
    }

    /// Waits up to `timeout` (without polling in steps: the wait ends as soon as the program
    /// writes) for more output, then reads what there is; whether anything arrived.
    @discardableResult
    public func pump(waitingUpTo timeout: Duration) -> Bool {
        let before = output.count
        var watched = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        _ = poll(&watched, 1, max(0, milliseconds))
        pump()
        return output.count > before
    }

    /// Pumps until `condition` holds on the screen or `timeout` passes; whether it held.
    @discardableResult
    public func waitFor(timeout: Double = 3, _ condition: (ScreenModel) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            pump()
            if condition(screen) { return true }
            usleep(10_000)
        }
        pump()
        return condition(screen)
    }

    /// Waits until the screen shows `text` somewhere.
    @discardableResult
    public func waitForText(_ text: String, timeout: Double = 3) -> Bool { waitFor(timeout: timeout) { $0.text.contains(text) } }

    /// Changes the window size (the kernel sends SIGWINCH to the program).
    /// What was drawn for the old size is read first and the screen model replaced before the
    /// size changes, so the redraw always lands on the new model.
    public func resize(columns: Int, rows: Int) {
        pump()
        screen = ScreenModel(columns: columns, rows: rows)
        var window = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &window)
    }

    /// The exit status once the program ended within `timeout` (0: has it ended now?), else nil.
    public func waitForExit(timeout: Double = 3) -> Int32? {
        if let exitStatus { return exitStatus }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            pump()
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                pump()
                exitStatus = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
                return exitStatus
            }
            guard Date() < deadline else { return nil }
            usleep(10_000)
        }
    }
}

/// posix_openpt, grantpt, unlockpt and ptsname: in the C library, but declared by <stdlib.h> only
/// under _XOPEN_SOURCE, which the Glibc module does not define; looked up by name instead.
struct PseudoTerminalCalls {
    let openpt: @convention(c) (Int32) -> Int32
    let grantpt: @convention(c) (Int32) -> Int32
    let unlockpt: @convention(c) (Int32) -> Int32
    let ptsname: @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    static func load() -> PseudoTerminalCalls? {
        let library = dlopen(nil, RTLD_NOW)
        func symbol<T>(_ name: String, as type: T.Type) -> T? {
            guard let address = dlsym(library, name) else { return nil }
            return unsafeBitCast(address, to: type)
        }
        guard let openpt = symbol("posix_openpt", as: (@convention(c) (Int32) -> Int32).self),
              let grantpt = symbol("grantpt", as: (@convention(c) (Int32) -> Int32).self),
              let unlockpt = symbol("unlockpt", as: (@convention(c) (Int32) -> Int32).self),
              let ptsname = symbol("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
        else { return nil }
        return PseudoTerminalCalls(openpt: openpt, grantpt: grantpt, unlockpt: unlockpt, ptsname: ptsname)
    }
}
