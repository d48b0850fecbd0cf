// TodoBench: throughput and memory of the TodoTxt library on generated todo.txt files.
//
//   TodoBench [--sizes 10k,100k,1M] [--seed N] [--runs N] [--sections name,name] [--strict]
//   TodoBench todo-sort [--lines 1M] [--runs N] [--small-runs N] [--seed N] [--todo PATH]
//   TodoBench commands [--lines 1M] [--runs N] [--seed N] [--todo PATH] [--only merge,reconcile,export,regex,listing]
//   TodoBench watch-latency | todosh [TODO_BINARY] | write-path [TODO_BINARY] | ui [TODO_BINARY] | merge | store
//   TodoBench sync [TODO_BINARY]
//
// The first form is the library table below; the others are whole-process and merge sections, each
// in its own file (TodoSortProcessBenchmark, WatchLatencyBenchmark, TodoShBenchmark, UIBenchmark, MergeBenchmark).
//
// For each size the parent generates a seeded file in a fresh temp directory (mkdtemp) and re-runs
// this executable as `TodoBench --child PATH --lines N --runs R --sections NAME` once per section, so
// each peak RSS (getrusage ru_maxrss) is measured in a process of its own, unaffected by what other
// sections left in the heap. The child prints tab-separated records; the parent prints the table. Throughput is the best of R runs, MB = 10^6 bytes, always shown beside
// floors measured in the same process on the same bytes: a Glibc `memchr` scan counting lines, and a
// fresh copy (malloc + memcpy into new pages), the ceiling for any pass that returns a new buffer.
//
// Exit status: 0, or 1 when a section's own correctness check failed (or, with --strict, a target
// was missed), 2 on a usage or I/O error.
@preconcurrency import Glibc

struct Options {
    var sizes: [(label: String, lines: Int)] = [("10k", 10_000), ("100k", 100_000), ("1M", 1_000_000)]
    var seed: UInt64 = 42
    var runs = 5
    var sectionNames: [String]?
    var strict = false
    var childPath: String?
    var childLines = 0
    var generatePath: String?
}

func parseSize(_ text: Substring) -> Int? {
    var digits = text
    var multiplier = 1
    switch digits.last {
    case "k", "K": multiplier = 1_000; digits = digits.dropLast()
    case "m", "M": multiplier = 1_000_000; digits = digits.dropLast()
    default: break
    }
    guard let value = Int(digits), value > 0 else { return nil }
    return value * multiplier
}

func parseOptions(_ arguments: [String]) -> Options {
    var options = Options()
    var rest = arguments.dropFirst()
    func value(_ flag: String) -> String {
        guard let next = rest.popFirst() else { fail("\(flag) needs a value") }
        return next
    }
    while let argument = rest.popFirst() {
        switch argument {
        case "--sizes":
            options.sizes = value(argument).split(separator: ",").map { label in
                guard let lines = parseSize(label) else { fail("bad size '\(label)' (use e.g. 10k,100k,1M)") }
                return (String(label), lines)
            }
        case "--seed":
            guard let seed = UInt64(value(argument)) else { fail("--seed needs a non-negative integer") }
            options.seed = seed
        case "--runs":
            guard let runs = Int(value(argument)), runs >= 1 else { fail("--runs needs a positive integer") }
            options.runs = runs
        case "--sections":
            options.sectionNames = value(argument).split(separator: ",").map(String.init)
        case "--strict":
            options.strict = true
        case "--child":
            options.childPath = value(argument)
        case "--generate":
            options.generatePath = value(argument)
        case "--lines":
            guard let lines = Int(value(argument)) else { fail("--lines needs an integer") }
            options.childLines = lines
        case "-h", "--help":
            print("usage: TodoBench [--sizes 10k,100k,1M] [--seed N] [--runs N] [--sections \(BenchSection.all.map(\.name).joined(separator: ","))] [--strict]")
            exit(0)
        default:
            fail("unknown argument '\(argument)' (try --help)")
        }
    }
    return options
}

func selectedSections(_ options: Options) -> [BenchSection] {
    guard let names = options.sectionNames else { return BenchSection.all }
    for name in names where !BenchSection.all.contains(where: { $0.name == name }) {
        fail("unknown section '\(name)'; sections: \(BenchSection.all.map(\.name).joined(separator: ", "))")
    }
    return BenchSection.all.filter { names.contains($0.name) }
}

// MARK: Child: one size, one section, one process

