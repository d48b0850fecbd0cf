import TodoTxt

/// `todo report`: todo.sh's report (archive, then a line in report.txt), unless `--time` asks for
/// the time report (docs/todo-command.md, "Time tracking"): the `spent:` of the todo file's and the
/// done file's tasks matching TERM, totalled by project and by context. The name `todo.sh` runs its
/// own `report` (`todoSh`), which takes none of these options.
enum TimeReportAction {
    static let time = ActionOption.flag("--time", meaning: "total spent: by project and by context instead (done file included).")
    static let since = ActionOption.valued("--since", value: "DATE",
                                           meaning: "with --time: only tasks completed on or after DATE (2026-12-01, -1w, mon…);",
                                           "open tasks always count.")

    static let spec = ActionSpec(
        name: "report", options: [time, since], arguments: "[TERM...]", placement: .leadingThenText, argumentCount: nil,
        summary: "Archive, then append open/done counts to report.txt; --time: time spent.",
        completes: .projectsAndContexts, group: .file,
        notes: ["TERM (with --time): the tasks counted, as for ls."],
        parsed: { invocation, parsed, usage throws(CLIError) in
            guard parsed.flags.contains("--time") else {
                if parsed.values["--since"] != nil || !parsed.positionals.isEmpty {
                    throw .usage("--since and TERM go with --time; usage: \(usage)")
                }
                return try TodoNameActions.run(TodoShActions.report, [], &invocation)
            }
            var sinceDate: TodoDate?
            if let text = parsed.values["--since"] {
                guard let date = DateExpression(text)?.resolve(today: invocation.clock.today) else {
                    throw .usage("--since '\(text)' is not a date; usage: \(usage)")
                }
                sinceDate = date
            }
            let since = sinceDate
            return try TodoNameActions.run({ context, terms throws(CLIError) in
                try report(terms, since: since, context)
            }, parsed.positionals, &invocation)
        },
        todoSh: TodoShActions.report)

    /// Totals both files' tasks and prints the report. An unreadable `spent:` fails the report,
    /// naming the file, the line and the value, rather than leaving its time out unseen.
    static func report(_ terms: [String], since: TodoDate?, _ context: TodoShContext) throws(CLIError) -> Int32 {
        let filter = try TermFilter(checking: terms, context)
        var totals = TimeReport()
        for path in [context.settings.todoFile, context.settings.doneFile] {
            let document = TodoDocument(bytes: try context.bytes(path))
            for index in 0..<document.lineCount {
                let item = document.item(at: index)
                guard item.isTask else { continue }
                let spent: SpentTime
                switch item.spentTime {
                case .absent: continue
                case .invalid(let raw):
                    throw .failure("\(path): line \(index + 1): spent:\(raw) is not a duration (1h20m, 2h, 45m)")
                case .valid(let value): spent = value
                }
                if let since, item.isCompleted, (item.completionDate.map { $0 < since } ?? true) { continue }
                if !filter.isEmpty, !filter.accepts(Array(item.content)) { continue }
                totals.add(item, spent: spent)
            }
        }
        var lines = [since.map { "Time spent since \($0): \(totals.total)" } ?? "Time spent: \(totals.total)"]
        lines.append("By project:")
        lines += totals.projectRows.map { "  \($0.name.map { "+" + $0 } ?? "(no project)") \($0.spent)" }
        lines.append("By context:")
        lines += totals.contextRows.map { "  \($0.name.map { "@" + $0 } ?? "(no context)") \($0.spent)" }
        context.invocation.io.print(lines.joined(separator: "\n"))
        return 0
    }
}
