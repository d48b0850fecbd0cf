// The todo.sh benchmark: our `todo` binary, invoked as `todo.sh`, against genuine todo.sh
// (`/usr/bin/todo-txt`, Debian's todotxt-cli) on the same seeded todo.txt files, in the same run.
// Run it with `scripts/bench.sh todosh`.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TodoTestSupport

/// Benchmarks `ls` at each size in `sizes` (lines) and `add`/`do` at the largest size, for our binary
/// (`todoBinary`, run through a `todo.sh` symlink) and genuine todo.sh; returns the report (Markdown).
///
/// Genuine todo.sh is taken from `$TODOSH_GENUINE` or `/usr/bin/todo-txt`. Both read the same
/// `~/.todo/config` in a temporary HOME; standard output goes to /dev/null. Each command runs several
/// times; the report gives the best and median wall-clock times.
public func runTodoShBenchmark(todoBinary: String, sizes: [Int]) -> String {
    var bench = TodoShBench(todoBinary: todoBinary)
    defer { bench.cleanUp() }
    return bench.run(sizes: sizes)
}

/// The write path of the name `todo` on a file of `lines` lines, against genuine todo.sh in the same
/// run: `todo add` against todo.sh's `add`, `todo do N` against `todo.sh -A do N` (both without
/// auto-archive), and the peak memory of `todo ls` against the file's size. Returns the report
/// (Markdown) and whether every target was met.
public func runWritePathBenchmark(todoBinary: String, lines: Int) -> (report: String, ok: Bool) {
    let bench = TodoShBench(todoBinary: todoBinary)
    defer { bench.cleanUp() }
    return bench.runWritePath(lines: lines)
}

/// A seeded todo.txt generator: priorities on ~30% of open tasks, creation and completion dates,
/// +projects, @contexts, due: and uid: tags, ~30% done, 40–90 byte lines, thousands of distinct words.
public struct TodoShSampleGenerator {
    private var state: SplitMix64
    private let words: [[UInt8]]

    public init(seed: UInt64) {
        state = SplitMix64(seed: seed)
        var vocabulary: [[UInt8]] = []
        let consonants = Array("bcdfghjklmnprstvwz".utf8), vowels = Array("aeiou".utf8)
        var wordState = SplitMix64(seed: seed ^ 0x9E37_79B9_7F4A_7C15)
        for _ in 0..<5000 {
            var word: [UInt8] = []
            let syllables = 1 + Int(wordState.next() % 3)
            for _ in 0..<syllables {
                word.append(consonants[Int(wordState.next() % UInt64(consonants.count))])
                word.append(vowels[Int(wordState.next() % UInt64(vowels.count))])
            }
            if wordState.next() % 8 == 0 { word[0] -= 0x20 }
            vocabulary.append(word)
        }
        words = vocabulary
    }

    private mutating func random(_ bound: Int) -> Int { Int(state.next() % UInt64(bound)) }

    private mutating func date(into line: inout [UInt8]) {
        let year = 2019 + random(7), month = 1 + random(12), day = 1 + random(28)
        func two(_ value: Int) -> [UInt8] { [UInt8(0x30 + value / 10), UInt8(0x30 + value % 10)] }
        line += Array(String(year).utf8) + [0x2D] + two(month) + [0x2D] + two(day)
    }

    /// One task line, without its newline.
    public mutating func line() -> [UInt8] {
        var line: [UInt8] = []
        let done = random(10) < 3
        if done {
            line += Array("x ".utf8)
            date(into: &line)
            line.append(0x20)
            if random(2) == 0 { date(into: &line); line.append(0x20) }
        } else {
            if random(10) < 3 { line += [0x28, UInt8(0x41 + random(random(4) == 0 ? 26 : 4)), 0x29, 0x20] }
            if random(2) == 0 { date(into: &line); line.append(0x20) }
        }
        let target = 40 + random(51)
        let uid = Array("uid:".utf8) + (0..<6).map { _ in Array("0123456789abcdefghijklmnopqrstuv".utf8)[random(32)] }
        let tail = random(4) == 0 ? Array(" due:".utf8) : []
        while line.count + uid.count + 1 + (tail.isEmpty ? 0 : 15) < target {
            switch random(12) {
            case 0: line += [0x2B] + words[random(300)]
            case 1: line += [0x40] + words[random(40)]
            default: line += words[random(words.count)]
            }
            line.append(0x20)
        }
        if !tail.isEmpty { line.removeLast(); line += tail; date(into: &line); line.append(0x20) }
        line += uid
        return line
    }

