import Foundation
import TodoTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `todo watch`: no write loops, concurrent writers, idle cost, failures and signals
/// (docs/files.md section 3).
final class WatchBehaviourTests: XCTestCase {
    private func temporaryDirectory(_ label: String) -> String { Spawn.makeTemporaryDirectory(label) }

    // MARK: - Start

    func testStartSortsOnceAndLogsOneLine() throws {
        let directory = temporaryDirectory("watch-start")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "x 2026-01-01 done one\nopen a\nx 2026-01-02 done two\nopen b\n")
        let watch = try XCTUnwrap(WatchProcess([path]))
        XCTAssertTrue(eventually(timeout: 2) { Files.text(path) == "open a\nopen b\nx 2026-01-01 done one\nx 2026-01-02 done two\n" },
                      "\(watch.log)")
        usleep(300_000)
        XCTAssertEqual(watch.logLines, ["watching \(path)", "sorted \(path): 2 completed tasks moved"])
        XCTAssertTrue(watch.output.isEmpty)
        XCTAssertTrue(watch.isRunning)
    }

    func testMissingFileIsAwaitedAndSortedWhenItAppears() throws {
        let directory = temporaryDirectory("watch-missing")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        let watch = try XCTUnwrap(WatchProcess([path]))
        XCTAssertTrue(watch.waitUntilWatching(), "\(watch.log)")
        XCTAssertEqual(watch.logLines, ["watching \(path)", "\(path) does not exist yet; waiting for it"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "watching must not create the file")

        shell("printf 'x done a\\nopen a\\n' > todo.txt", in: directory)
        XCTAssertTrue(eventually(timeout: 1) { Files.text(path) == "open a\nx done a\n" }, "\(watch.log)")
        XCTAssertTrue(eventually(timeout: 1) {
            watch.logLines == ["watching \(path)", "\(path) does not exist yet; waiting for it", "\(path) appeared",
                               "sorted \(path): 1 completed task moved"]
        }, "\(watch.log)")
    }

    /// A file with an unresolved conflict block is logged (the line of the first marker) and left
    /// alone, and watching goes on: once the user resolves the block, the file is sorted. (Before,
    /// watch sorted the two versions apart and left empty markers behind.)
    func testConflictMarkersAreLoggedAndLeftAloneUntilResolved() throws {
        let directory = temporaryDirectory("watch-conflict")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        let conflicted = "x 2026-01-01 done\n<<<<<<< ours\n(A) call mom\n=======\n(B) call mom\n>>>>>>> theirs\nopen\n"
        Files.write(path, conflicted)
        let watch = try XCTUnwrap(WatchProcess([path]))
        XCTAssertTrue(eventually(timeout: 2) { watch.log.contains("line 2: unresolved merge conflict") }, "\(watch.log)")
        usleep(300_000)
        XCTAssertEqual(Files.text(path), conflicted, "a conflicted file is never rewritten")
        XCTAssertTrue(watch.isRunning, "watching goes on")
        shell("printf 'x 2026-01-01 done\\n(A) call mom\\nopen\\n' > todo.txt", in: directory)
        XCTAssertTrue(eventually(timeout: 2) { Files.text(path) == "(A) call mom\nopen\nx 2026-01-01 done\n" }, "\(watch.log)")
    }

    // MARK: - No loop

    func testOneExternalChangeGivesExactlyOneWriteThenSilence() throws {
        let directory = temporaryDirectory("watch-loop")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "open a\nx done a\n")
        let watch = try XCTUnwrap(WatchProcess([path]))
        XCTAssertTrue(watch.waitUntilWatching(), "\(watch.log)")
        XCTAssertEqual(watch.logLines, ["watching \(path)"], "an already sorted file is not written at start")

        shell("printf 'x done a\\nopen a\\n' > todo.txt", in: directory)
        XCTAssertTrue(eventually(timeout: 1) { Files.text(path) == "open a\nx done a\n" }, "\(watch.log)")
        let settled = try XCTUnwrap(DiskIdentity(path))
        usleep(1_000_000)
        XCTAssertEqual(DiskIdentity(path), settled, "the file was written again after the sort")
        XCTAssertEqual(watch.logLines, ["watching \(path)", "sorted \(path): 1 completed task moved"])
        XCTAssertTrue(watch.isRunning)
    }

    func testTwoWatchersOnOneFileSettleAfterAtMostOneWriteEach() throws {
        let directory = temporaryDirectory("watch-two")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "open a\nx done a\n")
        let first = try XCTUnwrap(WatchProcess([path]))
        let second = try XCTUnwrap(WatchProcess([path]))
        XCTAssertTrue(first.waitUntilWatching() && second.waitUntilWatching())

        shell("printf 'x done a\\nopen a\\nx done b\\nopen b\\n' > todo.txt", in: directory)
        XCTAssertTrue(eventually(timeout: 1) { Files.text(path) == "open a\nopen b\nx done a\nx done b\n" })
        // Let both settle, then nothing may change for a second.
        usleep(300_000)
        let settled = try XCTUnwrap(DiskIdentity(path))
        usleep(1_000_000)
        XCTAssertEqual(DiskIdentity(path), settled, "the watchers kept writing")
        XCTAssertTrue(first.sortLines.count <= 1 && second.sortLines.count <= 1, "\(first.log) | \(second.log)")
        XCTAssertGreaterThanOrEqual(first.sortLines.count + second.sortLines.count, 1)
        XCTAssertTrue(first.isRunning && second.isRunning)
    }

    // MARK: - Concurrent appender (soak)

    func testEveryLineAppendedWhileSortingSurvivesExactlyOnce() throws {
        let seconds = Spawn.soakSeconds(default: 3)
        var random = SplitMix64(seed: propertySeed("watch soak"))
        let directory = temporaryDirectory("watch-soak")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "x done 1\nopen start\nx done 2\n")
        let watch = try XCTUnwrap(WatchProcess([path], settle: "0.02"))
        XCTAssertTrue(watch.waitUntilWatching(), "\(watch.log)")

        // Bursts of appends a few milliseconds apart, separated by pauses around the settle time
        // (20 ms), so that the watcher often starts sorting just as the next burst begins; repeated
        // until time is up. Each append opens, writes and closes the file.
        let burst = Int.random(in: 3...15, using: &random)
        let pauses = (0..<40).map { _ in String(format: "0.%03d", Int.random(in: 12...45, using: &random)) }
        let pause = pauses.prefix(3).joined(separator: ",") + ",…"
        let script = """
            set -- \(pauses.joined(separator: " "))
            end=$(( $(date +%s) + \(Int(seconds.rounded(.up))) )); i=0
            while [ "$(date +%s)" -lt "$end" ]; do
              i=$((i + 1)); echo "open task $i" >> todo.txt
              if [ $((i % \(burst))) -eq 0 ]; then p=$1; shift; set -- "$@" "$p"; sleep "$p"; else sleep 0.002; fi
            done
            echo "$i" > "$0.count"
            """
        let countFile = Spawn.makeTemporaryDirectory("watch-soak-count") + "/appended"
        let appender = Spawn.run(["sh", "-c", "cd '\(directory)' && " + script.replacingOccurrences(of: "$0.count", with: countFile)])
        XCTAssertEqual(appender.status, 0, "\(appender.err)")
        let appended = try XCTUnwrap(Int(Files.text(countFile).trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertGreaterThan(appended, 50, "the appender was too slow to test anything")

        XCTAssertTrue(eventually(timeout: 2) { Spawn.todo(["sort", "--check", path]).status == 0 }, "never sorted")
        usleep(200_000)
        let lines = Files.text(path).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var counts: [String: Int] = [:]
        for line in lines { counts[line, default: 0] += 1 }
        let missing = (1...appended).filter { counts["open task \($0)"] == nil }
        let doubled = counts.filter { $0.value > 1 }.map(\.key)
        XCTAssertTrue(missing.isEmpty, "lost \(missing.count) of \(appended) appended lines: \(missing.prefix(10))")
        XCTAssertTrue(doubled.isEmpty, "duplicated lines: \(doubled.prefix(10))")
        XCTAssertTrue(counts["open start"] == 1 && counts["x done 1"] == 1 && counts["x done 2"] == 1)
        XCTAssertEqual(lines.count, appended + 3 + 1, "unexpected extra lines")
        XCTAssertGreaterThanOrEqual(watch.sortLines.count, 3, "the watcher should have sorted during the appends: \(watch.sortLines.count)")
        XCTAssertTrue(temporaryFiles(in: directory).isEmpty)
        print("watch soak: \(appended) appends in \(seconds) s, \(watch.sortLines.count) sorts, burst \(burst), pause \(pause)")
    }

    // MARK: - Idle

    func testIdleWatcherUsesNoMeasurableCPU() throws {
        let directory = temporaryDirectory("watch-idle")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "open a\nx done a\n")
        let watch = try XCTUnwrap(WatchProcess([path]))
        XCTAssertTrue(watch.waitUntilWatching(), "\(watch.log)")
        usleep(300_000)
        let before = try XCTUnwrap(watch.cpuTicks)
        usleep(3_000_000)
        let after = try XCTUnwrap(watch.cpuTicks)
        XCTAssertLessThanOrEqual(after - before, 2, "idle watcher used \(after - before) ticks in 3 s")
        XCTAssertTrue(watch.isRunning)
    }

    // MARK: - Bad situations

    func testRemovedDirectoryExitsOneWithAMessage() throws {
        try checkDirectoryGoneExitsOneWithAMessage("removed")
    }

    func testRenamedDirectoryExitsOneWithAMessage() throws {
        try checkDirectoryGoneExitsOneWithAMessage("renamed")
    }

    /// The watched file's directory is removed (`rm -rf`) or renamed (`mv`) under the watcher.
    private func checkDirectoryGoneExitsOneWithAMessage(_ how: String) throws {
        let parent = temporaryDirectory("watch-dir")
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let directory = parent + "/lists"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let path = directory + "/todo.txt"
        Files.write(path, "open a\n")
        let watch = try XCTUnwrap(WatchProcess([path]))
        XCTAssertTrue(watch.waitUntilWatching(), "\(watch.log)")

        let result = how == "removed" ? shell("rm -rf lists", in: parent) : shell("mv lists lists.old", in: parent)
        XCTAssertEqual(result.status, 0)
        XCTAssertEqual(watch.waitForExit(timeout: 2), 1, "\(watch.log)")
        let lines = watch.logLines
        XCTAssertEqual(lines.last, "todo: watch: the directory of \(path) (\(directory)) was removed, renamed or unmounted; stopping",
                       "\(watch.log)")
        XCTAssertTrue(!watch.log.contains("Fatal") && !watch.log.contains("Crash"))
    }

    func testFileReplacedByADirectoryExitsOneWithAMessage() throws {
        let directory = temporaryDirectory("watch-isdir")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "open a\n")
        let watch = try XCTUnwrap(WatchProcess([path]))
        XCTAssertTrue(watch.waitUntilWatching(), "\(watch.log)")

        XCTAssertEqual(shell("rm todo.txt && mkdir todo.txt", in: directory).status, 0)
        XCTAssertEqual(watch.waitForExit(timeout: 2), 1, "\(watch.log)")
        XCTAssertEqual(watch.logLines.last?.hasPrefix("todo: watch: "), true, "\(watch.log)")
        XCTAssertTrue(watch.log.contains("is now a directory"), "\(watch.log)")
    }

    func testBinaryFileIsRefusedAndWatchingGoesOn() throws {
        let directory = temporaryDirectory("watch-binary")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "open a\n")
        let watch = try XCTUnwrap(WatchProcess([path]))
        XCTAssertTrue(watch.waitUntilWatching(), "\(watch.log)")

        let binary: [UInt8] = Array("x done\n".utf8) + [0, 1, 2, 0x0A] + Array("open b\n".utf8)
        Files.write(path, binary)
        XCTAssertTrue(eventually(timeout: 1) { watch.log.contains("NUL byte") }, "\(watch.log)")
        XCTAssertEqual(Files.read(path), binary, "a binary file must not be rewritten")
        XCTAssertTrue(watch.isRunning)
        // The file layer names the file by its real path (symlinks and `//` resolved), as its other errors do.
        let realPath = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        XCTAssertEqual(watch.logLines, ["watching \(path)", "todo: \(realPath): line 2: NUL byte, this looks like a binary file; not rewriting it"])

        Files.write(path, "x done\nopen b\n")
        XCTAssertTrue(eventually(timeout: 1) { Files.text(path) == "open b\nx done\n" }, "\(watch.log)")
    }

    func testMissingDirectoryOrDirectoryPathFailsAtStart() throws {
        let directory = temporaryDirectory("watch-bad")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for path in [directory + "/nope/todo.txt", directory] {
            let result = Spawn.todo(["watch", path])
            XCTAssertEqual(result.status, 1, "\(path): \(result.err)")
            XCTAssertTrue(result.err.hasPrefix("todo: watch: cannot watch \(path): "), "\(result.err)")
            XCTAssertEqual(result.err.filter { $0 == "\n" }.count, 1, "\(result.err)")
        }
        for arguments in [["--poll", "soon"], ["--poll", "0"], ["--frob"], ["a", "b"]] {
            let result = Spawn.todo(["watch"] + arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.err)")
            XCTAssertTrue(result.err.hasPrefix("todo: "), "\(arguments): \(result.err)")
        }
    }

    // MARK: - Signals

    func testSIGTERMStopsCleanlyWithoutTemporaryFiles() throws {
        try checkSignalStopsCleanlyWithoutTemporaryFiles(SIGTERM)
    }

    func testSIGINTStopsCleanlyWithoutTemporaryFiles() throws {
        try checkSignalStopsCleanlyWithoutTemporaryFiles(SIGINT)
    }

    private func checkSignalStopsCleanlyWithoutTemporaryFiles(_ signal: Int32) throws {
        let directory = temporaryDirectory("watch-signal")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "open a\nx done a\n")
        let watch = try XCTUnwrap(WatchProcess([path]))
        XCTAssertTrue(watch.waitUntilWatching(), "\(watch.log)")
        watch.send(signal)
        XCTAssertEqual(watch.waitForExit(timeout: 2), 0, "\(watch.log)")
        XCTAssertEqual(watch.logLines, ["watching \(path)"], "\(watch.log)")
        XCTAssertTrue(temporaryFiles(in: directory).isEmpty)
    }

    func testSIGTERMDuringASortFinishesOrAbortsTheWrite() throws {
        try checkSignalDuringASortFinishesOrAbortsTheWrite(SIGTERM)
    }

    func testSIGINTDuringASortFinishesOrAbortsTheWrite() throws {
        try checkSignalDuringASortFinishesOrAbortsTheWrite(SIGINT)
    }

    private func checkSignalDuringASortFinishesOrAbortsTheWrite(_ signal: Int32) throws {
        let directory = temporaryDirectory("watch-signal-busy")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "open 0\n")
        let watch = try XCTUnwrap(WatchProcess([path], settle: "0.02"))
        XCTAssertTrue(watch.waitUntilWatching(), "\(watch.log)")

        // A big unsorted file, so that the sort and the write take a while; the signal arrives
        // around the time the watcher starts on it.
        var text = ""
        for index in 0..<40_000 { text += index % 2 == 0 ? "x 2026-01-01 done \(index)\n" : "open task \(index) +project @context\n" }
        let unsorted = Array(text.utf8)
        Files.write(directory + "/.incoming", unsorted)
        XCTAssertEqual(rename(directory + "/.incoming", path), 0)
        usleep(30_000)
        watch.send(signal)
        XCTAssertEqual(watch.waitForExit(timeout: 10), 0, "\(watch.log)")
        XCTAssertTrue(temporaryFiles(in: directory).isEmpty, "temporary file left behind")
        let final = Files.read(path)
        let sorted = Spawn.todo(["sort", "--dry-run", path]).stdout
        XCTAssertTrue(final == unsorted || final == sorted, "the file is neither the old nor the sorted version")
    }

    // MARK: - Options

    func testListReprintsTheTaskListAfterEachChange() throws {
        let directory = temporaryDirectory("watch-list")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "x done a\nopen a\n")
        let watch = try XCTUnwrap(WatchProcess(["--list", "-q", path]))
        let first = "1 open a\n2 x done a\n-- \(path): 2 tasks, 1 done\n"
        XCTAssertTrue(eventually(timeout: 2) { watch.output == first }, "\(watch.output)")
        XCTAssertTrue(watch.waitUntilWatching())
        shell("echo 'open b' >> todo.txt", in: directory)
        let second = "1 open a\n2 open b\n3 x done a\n-- \(path): 3 tasks, 1 done\n"
        XCTAssertTrue(eventually(timeout: 1) { watch.output == first + second }, "\(watch.output)")
        usleep(300_000)
        XCTAssertEqual(watch.output, first + second, "the watcher's own write must not reprint the list")
        XCTAssertTrue(watch.log.isEmpty, "-q silences the log: \(watch.log)")
    }

    func testListEscapesControlCharactersOnATerminal() throws {
        let parent = temporaryDirectory("watch-tty")
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let directory = parent + "/lists"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let path = directory + "/todo.txt"
        Files.write(path, "open \u{1B}]0;pwned\u{07}title \u{1B}[31mred\nx done\n")
        let typescript = parent + "/typescript"
        // `script` gives the watcher a terminal; removing the directory ends the watcher (exit 1).
        let command = "'\(Spawn.todo)' watch --list -q '\(path)'"
        let run = Spawn.run(["sh", "-c", """
            timeout 10 script -qfec "\(command)" '\(typescript)' & sleep 1; rm -rf '\(directory)'; wait $!
            """])
        let screen = Files.text(typescript)
        XCTAssertEqual(run.status, 1, "\(run.err) \(screen)")
        XCTAssertTrue(screen.contains("1 open ^[]0;pwned^Gtitle ^[[31mred"), "\(screen.debugDescription)")
        XCTAssertTrue(!screen.contains("\u{1B}]0;pwned") && !screen.contains("\u{1B}[31m"), "raw escape sequences on the terminal")
    }

    func testReconcileMergesConflictCopiesAtStartAndWhenTheyAppear() throws {
        let directory = temporaryDirectory("watch-reconcile")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "open a\nx done a\n")
        let startCopy = directory + "/todo (conflicted copy 2026-11-29).txt"
        Files.write(startCopy, "open a\nopen from laptop\nx done a\n")
        let watch = try XCTUnwrap(WatchProcess(["--reconcile", path]))
        XCTAssertTrue(eventually(timeout: 2) { Files.text(path).contains("open from laptop") }, "\(watch.log)")
        // The copy is removed right after the merged file is written.
        XCTAssertTrue(eventually(timeout: 1) { !FileManager.default.fileExists(atPath: startCopy) }, "\(watch.log)")
        XCTAssertTrue(watch.waitUntilWatching())

        // Syncthing: written under a temporary name, renamed into place.
        let copyName = "todo.sync-conflict-20261129-101500-ABCDEFG.txt"
        shell("printf 'open a\\nopen from phone\\nx done a\\n' > .syncthing.tmp && mv .syncthing.tmp '\(copyName)'", in: directory)
        XCTAssertTrue(eventually(timeout: 1) { Files.text(path).contains("open from phone") }, "\(watch.log)")
        XCTAssertTrue(eventually(timeout: 1) { !FileManager.default.fileExists(atPath: directory + "/" + copyName) })
        XCTAssertEqual(Spawn.todo(["sort", "--check", path]).status, 0)
        XCTAssertTrue(eventually(timeout: 1) { watch.log.contains("merged \(copyName) into todo.txt") }, "\(watch.log)")
        XCTAssertTrue(watch.isRunning)
    }

    func testPollingBackendSortsWithoutInotify() throws {
        let directory = temporaryDirectory("watch-poll")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "x done a\nopen a\n")
        let watch = try XCTUnwrap(WatchProcess(["--poll", "0.1", path]))
        XCTAssertTrue(eventually(timeout: 2) { Files.text(path) == "open a\nx done a\n" }, "\(watch.log)")
        usleep(200_000)
        XCTAssertFalse(watch.hasInotify)
        shell("printf 'x done b\\nopen a\\nx done a\\n' > todo.txt", in: directory)
        XCTAssertTrue(eventually(timeout: 1) { Files.text(path) == "open a\nx done b\nx done a\n" }, "\(watch.log)")
        XCTAssertTrue(eventually(timeout: 1) { watch.sortLines.count == 2 }, "\(watch.log)")
    }
}
