import TodoTxt

/// `todo check [FILE]`: reports what in the todo file cannot be right about its links between
/// tasks (docs/todo-command.md, "Dependencies"): an `after:` uid that no line of the todo or done
/// file holds, and each cycle of tasks waiting for each other. One line per problem on stderr,
/// naming the file and line; exit 1 when there is any, silence and 0 when there is none. Reads
/// only; the graph is walked once, so a cycle cannot make it loop.
enum CheckAction {
    static let spec = ActionSpec(
        name: "check", arguments: "[FILE]",
        summary: "Report links to unknown uids (after:) and cycles of tasks waiting for each other.",
        completes: .files, availability: .todoOnly, group: .file,
        parsed: { invocation, parsed, _ throws(CLIError) in
            let path = invocation.todoFilePath(explicit: parsed.positionals.first)
            let document = TodoDocument(bytes: try invocation.files.readIfExists(path) ?? [])
            let done = try DepAction.doneDocument(invocation, todoPath: path)
            let problems = report(DependencyGraph(todo: document, done: done.document), path: path, donePath: done.path)
            for problem in problems { invocation.warn(problem) }
            return problems.isEmpty ? 0 : 1
        })

    /// One line per missing link and per cycle, each naming its file and line.
    static func report(_ graph: DependencyGraph, path: String, donePath: String) -> [String] {
        func place(_ node: Int) -> String {
            node < graph.doneOffset ? "\(path): line \(node + 1)" : "\(donePath): line \(node - graph.doneOffset + 1)"
        }
        var lines = graph.missingLinks.map { "\(place($0.node)): after:\($0.uid) names a uid no task has" }
        let doneName = String(donePath.split(separator: "/").last ?? "done.txt")
        for cycle in graph.cycles {
            let members = cycle.map { DepAction.cycleName($0, graph, doneName) }.joined(separator: ", ")
            lines.append("\(place(cycle[0])): a cycle: \(members) wait for each other, so none of them can start")
        }
        return lines
    }
}
