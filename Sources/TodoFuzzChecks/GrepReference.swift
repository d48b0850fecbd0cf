// The filter target's outside reference: real GNU grep on the same lines.
@preconcurrency import Glibc
import TodoTxt

/// Runs `grep -G -i -n` (what todo.sh runs for a listing's term) in the C.UTF-8 locale on an
/// input's lines and compares the lines it selects with the ones the engine matches.
///
/// Why outside libFuzzer: a process per input is a thousand times slower than the in-process
/// reference, so scripts/fuzz.sh runs it over the corpus after a fuzzing run, and the corpus replay
/// test runs it over the checked-in corpus. It covers what the C library's `regcomp` reads
/// differently from grep's own syntax settings.
public struct GrepReference: Sendable {
    /// What one comparison found.
    public enum Outcome: Sendable, Equatable {
        /// grep and the engine selected the same lines.
        case agrees
        /// The term is none todo.sh could pass (a NUL, empty, not UTF-8), or grep gave no answer
        /// within `timeoutSeconds`: nothing compared.
        case skipped
        /// grep refused the pattern (exit 2) with this message, and so does `BasicRegex.syntaxError`.
        case rejected(String)
        /// One refused the pattern and the other did not, or they name different problems.
        case refusalDiffers(engine: String?, grep: String?)
        /// They selected different lines: each is a 1-based line number list.
        case disagrees(engine: [Int], grep: [Int])
    }

    /// The path of grep.
    private let executable: String

    /// How long grep may take on one input, in seconds: the fuzz target's own timeout (`scripts/fuzz.sh`).
    static let timeoutSeconds = 20.0

    /// Nil when no `grep` is on the PATH (the process's own PATH, or /usr/bin:/bin without one).
    public init?() {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        let candidates: [String] = path.split(separator: ":").map { "\($0)/grep" }
        guard let found = candidates.first(where: { access($0, X_OK) == 0 }) else { return nil }
        executable = found
    }

    /// Compares grep and the engine on one filter input (cut to the target's limits first).
    public func compare(_ input: [UInt8]) throws -> Outcome {
        let cut = FilterInput(FuzzTarget.filter.limits.cut(input))
        // Lines that hold a NUL, are not valid UTF-8, or hold a character the C library classifies
        // otherwise (`CharacterTables`) are sent empty and not compared (see `checkFilter`), so the
        // others keep their numbers.
        guard CharacterTables.agree(cut.pattern) else { return .skipped }
        let comparable = cut.lines.map {
            !$0.contains(0) && String(validating: $0, as: UTF8.self) != nil && CharacterTables.agree($0)
        }
        let parsed = FilterInput(term: cut.term, lines: zip(cut.lines, comparable).map { $1 ? $0 : [] })
        guard let pattern = Self.argument(parsed) else { return .skipped }
        let regex = BasicRegex(bytes: parsed.pattern, ignoreCase: true)
        let outcomes = parsed.lines.map(regex.matchOutcome)
        let engine = outcomes.indices.filter { outcomes[$0] == true }.map { $0 + 1 }
        let problem = BasicRegex.syntaxError(parsed.pattern, ignoreCase: true)
        switch try run(pattern, on: parsed.lines) {
        case nil:
            return .skipped
        case .failure(let refusal)?:
            // grep names itself first (`grep: `, or its path).
            let message = refusal.message.firstRange(of: ": ").map { String(refusal.message[$0.upperBound...]) } ?? refusal.message
            return problem == message ? .rejected(message) : .refusalDiffers(engine: problem, grep: message)
        case .success? where problem != nil:
            return .refusalDiffers(engine: problem, grep: nil)
        case .success(let selected)?:
            // Lines the engine left undecided are not compared either.
            let valid = Set(comparable.indices.filter { comparable[$0] && outcomes[$0] != nil }.map { $0 + 1 })
            let (ours, theirs) = (engine.filter(valid.contains), selected.filter(valid.contains))
            return ours == theirs ? .agrees : .disagrees(engine: ours, grep: theirs)
        }
    }

    /// Whether grep selects `line` for `input`'s pattern; nil when the two cannot be put to grep
    /// (see `argument`) or grep refuses the pattern.
    func selects(_ input: FilterInput, line: [UInt8]) -> Bool? {
        let single = FilterInput(term: input.term, lines: [line])
        guard let pattern = Self.argument(single), case .success(let selected)? = try? run(pattern, on: single.lines) else {
            return nil
        }
        return selected == [1]
    }

    /// Whether grep accepts `input`'s pattern; nil when it cannot be put to grep.
    func accepts(_ input: FilterInput) -> Bool? {
        let empty = FilterInput(term: input.term, lines: [])
        // `try?` flattens: nil when grep could not run or gave no answer in time.
        guard let pattern = Self.argument(empty), let result = try? run(pattern, on: []) else { return nil }
        if case .success = result { return true }
        return false
    }

