// The `commands` section of TodoBench: whole-process `todo merge`, `todo reconcile`, `todo export`
// and `todo ls REGEX` on one generated file, against `todo sort` on that file and `grep -i` on its bytes;
// the listing rows (CommandsBenchmark+Listing.swift) against `grep -in WORD | sort -f`.
@preconcurrency import Glibc
import TodoTestSupport
import TodoTxt

/// Options of the `commands` section.
struct CommandsBenchOptions {
    /// Lines of BASE (the file every command reads).
    var lines = 1_000_000
    /// Runs of each command; the best wall clock and the largest peak RSS are reported.
    var runs = 3
    var seed: UInt64 = 42
    /// The groups of commands measured (`--only`); `todo sort`, the reference, always runs.
    var groups: Set<CommandGroup> = Set(CommandGroup.allCases)
}

/// A group of rows of the `commands` section, as `--only` names them.
enum CommandGroup: String, CaseIterable {
    case merge, reconcile, export, regex, listing
}

/// Writes the section's files into `directory` (run in a child of its own, so that the parent,
/// whose RSS high-water mark a spawned child inherits, never holds them): `base.txt`, `lines`
/// tasks with a fifth completed and interleaved (unsorted, so `todo sort` has work to do), and
/// `ours.txt`, `theirs.txt`: BASE with the merge section's independent edits on each side (tasks
/// completed, re-prioritised, appended to, given a `due:`, deleted and added, half of them drawn
/// from a pool both sides share, so field merges and conflicts happen).
func generateCommandsBenchFiles(directory: String, lines: Int, seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let base = MergeBenchFiles.base(lines: lines, sorted: false, &random)
    writeWholeFile(directory + "/base.txt", base.bytes)
    writeWholeFile(directory + "/ours.txt", MergeBenchFiles.edit(base, side: "o", &random).bytes)
    writeWholeFile(directory + "/theirs.txt", MergeBenchFiles.edit(base, side: "t", &random).bytes)
    generateSmallListingFiles(directory: directory, seed: seed)
}

/// One measured command: its name, the samples of every run, and the reference it is judged by.
struct CommandRow {
    var name: String
    var samples: [ProcessSample] = []
    var best: Double { samples.map(\.seconds).min() ?? .nan }
    var peakKilobytes: Int { samples.map(\.maxResidentKilobytes).max() ?? 0 }
}

