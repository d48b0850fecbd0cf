// The `sync` section of TodoBench: `todo sync` with nothing to do on a repository holding a
// 10k-task todo.txt, against a bare `git fetch` from the same remote (issue 27: under 1.5× its time).
@preconcurrency import Glibc
import TodoTestSupport
import TodoTxt

/// Runs the section and returns its report and whether the target was met.
///
/// A bare repository in a fresh temp directory is the remote (a `file://` URL); a clone of it holds
/// the generated todo.txt (`lines` tasks, the merge section's generator), set up once with
/// `todo sync --setup`. Then `git -C CLONE fetch -q origin` and `todo -f CLONE/todo.txt sync`
/// (which finds nothing to commit, fetches, finds nothing to merge or push) run alternately, `runs`
/// times each; the medians are compared. git runs with the caller's environment plus a fixed author,
/// and without the system configuration.
func runSyncBenchmark(todoBinary: String, lines: Int = 10_000, runs: Int = 21) -> (String, Bool) {
    var template = Array("/tmp/todo-bench-sync-XXXXXX".utf8CString)
    guard let directoryPointer = mkdtemp(&template) else { fail("mkdtemp: \(String(cString: strerror(errno)))") }
    let root = String(cString: directoryPointer)
    for (key, value) in [("GIT_CONFIG_NOSYSTEM", "1"), ("GIT_AUTHOR_NAME", "Bench"), ("GIT_AUTHOR_EMAIL", "bench@example.invalid"),
                         ("GIT_COMMITTER_NAME", "Bench"), ("GIT_COMMITTER_EMAIL", "bench@example.invalid")] {
        setenv(key, value, 1)
    }
    let git = gitPath()
    let clone = root + "/machine", remote = root + "/remote.git"
    func must(_ arguments: [String]) {
        let sample = spawnMeasured(arguments)
        guard sample.status == 0 else { fail("sync bench: \(arguments.joined(separator: " ")) exited \(sample.status)") }
    }
    must([git, "init", "-q", "--bare", "-b", "main", remote])
    must([git, "init", "-q", "-b", "main", clone])
    var random = SplitMix64(seed: 42)
    writeWholeFile(clone + "/todo.txt", MergeBenchFiles.base(lines: lines, &random).bytes)
    must([todoBinary, "-q", "-f", clone + "/todo.txt", "sync", "--setup", "file://" + remote])
    var fetches: [Double] = [], syncs: [Double] = []
    for _ in 0..<runs {
        let fetch = spawnMeasured([git, "-C", clone, "fetch", "-q", "origin"])
        let sync = spawnMeasured([todoBinary, "-f", clone + "/todo.txt", "sync"])
        guard fetch.status == 0, sync.status == 0 else { fail("sync bench: fetch exited \(fetch.status), sync \(sync.status)") }
        fetches.append(fetch.seconds)
        syncs.append(sync.seconds)
    }
    let ratio = median(syncs) / median(fetches)
    func milliseconds(_ value: Double) -> String { String(Int((value * 10_000).rounded())).paddedMilliseconds }
    let ok = ratio < 1.5
    let report = """
        sync: \(lines)-task todo.txt, nothing to do, \(runs) runs each, alternating
          git fetch -q origin      median \(milliseconds(median(fetches))) ms, best \(milliseconds(fetches.min() ?? .nan)) ms
          todo sync                median \(milliseconds(median(syncs))) ms, best \(milliseconds(syncs.min() ?? .nan)) ms
          ratio of medians         \(String(Int((ratio * 100).rounded()))) % of git fetch (target: under 150 %) \(ok ? "met" : "MISSED")

        """
    _ = spawnMeasured(["/bin/rm", "-rf", root])
    return (report, ok)
}

/// git's path: the first `git` on `PATH` (spawnMeasured takes a path, not a name).
private func gitPath() -> String {
    let path = String(cString: getenv("PATH") ?? strdup("/usr/bin:/bin"))
    for directory in path.split(separator: ":") where access("\(directory)/git", X_OK) == 0 { return "\(directory)/git" }
    fail("sync bench: no git on PATH")
}

private extension String {
    /// Tenths of a millisecond as `12.3`.
    var paddedMilliseconds: String {
        let digits = count < 2 ? String(repeating: "0", count: 2 - count) + self : self
        return digits.dropLast() + "." + digits.suffix(1)
    }
}
