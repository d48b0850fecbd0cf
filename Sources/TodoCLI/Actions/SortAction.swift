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
            let original = try FileAccess.read(path)
            let sorted = TodoDocument.sort(original, by: keys)
            if parsed.flags.contains("--dry-run") {
                invocation.io.writeOutput(sorted)
                return 0
            }
            if parsed.flags.contains("--check") {
                if sorted == original { return 0 }
                throw .status(1)
            }
            throw .failure("sorting in place is not available yet; use --dry-run")
        })
}