    /// `count` lines, each ending in a newline.
    public mutating func file(lines count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count * 70)
        for _ in 0..<count {
            bytes += line()
            bytes.append(0x0A)
        }
        return bytes
    }
}

private struct TodoShBench {
    let todoBinary: String
    let genuine: String
    let root: String
    let home: String
    let todoDirectory: String
    let ours: String
    let environment: [String]

    init(todoBinary: String) {
        self.todoBinary = todoBinary
        genuine = getenv("TODOSH_GENUINE").map { String(cString: $0) } ?? "/usr/bin/todo-txt"
        if access(genuine, X_OK) != 0 {
            fail("genuine todo.sh not found at \(genuine) (apt-get install todotxt-cli, or set TODOSH_GENUINE)")
        }
        var template = Array("/tmp/todosh-bench-XXXXXX".utf8CString)
        root = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        home = root + "/home"
        todoDirectory = root + "/todo"
        for directory in [home, home + "/.todo", todoDirectory, root + "/bin"] { mkdir(directory, 0o755) }
        ours = root + "/bin/todo.sh"
        symlink(todoBinary, ours)
        symlink(todoBinary, root + "/bin/todo")
        let config = """
            export TODO_DIR="\(todoDirectory)"
            export TODO_FILE="$TODO_DIR/todo.txt"
            export DONE_FILE="$TODO_DIR/done.txt"
            export REPORT_FILE="$TODO_DIR/report.txt"

            """
        TodoShBench.write(Array(config.utf8), to: home + "/.todo/config")
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/local/bin:/usr/bin:/bin"
        environment = ["HOME=\(home)", "PATH=\(path)", "LANG=C.UTF-8", "TERM=dumb"]
    }

    func cleanUp() {
        for name in ["todo/todo.txt", "todo/done.txt", "todo/report.txt", "todo/todo.txt.bak",
                     "todo/.todo.txt.lock", "todo/.done.txt.lock", "todo/.report.txt.lock",
                     "home/.todo/config", "bin/todo.sh", "bin/todo", "out-ours", "out-genuine"] {
            unlink(root + "/" + name)
        }
        for name in ["todo", "home/.todo", "home", "bin", ""] { rmdir(root + "/" + name) }
    }

    static func write(_ bytes: [UInt8], to path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
        close(descriptor)
    }

    static func read(_ path: String) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Runs `argv` with stdout to `outputPath` (or /dev/null), stderr to /dev/null; returns seconds.
    func time(_ argv: [String], outputPath: String? = nil) -> Double {
        run(argv, outputPath: outputPath).seconds
    }

