import TodoTxt

/// `todo export [--format json|ics] [--output FILE] [FILE | TERM...]`: every line as JSON Lines
/// (docs/format.md section 7), or the tasks as an iCalendar feed (docs/todo-command.md, "Calendar
/// feed"; `ExportAction.calendar`).
enum ExportAction {
    static let format = ActionOption.valued("--format", value: "FORMAT", values: ["json", "ics"],
                                            meaning: "json (the default): every line as a JSON object; ics: the tasks as iCalendar VTODOs.")
    static let output = ActionOption.valued("-o", "--output", value: "FILE",
                                            meaning: "with --format ics: replace FILE with the calendar, atomically, instead of printing it.")

    static let spec = ActionSpec(
        name: "export", options: [format, output], arguments: "[FILE | TERM...]", argumentCount: nil,
        summary: "Print every line of the file as a JSON object (JSON Lines), or the tasks as iCalendar.",
        completes: .files,
        group: .listing,
        notes: [
            "With --format json the argument is the file to export (default: the todo file).",
            "With --format ics the TERMs choose the tasks, as those of ls do (a TERM starting with -",
            "after --); open and done tasks of the todo file are written, h:1 placeholders never.",
        ],
        parsed: { invocation, parsed, usage throws(CLIError) in
            switch parsed.values["--format"] ?? "json" {
            case "json":
                guard parsed.values["--output"] == nil else {
                    throw .usage("--output is for --format ics; usage: \(usage)")
                }
                guard parsed.positionals.count <= 1 else {
                    throw .usage("too many arguments; usage: \(usage)")
                }
                let path = invocation.todoFilePath(explicit: parsed.positionals.first)
                let document = TodoDocument(bytes: try invocation.files.read(path))
                // Written as it is made, in pieces: the whole export is several times the file's size.
                writeJSONLines(document) { invocation.io.writeOutput($0) }
                return 0
            case "ics":
                return try calendar(parsed.positionals, output: parsed.values["--output"], &invocation)
            case let other:
                throw .usage("--format '\(other)' is not json or ics; usage: \(usage)")
            }
        })
}
