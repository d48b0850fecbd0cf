import TodoTxt

/// `todo export [FILE]`: every line as JSON Lines (docs/format.md section 7).
enum ExportAction {
    static let spec = ActionSpec(
        name: "export", aliases: [], arguments: "[FILE]",
        summary: "Print every line of the file as a JSON object (JSON Lines).",
        options: [], completes: .files,
        run: { invocation, arguments throws(CLIError) in
            let usage = "\(invocation.programName) export [FILE]"
            let parsed = try ParsedArguments(arguments, flags: [], valued: [], usage: usage)
            guard parsed.positionals.count <= 1 else { throw .usage("too many arguments; usage: \(usage)") }
            let path = invocation.todoFilePath(explicit: parsed.positionals.first)
            let document = TodoDocument(bytes: try invocation.files.read(path))
            invocation.io.writeOutput(document.exportJSONLines())
            return 0
        })
}