    /// Runs `argv` as `time` does; returns the wall-clock seconds, the peak resident set size in
    /// bytes (`wait4`'s `ru_maxrss`) and the exit status.
    func run(_ argv: [String], outputPath: String? = nil) -> (seconds: Double, peakBytes: Int, status: Int32) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup($0) } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        let start = TodoShBench.now()
        var pid: pid_t = 0
        guard posix_spawn(&pid, argv[0], &actions, nil, cArguments, cEnvironment) == 0 else { return (.nan, 0, -1) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (TodoShBench.now() - start, usage.ru_maxrss * 1024, exited)
    }

    struct Timing {
        var best: Double
        var median: Double
    }

    /// Runs a command `runs` times (after `prepare`, untimed) and returns best and median.
    func measure(_ argv: [String], runs: Int, prepare: () -> Void) -> Timing {
        var samples: [Double] = []
        for _ in 0..<runs {
            prepare()
            samples.append(time(argv))
        }
        samples.sort()
        return Timing(best: samples[0], median: samples[samples.count / 2])
    }

    static func milliseconds(_ seconds: Double) -> String {
        let value = seconds * 1000
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) ms"
    }

    static func ratio(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)×"
    }

    /// See `runWritePathBenchmark`. Each command runs on a fresh copy of the same seeded file; a
    /// run that exits non-zero fails the section (a fast wrong answer is no result).
    func runWritePath(lines size: Int) -> (report: String, ok: Bool) {
        let todoPath = todoDirectory + "/todo.txt", donePath = todoDirectory + "/done.txt"
        var generator = TodoShSampleGenerator(seed: 20_240_501)
        let file = generator.file(lines: size)
        let restore = {
            TodoShBench.write(file, to: todoPath)
            TodoShBench.write([], to: donePath)
        }
        // The first open task: both tools then complete the same line.
        var target = 1
        var lineGenerator = TodoShSampleGenerator(seed: 20_240_501)
        for index in 1...max(size, 1) {
            let line = lineGenerator.line()
            if !(line.count >= 2 && line[0] == 0x78 && line[1] == 0x20) { target = index; break }
        }
        let todo = root + "/bin/todo"
        var report = "# write path of `todo`\n\n"
        report += "genuine: \(genuine); ours: \(todoBinary) (as todo, `-f FILE`). \(size) lines, "
        report += "\(file.count / 1_000_000) MB; wall clock, best (median) of 5 runs, each on a fresh copy.\n\n"
        report += "| command | todo.sh best (median) | todo best (median) | ratio (best) | target | result |\n"
        report += "|---|---|---|---|---|---|\n"
        var failures = 0
        var failedRuns: [String] = []
        let task = "call the plumber +house @phone due:2024-06-01"
        for (label, theirArguments, ourArguments) in [
            ("add", ["add", task], ["-f", todoPath, "add", task]),
            ("do \(target)", ["-A", "do", String(target)], ["-f", todoPath, "do", String(target)]),
        ] {
            var theirs: [Double] = [], mine: [Double] = []
            for _ in 0..<5 {
                restore()
                theirs.append(time([genuine] + theirArguments))
                restore()
                let outcome = run([todo] + ourArguments)
                if outcome.status != 0 { failedRuns.append("`todo \(ourArguments.joined(separator: " "))` exited \(outcome.status)") }
                mine.append(outcome.seconds)
            }
            theirs.sort()
            mine.sort()
            let ratio = theirs[0] / mine[0]
            let pass = ratio >= 3
            if !pass { failures += 1 }
            report += "| `\(label)` | \(TodoShBench.milliseconds(theirs[0])) (\(TodoShBench.milliseconds(theirs[2]))) "
            report += "| \(TodoShBench.milliseconds(mine[0])) (\(TodoShBench.milliseconds(mine[2]))) "
            report += "| \(TodoShBench.ratio(ratio)) | ≥ 3× | \(pass ? "PASS" : "FAIL") |\n"
        }
        restore()
        var peaks: [Int] = []
        for _ in 0..<3 {
            let outcome = run([todo, "-f", todoPath, "ls"])
            if outcome.status != 0 { failedRuns.append("`todo ls` exited \(outcome.status)") }
            peaks.append(outcome.peakBytes)
        }
        let peak = peaks.max() ?? 0
        let times = Double(peak) / Double(max(file.count, 1))
        let memoryPass = times <= 2
        if !memoryPass { failures += 1 }
        report += "\n| `todo ls` peak resident (largest of 3) | file | peak / file | target | result |\n|---|---|---|---|---|\n"
        report += "| \(peak / 1_000_000) MB | \(file.count / 1_000_000) MB | \(TodoShBench.ratio(times)) | ≤ 2× | \(memoryPass ? "PASS" : "FAIL") |\n"
        failures += failedRuns.count
        report += failedRuns.map { "- \($0)\n" }.joined()
        report += "\n\(failures == 0 ? "all targets met" : "\(failures) target(s) missed")\n"
        return (report, failures == 0)
    }

    mutating func run(sizes: [Int]) -> String {
        var report = "# todo.sh benchmark\n\n"
        report += "genuine: \(genuine); ours: \(todoBinary) (as todo.sh). Wall clock, stdout to /dev/null, "
        report += "file in the page cache; best / median of N runs.\n\n"
        report += "| command | lines | todo.sh best (median) | ours best (median) | ratio (best) | target | result |\n"
        report += "|---|---|---|---|---|---|---|\n"
        let todoPath = todoDirectory + "/todo.txt", donePath = todoDirectory + "/done.txt"
        var failures = 0
        var notes: [String] = []
        var largest: [UInt8] = []
        for size in sizes.sorted() {
            var generator = TodoShSampleGenerator(seed: 20_240_501)
            let file = generator.file(lines: size)
            if size == sizes.max() { largest = file }
            TodoShBench.write(file, to: todoPath)
            TodoShBench.write([], to: donePath)
            // Same output? (Informative: genuine is v2.11, the spec follows v2.13+.)
            _ = time([ours, "ls"], outputPath: root + "/out-ours")
            _ = time([genuine, "ls"], outputPath: root + "/out-genuine")
            let same = TodoShBench.read(root + "/out-ours") == TodoShBench.read(root + "/out-genuine")
            notes.append("ls, \(size) lines: output \(same ? "byte-identical" : "DIFFERS") between the two")
            let genuineRuns = size >= 500_000 ? 3 : size >= 50_000 ? 5 : 10
            let ourRuns = size >= 500_000 ? 10 : 30
            let theirs = measure([genuine, "ls"], runs: genuineRuns) {}
            let mine = measure([ours, "ls"], runs: ourRuns) {}
            let target: Double = size >= 1_000_000 ? 50 : size <= 10_000 ? 15 : 0
            let ratio = theirs.best / mine.best
            let pass = target == 0 || ratio >= target
            if !pass { failures += 1 }
            report += "| `ls` | \(size) | \(TodoShBench.milliseconds(theirs.best)) (\(TodoShBench.milliseconds(theirs.median))) "
            report += "| \(TodoShBench.milliseconds(mine.best)) (\(TodoShBench.milliseconds(mine.median))) "
            report += "| \(TodoShBench.ratio(ratio)) | \(target == 0 ? "–" : "≥ \(Int(target))×") | \(target == 0 ? "–" : pass ? "PASS" : "FAIL") |\n"
        }
        if !largest.isEmpty {
            let size = sizes.max() ?? 0
            let restore = {
                TodoShBench.write(largest, to: todoPath)
                TodoShBench.write([], to: donePath)
            }
            // `do 5` with auto-archive (todo.sh's default): marks a task done and archives every done task.
            var target = 5
            var generator = TodoShSampleGenerator(seed: 20_240_501)
            for index in 1...size {
                let line = generator.line()
                if !(line.count >= 2 && line[0] == 0x78 && line[1] == 0x20) { target = index; break }
            }
            for (label, argv) in [("add", ["add", "call the plumber +house @phone due:2024-06-01"]),
                                  ("do", ["do", String(target)]),
                                  ("do -a", ["-a", "do", String(target)])] {
                let runs = 5
                let theirs = measure([genuine] + argv, runs: runs, prepare: restore)
                let mine = measure([ours] + argv, runs: runs, prepare: restore)
                let ratio = theirs.best / mine.best
                let pass = ratio > 1
                if !pass { failures += 1 }
                report += "| `\(label)` | \(size) | \(TodoShBench.milliseconds(theirs.best)) (\(TodoShBench.milliseconds(theirs.median))) "
                report += "| \(TodoShBench.milliseconds(mine.best)) (\(TodoShBench.milliseconds(mine.median))) "
                report += "| \(TodoShBench.ratio(ratio)) | > 1× | \(pass ? "PASS" : "FAIL") |\n"
            }
            restore()
        }
        report += "\n" + notes.map { "- \($0)\n" }.joined()
        report += "\n\(failures == 0 ? "all targets met" : "\(failures) target(s) missed")\n"
        return report
    }
}
