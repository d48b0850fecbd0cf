import TodoFileSystem
import TodoTxt

/// `todo edit [NR|UID]`: opens the todo file in `$VISUAL` or `$EDITOR` (else `vi`), at the task's
/// line where the editor takes one (`+N` for vi-family, nano, emacs, micro, kak; `--goto file:N` for
/// VS Code). The editor runs through `sh -c` so `EDITOR="code -w"` works. Afterwards the file is read
/// again and nothing is assumed about it: problems the editor introduced are reported as
/// diagnostics on stderr. The exit status is the editor's, except when the editor left an unresolved
/// conflict block: every later write would refuse the file, so that is said in one line and the
/// exit status is 1 (docs/todo-command.md, "Unresolved conflict markers").
enum EditAction {
    static let lineArgumentEditors: Set<String> = ["vi", "vim", "nvim", "gvim", "nano", "pico", "emacs", "emacsclient",
                                                    "micro", "kak", "joe", "ne", "mg", "jed", "hx", "helix"]

    static let spec = ActionSpec(
        name: "edit", arguments: "[NR|UID]", argumentCount: 0...1,
        summary: "Open the file in $VISUAL/$EDITOR, at the task's line; re-read and check it afterwards.",
        completes: .task,
        group: .tasks, notes: ["NR|UID: the line the editor opens at. The file is checked after the editor exits."],
        words: { invocation, arguments throws(CLIError) in
            let path = invocation.todoFilePath()
            var line: Int?
            if let address = arguments.first {
                let file = TodoFileEdit(invocation, path: path)
                line = try file.targets([address], in: TodoDocument(bytes: try invocation.files.read(path)), invocation)[0].identity.index + 1
            }
            let environment = invocation.environment
            let editor = editorCommand(environment)
            let command = editor.split(separator: " ").first.map(String.init) ?? editor
            let editorName = command.split(separator: "/").last.map(String.init) ?? command
            var editorArguments = [path]
            if let line {
                if lineArgumentEditors.contains(editorName) {
                    editorArguments = ["+\(line)", path]
                } else if editorName == "code" || editorName == "codium" {
                    editorArguments = ["--goto", "\(path):\(line)"]
                }
            }
            let status = runEditor(editor, editorArguments, environment: environment)
            if let bytes = try? invocation.files.read(path) {
                for diagnostic in TodoDocument(bytes: bytes).diagnostics() {
                    invocation.log("\(path): \(diagnostic)")
                }
                if let line = ConflictMarkers.firstBlockLine(in: bytes) {
                    invocation.warn("\(path): line \(line): unresolved merge conflict (<<<<<<< … >>>>>>>) after editing; every write refuses the file until it is resolved (run '\(invocation.programName) edit' again)")
                    return status == 0 ? 1 : status
                }
            }
            return status
        })

    /// The editor the user chose: `$VISUAL`, else `$EDITOR` (an empty one is unset), else `vi`.
    static func editorCommand(_ environment: [String: String]) -> String {
        [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
    }

    /// Runs `editor` on `arguments` through `sh -c` (so `EDITOR="code -w"` works), sharing our
    /// terminal, and returns its exit status.
    static func runEditor(_ editor: String, _ arguments: [String], environment: [String: String]) -> Int32 {
        ProcessSpawning.runInheriting(["sh", "-c", editor + " \"$@\"", "todo-edit"] + arguments, environment: environment)
    }
}
