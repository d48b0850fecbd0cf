import TodoFileSystem
import TodoTxt

/// `todo sort [--check] [--dry-run] [--by KEYS] [FILE]`: completed tasks sink, stably
/// (docs/format.md section 5, docs/files.md section 2). Silent on success, for cron.
enum SortAction {
    static let spec = ActionSpec(
        name: "sort",
        options: [
            .flag("--check", meaning: "change nothing; exit 1 when the file is not sorted."),
            .flag("--dry-run", meaning: "change nothing; print the sorted file."),
            .valued("--by", value: "KEYS", values: SortKey.allCases.map(\.rawValue),
                    meaning: "order the open tasks by KEYS, comma-separated ("
                        + SortKey.allCases.map(\.rawValue).joined(separator: ", ") + ");",
                    "completed tasks still sink."),
        ],
        arguments: "[FILE]",
        summary: "Move completed tasks to the bottom, keeping every other order (silent, for cron).",
        completes: .files,
        group: .file, notes: ["Prints nothing when it succeeds, so it can run from cron."],
        parsed: { invocation, parsed, usage throws(CLIError) in
            var keys: [SortKey] = []
            if let list = parsed.values["--by"] {
                guard let parsedKeys = SortKey.parseList(list) else {
                    let known = SortKey.allCases.map(\.rawValue).joined(separator: ",")
                    throw .usage("--by takes a comma-separated list of \(known), not '\(list)'; usage: \(usage)")
                }
                keys = parsedKeys
            }
            let path = invocation.todoFilePath(explicit: parsed.positionals.first)
            if parsed.flags.contains("--dry-run") || parsed.flags.contains("--check") {
                let original = try invocation.files.read(path)
                // A file with a conflict block is not sorted, whatever the order of its lines.
                try TodoFileEdit.refuseConflictMarkers(original, path: path)
                let sorted = TodoDocument.sort(original, by: keys)
                if parsed.flags.contains("--dry-run") {
                    // The file's own bytes: escaped line by line on a terminal, like every listing.
                    invocation.io.writeOutput(invocation.io.outputIsTerminal ? TerminalText.escapingControlsKeepingLines(sorted) : sorted)
                    return 0
                }
                if sorted == original { return 0 }
                throw .status(1)
            }
            // Read, sorted and compared once, inside the safe replacement (under the lock). The sorted
            // file goes to disk as pieces of the one read, never built as a second copy in memory.
            // A file holding a NUL byte is refused by the file layer, whose comparison reads every
            // byte anyway (on a second thread for a large file).
            try invocation.files.resort(path, lockTimeout: invocation.lockTimeout, warn: invocation.warn) { (current: [UInt8]) throws(CLIError) -> ReplacementContent? in
                try TodoFileEdit.refuseConflictMarkers(current, path: path)
                if let pieces = TodoDocument.sortedPieces(current, by: keys) { return .pieces(pieces) }
                return .bytes(TodoDocument.sort(current, by: keys))
            }
            return 0
        })
}
