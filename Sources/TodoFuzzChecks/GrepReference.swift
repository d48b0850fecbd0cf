// The filter target's outside reference: real GNU grep on the same lines.
import Foundation
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
        /// within `timeout`: nothing compared.
        case skipped
        /// grep refused the pattern (exit 2) with this message, and so does `BasicRegex.syntaxError`.
        case rejected(String)
        /// One refused the pattern and the other did not, or they name different problems.
        case refusalDiffers(engine: String?, grep: String?)
        /// They selected different lines: each is a 1-based line number list.
        case disagrees(engine: [Int], grep: [Int])
    }

    private let executable: URL

    /// How long grep may take on one input: the fuzz target's own timeout (`scripts/fuzz.sh`).
    static let timeout: DispatchTimeInterval = .seconds(20)

    /// Nil when no `grep` is on the PATH.
    public init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let directories = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let path = directories.map({ "\($0)/grep" }).first(where: FileManager.default.isExecutableFile) else {
            return nil
        }
        executable = URL(fileURLWithPath: path)
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
    private func run(_ pattern: String, on lines: [[UInt8]]) throws -> Result<[Int], GrepRefusal>? {
        // The lines go in a file, not a pipe: grep refusing a pattern exits before reading, and a
        // write into the closed pipe would kill this process with SIGPIPE.
        let linesFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("todo-grep-check-\(ProcessInfo.processInfo.processIdentifier)-\(UInt64.random(in: 0...UInt64.max))")
        var text = Data()
        for line in lines { text.append(contentsOf: line + [0x0A]) }
        try text.write(to: linesFile)
        defer { try? FileManager.default.removeItem(at: linesFile) }

        let process = Process()
        process.executableURL = executable
        process.arguments = ["-G", "-i", "-n", "-a", "-e", pattern, "--", linesFile.path]
        process.environment = ["LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"]
        let output = Pipe(), errors = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // grep itself can take minutes and gigabytes on a term the engine answers at once
        // (`\*r****\{4622\}*9:`): past the fuzz target's own timeout it is stopped, and gives no
        // answer.
        let timeout = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.timeout, execute: timeout)
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        timeout.cancel()
        if process.terminationReason == .uncaughtSignal { return nil }
        if process.terminationStatus == 2 {
            return .failure(GrepRefusal(message: String(decoding: complaint, as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        return .success(printed.split(separator: 0x0A).compactMap { line -> Int? in
            guard let colon = line.firstIndex(of: 0x3A) else { return nil }
            return Int(String(decoding: line[line.startIndex..<colon], as: UTF8.self))
        })
    }
}

/// grep's message when it refuses a pattern.
struct GrepRefusal: Error {
    let message: String
}
