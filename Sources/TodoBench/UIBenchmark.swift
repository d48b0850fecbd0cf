import Foundation
import TodoTestSupport

/// `todo ui` measured as a user meets it, in a pseudo-terminal of 80×24 with colours on:
///
/// - first screen: from the spawn to the end of the first full frame, on 100k tasks (target 50 ms);
/// - keypress to updated screen on 10k tasks (target 16 ms): moving (`j`), typing a filter (each
///   character filters every task again), and done/not done (`x`: a locked, synced write);
/// - peak memory (the kernel's high-water mark of the process, `VmHWM`) against the file's size, on
///   100k and 1M tasks after the first screen and a filter (target 3×).
///
/// A frame is complete when its last erase-to-end-of-line has arrived: the UI ends every one of the
/// screen's rows with `CSI K`, so each frame holds exactly `rows` of them (task text is escaped and
/// cannot hold one). Each file lives in a directory of its own, so the watcher's start does not
/// depend on how full the temporary directory is.
func runUIBenchmark(todoBinary: String, keys: Int) -> (report: String, ok: Bool) {
    var report = ""
    var ok = true
    func line(_ text: String) { report += text + "\n" }
    // Removed when the value goes: kept alive to the end, past the last use of its path.
    let directory = TemporaryDirectory("todo-ui-bench")
    defer { withExtendedLifetime(directory) {} }
    let root = directory.path

    let first = firstScreen(todoBinary, root: root, tasks: 100_000, runs: 5)
    guard let firstTimes = first.times else { return ("ui: \(first.problem)\n", false) }
    let firstMedian = median(firstTimes)
    line(String(format: "first screen, 100k tasks (%.1f MB): median %.1f ms of %d runs (min %.1f, max %.1f); target 50 ms: %@",
                Double(first.fileSize) / 1e6, firstMedian, firstTimes.count, firstTimes.min() ?? 0, firstTimes.max() ?? 0,
                firstMedian <= 50 ? "met" : "MISSED"))
    ok = ok && firstMedian <= 50

    switch keyLatencies(todoBinary, root: root, tasks: 10_000, keys: keys) {
    case .failure(let problem):
        line("ui: key latency: \(problem.text)")
        ok = false
    case .success(let latencies):
        for (name, times, counts) in latencies {
            let p95 = percentile(times, 0.95)
            let met = !counts || p95 <= 16
            line(String(format: "key → screen, 10k tasks, %@: median %.2f ms, p95 %.2f, max %.2f (%d keys)%@",
                        name, median(times), p95, times.max() ?? 0, times.count, counts ? "; target 16 ms (p95): \(met ? "met" : "MISSED")" : ""))
            ok = ok && met
        }
    }

    for tasks in [100_000, 1_000_000] {
        switch peakMemory(todoBinary, root: root, tasks: tasks) {
        case .failure(let problem):
            line("ui: memory: \(problem.text)")
            ok = false
        case .success(let (peak, size)):
            let ratio = Double(peak) / Double(size)
            line(String(format: "peak memory, %dk tasks: %.1f MB for a %.1f MB file = %.2f×; target 3×: %@",
                        tasks / 1000, Double(peak) / 1e6, Double(size) / 1e6, ratio, ratio <= 3 ? "met" : "MISSED"))
            ok = ok && ratio <= 3
        }
    }
    return (report, ok)
}

/// A problem that stopped a measurement.
private struct BenchProblem: Error {
    let text: String
    init(_ text: String) { self.text = text }
}

private let screenRows = 24
private let eraseToEndOfLine: [UInt8] = [0x1B, 0x5B, 0x4B]

/// A seeded file of `tasks` lines in a directory of its own under `root`; its path and size.
private func makeTaskFile(root: String, tasks: Int, name: String) -> (path: String, size: Int)? {
    let directory = root + "/" + name
    guard (try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)) != nil else { return nil }
    var generator = TodoFileGenerator(seed: 42 &+ UInt64(tasks))
    var bytes: [UInt8] = []
    bytes.reserveCapacity(tasks * 70)
    for _ in 0..<tasks {
        bytes += generator.line()
        bytes.append(0x0A)
    }
    let path = directory + "/todo.txt"
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return nil }
    return (path, bytes.count)
}

/// Counts the frames the program has finished, reading only what arrived since the last call.
private struct FrameCounter {
    private var scanned = 0
    private var erases = 0

    mutating func frames(in output: [UInt8]) -> Int {
        var index = max(0, scanned - (eraseToEndOfLine.count - 1))
        while index + eraseToEndOfLine.count <= output.count {
            if output[index] == 0x1B && output[index + 1] == 0x5B && output[index + 2] == 0x4B { erases += 1; index += 3 } else { index += 1 }
        }
        scanned = max(scanned, index)
        return erases / screenRows
    }
}

