import TodoTxt

/// `todo postpone [--threshold] NR|UID... PERIOD`: each task's `due:` moved by PERIOD (a
/// `DateOffset`: `1w`, `3d`, `2b`, `-1d`), a task without `due:` given today + PERIOD; with
/// `--threshold` its `t:` moves by the same amount (a task without `t:` gets none). The edit is the
/// library's (`TodoItem.postponed(by:today:movingThreshold:)`).
///
/// All or nothing, as `do` addresses: every address resolved on the file as read under the lock,
/// in the one transaction that writes it; an unknown address, a completed task or a `due:` (or, with
/// `--threshold`, `t:`) that is not a date fails the command with one line naming the file, the
/// line and the value, and nothing is written (docs/todo-command.md, "Postponing").
enum PostponeAction {
    static let threshold = ActionOption.flag("--threshold", meaning: "move t: by the same PERIOD too (a task without t: keeps none).")

    static let spec = ActionSpec(
        name: "postpone", options: [threshold], arguments: "NR|UID... PERIOD", placement: .leading, argumentCount: nil,
        summary: "Move tasks' due: dates by PERIOD (1w, 3d, 2b, -1d); a task without due: is due today + PERIOD.",
        completes: .tasks, availability: .todoOnly, group: .tasks,
        notes: ActionTable.addressDetails + [
            "PERIOD: [+|-]N then d (days), w (weeks), m (months, clamped to the month's end), y (years)",
            "        or b (business days, Monday to Friday).",
        ],
        parsed: { invocation, parsed, usage throws(CLIError) in
            try run(parsed.positionals, movingThreshold: parsed.flags.contains("--threshold"), usage: usage, &invocation)
        })

    static func run(_ words: [String], movingThreshold: Bool, usage: String, _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        guard words.count >= 2, let last = words.last else { throw .usage("missing arguments; usage: \(usage)") }
        guard let offset = DateOffset(last) else {
            throw .usage("'\(last)' is not a period (a number then d, w, m, y or b: 1w, 3d, -1d); usage: \(usage)")
        }
        let addresses = TodoShActions.numberList(Array(words.dropLast()))
        guard !addresses.isEmpty else { throw .usage("missing arguments; usage: \(usage)") }
        let today = invocation.clock.today
        let file = TodoFileEdit(invocation)
        var pinned: [TaskTarget]?
        let changed = try file.transact({ (document: inout TodoDocument, notices: inout [String]) throws(CLIError) -> [(Int, [UInt8])] in
            let targets = try file.targets(addresses, pinned: &pinned, in: document, invocation, notices: &notices)
            var changed: [(Int, [UInt8])] = []
            for (_, index) in targets {
                let line: [UInt8]
                do throws(PostponeError) {
                    line = try document.item(at: index).postponed(by: offset, today: today, movingThreshold: movingThreshold)
                } catch {
                    throw .failure("\(file.path): line \(index + 1): \(error); nothing postponed")
                }
                document.replaceContent(at: index, with: line)
                changed.append((index + 1, line))
            }
            return changed
        }, invocation)
        let prefix = TodoShContext.prefix(of: file.path)
        for (number, line) in changed {
            invocation.echoTask(number, line)
            let due = TodoItem(line).due.value.map { " to \($0)" } ?? ""
            invocation.report("\(prefix): \(number) postponed\(due).")
        }
        return 0
    }
}
