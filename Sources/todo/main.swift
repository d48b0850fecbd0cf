import TodoCLI
import TodoFileSystem

ProcessContext.ignoreFileSizeSignal()
let io = CommandIO(
    writeOutput: { ProcessContext.writeAll($0, to: 1) },
    writeError: { ProcessContext.writeAll($0, to: 2) },
    outputIsTerminal: ProcessContext.isTerminal(1),
    errorIsTerminal: ProcessContext.isTerminal(2))
let status = TodoCommand.run(arguments: CommandLine.arguments, environment: ProcessContext.environment(), io: io)
ProcessContext.exit(status)