/// Measures one file with the selected sections and prints `key<TAB>values…` records for the parent:
/// first the two floors, taken in this process just before the sections, then each section, then
/// the process's peak RSS.
func runChild(path: String, lines: Int, options: Options) {
    print("baseline_rss_kb\t\(peakResidentKilobytes())")
    let bytes = readWholeFile(path)
    let (floorSeconds, _, counted) = bestTime(runs: options.runs) { BenchSection.memchrLineCount(bytes) }
    let (copySeconds, _, _) = bestTime(runs: options.runs) { BenchSection.freshCopy(bytes) }
    print("file\t\(bytes.count)\t\(counted)")
    print("floor\t\(floorSeconds)")
    print("copy_floor\t\(copySeconds)")
    let input = BenchInput(path: path, bytes: bytes, lines: lines, runs: options.runs)
    for section in selectedSections(options) {
        let result = section.run(input)
        let detail = result.detail.replacing("\t", with: " ")
        print("section\t\(section.name)\t\(result.bestSeconds)\t\(result.checkPassed ? 1 : 0)\t\(detail)\t\(result.bestCPUSeconds)")
    }
    print("peak_rss_kb\t\(peakResidentKilobytes())")
    print("vm_hwm_kb\t\(highWaterMarkKilobytes())")
}

// MARK: Parent: generate, one child per size and section, tabulate

/// What one child printed.
struct ChildReport {
    var baselineKilobytes = 0
    var fileBytes = 0
    var countedLines = 0
    var floorSeconds = Double.nan
    var copyFloorSeconds = Double.nan
    var sections: [(name: String, seconds: Double, passed: Bool, detail: String, cpuSeconds: Double)] = []
    var peakKilobytes = 0
    var highWaterKilobytes = 0

    init(_ text: String) {
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            switch fields.first {
            case "baseline_rss_kb": baselineKilobytes = Int(fields[1]) ?? 0
            case "file": fileBytes = Int(fields[1]) ?? 0; countedLines = Int(fields[2]) ?? 0
            case "floor": floorSeconds = Double(fields[1]) ?? .nan
            case "copy_floor": copyFloorSeconds = Double(fields[1]) ?? .nan
            case "section" where fields.count >= 6:
                sections.append((fields[1], Double(fields[2]) ?? .nan, fields[3] == "1", fields[4], Double(fields[5]) ?? .nan))
            case "peak_rss_kb": peakKilobytes = Int(fields[1]) ?? 0
            case "vm_hwm_kb": highWaterKilobytes = Int(fields[1]) ?? 0
            default: break
            }
        }
    }
}

let memoryTargetRatio = 3.0
let memoryTargetFromLines = 1_000_000

/// One table row: (text, width, right-aligned) cells joined by two spaces.
func row(_ cells: [(String, Int, Bool)]) -> String {
    cells.map { pad($0.0, $0.1, right: $0.2) }.joined(separator: "  ")
}

let columns: [(String, Int, Bool)] = [
    ("size", 5, false), ("section", 21, false), ("MB/s", 7, true), ("best ms", 8, true), ("CPU MB/s", 8, true),
    ("memchr MB/s", 11, true), ("of memchr", 9, true), ("copy MB/s", 9, true), ("of copy", 7, true),
    ("peak RSS", 9, true), ("target", 13, false), ("verdict", 7, false), ("check", 0, false),
]

