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
    static let blocked = ActionOption.flag("--blocked", meaning: "also the tasks waiting for an open task (after:), marked [blocked].")

    static let spec = ActionSpec(
        name: "agenda", aliases: ["next"], options: [days, undated, quiet, blocked], arguments: "[TERM...]",
        placement: .leadingThenText, argumentCount: nil,
        summary: "What is due: overdue, today, the next days, later, then undated tasks with a priority.",
        completes: .projectsAndContexts, availability: .todoOnly, group: .listing,
        notes: Array(ActionTable.termDetails.dropLast()) + [
            "Shown: open tasks, not hidden by h:1, not waiting for a t: after today nor for an open task",
            "(after:, unless --blocked). Each line: the",
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
            let showsBlocked = parsed.flags.contains("--blocked")
            return try TodoNameActions.run({ context, terms throws(CLIError) in
                try list(terms, days: count, includesEverything: everything, headings: headings, showsBlocked: showsBlocked, context)
            }, parsed.positionals, &invocation)
        })

    /// Reads the todo file, filters it with `terms` as `ls` does, and prints the agenda.
    static func list(_ terms: [String], days: Int, includesEverything: Bool, headings: Bool, showsBlocked: Bool = false,
                     _ context: TodoShContext) throws(CLIError) -> Int32 {
        let path = context.settings.todoFile
        var lines = TodoShListing.Lines(try TodoShListing.read(path, context))
        lines.droppingTerminatorsAndMark()
        TodoShListing.warnOfConflictMarkers(lines.bytes, path: path, context)
        let width = TodoShListing.digits(lines.count)
        var filters = try TermFilter(checking: terms, context)
        if filters.needsOpenUIDs { filters.readOpenUIDs(lines.ranges.lazy.map { lines.bytes[$0.start..<($0.start + $0.length)] }) }
        var agenda = Agenda(today: context.clock.today, days: days, includesEverything: includesEverything)
        var scratch: [UInt8] = []
        let bytes = lines.bytes, ranges = lines.ranges
        // The open uids, once for the file, and only when some line has a link at all.
        let openUIDs = DependencyGraph.mayHaveLinks(bytes)
            ? DependencyGraph.openUIDs(of: ranges.lazy.map { bytes[$0.start..<($0.start + $0.length)] }) : []
        var blockedLines: Set<Int> = []
        bytes.withUnsafeBufferPointer { buffer in
            for index in 0..<ranges.count {
                let range = ranges[index]
                if TodoShListing.isBlank(buffer, range.start, range.length) { continue }
                if !filters.isEmpty {
                    let entry = TodoShListing.Entry(number: index + 1, filterNumber: index + 1, start: range.start, length: range.length)
                    if !filters.accepts(entry, bytes, width: width, scratch: &scratch) { continue }
                }
                let line = bytes[range.start..<(range.start + range.length)]
                if !openUIDs.isEmpty, DependencyGraph.isBlocked(after: TodoItem(line).afterUIDs, openUIDs: openUIDs) {
                    guard showsBlocked else { continue }
                    blockedLines.insert(index)
                }
                agenda.consider(line, at: index)
            }
        }
        let groups = agenda.groups
        // The setting read once (the settings are a large value, copied on each read).
        let output = render(groups, of: agenda, bytes: bytes, ranges: ranges, width: width, headings: headings,
                            escapes: context.settings.escapeControls, blocked: blockedLines)
        context.sayBytes(output)
        return 0
    }
}
