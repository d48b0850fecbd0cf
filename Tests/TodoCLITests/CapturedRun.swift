import Synchronization
@testable import TodoCLI

/// Runs the program in-process with captured streams.
struct CapturedRun {
    let status: Int32
    let out: String
    let err: String

    init(_ arguments: [String], environment: [String: String] = [:], terminal: Bool = false) {
        let outBuffer = Mutex<[UInt8]>([]), errBuffer = Mutex<[UInt8]>([])
        let io = CommandIO(writeOutput: { bytes in outBuffer.withLock { $0 += bytes } },
                           writeError: { bytes in errBuffer.withLock { $0 += bytes } },
                           outputIsTerminal: terminal)
        status = TodoCommand.run(arguments: ["todo"] + arguments, environment: environment, io: io)
        out = String(decoding: outBuffer.withLock { $0 }, as: UTF8.self)
        err = String(decoding: errBuffer.withLock { $0 }, as: UTF8.self)
    }
}
