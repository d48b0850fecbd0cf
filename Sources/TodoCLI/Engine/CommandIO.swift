/// Where a command's output goes and what it knows about its terminal. Injected so that tests run
/// commands in-process and capture both streams.
public struct CommandIO: Sendable {
    /// Writes bytes to standard output.
    public var writeOutput: @Sendable ([UInt8]) -> Void
    /// Writes bytes to standard error.
    public var writeError: @Sendable ([UInt8]) -> Void
    /// Whether standard output is a terminal (colour and escaping decisions).
    public var outputIsTerminal: Bool
    /// Whether standard error is a terminal: then every message line is escaped (`printError`), since
    /// errors and warnings carry file names and task text too.
    public var errorIsTerminal: Bool

    public init(writeOutput: @escaping @Sendable ([UInt8]) -> Void,
                writeError: @escaping @Sendable ([UInt8]) -> Void,
                outputIsTerminal: Bool, errorIsTerminal: Bool = false) {
        self.writeOutput = writeOutput
        self.writeError = writeError
        self.outputIsTerminal = outputIsTerminal
        self.errorIsTerminal = errorIsTerminal
    }
}

extension CommandIO {
    func print(_ text: String) { writeOutput(Array((text + "\n").utf8)) }
    /// Writes `text` and a newline to stderr; on a terminal with control characters escaped line by
    /// line (docs/todo-command.md, "Text from files on a terminal"): no message can drive the terminal.
    func printError(_ text: String) {
        let bytes = Array(text.utf8)
        writeError((errorIsTerminal ? TerminalText.escapingControlsKeepingLines(bytes) : bytes) + [0x0A])
    }
}
