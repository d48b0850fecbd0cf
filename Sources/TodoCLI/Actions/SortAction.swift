import TodoFileSystem
import TodoTxt

/// `todo sort [--check] [--dry-run] [--by KEYS] [FILE]`: completed tasks sink, stably
/// (format.md section 5, files.md section 2). Silent on success, for cron.
enum SortAction {
    static let arguments = "[--check] [--dry-run] [--by KEYS] [FILE]"
    static let spec = ActionSpec(
        name: "sort", aliases: [], arguments: arguments,
        summary: "Move completed tasks to the bottom, keeping every other order (silent, for cron).",
        options: ["--check", "--dry-run", "--by="], completes: .files,
        run: { invocation, arguments throws(CLIError) in
            let usage = "\(invocation.programName) sort \(arguments)"
            let parsed = try ParsedArguments(arguments, flags: ["--check", "--dry-run"], valued: ["--by"], usage: usage)
            guard parsed.positionals.count <= 1 else { throw .usage("too many arguments; usage: \(usage)") }
            var keys: [SortKey] = []
            if let list = parsed.values["--by"] {
                guard let parsedKeys = SortKey.parseList(list) else {
                    let known = SortKey.allCases.map(\.rawValue).joined(separator: ",")
                    throw .usage("--by takes a comma-separated list of \(known), not '\(list)'")
                }
                keys = parsedKeys
            }
            let path = invocation.todoFilePath(explicit: parsed.positionals.first)
            if parsed.flags.contains("--dry-run") || parsed.flags.contains("--check") {
                let original = try FileAccess.read(path)
                let sorted = TodoDocument.sort(original, by: keys)
                if parsed.flags.contains("--dry-run") {
                    invocation.io.writeOutput(sorted)
                    return 0
                }
                if sorted == original { return 0 }
                throw .status(1)
            }
            // Read, sorted and compared once, inside the safe replacement (under the lock). The sorted
            // file goes to disk as pieces of the one read, never built as a second copy in memory.
            try FileAccess.update(path, lockTimeout: invocation.lockTimeout) { (current: [UInt8]) throws(CLIError) -> ReplacementContent? in
                try refuseBinary(current, path: path)
                if let pieces = TodoDocument.sortedPieces(current, by: keys) { return .pieces(pieces) }
                return .bytes(TodoDocument.sort(current, by: keys))
            }
            return 0
        })

    /// Refuses to rewrite a file holding NUL bytes: a todo.txt never does, so it is most likely a
    /// binary file given by mistake, and rewriting it would help nobody. Reading and printing such a
    /// file still works (`--dry-run`, `export`).
    static func refuseBinary(_ bytes: [UInt8], path: String) throws(CLIError) {
        guard let nul = firstNUL(bytes) else { return }
        let line = bytes[..<nul].reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        throw .failure("\(path): line \(line): NUL byte, this looks like a binary file; not rewriting it")
    }

    /// The index of the first NUL byte (this runs on every sort of the whole file, so it must cost no
    /// more than a memchr).
    static func firstNUL(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            let found = ByteSearch.firstIndex(of: 0, in: base, from: 0, to: buffer.count)
            return found < buffer.count ? found : nil
        }
    }
}
