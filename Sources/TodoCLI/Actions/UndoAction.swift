import TodoTxt

/// `todo undo NR...` (alias `undone`): marks completed tasks open again, restoring the priority
/// kept in `pri:` (format.md section 3). A task that is not done is a soft error: reported, the
/// others still processed, exit 1 at the end (todo.sh's rule for "already done").
enum UndoAction {
    static let spec = ActionSpec(
        name: "undo", aliases: ["undone"], arguments: "NR|UID [NR|UID ...]",
        summary: "Mark completed tasks open again (restores the priority kept as pri:).",
        options: [], completes: .tasks,
        run: { invocation, arguments throws(CLIError) in
            let addresses = arguments.flatMap { $0.split(separator: ",").map(String.init) }
            guard !addresses.isEmpty else { throw .usage("usage: \(invocation.programName) undo NR|UID [NR|UID ...]") }
            let path = invocation.todoFilePath()
            let snapshot = TodoDocument(bytes: try FileAccess.read(path))
            var targets: [TaskTarget] = []
            for address in addresses { targets.append(try TaskTarget(address, in: snapshot, path: path)) }
            var reopened: [(Int, String)] = []
            var notDone: [String] = []
            try FileAccess.update(path, lockTimeout: invocation.lockTimeout) { current throws(CLIError) in
                var document = TodoDocument(bytes: current)
                reopened = []
                notDone = []
                for target in targets {
                    let index = try target.locate(in: document, path: path)
                    if document.uncomplete(at: index) {
                        reopened.append((index + 1, document.text(at: index)))
                    } else {
                        notDone.append(target.address)
                    }
                }
                return document.rendered()
            }
            for (number, text) in reopened {
                invocation.say("\(number) \(text)")
                invocation.log("\(invocation.programName): \(number) marked open again")
            }
            for address in notDone { invocation.io.printError("\(invocation.programName): \(address): task is not done") }
            return notDone.isEmpty ? 0 : 1
        })
}