/// `todo ui` on one file in a fresh pseudo-terminal, from its first screen on; each key sent is
/// timed to the end of the frame it causes (one per key: the UI draws once per batch of input).
private final class UIRun {
    let ui: PseudoTerminalProcess
    private var counter = FrameCounter()
    private var frames = 0

    /// Starts the UI and waits for its first screen; nil when it cannot start or shows nothing
    /// within 5 s.
    init?(_ todoBinary: String, path: String) {
        let environment = ["HOME": FileManager.default.temporaryDirectory.path, "TERM": "xterm-256color", "LC_ALL": "C.UTF-8",
                           "PATH": "/usr/bin:/bin"]
        guard let ui = PseudoTerminalProcess([todoBinary, "-f", path, "ui"], environment: environment, columns: 80, rows: screenRows)
        else { return nil }
        self.ui = ui
        guard nextFrame() != nil else { return nil }
    }

    /// Sends `key` and waits for its frame: the milliseconds in between, or nil after 5 s.
    func press(_ key: String) -> Double? {
        let sent = ContinuousClock.now
        ui.send(key)
        return nextFrame().map { milliseconds($0 - sent) }
    }

    /// Reads until one more frame is complete; when that was, or nil after 5 s.
    private func nextFrame() -> ContinuousClock.Instant? {
        frames += 1
        let deadline = ContinuousClock.now + .seconds(5)
        while counter.frames(in: ui.output) < frames {
            guard ContinuousClock.now < deadline else { return nil }
            ui.pump(waitingUpTo: .milliseconds(50))
        }
        return .now
    }

    func quit() {
        ui.send("q")
        _ = ui.waitForExit(timeout: 5)
    }
}

private func firstScreen(_ todoBinary: String, root: String, tasks: Int, runs: Int) -> (times: [Double]?, fileSize: Int, problem: String) {
    guard let file = makeTaskFile(root: root, tasks: tasks, name: "first") else { return (nil, 0, "cannot write the task file") }
    var times: [Double] = []
    for _ in 0..<runs {
        let start = ContinuousClock.now
        guard let run = UIRun(todoBinary, path: file.path) else { return (nil, file.size, "\(todoBinary) showed no first screen within 5 s") }
        times.append(milliseconds(.now - start))
        run.quit()
    }
    return (times, file.size, "")
}

/// Per kind of key: its name, the latencies in ms, and whether the 16 ms target applies.
private func keyLatencies(_ todoBinary: String, root: String, tasks: Int, keys: Int) -> Result<[(String, [Double], Bool)], BenchProblem> {
    guard let file = makeTaskFile(root: root, tasks: tasks, name: "keys") else { return .failure(BenchProblem("cannot write the task file")) }
    guard let run = UIRun(todoBinary, path: file.path) else { return .failure(BenchProblem("\(todoBinary) showed no first screen within 5 s")) }
    defer { run.quit() }
    var moving: [Double] = [], filtering: [Double] = [], toggling: [Double] = []
    for index in 0..<keys {
        guard let time = run.press(index % 40 < 20 ? "j" : "k") else { return .failure(BenchProblem("no screen after a move")) }
        moving.append(time)
    }
    for _ in 0..<max(1, keys / 10) {
        guard run.press("/") != nil else { return .failure(BenchProblem("no screen after /")) }
        for character in ["c", "a", "l", "l"] {
            guard let time = run.press(character) else { return .failure(BenchProblem("no screen while filtering")) }
            filtering.append(time)
        }
        // Enter keeps the filter; Esc in the list clears it (an Esc alone waits to be told apart
        // from an escape sequence, so it is not what is measured).
        guard run.press("\r") != nil, run.press("\u{1B}") != nil else { return .failure(BenchProblem("no screen after the filter")) }
    }
    for _ in 0..<max(1, keys / 10) {
        guard let time = run.press("x") else { return .failure(BenchProblem("no screen after x")) }
        toggling.append(time)
    }
    return .success([("move (j/k)", moving, true), ("filter, per character", filtering, true),
                     ("done/not done (x, written and synced)", toggling, false)])
}

/// The process's peak resident memory after the first screen and a filter, and the file's size.
private func peakMemory(_ todoBinary: String, root: String, tasks: Int) -> Result<(Int, Int), BenchProblem> {
    guard let file = makeTaskFile(root: root, tasks: tasks, name: "memory-\(tasks)") else { return .failure(BenchProblem("cannot write the task file")) }
    guard let run = UIRun(todoBinary, path: file.path) else { return .failure(BenchProblem("\(todoBinary) showed no first screen within 5 s")) }
    defer { run.quit() }
    for key in ["/", "c", "a", "l", "l", "\r", "G", "g"] where run.press(key) == nil {
        return .failure(BenchProblem("no screen after '\(key)'"))
    }
    guard let status = try? String(contentsOfFile: "/proc/\(run.ui.pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
          let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return .failure(BenchProblem("cannot read /proc/\(run.ui.pid)/status")) }
    return .success((kilobytes * 1024, file.size))
}

private func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

private func percentile(_ values: [Double], _ fraction: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
}
