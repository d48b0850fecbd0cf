import TodoTxt

/// `todo uid [--assign] [FILE]`: lists every task's uid with its line number, or gives every task
/// without one (and every non-owner holder of a duplicate) a fresh one (docs/format.md section 4).
enum UIDAction {
    static let spec = ActionSpec(
        name: "uid",
        options: [.flag("--assign", meaning: "give every task without a uid (and every second holder of a duplicate) a fresh one;",
                        "says nothing when every task has one.")],
        arguments: "[FILE]",
        summary: "List task uids; --assign gives every task without one a fresh uid.",
        completes: .files,
        group: .listing,
        parsed: { invocation, parsed, _ throws(CLIError) in
            let path = invocation.todoFilePath(explicit: parsed.positionals.first)
            if parsed.flags.contains("--assign") {
                let donePath = invocation.doneFilePath(forTodoFile: path)
                let done = try invocation.files.readIfExists(donePath).map { TodoDocument(bytes: $0) }
                var changedLines: [Int] = []
                try invocation.files.update(path, lockTimeout: invocation.lockTimeout, warn: invocation.warn) { current throws(CLIError) in
                    try TodoFileEdit.refuseConflictMarkers(current, path: path)
                    var document = TodoDocument(bytes: current)
                    var generator = UIDRandomness(environment: invocation.environment)
                    changedLines = document.assignMissingUIDs(using: &generator, doneFile: done)
                    return document.rendered()
                }
                // Nothing to do says nothing (cron mails any output); -v says it.
                if !changedLines.isEmpty || invocation.verboseCount > 0 {
                    invocation.log("\(path): assigned \(changedLines.count) uid\(changedLines.count == 1 ? "" : "s")")
                }
                return 0
            }
            let document = TodoDocument(bytes: try invocation.files.readIfExists(path) ?? [])
            let width = String(document.lineCount).count
            for index in 0..<document.lineCount {
                let item = document.item(at: index)
                guard let uid = item.uid else { continue }
                let number = String(index + 1)
                invocation.say(String(repeating: " ", count: width - number.count) + number + " " + invocation.shown(uid))
            }
            for diagnostic in document.diagnostics() {
                if case .duplicateUID = diagnostic.kind { invocation.log("\(path): \(diagnostic)") }
            }
            return 0
        })
}
