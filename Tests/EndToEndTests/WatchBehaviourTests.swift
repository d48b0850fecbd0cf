import Foundation
import Testing
import TodoTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `todo watch`: no write loops, concurrent writers, idle cost, failures and signals
/// (docs/files.md section 3).
@Suite struct WatchBehaviourTests {
    private func temporaryDirectory(_ label: String) -> String { Spawn.makeTemporaryDirectory(label) }

    // MARK: - Start

    @Test func startSortsOnceAndLogsOneLine() throws {
        let directory = temporaryDirectory("watch-start")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "x 2026-01-01 done one\nopen a\nx 2026-01-02 done two\nopen b\n")
        let watch = try #require(WatchProcess([path]))
        #expect(eventually(timeout: 2) { Files.text(path) == "open a\nopen b\nx 2026-01-01 done one\nx 2026-01-02 done two\n" },
                "\(watch.log)")
        usleep(300_000)
        #expect(watch.logLines == ["sorted \(path): 2 completed tasks moved"])
        #expect(watch.output.isEmpty)
        #expect(watch.isRunning)
    }

    @Test func missingFileIsAwaitedAndSortedWhenItAppears() throws {
        let directory = temporaryDirectory("watch-missing")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        let watch = try #require(WatchProcess([path]))
        #expect(watch.waitUntilWatching(), "\(watch.log)")
        #expect(watch.logLines == ["\(path) does not exist yet; waiting for it"])
        #expect(!FileManager.default.fileExists(atPath: path), "watching must not create the file")

        shell("printf 'x done a\\nopen a\\n' > todo.txt", in: directory)
        #expect(eventually(timeout: 1) { Files.text(path) == "open a\nx done a\n" }, "\(watch.log)")
        #expect(eventually(timeout: 1) {
            watch.logLines == ["\(path) does not exist yet; waiting for it", "\(path) appeared",
                               "sorted \(path): 1 completed task moved"]
        }, "\(watch.log)")
    }

    /// A file with an unresolved conflict block is logged (the line of the first marker) and left
    /// alone, and watching goes on: once the user resolves the block, the file is sorted. (Before,
    /// watch sorted the two versions apart and left empty markers behind.)
    @Test func conflictMarkersAreLoggedAndLeftAloneUntilResolved() throws {
        let directory = temporaryDirectory("watch-conflict")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        let conflicted = "x 2026-01-01 done\n<<<<<<< ours\n(A) call mom\n=======\n(B) call mom\n>>>>>>> theirs\nopen\n"
        Files.write(path, conflicted)
        let watch = try #require(WatchProcess([path]))
        #expect(eventually(timeout: 2) { watch.log.contains("line 2: unresolved merge conflict") }, "\(watch.log)")
        usleep(300_000)
        #expect(Files.text(path) == conflicted, "a conflicted file is never rewritten")
        #expect(watch.isRunning, "watching goes on")
        shell("printf 'x 2026-01-01 done\\n(A) call mom\\nopen\\n' > todo.txt", in: directory)
        #expect(eventually(timeout: 2) { Files.text(path) == "(A) call mom\nopen\nx 2026-01-01 done\n" }, "\(watch.log)")
    }

    // MARK: - No loop

    @Test func oneExternalChangeGivesExactlyOneWriteThenSilence() throws {
        let directory = temporaryDirectory("watch-loop")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "open a\nx done a\n")
        let watch = try #require(WatchProcess([path]))
        #expect(watch.waitUntilWatching(), "\(watch.log)")
        #expect(watch.log.isEmpty, "an already sorted file is not written at start")

        shell("printf 'x done a\\nopen a\\n' > todo.txt", in: directory)
        #expect(eventually(timeout: 1) { Files.text(path) == "open a\nx done a\n" }, "\(watch.log)")
        let settled = try #require(DiskIdentity(path))
        usleep(1_000_000)
        #expect(DiskIdentity(path) == settled, "the file was written again after the sort")
        #expect(watch.logLines == ["sorted \(path): 1 completed task moved"])
        #expect(watch.isRunning)
    }

    @Test func twoWatchersOnOneFileSettleAfterAtMostOneWriteEach() throws {
        let directory = temporaryDirectory("watch-two")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "open a\nx done a\n")
        let first = try #require(WatchProcess([path]))
        let second = try #require(WatchProcess([path]))
        #expect(first.waitUntilWatching() && second.waitUntilWatching())

        shell("printf 'x done a\\nopen a\\nx done b\\nopen b\\n' > todo.txt", in: directory)
        #expect(eventually(timeout: 1) { Files.text(path) == "open a\nopen b\nx done a\nx done b\n" })
        // Let both settle, then nothing may change for a second.
        usleep(300_000)
        let settled = try #require(DiskIdentity(path))
        usleep(1_000_000)
        #expect(DiskIdentity(path) == settled, "the watchers kept writing")
        #expect(first.sortLines.count <= 1 && second.sortLines.count <= 1, "\(first.log) | \(second.log)")
        #expect(first.sortLines.count + second.sortLines.count >= 1)
        #expect(first.isRunning && second.isRunning)
    }

    // MARK: - Concurrent appender (soak)

    @Test func everyLineAppendedWhileSortingSurvivesExactlyOnce() throws {
        let seconds = Spawn.soakSeconds(default: 3)
        var random = SplitMix64(seed: propertySeed("watch soak"))
        let directory = temporaryDirectory("watch-soak")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "x done 1\nopen start\nx done 2\n")
        let watch = try #require(WatchProcess([path], settle: "0.02"))
        #expect(watch.waitUntilWatching(), "\(watch.log)")

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
        #expect(appender.status == 0, "\(appender.err)")
        let appended = try #require(Int(Files.text(countFile).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(appended > 50, "the appender was too slow to test anything")

        #expect(eventually(timeout: 2) { Spawn.todo(["sort", "--check", path]).status == 0 }, "never sorted")
        usleep(200_000)
        let lines = Files.text(path).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var counts: [String: Int] = [:]
        for line in lines { counts[line, default: 0] += 1 }
        let missing = (1...appended).filter { counts["open task \($0)"] == nil }
        let doubled = counts.filter { $0.value > 1 }.map(\.key)
        #expect(missing.isEmpty, "lost \(missing.count) of \(appended) appended lines: \(missing.prefix(10))")
        #expect(doubled.isEmpty, "duplicated lines: \(doubled.prefix(10))")
        #expect(counts["open start"] == 1 && counts["x done 1"] == 1 && counts["x done 2"] == 1)
        #expect(lines.count == appended + 3 + 1, "unexpected extra lines")
        #expect(watch.sortLines.count >= 3, "the watcher should have sorted during the appends: \(watch.sortLines.count)")
        #expect(temporaryFiles(in: directory).isEmpty)
        print("watch soak: \(appended) appends in \(seconds) s, \(watch.sortLines.count) sorts, burst \(burst), pause \(pause)")
    }

    // MARK: - Idle

    @Test func idleWatcherUsesNoMeasurableCPU() throws {
        let directory = temporaryDirectory("watch-idle")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "open a\nx done a\n")
        let watch = try #require(WatchProcess([path]))
        #expect(watch.waitUntilWatching(), "\(watch.log)")
        usleep(300_000)
        let before = try #require(watch.cpuTicks)
        usleep(3_000_000)
        let after = try #require(watch.cpuTicks)
        #expect(after - before <= 2, "idle watcher used \(after - before) ticks in 3 s")
        #expect(watch.isRunning)
    }

    // MARK: - Bad situations

    @Test(arguments: ["removed", "renamed"])
    func directoryGoneExitsOneWithAMessage(_ how: String) throws {
        let parent = temporaryDirectory("watch-dir")
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let directory = parent + "/lists"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let path = directory + "/todo.txt"
        Files.write(path, "open a\n")
        let watch = try #require(WatchProcess([path]))
        #expect(watch.waitUntilWatching(), "\(watch.log)")

        let result = how == "removed" ? shell("rm -rf lists", in: parent) : shell("mv lists lists.old", in: parent)
        #expect(result.status == 0)
        #expect(watch.waitForExit(timeout: 2) == 1, "\(watch.log)")
        let lines = watch.logLines
        #expect(lines.last == "todo: watch: the directory of \(path) (\(directory)) was removed, renamed or unmounted; stopping",
                "\(watch.log)")
        #expect(!watch.log.contains("Fatal") && !watch.log.contains("Crash"))
    }

    @Test func fileReplacedByADirectoryExitsOneWithAMessage() throws {
        let directory = temporaryDirectory("watch-isdir")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "open a\n")
        let watch = try #require(WatchProcess([path]))
        #expect(watch.waitUntilWatching(), "\(watch.log)")

        #expect(shell("rm todo.txt && mkdir todo.txt", in: directory).status == 0)
        #expect(watch.waitForExit(timeout: 2) == 1, "\(watch.log)")
        #expect(watch.logLines.last?.hasPrefix("todo: watch: ") == true, "\(watch.log)")
        #expect(watch.log.contains("is now a directory"), "\(watch.log)")
    }

    @Test func binaryFileIsRefusedAndWatchingGoesOn() throws {
        let directory = temporaryDirectory("watch-binary")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "open a\n")
        let watch = try #require(WatchProcess([path]))
        #expect(watch.waitUntilWatching(), "\(watch.log)")

        let binary: [UInt8] = Array("x done\n".utf8) + [0, 1, 2, 0x0A] + Array("open b\n".utf8)
        Files.write(path, binary)
        #expect(eventually(timeout: 1) { watch.log.contains("NUL byte") }, "\(watch.log)")
        #expect(Files.read(path) == binary, "a binary file must not be rewritten")
        #expect(watch.isRunning)
        // The file layer names the file by its real path (symlinks and `//` resolved), as its other errors do.
        let realPath = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        #expect(watch.logLines == ["todo: \(realPath): line 2: NUL byte, this looks like a binary file; not rewriting it"])

        Files.write(path, "x done\nopen b\n")
        #expect(eventually(timeout: 1) { Files.text(path) == "open b\nx done\n" }, "\(watch.log)")
    }

    @Test func missingDirectoryOrDirectoryPathFailsAtStart() throws {
        let directory = temporaryDirectory("watch-bad")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for path in [directory + "/nope/todo.txt", directory] {
            let result = Spawn.todo(["watch", path])
            #expect(result.status == 1, "\(path): \(result.err)")
            #expect(result.err.hasPrefix("todo: watch: cannot watch \(path): "), "\(result.err)")
            #expect(result.err.filter { $0 == "\n" }.count == 1, "\(result.err)")
        }
        for arguments in [["--poll", "soon"], ["--poll", "0"], ["--frob"], ["a", "b"]] {
            let result = Spawn.todo(["watch"] + arguments)
            #expect(result.status == 2, "\(arguments): \(result.err)")
            #expect(result.err.hasPrefix("todo: "), "\(arguments): \(result.err)")
        }
    }

    // MARK: - Signals

    @Test(arguments: [SIGTERM, SIGINT])
    func signalStopsCleanlyWithoutTemporaryFiles(_ signal: Int32) throws {
        let directory = temporaryDirectory("watch-signal")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "open a\nx done a\n")
        let watch = try #require(WatchProcess([path]))
        #expect(watch.waitUntilWatching(), "\(watch.log)")
        watch.send(signal)
        #expect(watch.waitForExit(timeout: 2) == 0, "\(watch.log)")
        #expect(watch.log.isEmpty, "\(watch.log)")
        #expect(temporaryFiles(in: directory).isEmpty)
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func signalDuringASortFinishesOrAbortsTheWrite(_ signal: Int32) throws {
        let directory = temporaryDirectory("watch-signal-busy")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "open 0\n")
        let watch = try #require(WatchProcess([path], settle: "0.02"))
        #expect(watch.waitUntilWatching(), "\(watch.log)")

        // A big unsorted file, so that the sort and the write take a while; the signal arrives
        // around the time the watcher starts on it.
        var text = ""
        for index in 0..<40_000 { text += index % 2 == 0 ? "x 2026-01-01 done \(index)\n" : "open task \(index) +project @context\n" }
        let unsorted = Array(text.utf8)
        Files.write(directory + "/.incoming", unsorted)
        #expect(rename(directory + "/.incoming", path) == 0)
        usleep(30_000)
        watch.send(signal)
        #expect(watch.waitForExit(timeout: 10) == 0, "\(watch.log)")
        #expect(temporaryFiles(in: directory).isEmpty, "temporary file left behind")
        let final = Files.read(path)
        let sorted = Spawn.todo(["sort", "--dry-run", path]).stdout
        #expect(final == unsorted || final == sorted, "the file is neither the old nor the sorted version")
    }

    // MARK: - Options

    @Test func listReprintsTheTaskListAfterEachChange() throws {
        let directory = temporaryDirectory("watch-list")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "x done a\nopen a\n")
        let watch = try #require(WatchProcess(["--list", "-q", path]))
        let first = "1 open a\n2 x done a\n-- \(path): 2 tasks, 1 done\n"
        #expect(eventually(timeout: 2) { watch.output == first }, "\(watch.output)")
        #expect(watch.waitUntilWatching())
        shell("echo 'open b' >> todo.txt", in: directory)
        let second = "1 open a\n2 open b\n3 x done a\n-- \(path): 3 tasks, 1 done\n"
        #expect(eventually(timeout: 1) { watch.output == first + second }, "\(watch.output)")
        usleep(300_000)
        #expect(watch.output == first + second, "the watcher's own write must not reprint the list")
        #expect(watch.log.isEmpty, "-q silences the log: \(watch.log)")
    }

    @Test func listEscapesControlCharactersOnATerminal() throws {
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
        #expect(run.status == 1, "\(run.err) \(screen)")
        #expect(screen.contains("1 open ^[]0;pwned^Gtitle ^[[31mred"), "\(screen.debugDescription)")
        #expect(!screen.contains("\u{1B}]0;pwned") && !screen.contains("\u{1B}[31m"), "raw escape sequences on the terminal")
    }

    @Test func reconcileMergesConflictCopiesAtStartAndWhenTheyAppear() throws {
        let directory = temporaryDirectory("watch-reconcile")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "open a\nx done a\n")
        let startCopy = directory + "/todo (conflicted copy 2026-11-29).txt"
        Files.write(startCopy, "open a\nopen from laptop\nx done a\n")
        let watch = try #require(WatchProcess(["--reconcile", path]))
        #expect(eventually(timeout: 2) { Files.text(path).contains("open from laptop") }, "\(watch.log)")
        // The copy is removed right after the merged file is written.
        #expect(eventually(timeout: 1) { !FileManager.default.fileExists(atPath: startCopy) }, "\(watch.log)")
        #expect(watch.waitUntilWatching())

        // Syncthing: written under a temporary name, renamed into place.
        let copyName = "todo.sync-conflict-20261129-101500-ABCDEFG.txt"
        shell("printf 'open a\\nopen from phone\\nx done a\\n' > .syncthing.tmp && mv .syncthing.tmp '\(copyName)'", in: directory)
        #expect(eventually(timeout: 1) { Files.text(path).contains("open from phone") }, "\(watch.log)")
        #expect(eventually(timeout: 1) { !FileManager.default.fileExists(atPath: directory + "/" + copyName) })
        #expect(Spawn.todo(["sort", "--check", path]).status == 0)
        #expect(eventually(timeout: 1) { watch.log.contains("merged \(copyName) into todo.txt") }, "\(watch.log)")
        #expect(watch.isRunning)
    }

    @Test func pollingBackendSortsWithoutInotify() throws {
        let directory = temporaryDirectory("watch-poll")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "x done a\nopen a\n")
        let watch = try #require(WatchProcess(["--poll", "0.1", path]))
        #expect(eventually(timeout: 2) { Files.text(path) == "open a\nx done a\n" }, "\(watch.log)")
        usleep(200_000)
        #expect(!watch.hasInotify)
        shell("printf 'x done b\\nopen a\\nx done a\\n' > todo.txt", in: directory)
        #expect(eventually(timeout: 1) { Files.text(path) == "open a\nx done b\nx done a\n" }, "\(watch.log)")
        #expect(eventually(timeout: 1) { watch.sortLines.count == 2 }, "\(watch.log)")
    }
}
