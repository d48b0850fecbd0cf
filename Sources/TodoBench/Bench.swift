@preconcurrency import Glibc

/// What a section gets: one benchmark file, already read, and how many runs to take the best of.
struct BenchInput: Sendable {
    /// The file's path (for sections that spawn whole processes, such as a future `todo sort` vs awk).
    let path: String
    /// The file's bytes, read once.
    let bytes: [UInt8]
    /// Its line count (as generated).
    let lines: Int
    /// Runs per measurement; the best one counts.
    let runs: Int
}

/// A throughput goal: at least `megabytesPerSecond` on files of at least `fromLines` lines.
struct ThroughputTarget: Sendable {
    let megabytesPerSecond: Double
    let fromLines: Int

    var description: String { "≥ \(format(megabytesPerSecond, decimals: 0)) MB/s" }
}

/// What a section reports: its best time over the input, and whether its own correctness check held.
struct SectionResult {
    let bestSeconds: Double
    /// The best CPU time of the same runs.
    let bestCPUSeconds: Double
    let checkPassed: Bool
    /// Free text shown after the figures (what was checked, counts).
    let detail: String
}

/// One named benchmark section. New benchmarks (whole-process `todo sort` against awk, merge) are new
/// entries in `BenchSection.all`; the driver, the per-size child processes and the table need no change.
struct BenchSection: Sendable {
    let name: String
    let target: ThroughputTarget?
    let run: @Sendable (BenchInput) -> SectionResult
}

/// Seconds on the monotonic clock.
func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// CPU seconds this process has used (CLOCK_PROCESS_CPUTIME_ID: the scheduler's exact accounting).
func cpuNow() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// The best (shortest) wall time and the best CPU time of `runs` calls of `body`, and the last value.
///
/// On a shared machine the CPU time is the steadier figure: it leaves out time spent waiting for a core.
func bestTime<T>(runs: Int, _ body: () -> T) -> (seconds: Double, cpuSeconds: Double, last: T) {
    var best = Double.infinity
    var bestCPU = Double.infinity
    var last: T?
    for _ in 0..<max(runs, 1) {
        last = nil  // only one result alive at a time, so peak memory is not inflated by the harness
        let start = now()
        let startCPU = cpuNow()
        let value = body()
        let elapsedCPU = cpuNow() - startCPU
        let elapsed = now() - start
        best = min(best, elapsed)
        bestCPU = min(bestCPU, elapsedCPU)
        last = value
    }
    return (best, bestCPU, last!)
}

/// Keeps a value alive so the optimiser cannot drop the code that computed it.
@inline(never)
func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

/// MB/s with MB = 10^6 bytes.
func megabytesPerSecond(_ bytes: Int, _ seconds: Double) -> Double { Double(bytes) / seconds / 1e6 }

/// The process's peak resident set so far, in KiB (`getrusage` `ru_maxrss`).
func peakResidentKilobytes() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss
}

/// The current memory map's peak resident set (`VmHWM` of /proc/self/status), in KiB; 0 if unreadable.
/// A cross-check of `ru_maxrss`, which on Linux also covers the mm the process was spawned from.
func highWaterMarkKilobytes() -> Int {
    let fd = open("/proc/self/status", O_RDONLY)
    guard fd >= 0 else { return 0 }
    defer { close(fd) }
    var status = [UInt8](repeating: 0, count: 16_384)
    let got = status.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
    status.removeSubrange(max(got, 0)...)
    for line in status.split(separator: 0x0A) where line.starts(with: Array("VmHWM:".utf8)) {
        return Int(String(decoding: line.filter { $0 >= 0x30 && $0 <= 0x39 }, as: UTF8.self)) ?? 0
    }
    return 0
}

/// `value` with `decimals` digits after the point (no Foundation).
func format(_ value: Double, decimals: Int) -> String {
    guard value.isFinite else { return "-" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (value * scale).rounded()
    let whole = Int(scaled / scale)
    guard decimals > 0 else { return String(Int(scaled)) }
    let fraction = Int(abs(scaled) - abs(Double(whole)) * scale)
    var digits = String(fraction)
    while digits.count < decimals { digits = "0" + digits }
    return (scaled < 0 && whole == 0 ? "-" : "") + String(whole) + "." + digits
}

/// `text` padded with spaces to `width` (left-aligned) or right-aligned when `right`.
func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
    let count = text.count
    guard count < width else { return text }
    let spaces = String(repeating: " ", count: width - count)
    return right ? spaces + text : text + spaces
}

/// Reads a whole file with open/fstat/read(2) into one array. Exits with a message on failure.
func readWholeFile(_ path: String) -> [UInt8] {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { fail("open \(path): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else { fail("fstat \(path): \(String(cString: strerror(errno)))") }
    let size = Int(status.st_size)
    return [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
        var done = 0
        while done < size {
            let got = read(fd, buffer.baseAddress! + done, size - done)
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { fail("read \(path): \(got < 0 ? String(cString: strerror(errno)) : "short file")") }
            done += got
        }
        initialized = size
    }
}

/// Writes `bytes` to a new file at `path`. Exits with a message on failure.
func writeWholeFile(_ path: String, _ bytes: [UInt8]) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { fail("open \(path): \(String(cString: strerror(errno)))") }
    defer { close(fd) }
    bytes.withUnsafeBufferPointer { buffer in
        var done = 0
        while done < buffer.count {
            let wrote = write(fd, buffer.baseAddress! + done, buffer.count - done)
            if wrote < 0 && errno == EINTR { continue }
            guard wrote > 0 else { fail("write \(path): \(String(cString: strerror(errno)))") }
            done += wrote
        }
    }
}

/// Prints `message` to stderr and exits with status 2.
func fail(_ message: String) -> Never {
    fputs("TodoBench: \(message)\n", stderr)
    exit(2)
}

/// Runs `arguments` (argv[0] a path) with stdout sent to `outputPath`; returns its exit status.
func spawnWait(_ arguments: [String], stdoutTo outputPath: String) -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let cArguments = arguments.map { strdup($0) } + [nil]
    defer { cArguments.forEach { free($0) } }
    var pid: pid_t = 0
    let rc = posix_spawn(&pid, arguments[0], &actions, nil, cArguments, environ)
    guard rc == 0 else { fail("posix_spawn \(arguments[0]): \(String(cString: strerror(rc)))") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
}

/// This executable's own path (for re-running itself once per size).
func ownExecutablePath() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard length > 0 else { return CommandLine.arguments[0] }
    return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
