// The libFuzzer binary for TodoTxt (docs/notes/toolchain.md): one binary, several targets.
//
// Built by scripts/fuzz.sh with `-DFUZZING`, coverage instrumentation and the libFuzzer runtime
// (address sanitizer too in asan mode); a plain `swift build` compiles the stub at the bottom instead.
//
// The target is chosen by TODO_FUZZ_TARGET (parse, edits, sort, merge, filter), read once before
// the engine starts. `TodoFuzz grep-check DIR…` (in either build) instead compares the filter
// target's inputs in DIR with real grep (GrepReference) and exits 1 on any disagreement. The checks live in TodoFuzzChecks so that the corpus replay test runs the very same
// code; here a failure becomes a crash, which is what makes libFuzzer save the input.
import Foundation
import TodoFuzzChecks

/// `grep-check DIR…`: every file in each DIR through GrepReference; prints each disagreement and a
/// summary line. Exit status 0 when grep and the engine agree on every input, 1 otherwise, 2 when
/// grep is missing or a directory cannot be read.
func grepCheck(_ directories: [String]) -> Int32 {
    guard let grep = GrepReference() else {
        FileHandle.standardError.write(Data("TodoFuzz: grep-check: no grep on PATH\n".utf8))
        return 2
    }
    var counts = (agrees: 0, skipped: 0, rejected: 0, disagrees: 0)
    for directory in directories {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else {
            FileHandle.standardError.write(Data("TodoFuzz: grep-check: cannot read \(directory)\n".utf8))
            return 2
        }
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = directory + "/" + name
            guard let bytes = FileManager.default.contents(atPath: path) else { continue }
            do {
                switch try grep.compare([UInt8](bytes)) {
                case .agrees: counts.agrees += 1
                case .skipped: counts.skipped += 1
                case .rejected: counts.rejected += 1
                case .refusalDiffers(let engine, let grep):
                    counts.disagrees += 1
                    print("grep-check: \(path): syntaxError says \(engine ?? "valid"), grep says \(grep ?? "valid")")
                case .disagrees(let engine, let selected):
                    counts.disagrees += 1
                    print("grep-check: \(path): engine selects lines \(engine), grep selects \(selected)")
                }
            } catch {
                FileHandle.standardError.write(Data("TodoFuzz: grep-check: \(path): \(error)\n".utf8))
                return 2
            }
        }
    }
    print("grep-check: \(counts.agrees) agree, \(counts.disagrees) disagree, \(counts.rejected) refused by grep, \(counts.skipped) skipped")
    return counts.disagrees == 0 ? 0 : 1
}

if CommandLine.arguments.count >= 3, CommandLine.arguments[1] == "grep-check" {
    exit(grepCheck(Array(CommandLine.arguments.dropFirst(2))))
}

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
print("fuzzer not enabled (scripts/fuzz.sh builds it); targets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")); `TodoFuzz grep-check DIR…` compares filter inputs with grep")
#endif