func runParent(_ options: Options) -> Int32 {
    var template = Array("/tmp/todobench-XXXXXX".utf8CString)
    guard let directoryPointer = mkdtemp(&template) else { fail("mkdtemp: \(String(cString: strerror(errno)))") }
    let directory = String(cString: directoryPointer)
    defer { rmdir(directory) }
    var load = [Double](repeating: 0, count: 3)
    getloadavg(&load, 3)
    print("TodoBench: seed \(options.seed), best of \(options.runs) runs, MB = 10^6 bytes, one child process per size and section")
    print("machine: \(sysconf(Int32(_SC_NPROCESSORS_ONLN))) cores online, load average \(format(load[0], decimals: 2)) at start")
    print("floors, measured in each section's own process on the same bytes just before it: memchr = Glibc memchr")
    print("line count; copy = malloc + memcpy of the file into new pages (bounds any pass returning a new buffer).")
    print("MB/s = best wall clock (verdicts use it); CPU MB/s = best CPU time of the same runs (no waiting for a core)")
    print("targets apply from 1M lines; peak RSS = ru_maxrss of the section's process (file read + floors + section)")
    print("")
    print(row(columns))
    print(row(columns.map { (String(repeating: "-", count: max($0.1, 5)), $0.1, $0.2) }))

    var checksFailed = false
    var targetsMissed = false
    let me = ownExecutablePath()
    for size in options.sizes {
        let path = "\(directory)/todo-\(size.label).txt"
        let reportPath = "\(directory)/report-\(size.label).tsv"
        defer { unlink(path); unlink(reportPath) }
        // Generated by another child: Linux carries the spawning process's RSS high-water mark into a
        // child's ru_maxrss, so this process must never hold a large buffer itself.
        let generated = spawnWait([me, "--generate", path, "--lines", String(size.lines), "--seed", String(options.seed)],
                                  stdoutTo: "/dev/null")
        guard generated == 0 else { fail("generating \(path) failed with status \(generated)") }
        var fileBytes = 0
        var peak = (kilobytes: 0, highWater: 0, baseline: 0, section: "-")
        for section in selectedSections(options) {
            let status = spawnWait([me, "--child", path, "--lines", String(size.lines), "--runs", String(options.runs),
                                    "--sections", section.name], stdoutTo: reportPath)
            let report = ChildReport(String(decoding: readWholeFile(reportPath), as: UTF8.self))
            guard status == 0, let result = report.sections.first else {
                print("\(size.label): section \(section.name): child exited with status \(status)")
                checksFailed = true
                continue
            }
            fileBytes = report.fileBytes
            if report.countedLines != size.lines { checksFailed = true }
            if report.peakKilobytes > peak.kilobytes {
                peak = (report.peakKilobytes, report.highWaterKilobytes, report.baselineKilobytes, section.name)
            }
            let speed = megabytesPerSecond(report.fileBytes, result.seconds)
            let floor = megabytesPerSecond(report.fileBytes, report.floorSeconds)
            let copyFloor = megabytesPerSecond(report.fileBytes, report.copyFloorSeconds)
            var verdict = "info"
            if let target = section.target, size.lines >= target.fromLines {
                verdict = speed >= target.megabytesPerSecond ? "PASS" : "FAIL"
                if verdict == "FAIL" { targetsMissed = true }
            }
            if !result.passed { checksFailed = true }
            print(row([(size.label, 5, false), (section.name, 21, false), (format(speed, decimals: 1), 7, true),
                       (format(result.seconds * 1000, decimals: 2), 8, true),
                       (format(megabytesPerSecond(report.fileBytes, result.cpuSeconds), decimals: 1), 8, true),
                       (format(floor, decimals: 0), 11, true),
                       (format(100 * speed / floor, decimals: 1) + "%", 9, true), (format(copyFloor, decimals: 0), 9, true),
                       (format(100 * speed / copyFloor, decimals: 0) + "%", 7, true),
                       (format(Double(report.peakKilobytes) / 1024, decimals: 1) + "M", 9, true),
                       (section.target?.description ?? "-", 13, false), (verdict, 7, false),
                       ((result.passed ? "ok: " : "CHECK FAILED: ") + result.detail, 0, false)]))
        }
        let ratio = Double(peak.kilobytes) * 1024 / Double(max(fileBytes, 1))
        var verdict = "info"
        if size.lines >= memoryTargetFromLines {
            verdict = ratio <= memoryTargetRatio ? "PASS" : "FAIL"
            if verdict == "FAIL" { targetsMissed = true }
        }
        print(row([(size.label, 5, false), ("peak memory", 21, false), ("", 7, true), ("", 8, true), ("", 8, true), ("", 11, true),
                   ("", 9, true), ("", 9, true), (format(ratio, decimals: 2) + "×", 7, true),
                   (format(Double(peak.kilobytes) / 1024, decimals: 1) + "M", 9, true),
                   ("≤ \(format(memoryTargetRatio, decimals: 0))× file", 13, false), (verdict, 7, false),
                   ("max over sections (in: \(peak.section)); file \(format(Double(fileBytes) / 1_048_576, decimals: 1))M; VmHWM \(format(Double(peak.highWater) / 1024, decimals: 1))M; RSS before reading \(format(Double(peak.baseline) / 1024, decimals: 1))M", 0, false)]))
    }
    print("")
    print("correctness checks: \(checksFailed ? "FAILED" : "all passed"); targets: \(targetsMissed ? "some missed" : "all met")")
    if checksFailed || (options.strict && targetsMissed) { return 1 }
    return 0
}

// MARK: Other sections, one subcommand each (scripts/bench.sh runs them all)

/// `TodoBench todo-sort [--lines N] [--runs N] [--small-runs N] [--seed N] [--todo PATH]`.
func runTodoSortCommand(_ arguments: ArraySlice<String>) -> Int32 {
    var options = TodoSortProcessOptions()
    var todoBinary = watchLatencyTodoBinary()
    var rest = arguments
    func value(_ flag: String) -> String {
        guard let next = rest.popFirst() else { fail("\(flag) needs a value") }
        return next
    }
    while let argument = rest.popFirst() {
        switch argument {
        case "--lines":
            guard let lines = parseSize(Substring(value(argument))) else { fail("--lines needs a size such as 1M") }
            options.lines = lines
        case "--runs":
            guard let runs = Int(value(argument)), runs >= 1 else { fail("--runs needs a positive integer") }
            options.runs = runs
        case "--small-runs":
            guard let runs = Int(value(argument)), runs >= 1 else { fail("--small-runs needs a positive integer") }
            options.smallRuns = runs
        case "--seed":
            guard let seed = UInt64(value(argument)) else { fail("--seed needs a non-negative integer") }
            options.seed = seed
        case "--todo":
            todoBinary = value(argument)
        default:
            fail("todo-sort: unknown argument '\(argument)'")
        }
    }
    let (report, ok) = runTodoSortProcessBenchmark(todoBinary: todoBinary, options: options)
    print(report, terminator: "")
    return ok ? 0 : 1
}

