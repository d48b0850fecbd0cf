/// Where a command's output goes and what it knows about its terminal. Injected so that tests run
/// commands in-process and capture both streams.
public struct CommandIO: Sendable {
    /// Writes bytes to standard output.
    public var writeOutput: @Sendable ([UInt8]) -> Void
    /// Writes bytes to standard error.
    public var writeError: @Sendable ([UInt8]) -> Void
    /// Whether standard output is a terminal (colour and escaping decisions).
    public var outputIsTerminal: Bool

    public init(writeOutput: @escaping @Sendable ([UInt8]) -> Void,
                writeError: @escaping @Sendable ([UInt8]) -> Void,
                outputIsTerminal: Bool) {
        self.writeOutput = writeOutput
        self.writeError = writeError
        self.outputIsTerminal = outputIsTerminal
    }
}

extension CommandIO {
    func print(_ text: String) { writeOutput(Array((text + "\n").utf8)) }
    func printError(_ text: String) { writeError(Array((text + "\n").utf8)) }
}
