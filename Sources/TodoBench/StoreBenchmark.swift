import Foundation
import TodoStore
import TodoTestSupport

/// Runs `runStoreBenchmark` on the main actor, prints its report and exits (1 when a target was missed).
func runStoreBenchmarkAndExit(runs: Int) -> Never {
    Task { @MainActor in
        let (report, ok) = await runStoreBenchmark(runs: runs)
        print(report, terminator: "")
        exit(ok ? 0 : 1)
    }
    dispatchMain()
}

/// `TodoBench store`: the targets of docs/store.md, "Speed", on generated files (seed 42).
///
/// - ready: `TodoStore(path:)` on a 100k-task file until its first `tasks` (best of `runs`);
/// - external change: one line of the 100k file changed elsewhere, read and absorbed with its
///   ids kept: the main actor's share (install) and the whole (read off the main actor included),
///   best of `runs`; plus the latency of the same change seen through `follow()` (the settle time
///   included);
/// - toggle: `store.toggle(task)` on a 10k-task file, from the call to `tasks` updated (a durable
///   write: the fsyncs included), median of `runs`, on the temporary directory's disk and, when
///   there is one, on /dev/shm;
/// - memory: the growth of the resident set from before the 100k store was opened to after it is
///   ready, against the file's size.
///
/// Returns the report and whether every target was met.
@MainActor func runStoreBenchmark(runs: Int) async -> (String, Bool) {
    var report = ""
    var ok = true
    func line(_ text: String) { report += text + "\n" }
    func ms(_ duration: Duration) -> String {
        String(format: "%.2f ms", Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000)
    }
    func check(_ name: String, _ value: Duration, _ target: Duration) {
        let met = value <= target
        if !met { ok = false }
        line("\(name): \(ms(value))  (target ≤ \(ms(target)))\(met ? "" : "  MISSED")")
    }
    let directory = TemporaryDirectory.makePath("store-bench")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    var generator = TodoFileGenerator(seed: 42)
    let big = generator.file(lines: 100_000)
    let bigPath = directory + "/big.txt"
    guard FileManager.default.createFile(atPath: bigPath, contents: Data(big)) else { return ("store: cannot write \(bigPath)\n", false) }
    line("store: 100k tasks, \(big.count) bytes; 10k tasks for the toggle; release build, \(runs) runs; load \(loadAverage())")

    // Memory: the first store, in a process that has held no other.
    // Foundation's calendar and time zone data, loaded once per process by the first `today()`,
    // are the process's, not the store's: loaded before the baseline.
    blackHole(TodoDate.today())
    let before = residentKilobytes()
    var store: TodoStore
    do { store = try TodoStore(path: bigPath) } catch { return ("store: \(error)\n", false) }
    let grown = (residentKilobytes() - before) * 1024
    let ratio = Double(grown) / Double(big.count)
    if ratio > 3 { ok = false }
    line("memory: resident set +\(grown / 1_000_000) MB for a \(big.count / 1_000_000) MB file = "
         + String(format: "%.2f", ratio) + "× (target ≤ 3×)\(ratio > 3 ? "  MISSED" : "")")

    var ready = Duration.seconds(1_000), readyCPU = Duration.seconds(1_000)
    for _ in 0..<runs {
        let start = ContinuousClock.now, cpu = threadCPUTime()
        guard let opened = try? TodoStore(path: bigPath), !opened.tasks.isEmpty else { return ("store: reopen failed\n", false) }
        ready = min(ready, ContinuousClock.now - start)
        readyCPU = min(readyCPU, threadCPUTime() - cpu)
        blackHole(opened)
    }
    check("ready (100k tasks, first tasks)", ready, .milliseconds(100))
    line("ready, the main thread's CPU time (what the wall time is on an idle machine): \(ms(readyCPU))")

    // One line changed elsewhere, ids kept.
    var onMain = Duration.seconds(1_000), whole = Duration.seconds(1_000)
    var idsKept = true
    for run in 0..<runs {
        let lines = big.split(separator: 0x0A, omittingEmptySubsequences: false)
        var changed = lines.map(Array.init)
        // An editor's change of one task: a word added before its uid, as `todo append` would.
        changed[50_000] = Array("edited elsewhere \(run) ".utf8) + changed[50_000]
        let bytes = Array(changed.joined(separator: [0x0A]))
        let oldIDs = store.tasks.map(\.id)
        let start = ContinuousClock.now
        await store.absorb(TodoDocument(bytes: bytes))
        // The id of the edited task is kept, and every other one.
        whole = min(whole, ContinuousClock.now - start)
        onMain = min(onMain, store.lastInstallDuration)
        if Set(store.tasks.map(\.id)) != Set(oldIDs) { idsKept = false }
    }
    if !idsKept { ok = false }
    check("external one-line change, main-actor work", onMain, .milliseconds(20))
    line("external one-line change, whole (parse, ids, list off the main actor): \(ms(whole)); ids kept: \(idsKept)")

    let following = Task { await store.follow() }
    try? await Task.sleep(for: .milliseconds(300))
    var seen = store.tasks.count
    var latencies: [Duration] = []
    for run in 0..<3 {
        let appended = "appended by the bench \(run)\n"
        guard let handle = FileHandle(forWritingAtPath: bigPath) else { break }
        handle.seekToEndOfFile()
        let start = ContinuousClock.now
        handle.write(Data(appended.utf8))
        try? handle.close()
        while store.tasks.count == seen, ContinuousClock.now - start < .seconds(5) { try? await Task.sleep(for: .milliseconds(1)) }
        latencies.append(ContinuousClock.now - start)
        seen = store.tasks.count
    }
    following.cancel()
    line("`echo >>` seen through follow() (settle \(ms(store.options.settle)) included): "
         + latencies.map(ms).joined(separator: ", ") + " (target ≤ 300 ms)")
    if latencies.contains(where: { $0 > .milliseconds(300) }) { ok = false }

    for place in [directory, "/dev/shm"] where FileManager.default.fileExists(atPath: place) {
        let small = place + "/toggle-\(getpid()).txt"
        var smallGenerator = TodoFileGenerator(seed: 7)
        guard FileManager.default.createFile(atPath: small, contents: Data(smallGenerator.file(lines: 10_000))) else { continue }
        defer { try? FileManager.default.removeItem(atPath: small) }
        guard let toggling = try? TodoStore(path: small) else { continue }
        var samples: [Duration] = [], cpuSamples: [Duration] = []
        for run in 0..<max(runs, 11) {
            let task = toggling.tasks[run * 37 % toggling.tasks.count]
            let start = ContinuousClock.now, cpu = processCPUTime()
            do { try await toggling.toggle(task) } catch { line("toggle failed: \(error)"); ok = false; break }
            samples.append(ContinuousClock.now - start)
            cpuSamples.append(processCPUTime() - cpu)
        }
        samples.sort()
        cpuSamples.sort()
        if !cpuSamples.isEmpty { line("toggle round trip, 10k tasks, \(place): median CPU time of the process \(ms(cpuSamples[cpuSamples.count / 2]))") }
        guard !samples.isEmpty else { continue }
        let median = samples[samples.count / 2]
        if place == "/dev/shm" {
            check("toggle round trip, 10k tasks, tmpfs (/dev/shm)", median, .milliseconds(30))
        } else {
            line("toggle round trip, 10k tasks, disk (\(place), fsyncs included): median \(ms(median)), min \(ms(samples[0]))")
        }
    }
    return (report, ok)
}

/// The one-minute load average (/proc/loadavg), as text: wall times on a shared machine need it beside them.
func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first.map(String.init) ?? "?"
}

/// The calling thread's CPU time (user and system).
func threadCPUTime() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
}

/// The whole process's CPU time (every thread: the write queue's work included).
func processCPUTime() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
}

/// The current resident set (`VmRSS` of /proc/self/status), in KiB; 0 if unreadable.
func residentKilobytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for entry in status.split(separator: "\n") where entry.hasPrefix("VmRSS:") {
        return Int(entry.filter(\.isNumber)) ?? 0
    }
    return 0
}
