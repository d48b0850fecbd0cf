import TodoTxt

/// `todo export [FILE]`: every line as JSON Lines (docs/format.md section 7).
enum ExportAction {
    static let spec = ActionSpec(
        name: "export", arguments: "[FILE]",
        summary: "Print every line of the file as a JSON object (JSON Lines).",
        completes: .files,
        group: .listing,
        parsed: { invocation, parsed, _ throws(CLIError) in
            let path = invocation.todoFilePath(explicit: parsed.positionals.first)
            let document = TodoDocument(bytes: try invocation.files.read(path))
            // Written as it is made, in pieces: the whole export is several times the file's size.
            document.exportJSONLines { invocation.io.writeOutput($0) }
            return 0
        })
}
