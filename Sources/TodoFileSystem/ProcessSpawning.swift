// Child processes exist only where a program may start them: macOS and Linux. iOS and visionOS
// build the file layer without this file (docs/architecture.md, "Platforms").
#if os(macOS) || os(Linux)
#if canImport(Glibc)
@preconcurrency import Glibc
#else
import Darwin
#endif

/// Running child processes (bash for a todo.sh config, `sh -c` for sort and filter commands, add-on
/// actions) and the small file-system queries todo.sh compatibility needs.
///
/// Children are started with `posix_spawnp`; captured streams go through unlinked temporary files,
/// never pipes, so a child that writes a lot cannot deadlock against us (docs/notes/toolchain.md).
package enum ProcessSpawning {
    /// What a child left behind: its exit status (128+signal when killed) and the captured streams.
    package struct Outcome: Sendable {
        /// The exit status, or 127 when the program could not be started.
        package let status: Int32
        /// Standard output, when captured.
        package let output: [UInt8]
        /// File descriptor 3, when captured (used to read variables back from bash).
        package let channel: [UInt8]
        /// Standard error, when captured (git's one-line reasons, for `todo sync`).
        package var error: [UInt8] = []
    }

    /// Runs `argv` (argv[0] looked up in `PATH`) with exactly `environment`.
    ///
    /// - `input`: bytes on standard input; nil means `/dev/null` (children never read our stdin).
    /// - `captureOutput`: capture standard output instead of sharing ours.
    /// - `captureChannel`: open file descriptor 3 to a capture file.
    /// - `captureError`: capture standard error instead of sharing ours.
    package static func run(_ argv: [String], environment: [String: String], input: [UInt8]?,
                           captureOutput: Bool, captureChannel: Bool = false, captureError: Bool = false) -> Outcome {
        var inputDescriptor: Int32 = -1
        var outputDescriptor: Int32 = -1
        var channelDescriptor: Int32 = -1
        var errorDescriptor: Int32 = -1
        defer {
            for descriptor in [inputDescriptor, outputDescriptor, channelDescriptor, errorDescriptor] where descriptor >= 0 {
                close(descriptor)
            }
        }
        if let input {
            inputDescriptor = anonymousFile()
            guard inputDescriptor >= 0 else { return Outcome(status: 127, output: [], channel: []) }
            ProcessContext.writeAll(input, to: inputDescriptor)
            lseek(inputDescriptor, 0, SEEK_SET)
        } else {
            inputDescriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
        }
        if captureOutput { outputDescriptor = anonymousFile() }
        if captureChannel { channelDescriptor = anonymousFile() }
        if captureError { errorDescriptor = anonymousFile() }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if inputDescriptor >= 0 { posix_spawn_file_actions_adddup2(&actions, inputDescriptor, 0) }
        if outputDescriptor >= 0 { posix_spawn_file_actions_adddup2(&actions, outputDescriptor, 1) }
        if channelDescriptor >= 0 { posix_spawn_file_actions_adddup2(&actions, channelDescriptor, 3) }
        if errorDescriptor >= 0 { posix_spawn_file_actions_adddup2(&actions, errorDescriptor, 2) }
        let status = spawnAndWait(argv, environment: environment, actions: &actions)
        return Outcome(status: status,
                       output: outputDescriptor >= 0 ? readAll(outputDescriptor) : [],
                       channel: channelDescriptor >= 0 ? readAll(channelDescriptor) : [],
                       error: errorDescriptor >= 0 ? readAll(errorDescriptor) : [])
    }

    /// Runs `argv` sharing all our standard streams (an add-on action) and returns its exit status.
    package static func runInheriting(_ argv: [String], environment: [String: String]) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        return spawnAndWait(argv, environment: environment, actions: &actions)
    }

    /// Spawns `argv` (the program looked up on PATH) and waits for it. A file the kernel will not
    /// execute (`ENOEXEC`: a script without a `#!` line) runs with bash, as bash itself, and so
    /// todo.sh, runs it (docs/todosh.md section 7).
    private static func spawnAndWait(_ argv: [String], environment: [String: String],
                                     actions: inout posix_spawn_file_actions_t) -> Int32 {
        let status = spawnAndWaitOnce(argv, environment: environment, actions: &actions)
        if status == -ENOEXEC { return spawnAndWaitOnce(["bash"] + argv, environment: environment, actions: &actions) }
        return status
    }

    /// One spawn: the exit status, or `-ENOEXEC` when the file is not executable as it is.
    private static func spawnAndWaitOnce(_ argv: [String], environment: [String: String],
                                         actions: inout posix_spawn_file_actions_t) -> Int32 {
        guard let program = argv.first else { return 127 }
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        // `todo` ignores SIGXFSZ (`ProcessContext.ignoreFileSizeSignal`); an ignored signal would be
        // inherited, so the child gets the default back, as if started from the shell.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGXFSZ)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        let rc = posix_spawnp(&pid, program, &actions, &attributes, cArguments, cEnvironment)
        guard rc == 0 else { return rc == ENOEXEC ? -ENOEXEC : rc == ENOENT ? 127 : 126 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return 127 }
        }
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// An unlinked read-write temporary file.
    private static func anonymousFile() -> Int32 {
        var directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        if directory.isEmpty { directory = "/tmp" }
        var template = Array("\(directory)/.todo-sh-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if descriptor >= 0 {
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        return descriptor
    }

    private static func readAll(_ descriptor: Int32) -> [UInt8] {
        lseek(descriptor, 0, SEEK_SET)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }

    /// Reads exactly one byte from standard input; nil at end of input or on error.
    package static func readOneByteFromStandardInput() -> UInt8? {
        var byte: UInt8 = 0
        while true {
            let count = read(0, &byte, 1)
            if count == 1 { return byte }
            if count < 0 && errno == EINTR { continue }
            return nil
        }
    }
}

extension ProcessSpawning {
    /// `memcmp`: the sign of the first differing byte of two ranges of `count` bytes.
    @inline(__always)
    package static func compareBytes(_ left: UnsafePointer<UInt8>, _ right: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
        memcmp(left, right, count)
    }

    /// Whether two byte arrays are equal, with one `memcmp` (`==` on `[UInt8]` compares element by
    /// element, far slower on a large file: docs/notes/speed.md). The file layer's own comparison,
    /// for the commands.
    package static func sameBytes(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        FileSystem.sameBytes(left[...], right[...])
    }
}
#endif
