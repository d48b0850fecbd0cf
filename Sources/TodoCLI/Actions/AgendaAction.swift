import TodoTxt

/// `todo agenda [TERM...]` (alias `next`): what is due and what is next, in the library's sections
/// (`Agenda`: overdue, today, each of the next days, later, then the undated tasks with a
/// priority), each task with its line number and how far its date is. Plain text, never colour;
/// `-q` drops the headings. The TERMs are those of `ls`, read by the same filter
/// (docs/todo-command.md, "The agenda").
enum AgendaAction {
    static let days = ActionOption.valued("--days", value: "N", meaning: "how many days after today get a section of their own (default 7).")
    static let undated = ActionOption.flag("--undated", meaning: "also the tasks with neither a due date nor a priority.")
    static let quiet = ActionOption.flag("-q", "--quiet", meaning: "no headings, only the tasks.")

    static let spec = ActionSpec(
        name: "agenda", aliases: ["next"], options: [days, undated, quiet], arguments: "[TERM...]",
        placement: .leadingThenText, argumentCount: nil,
        summary: "What is due: overdue, today, the next days, later, then undated tasks with a priority.",
        completes: .projectsAndContexts, availability: .todoOnly, group: .listing,
        notes: Array(ActionTable.termDetails.dropLast()) + [
            "Shown: open tasks, not hidden by h:1 and not waiting for a t: after today. Each line: the",
            "line number, the task, how far its due date is (3d overdue, today, in 2d).",
        ],
        parsed: { invocation, parsed, usage throws(CLIError) in
            let count: Int
            if let text = parsed.values["--days"] {
                guard let value = Int(text), (0...366).contains(value) else {
                    throw .usage("--days '\(text)' is not a number of days from 0 to 366; usage: \(usage)")
                }
                count = value
            } else {
                count = 7
            }
            let headings = !parsed.flags.contains("--quiet") && !invocation.quiet
            let everything = parsed.flags.contains("--undated")
            return try TodoNameActions.run({ context, terms throws(CLIError) in
                try list(terms, days: count, includesEverything: everything, headings: headings, context)
            }, parsed.positionals, &invocation)
        })

    /// Reads the todo file, filters it with `terms` as `ls` does, and prints the agenda.
    static func list(_ terms: [String], days: Int, includesEverything: Bool, headings: Bool,
                     _ context: TodoShContext) throws(CLIError) -> Int32 {
        let path = context.settings.todoFile
        var lines = TodoShListing.Lines(try TodoShListing.read(path, context))
        lines.droppingTerminatorsAndMark()
        TodoShListing.warnOfConflictMarkers(lines.bytes, path: path, context)
        let width = TodoShListing.digits(lines.count)
        let filters = try TermFilter(checking: terms, context)
        var agenda = Agenda(today: context.clock.today, days: days, includesEverything: includesEverything)
        var scratch: [UInt8] = []
        let bytes = lines.bytes, ranges = lines.ranges
        bytes.withUnsafeBufferPointer { buffer in
            for index in 0..<ranges.count {
                let range = ranges[index]
                if TodoShListing.isBlank(buffer, range.start, range.length) { continue }
                if !filters.isEmpty {
                    let entry = TodoShListing.Entry(number: index + 1, filterNumber: index + 1, start: range.start, length: range.length)
                    if !filters.accepts(entry, bytes, width: width, scratch: &scratch) { continue }
                }
                agenda.consider(bytes[range.start..<(range.start + range.length)], at: index)
            }
        }
        let groups = agenda.groups
        // The setting read once (the settings are a large value, copied on each read).
        let output = render(groups, of: agenda, bytes: bytes, ranges: ranges, width: width, headings: headings,
                            escapes: context.settings.escapeControls)
        context.sayBytes(output)
        return 0
    }
}