/// Runs the section and returns its report and whether every check passed and every target was met.
///
/// Targets (issue 24): `merge` (three-way: BASE, OURS, THEIRS), `reconcile` (THEIRS as the todo
/// file, OURS as its conflict copy) and `export` each within 3× the wall time and 3× the peak RSS
/// of `todo sort` on BASE; `todo ls REGEX` within 5× the time of `grep -i REGEX` on BASE (C.UTF-8,
/// both printing into a regular file, through `sh -c 'exec …'`). Each command that writes gets fresh copies of its inputs (copied
/// and fsynced outside the timing, `sync` before each run). Wall time is posix_spawn → wait4;
/// peak RSS is the child's own ru_maxrss. Checks: every exit status is the expected one, the sorted
/// file keeps its size, merge leaves OURS non-empty, reconcile removes the copy and does not shrink
/// the todo file. (Whether the merges are right is for the merge tests and fixtures.) The listing
/// rows (issue 25, `ListingRows`): `todo ls WORD` within 2× of `grep -in WORD BASE | sort -f`, and
/// every listing of a 10k-line file under 30 ms.
func runCommandsBenchmark(todoBinary: String, options: CommandsBenchOptions) -> (report: String, ok: Bool) {
    var template = Array("/tmp/todobench-commands-XXXXXX".utf8CString)
    guard let directoryPointer = mkdtemp(&template) else { fail("mkdtemp: \(String(cString: strerror(errno)))") }
    let directory = String(cString: directoryPointer)
    let base = directory + "/base.txt", ours = directory + "/ours.txt", theirs = directory + "/theirs.txt"
    let work = directory + "/work", sortFile = work + "/sort.txt", mergeOurs = work + "/merge-ours.txt"
    let todoFile = work + "/todo.txt", copyFile = work + "/todo (conflicted copy 2026-12-01).txt"
    let listOutput = work + "/listing.txt"
    defer {
        for path in [base, ours, theirs, sortFile, mergeOurs, todoFile, copyFile, listOutput] { unlink(path) }
        removeSmallListingFiles(directory: directory)
        rmdir(work)
        rmdir(directory)
    }
    mkdir(work, 0o700)
    let generated = spawnWait([ownExecutablePath(), "--generate-commands", directory, "--lines", String(options.lines),
                               "--seed", String(options.seed)], stdoutTo: "/dev/null")
    guard generated == 0 else { fail("generating the commands files failed with status \(generated)") }
    let size = fileSize(base)
    var load = [Double](repeating: 0, count: 3)
    getloadavg(&load, 3)

    let environment = "/usr/bin/env"
    let regexTerms = ["o.*q", "d[ae]nt.*+home"]
    var sort = CommandRow(name: "todo sort")
    var merge = CommandRow(name: "todo merge")
    var reconcile = CommandRow(name: "todo reconcile")
    var export = CommandRow(name: "todo export")
    var listings = regexTerms.map { CommandRow(name: "todo ls '\($0)'") }
    var greps = regexTerms.map { CommandRow(name: "grep -i '\($0)'") }
    var listingRows = ListingRows()
    var checks: [String] = []
    let groups = options.groups
    func expect(_ sample: ProcessSample, _ statuses: Set<Int32>, _ what: String) {
        if !statuses.contains(sample.status) { checks.append("\(what) exited with \(sample.status)") }
    }
    for _ in 0..<options.runs {
        copyFileSynced(base, to: sortFile)
        copyFileSynced(ours, to: mergeOurs)
        copyFileSynced(theirs, to: todoFile)
        copyFileSynced(ours, to: copyFile)
        sync()
        let sorted = spawnMeasured([todoBinary, "sort", sortFile])
        expect(sorted, [0], "todo sort")
        sort.samples.append(sorted)
        sync()
        if groups.contains(.merge) {
            // git's driver contract: 0 clean, 1 with conflicts left in the file.
            let merged = spawnMeasured([todoBinary, "merge", base, mergeOurs, theirs])
            expect(merged, [0, 1], "todo merge")
            merge.samples.append(merged)
        }
        sync()
        if groups.contains(.reconcile) {
            let reconciled = spawnMeasured([todoBinary, "reconcile", todoFile])
            expect(reconciled, [0], "todo reconcile")
            reconcile.samples.append(reconciled)
            if access(copyFile, F_OK) == 0 { checks.append("todo reconcile left the conflict copy in place") }
        }
        if groups.contains(.export) {
            let exported = spawnMeasured([todoBinary, "export", base])
            expect(exported, [0], "todo export")
            export.samples.append(exported)
        }
        for (index, term) in regexTerms.enumerated() where groups.contains(.regex) {
            // Both print into a regular file: GNU grep stops at the first match when its output is
            // /dev/null (it then only needs the exit status), which would not be the same work.
            let listed = spawnMeasured(["/bin/sh", "-c", "exec \(environment) LC_ALL=C.UTF-8 '\(todoBinary)' -f '\(base)' ls '\(term)' > '\(listOutput)'"])
            expect(listed, [0], "todo ls '\(term)'")
            listings[index].samples.append(listed)
            // grep: 0 when a line matched, 1 when none did.
            let grepped = spawnMeasured(["/bin/sh", "-c", "exec \(environment) LC_ALL=C.UTF-8 grep -i -- '\(term)' '\(base)' > '\(listOutput)'"])
            expect(grepped, [0, 1], "grep -i '\(term)'")
            greps[index].samples.append(grepped)
        }
        if groups.contains(.listing) {
            listingRows.measure(todoBinary: todoBinary, base: base, directory: directory, output: listOutput, runs: options.runs,
                                expect: expect)
        }
    }
    if fileSize(sortFile) != size { checks.append("sorted file has \(fileSize(sortFile)) bytes, input \(size)") }
    if groups.contains(.merge), fileSize(mergeOurs) == 0 { checks.append("todo merge left OURS empty") }
    if groups.contains(.reconcile), fileSize(todoFile) < fileSize(theirs) {
        checks.append("todo reconcile made the todo file smaller than it was")
    }

    func ms(_ seconds: Double) -> String { format(seconds * 1000, decimals: 0) }
    func mb(_ kilobytes: Int) -> String { format(Double(kilobytes) / 1024, decimals: 1) + "M" }
    var targetsMet = true
    var report = "commands, whole process: \(todoBinary)\n"
    report += "load average \(format(load[0], decimals: 2)) at start; BASE \(options.lines) lines (\(format(Double(size) / 1e6, decimals: 1)) MB,"
    report += " seed \(options.seed)), OURS \(fileSize(ours)) bytes, THEIRS \(fileSize(theirs)) bytes; best of \(options.runs) runs\n"
    report += "wall clock posix_spawn → wait4; peak RSS = the child's ru_maxrss (largest of the runs); merge, reconcile, export output to /dev/null\n"
    report += "merge = todo merge BASE OURS THEIRS; reconcile = THEIRS as todo.txt with OURS as its conflict copy; export BASE;\n"
    report += "ls = LC_ALL=C.UTF-8 todo -f BASE ls TERM against LC_ALL=C.UTF-8 grep -i -- TERM BASE, each > a file (sh -c exec);\n"
    report += "todo ls \(listingBenchWord) against sh -c 'grep -in \(listingBenchWord) BASE | sort -f > a file' (grep C.UTF-8, sort C);\n"
    report += "todo ls '\(dueQuery)' and todo agenda against grep -in \(dueFloorTerm) BASE | sort -f, TODO_TEST_TIME=\(listingBenchTime); 10k: todo -f FILE … > a file,"
    report += " \(smallListingLines) lines with a done.txt beside, best of \(3 * options.runs)\n\n"
    let widths = [30, 9, 9, 10, 9, 30, 7]
    report += row(zip(["command", "best ms", "peak RSS", "time ×", "memory ×", "target", "verdict"], widths).map { ($0, $1, false) }) + "\n"
    report += row(widths.map { (String(repeating: "-", count: $0), $0, false) }) + "\n"
    report += row([(sort.name, widths[0], false), (ms(sort.best), 9, true), (mb(sort.peakKilobytes), 9, true), ("1.00×", 10, true),
                   ("1.00×", 9, true), ("reference", 30, false), ("", 7, false)]) + "\n"
    let measured = [(merge, CommandGroup.merge), (reconcile, .reconcile), (export, .export)]
    for (command, group) in measured where groups.contains(group) {
        let time = command.best / sort.best
        let memory = Double(command.peakKilobytes) / Double(max(sort.peakKilobytes, 1))
        let pass = time <= 3 && memory <= 3
        targetsMet = targetsMet && pass
        report += row([(command.name, widths[0], false), (ms(command.best), 9, true), (mb(command.peakKilobytes), 9, true),
                       (format(time, decimals: 2) + "×", 10, true), (format(memory, decimals: 2) + "×", 9, true),
                       ("≤ 3× sort's time and memory", 30, false), (pass ? "PASS" : "FAIL", 7, false)]) + "\n"
    }
    for (listing, grep) in zip(listings, greps) where groups.contains(.regex) {
        report += row([(grep.name, widths[0], false), (ms(grep.best), 9, true), (mb(grep.peakKilobytes), 9, true), ("1.00×", 10, true),
                       ("", 9, true), ("reference", 30, false), ("", 7, false)]) + "\n"
        let time = listing.best / grep.best
        let pass = time <= 5
        targetsMet = targetsMet && pass
        report += row([(listing.name, widths[0], false), (ms(listing.best), 9, true), (mb(listing.peakKilobytes), 9, true),
                       (format(time, decimals: 2) + "×", 10, true), ("", 9, true), ("≤ 5× grep -i's time", 30, false),
                       (pass ? "PASS" : "FAIL", 7, false)]) + "\n"
    }
    if groups.contains(.listing) {
        let listing = listingRows.report(widths: widths)
        report += listing.rows
        targetsMet = targetsMet && listing.targetsMet
        if let problem = listing.problem { checks.append(problem) }
    }
    report += "\nchecks: " + (checks.isEmpty ? "all passed (exit statuses, sorted size kept, merge and reconcile wrote their files,"
                                              + " todo ls shows grep's lines)" : checks.joined(separator: "; ")) + "\n"
    return (report, checks.isEmpty && targetsMet)
}
