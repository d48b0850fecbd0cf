// The libFuzzer binary for TodoTxt (docs/notes/toolchain.md): one binary, several targets.
//
// Built by scripts/fuzz.sh with `-DFUZZING`, coverage instrumentation and the libFuzzer runtime
// (address sanitizer too in asan mode); a plain `swift build` compiles the stub at the bottom instead.
//
// The target is chosen by TODO_FUZZ_TARGET (parse, edits, sort, merge), read once before the
// engine starts. The checks live in TodoFuzzChecks so that the corpus replay test runs the very same
// code; here a failure becomes a crash, which is what makes libFuzzer save the input.
import TodoFuzzChecks

#if FUZZING
import Glibc

/// Writes `text` and a newline to standard error with one write(2): no shared `FILE *` (which
/// Swift 6 rejects as shared mutable state), and a line is not lost when the process traps next.
func printError(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { buffer in _ = write(2, buffer.baseAddress, buffer.count) }
}

/// The target for this process. Invariant: set once, before `LLVMFuzzerRunDriver` starts calling
/// back, and never changed, so the C callback (which cannot capture) reads a constant.
let selectedTarget: FuzzTarget = {
    let name = getenv(FuzzTarget.environmentVariable).map { String(cString: $0) } ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        let known = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        printError("TodoFuzz: set \(FuzzTarget.environmentVariable) to one of: \(known) (got '\(name)')")
        exit(2)
    }
    return target
}()

/// One input: run the target's checks; the first failure (all are printed) traps.
func fuzzOne(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    let failures = selectedTarget.failures(bytes)
    if !failures.isEmpty {
        for failure in failures { printError("\(failure)") }
        fatalError("invariant broken: \(failures.count) failure(s) in target \(selectedTarget.rawValue)")
    }
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

printError("TodoFuzz: target \(selectedTarget.rawValue), inputs cut to \(selectedTarget.limits.maxBytes) bytes, \(selectedTarget.limits.maxLines) lines")
var argumentCount = CommandLine.argc
var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argumentCount, &arguments) { fuzzOne($0, $1) })
#else
print("fuzzer not enabled; targets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
#endif