    /// The pattern as a command-line argument; nil when todo.sh could not pass it or the lines hold
    /// a NUL (which grep reads as a binary file).
    private static func argument(_ input: FilterInput) -> String? {
        guard input.isArgument, !input.lines.contains(where: { $0.contains(0) }) else { return nil }
        return String(validating: input.pattern, as: UTF8.self)
    }

    /// Runs grep; its selection, or its complaint when it refuses the pattern (exit status 2).
    ///
    /// Spawned with `posix_spawn`, not Foundation's `Process`: `Process` leaves an allocation that
    /// LeakSanitizer reports at exit, which stopped the `filter` target under ASan after a dozen
    /// executions (docs/notes/fuzzing.md). The lines, grep's output and its complaint go through
    /// unlinked temporary files, never pipes: grep refusing a pattern exits before reading (a write
    /// into a closed pipe would kill this process with SIGPIPE), and nothing can fill up and block.
    private func run(_ pattern: String, on lines: [[UInt8]]) throws(GrepSpawnError) -> Result<[Int], GrepRefusal>? {
        var text: [UInt8] = []
        for line in lines { text += line + [0x0A] }
        let input = try GrepScratchFile(holding: text)
        let output = try GrepScratchFile(holding: [])
        let errors = try GrepScratchFile(holding: [])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, input.descriptor, 0)
        posix_spawn_file_actions_adddup2(&actions, output.descriptor, 1)
        posix_spawn_file_actions_adddup2(&actions, errors.descriptor, 2)
        // The lines are grep's standard input (`-`), named `(standard input)` in nothing it prints
        // with -n alone.
        let argv = [executable, "-G", "-i", "-n", "-a", "-e", pattern, "--", "-"]
        let environment = ["LC_ALL=C.UTF-8", "PATH=/usr/bin:/bin"]
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup($0) } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, cArguments, cEnvironment)
        guard spawned == 0 else { throw GrepSpawnError(message: "posix_spawn \(executable): \(String(cString: strerror(spawned)))") }
        // grep itself can take minutes and gigabytes on a term the engine answers at once
        // (`\*r****\{4622\}*9:`): past the fuzz target's own timeout it is killed, and gives no
        // answer. Polled: no thread and no signal handler in the fuzzing process.
        guard let status = Self.wait(for: pid, seconds: Self.timeoutSeconds) else { return nil }
        let signalled = (status & 0x7f) != 0
        if signalled { return nil }
        let exitStatus = (status >> 8) & 0xff
        if exitStatus == 2 {
            let message = String(decoding: errors.contents(), as: UTF8.self)
            let first = message.firstIndex { !$0.isWhitespace } ?? message.endIndex
            let last = message.lastIndex { !$0.isWhitespace }.map(message.index(after:)) ?? first
            return .failure(GrepRefusal(message: String(message[first..<max(first, last)])))
        }
        return .success(output.contents().split(separator: 0x0A).compactMap { line -> Int? in
            guard let colon = line.firstIndex(of: 0x3A) else { return nil }
            return Int(String(decoding: line[line.startIndex..<colon], as: UTF8.self))
        })
    }

    /// Waits for `pid`, polling with a growing pause (50 µs up to 5 ms); kills it with SIGKILL and
    /// reaps it after `seconds`. The raw wait status, or nil when it was killed for taking too long.
    private static func wait(for pid: pid_t, seconds: Double) -> Int32? {
        var status: Int32 = 0
        var start = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        var pause = 50_000
        while true {
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid { return status }
            if reaped < 0 && errno != EINTR { return nil }
            var current = timespec()
            clock_gettime(CLOCK_MONOTONIC, &current)
            if Double(current.tv_sec - start.tv_sec) + Double(current.tv_nsec - start.tv_nsec) / 1e9 > seconds {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                return nil
            }
            var interval = timespec(tv_sec: 0, tv_nsec: pause)
            nanosleep(&interval, nil)
            pause = min(pause * 2, 5_000_000)
        }
    }
}

/// Why grep could not be run at all (no temporary file, spawn refused).
struct GrepSpawnError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// An unlinked temporary file, open read-write, closed when the value goes away.
private final class GrepScratchFile {
    let descriptor: Int32

    /// A new file in `TMPDIR` (or /tmp) holding `bytes`, positioned at its start.
    init(holding bytes: [UInt8]) throws(GrepSpawnError) {
        var directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        if directory.isEmpty { directory = "/tmp" }
        var template = Array("\(directory)/todo-grep-check-XXXXXX".utf8CString)
        let opened = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard opened >= 0 else { throw GrepSpawnError(message: "mkstemp in \(directory): \(String(cString: strerror(errno)))") }
        descriptor = opened
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, bytes.count - written) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw GrepSpawnError(message: "write to a temporary file: \(String(cString: strerror(errno)))") }
            written += count
        }
        lseek(descriptor, 0, SEEK_SET)
    }

    /// Everything in the file, from its start.
    func contents() -> [UInt8] {
        lseek(descriptor, 0, SEEK_SET)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }

    deinit { close(descriptor) }
}

/// grep's message when it refuses a pattern.
struct GrepRefusal: Error {
    let message: String
}
