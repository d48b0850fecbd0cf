import Foundation
import TodoFileSystem
import TodoTxt

/// How long `todo watch` takes to get a saved file sorted on disk: from the end of a write (the
/// writer's close) to the sorted bytes being readable at the path, over `changes` saves, with the
/// default settle time. Runs the given `todo` binary (use a release build) as a child process.
///
/// Each change rewrites the file in place (truncate, write, close) with one completed task moved to
/// the top and one new open task, then polls the file every 0.2 ms until it holds the sorted bytes.
/// Between changes the benchmark waits for the watcher's own write to come back and be ignored, so
/// that every change is measured from a quiet watcher.
///
/// Returns the report (several lines, ending in a newline): median, p95, min and max in ms.
func runWatchLatencyBenchmark(todoBinary: String, changes: Int) -> String {
    let fileManager = FileManager.default
    let directory = fileManager.temporaryDirectory.appendingPathComponent("todo-watch-bench-\(UUID().uuidString)").path
    do {
        try fileManager.createDirectory(atPath: directory, withIntermediateDirectories: true)
    } catch {
        return "watch-latency: cannot create \(directory): \(error)\n"
    }
    defer { try? fileManager.removeItem(atPath: directory) }
    let path = directory + "/todo.txt"

    // A realistic list: 200 open tasks and 50 completed ones, sorted.
    var open: [String] = []
    var done: [String] = []
    for index in 0..<200 { open.append("(B) 2026-01-\(10 + index % 18) task \(index) +project\(index % 7) @context\(index % 3) due:2026-03-01") }
    for index in 0..<50 { done.append("x 2026-02-01 2026-01-05 finished \(index) +project\(index % 7)") }
    func save(_ lines: [String]) -> [UInt8] { Array((lines.joined(separator: "\n") + "\n").utf8) }
    guard write(save(open + done), to: path) else { return "watch-latency: cannot write \(path)\n" }

    let watcher = Process()
    watcher.executableURL = URL(fileURLWithPath: todoBinary)
    watcher.arguments = ["watch", "-q", path]
    var environment = ProcessInfo.processInfo.environment
    environment["TODO_WATCH_SETTLE"] = nil
    watcher.environment = environment
    watcher.standardInput = FileHandle.nullDevice
    watcher.standardOutput = FileHandle.nullDevice
    do {
        try watcher.run()
    } catch {
        return "watch-latency: cannot run \(todoBinary): \(error)\n"
    }
    defer {
        watcher.terminate()
        watcher.waitUntilExit()
    }

    // Warm-up: one unmeasured change proves the watch is in place.
    Thread.sleep(forTimeInterval: 0.5)
    var samples: [Double] = []
    var failures = 0
    for round in -1..<changes {
        open.append("2026-02-02 new task \(round)")
        let unsorted = [done[(round + 50) % done.count]] + open + done.filter { $0 != done[(round + 50) % done.count] }
        let expected = TodoDocument.sort(save(unsorted))
        guard write(save(unsorted), to: path) else { return "watch-latency: cannot write \(path)\n" }
        let written = ContinuousClock.now
        let deadline = written + .seconds(5)
        var sorted = false
        while ContinuousClock.now < deadline {
            if let bytes = try? FileSystem().read(path).bytes, bytes == expected {
                sorted = true
                break
            }
            Thread.sleep(forTimeInterval: 0.0002)
        }
        let elapsed = written.duration(to: ContinuousClock.now)
        if round >= 0 {
            if sorted { samples.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000) } else { failures += 1 }
        } else if !sorted {
            return "watch-latency: the watcher did not sort the file within 5 s (is \(todoBinary) a todo with `watch`?)\n"
        }
        // Let the watcher's own write come back and be ignored (settle + margin).
        Thread.sleep(forTimeInterval: 0.25)
        // Keep the file at a steady size.
        if open.count > 260 { open.removeLast(open.count - 200) }
    }

    samples.sort()
    func percentile(_ fraction: Double) -> Double {
        guard !samples.isEmpty else { return .nan }
        let rank = Int((fraction * Double(samples.count)).rounded(.up)) - 1
        return samples[min(max(rank, 0), samples.count - 1)]
    }
    func ms(_ value: Double) -> String { String(format: "%.1f ms", value) }
    let settle = FileWatcher.defaultSettle.components
    let settleMs = Double(settle.seconds) * 1000 + Double(settle.attoseconds) / 1e15
    var report = "watch-latency: write close -> sorted on disk, \(samples.count) changes, default settle \(ms(settleMs))\n"
    report += "  binary: \(todoBinary)\n"
    report += "  median \(ms(percentile(0.5)))  p95 \(ms(percentile(0.95)))  min \(ms(samples.first ?? .nan))  max \(ms(samples.last ?? .nan))\n"
    if failures > 0 { report += "  \(failures) changes not sorted within 5 s\n" }
    return report
}

/// The `todo` binary built beside this benchmark (`.build/release/todo` next to `TodoBench`).
func watchLatencyTodoBinary() -> String {
    URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent("todo").path
}

/// Truncates and rewrites `path` in place, closing it before returning (the moment measured from).
private func write(_ bytes: [UInt8], to path: String) -> Bool {
    guard FileManager.default.fileExists(atPath: path) else {
        return FileManager.default.createFile(atPath: path, contents: Data(bytes))
    }
    guard let handle = FileHandle(forWritingAtPath: path) else { return false }
    do {
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: bytes)
        try handle.close()
        return true
    } catch {
        return false
    }
}
