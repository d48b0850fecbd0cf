/// Every way a command can fail, mapped to one message line and one exit code in one place.
public enum CLIError: Error, Equatable, Sendable {
    /// Wrong arguments: exit 2 (`todo: usage: …`).
    case usage(String)
    /// The action could not be done: exit 1 (`todo: what: why`).
    case failure(String)
    /// Not an error to print, just a status: `--check` found an unsorted file, a merge conflict.
    case status(Int32)

    /// The message without the program name (`FILE: what`), for wrapping in a longer one.
    var text: String {
        switch self {
        case .usage(let text), .failure(let text): return text
        case .status(let code): return "exit status \(code)"
        }
    }

    /// The exit code for this error (docs/todo-command.md: 1 failure, 2 usage).
    var exitCode: Int32 {
        switch self {
        case .usage: return 2
        case .failure: return 1
        case .status(let code): return code
        }
    }

    /// The single stderr line, or nil.
    func message(programName: String) -> String? {
        switch self {
        case .usage(let text): return "\(programName): \(text)"
        case .failure(let text): return "\(programName): \(text)"
        case .status: return nil
        }
    }
}
