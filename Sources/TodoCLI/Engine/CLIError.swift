/// Every way a command can fail, under either name, mapped to its output and exit status in one
/// place (`report(to:programName:)`).
///
/// Errors are thrown, never printed where they arise, so a command that fails has printed nothing
/// of the failure before it reaches `TodoCommand.run` (or a loop that reports a soft error and
/// goes on).
public enum CLIError: Error, Equatable, Sendable {
    /// Wrong arguments: exit 2 (`todo: usage: …`).
    case usage(String)
    /// The action could not be done: exit 1 (`todo: what: why`).
    case failure(String)
    /// Not an error to print, just a status: `--check` found an unsorted file, a merge conflict,
    /// a todo.sh config or add-on that printed its own complaint.
    case status(Int32)
    /// todo.sh's own words, printed as they are (docs/todosh.md): its `die` on stderr, its two-line
    /// `usage` on stdout, each with todo.sh's status.
    case todoSh(message: String, onStandardOutput: Bool, status: Int32)

    /// The message without the program name (`FILE: what`), for wrapping in a longer one.
    var text: String {
        switch self {
        case .usage(let text), .failure(let text): return text
        case .todoSh(let message, _, _): return message
        case .status(let code): return "exit status \(code)"
        }
    }

    /// The exit code for this error (docs/todo-command.md: 1 failure, 2 usage).
    var exitCode: Int32 {
        switch self {
        case .usage: return 2
        case .failure: return 1
        case .status(let code), .todoSh(_, _, let code): return code
        }
    }

    /// Prints the error's one line (or todo.sh's lines) and returns its exit code.
    @discardableResult
    func report(to io: CommandIO, programName: String) -> Int32 {
        switch self {
        case .usage(let text), .failure(let text): io.printError("\(programName): \(text)")
        case .todoSh(let message, let onStandardOutput, _):
            if onStandardOutput {
                io.print(io.outputIsTerminal ? String(decoding: TerminalText.escapingControlsKeepingLines(Array(message.utf8)),
                                                      as: UTF8.self) : message)
            } else {
                io.printError(message)
            }
        case .status: break
        }
        return exitCode
    }
}
