import Foundation
import TodoTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Helpers for end-to-end tests: the built binaries, temp directories, running them.
enum Spawn {
    /// The products directory of this build (`.build/<triple>/debug` or any other build path).
    static var productsDirectory: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path
    }

    /// The built `todo` binary.
    static var todo: String { productsDirectory + "/todo" }

    /// A fresh temporary directory, unique per call, kept after the test (`TemporaryDirectory.makePath`).
    static func makeTemporaryDirectory(_ label: String = "todo-test") -> String {
        TemporaryDirectory.makePath(label)
    }

    /// Runs `argv` and waits for it (`Subprocess.run`, the one process runner of the tests).
    static func run(_ argv: [String], stdin: [UInt8] = [], extraEnvironment: [String: String] = [:],
                    environment: [String: String]? = nil, argv0: String? = nil) -> ProcessResult {
        Subprocess.run(argv, stdin: stdin, extraEnvironment: extraEnvironment, environment: environment, argv0: argv0)
    }

    /// Runs the built `todo` binary with `arguments`.
    static func todo(_ arguments: [String], stdin: [UInt8] = [], environment: [String: String] = [:],
                     asName name: String? = nil) -> ProcessResult {
        run([todo] + arguments, stdin: stdin, extraEnvironment: environment, argv0: name)
    }
}

/// File helpers for tests.
enum Files {
    static func write(_ path: String, _ text: String) { write(path, Array(text.utf8)) }
    static func write(_ path: String, _ bytes: [UInt8]) {
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    }
    /// Writes an executable (mode 755) through a descriptor opened close-on-exec. A plain write
    /// leaves the descriptor inheritable: a process another test spawns at that moment keeps it
    /// open for its whole life, and exec-ing the file meanwhile fails with ETXTBSY (an add-on run
    /// then exits 126).
    static func writeExecutable(_ path: String, _ text: String) {
        unlink(path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { return }
        var offset = 0
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
        close(descriptor)
        chmod(path, 0o755)
    }

    static func read(_ path: String) -> [UInt8] {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
    }
    static func text(_ path: String) -> String { String(decoding: read(path), as: UTF8.self) }
}

extension Spawn {
    /// Starts the built `todo` with `arguments`, output discarded, and returns its pid without waiting.
    static func startTodo(_ arguments: [String]) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let cArguments = ([todo] + arguments).map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, todo, &actions, nil, cArguments, environ) == 0 else { return nil }
        return pid
    }

    /// Waits for `pid`; returns its exit code (128 + signal when killed).
    @discardableResult
    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// The seconds a soak test may run: `TODO_SOAK_SECONDS`, else `fallback`.
    static func soakSeconds(default fallback: Double) -> Double {
        ProcessInfo.processInfo.environment["TODO_SOAK_SECONDS"].flatMap(Double.init) ?? fallback
    }
}

