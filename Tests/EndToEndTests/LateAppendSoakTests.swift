import Foundation
import TodoTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Programs that append to todo.txt without todo's lock while todo rewrites it: a slow writer that
/// opened the file before the rewrite and writes after it, a bash `echo >>` loop, a Python appender.
/// Lines lost are counted and reported; the target is none. (Before: the slow writer's line was
/// lost every time, a bash loop lost 4–9 of 20,000, a Python appender 24 of 6,000.)
///
/// The loops append 20,000 lines each in CI; `TODO_SOAK_SECONDS` above 3 makes them longer.
final class LateAppendSoakTests: XCTestCase {
    var directory = ""
    var path: String { directory + "/todo.txt" }
    let environment = ["TODO_TEST_TIME": "1764410000", "TZ": "UTC", "PATH": "/usr/bin:/bin"]

    override func setUp() {
        directory = Spawn.makeTemporaryDirectory("late-append")
        Files.write(path, (0..<200).map { $0 % 3 == 0 ? "x 2026-01-01 done \($0)" : "open \($0)" }.joined(separator: "\n") + "\n")
    }

    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    /// Starts `bash -c script` in the todo directory without waiting; returns its pid.
    func startShell(_ script: String) -> pid_t {
        var pid: pid_t = 0
        let command: String = "cd \"$0\" && " + script
        let words: [String] = ["bash", "-c", command, directory]
        let arguments: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        XCTAssertEqual(posix_spawn(&pid, "/bin/bash", nil, nil, arguments, environ), 0)
        return pid
    }

    /// The lines of `expected` that are not in todo.txt (each line of the file counted once).
    func lost(_ expected: [String]) -> [String] {
        let present = Set(Files.text(path).split(separator: "\n").map(String.init))
        return expected.filter { !present.contains($0) }
    }

    /// The number of appended lines for a soak: 20,000, more when `TODO_SOAK_SECONDS` asks for longer.
    var soakLines: Int { max(20_000, Int(Spawn.soakSeconds(default: 3) * 7_000)) }

    // MARK: The slow writer

    func testSlowWriterOpenedBeforeTheRewriteLosesNothing() {
        for command in [["sort", path], ["-f", path, "do", "2"], ["-f", path, "pri", "3", "A"]] {
            setUp()
            let writer = startShell("( sleep 1; echo 'late task' ) >> todo.txt")
            usleep(300_000)
            let result = Spawn.todo(command, environment: environment)
            XCTAssertEqual(result.status, 0, "\(command): \(result.err)")
            Spawn.wait(writer)
            XCTAssertEqual(lost(["late task"]), [], "todo \(command) lost the slow writer's line")
            tearDown()
        }
    }

    func testSlowWriterAgainstWatchLosesNothing() throws {
        let watch = try XCTUnwrap(WatchProcess([path]))
        XCTAssertTrue(watch.waitUntilWatching(), watch.log)
        let writer = startShell("( sleep 1; echo 'late task' ) >> todo.txt")
        usleep(200_000)
        shell("printf 'x 2026-01-02 new done\\n' >> todo.txt", in: directory)
        Spawn.wait(writer)
        XCTAssertTrue(eventually(timeout: 3) { self.lost(["late task", "x 2026-01-02 new done"]).isEmpty }, watch.log)
        usleep(500_000)
        XCTAssertEqual(lost(["late task", "x 2026-01-02 new done"]), [], watch.log)
        watch.stop()
    }

    /// A program that keeps the file open for writing longer than the wait: the rewrite is refused
    /// with one line, nothing is written, nothing is lost.
    func testWriterHoldingTheFileOpenMakesTheRewriteWaitThenRefuse() {
        let before = Files.read(path)
        let holder = startShell("exec 3>>todo.txt; sleep 3; echo 'held line' >&3")
        usleep(200_000)
        let result = Spawn.todo(["sort", path], environment: environment.merging(["TODO_LOCK_TIMEOUT": "0.5"]) { $1 })
        XCTAssertEqual(result.status, 1, result.err)
        XCTAssertTrue(result.err.contains("is open for writing by another program"), result.err)
        XCTAssertEqual(Files.read(path), before)
        Spawn.wait(holder)
        XCTAssertEqual(lost(["held line"]), [])
    }

    // MARK: Loops

    /// Runs `appender` (a shell script that appends `count` lines named by `prefix`) while `todo`
    /// rewrites the file with `commands` in turn, then checks that no appended line is missing.
    func soak(_ appender: String, prefix: String, commands: [[String]]) {
        let count = soakLines
        let pid = startShell(appender)
        var runs = 0, refused = 0
        var finished = false
        while !finished {
            for command in commands {
                let result = Spawn.todo(command, environment: environment)
                runs += 1
                if result.status != 0 {
                    refused += 1
                    XCTAssertTrue(result.err.contains("changed during each") || result.err.contains("open for writing"),
                                  "\(command): \(result.err)")
                }
            }
            var status: Int32 = 0
            finished = waitpid(pid, &status, WNOHANG) == pid
        }
        let expected = (0..<count).map { "\(prefix) \($0)" }
        let missing = lost(expected)
        print("LateAppendSoak \(prefix): \(count) lines appended during \(runs) todo runs (\(refused) refused); \(missing.count) lost")
        XCTAssertEqual(missing.count, 0, "\(prefix): lost \(missing.prefix(5))")
    }

    func testBashEchoLoopAgainstSortAndDo() {
        let count = soakLines
        soak("for i in $(seq 0 \(count - 1)); do echo \"bash line $i\" >> todo.txt; done", prefix: "bash line",
             commands: [["sort", path], ["-f", path, "do", "2"], ["-f", path, "undo", "2"]])
    }

    func testPythonAppenderAgainstSortAndDo() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
                          || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/python3"), "python3 is needed")
        let count = soakLines
        let script = "for i in range(\(count)):\n    with open('todo.txt', 'a') as f: f.write('python line %d\\n' % i)\n"
        Files.write(directory + "/append.py", script)
        soak("exec python3 append.py", prefix: "python line",
             commands: [["sort", path], ["-f", path, "pri", "2", "B"], ["-f", path, "depri", "2"]])
    }

    func testBashEchoLoopAgainstWatch() throws {
        let watch = try XCTUnwrap(WatchProcess([path]))
        XCTAssertTrue(watch.waitUntilWatching(), watch.log)
        let count = soakLines / 2
        let pid = startShell("for i in $(seq 0 \(count - 1)); do if [ $((i % 7)) = 0 ]; then echo \"x 2026-01-05 watch line $i\"; "
                             + "else echo \"watch line $i\"; fi >> todo.txt; done")
        Spawn.wait(pid)
        usleep(1_000_000)
        watch.stop()
        let expected = (0..<count).map { $0 % 7 == 0 ? "x 2026-01-05 watch line \($0)" : "watch line \($0)" }
        let missing = lost(expected)
        print("LateAppendSoak watch: \(count) lines appended while watching; \(missing.count) lost")
        XCTAssertEqual(missing.count, 0, "lost \(missing.prefix(5))")
    }
}