/// `TodoBench commands [--lines N] [--runs N] [--seed N] [--todo PATH] [--only GROUP,…]`, and its generating child
/// `TodoBench --generate-commands DIR --lines N --seed N`.
func runCommandsCommand(_ arguments: ArraySlice<String>) -> Int32 {
    var options = CommandsBenchOptions()
    var todoBinary = watchLatencyTodoBinary()
    var generateDirectory: String?
    var rest = arguments
    func value(_ flag: String) -> String {
        guard let next = rest.popFirst() else { fail("\(flag) needs a value") }
        return next
    }
    if rest.popFirst() == "--generate-commands" { generateDirectory = value("--generate-commands") }
    while let argument = rest.popFirst() {
        switch argument {
        case "--lines":
            guard let lines = parseSize(Substring(value(argument))) else { fail("--lines needs a size such as 1M") }
            options.lines = lines
        case "--runs":
            guard let runs = Int(value(argument)), runs >= 1 else { fail("--runs needs a positive integer") }
            options.runs = runs
        case "--seed":
            guard let seed = UInt64(value(argument)) else { fail("--seed needs a non-negative integer") }
            options.seed = seed
        case "--todo":
            todoBinary = value(argument)
        case "--only":
            let names = value(argument).split(separator: ",").map(String.init)
            let groups = names.compactMap(CommandGroup.init(rawValue:))
            guard groups.count == names.count, !groups.isEmpty else {
                fail("--only needs groups from " + CommandGroup.allCases.map(\.rawValue).joined(separator: ","))
            }
            options.groups = Set(groups)
        default:
            fail("commands: unknown argument '\(argument)'")
        }
    }
    if let generateDirectory {
        generateCommandsBenchFiles(directory: generateDirectory, lines: options.lines, seed: options.seed)
        return 0
    }
    let (report, ok) = runCommandsBenchmark(todoBinary: todoBinary, options: options)
    print(report, terminator: "")
    return ok ? 0 : 1
}

let subcommandArguments = CommandLine.arguments.dropFirst()
switch subcommandArguments.first {
case "watch-latency":
    print(runWatchLatencyBenchmark(todoBinary: watchLatencyTodoBinary(), changes: 100), terminator: "")
    exit(0)
case "todosh":
    let todoBinary = subcommandArguments.dropFirst().first ?? watchLatencyTodoBinary()
    print(runTodoShBenchmark(todoBinary: todoBinary, sizes: [10_000, 100_000, 1_000_000]), terminator: "")
    exit(0)
case "write-path":
    let todoBinary = subcommandArguments.dropFirst().first ?? watchLatencyTodoBinary()
    let (report, ok) = runWritePathBenchmark(todoBinary: todoBinary, lines: 1_000_000)
    print(report, terminator: "")
    exit(ok ? 0 : 1)
case "ui":
    let todoBinary = subcommandArguments.dropFirst().first ?? watchLatencyTodoBinary()
    let (report, ok) = runUIBenchmark(todoBinary: todoBinary, keys: 200)
    print(report, terminator: "")
    exit(ok ? 0 : 1)
case "merge":
    print(runMergeBenchmark(lines: 100_000, seed: 42))
    exit(0)
case "store":
    runStoreBenchmarkAndExit(runs: 5)
case "sync":
    let todoBinary = subcommandArguments.dropFirst().first ?? watchLatencyTodoBinary()
    let (report, ok) = runSyncBenchmark(todoBinary: todoBinary)
    print(report, terminator: "")
    exit(ok ? 0 : 1)
case "todo-sort":
    exit(runTodoSortCommand(subcommandArguments.dropFirst()))
case "commands", "--generate-commands":
    exit(runCommandsCommand(subcommandArguments))
default:
    break
}

let options = parseOptions(CommandLine.arguments)
if let path = options.generatePath {
    var generator = TodoFileGenerator(seed: options.seed &+ UInt64(options.childLines))
    writeWholeFile(path, generator.file(lines: options.childLines))
    exit(0)
}
if let path = options.childPath {
    runChild(path: path, lines: options.childLines, options: options)
    exit(0)
}
exit(runParent(options))
