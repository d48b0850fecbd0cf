import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The result of running a process to completion.
public struct ProcessResult: Sendable {
    public let status: Int32
    public let stdout: [UInt8]
    public let stderr: [UInt8]
    public var out: String { String(decoding: stdout, as: UTF8.self) }
    public var err: String { String(decoding: stderr, as: UTF8.self) }
}

/// The tests' one way to run a program: `posix_spawnp`, standard input, output and error through
/// files (no pipes to drain, no run loop; Foundation's `Process` is not used, see
/// docs/notes/toolchain.md), exit status as the shell reports it (128 + N for signal N).
public enum Subprocess {
    /// Runs `argv` (argv[0] looked up in PATH when it has no slash) and waits for it.
    ///
    /// - `environment`: the full environment (defaults to this process's, with `extraEnvironment`
    ///   merged in).
    /// - `stdin`: bytes fed on standard input (empty: /dev/null-like empty file).
    /// - `argv0`: overrides argv[0] as seen by the program (to run `todo` as `todo.sh`).
    public static func run(_ argv: [String], stdin: [UInt8] = [], extraEnvironment: [String: String] = [:],
                           environment: [String: String]? = nil, argv0: String? = nil) -> ProcessResult {
        let scratch = TemporaryDirectory.makePath("spawn")
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let inPath = scratch + "/in", outPath = scratch + "/out", errPath = scratch + "/err"
        _ = FileManager.default.createFile(atPath: inPath, contents: Data(stdin))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        var env = environment ?? ProcessInfo.processInfo.environment
        for (key, value) in extraEnvironment { env[key] = value }
        let envStrings = env.map { "\($0.key)=\($0.value)" }
        var arguments = argv
        if let argv0 { arguments[0] = argv0 }
        let cArguments = arguments.map { strdup($0) } + [nil]
        let cEnvironment = envStrings.map { strdup($0) } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, argv[0], &actions, nil, cArguments, cEnvironment)
        guard rc == 0 else {
            return ProcessResult(status: 127, stdout: [], stderr: Array("spawn failed: \(rc)".utf8))
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let out = FileManager.default.contents(atPath: outPath).map { [UInt8]($0) } ?? []
        let err = FileManager.default.contents(atPath: errPath).map { [UInt8]($0) } ?? []
        return ProcessResult(status: code, stdout: out, stderr: err)
    }
}
