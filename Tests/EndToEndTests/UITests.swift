import Foundation
import TodoTestSupport
import XCTest

/// `todo ui` in a pseudo-terminal: real key bytes in, the screen (through `ScreenModel`) and the
/// file's bytes checked after each step; another process changing the file while the UI is open.
final class UITests: XCTestCase {
    private var directory = ""
    private var path: String { directory + "/todo.txt" }

    override func setUp() {
        directory = Spawn.makeTemporaryDirectory("ui")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func start(_ text: String, arguments: [String] = [], options: [String] = [], columns: Int = 80,
                       rows: Int = 12, environment extra: [String: String] = [:]) throws -> PseudoTerminalProcess {
        try UITerminal.start(text, home: directory, todoFile: path, arguments: arguments, options: options, columns: columns,
                             rows: rows, environment: extra)
    }

    private func quit(_ ui: PseudoTerminalProcess) {
        UITerminal.quit(ui)
        XCTAssertTrue(ui.screen.cursorVisible, "the cursor is shown again")
    }

    func testListShowsOpenTasksFirstThenCompletedAndQuitRestoresTheTerminal() throws {
        let ui = try start("x 2025-11-01 paid rent\n(A) call mom +family @phone\nbuy milk\n")
        let lines = ui.screen.lines
        XCTAssertEqual(Array(lines.prefix(3)), ["2 (A) call mom +family @phone", "3 buy milk", "1 x 2025-11-01 paid rent"])
        quit(ui)
        let output = String(decoding: ui.output, as: UTF8.self)
        XCTAssertTrue(output.hasSuffix("\u{1B}[?1049l"), "the last thing written leaves the alternate screen")
    }

    func testToggleAddEditPriorityDeleteUndo() throws {
        let ui = try start("(A) call mom uid:k3f9qz\nbuy milk\n")
        // Done: the priority is kept as pri:, the task sinks.
        ui.send("x")
        XCTAssertTrue(ui.waitForText("x 2025-11-29 call mom uid:k3f9qz pri:A"), ui.screen.text)
        XCTAssertEqual(ui.screen.lines.last, "marked done")
        XCTAssertEqual(Files.text(path), "x 2025-11-29 call mom uid:k3f9qz pri:A\nbuy milk\n")
        // Not done again: the priority comes back.
        ui.send("G")
        ui.send(" ")
        XCTAssertTrue(ui.waitFor { _ in Files.text(self.path) == "(A) call mom uid:k3f9qz\nbuy milk\n" }, Files.text(path))
        XCTAssertTrue(ui.waitFor { $0.lines.last == "marked not done" }, ui.screen.text)
        // Add: dated, with a uid.
        ui.send("a")
        ui.send("water plants\r")
        XCTAssertTrue(ui.waitForText("2025-11-29 water plants uid:"), ui.screen.text)
        XCTAssertTrue(Files.text(path).hasPrefix("(A) call mom uid:k3f9qz\nbuy milk\n2025-11-29 water plants uid:"), Files.text(path))
        // Edit the selected (the added) task: Ctrl-U clears, the uid and date stay.
        ui.send("e")
        ui.send([0x15])
        ui.send("water the plants\r")
        XCTAssertTrue(ui.waitForText("2025-11-29 water the plants uid:"), ui.screen.text)
        // Priority B on it, then delete it (y), then undo the delete.
        ui.send("pb")
        XCTAssertTrue(ui.waitForText("(B) 2025-11-29 water the plants uid:"), ui.screen.text)
        XCTAssertTrue(ui.waitFor { $0.lines.last == "priority B" }, ui.screen.text)
        let beforeDelete = Files.text(path)
        ui.send("dy")
        XCTAssertTrue(ui.waitFor { _ in !Files.text(self.path).contains("water") }, Files.text(path))
        ui.send("u")
        XCTAssertTrue(ui.waitFor { _ in Files.text(self.path) == beforeDelete }, Files.text(path))
        quit(ui)
    }

    func testARecurringTaskDoneAddsItsNextInstance() throws {
        let ui = try start("water plants due:2025-11-29 rec:1w uid:w4t3rp\n")
        ui.send("x")
        XCTAssertTrue(ui.waitFor { $0.lines.last == "marked done; the next one added as task 2" }, ui.screen.text)
        let lines = Files.text(path).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, Files.text(path))
        XCTAssertEqual(lines.first, "x 2025-11-29 water plants due:2025-11-29 rec:1w uid:w4t3rp")
        XCTAssertTrue(lines.last?.hasPrefix("water plants due:2025-12-06 rec:1w uid:") == true, Files.text(path))
        XCTAssertFalse(lines.last?.hasSuffix("uid:w4t3rp") == true, "the next instance has a uid of its own")
        // Undo takes back both lines.
        ui.send("u")
        XCTAssertTrue(ui.waitFor { _ in Files.text(self.path) == "water plants due:2025-11-29 rec:1w uid:w4t3rp\n" }, Files.text(path))
        quit(ui)
    }

    func testASortIsUndoneOnlyOnTheFileAsItLeftIt() throws {
        let text = "x 2025-11-01 paid rent\ncall mom\nx 2025-11-02 fed cat\nbuy milk"
        let ui = try start(text)
        ui.send("s")
        XCTAssertTrue(ui.waitFor { _ in Files.text(self.path) == "call mom\nbuy milk\nx 2025-11-01 paid rent\nx 2025-11-02 fed cat" },
                      Files.text(path))
        XCTAssertTrue(ui.waitFor { $0.lines.last == "sorted" }, ui.screen.text)
        ui.send("s")
        XCTAssertTrue(ui.waitFor { $0.lines.last == "already sorted" }, ui.screen.text)
        // u takes the sort back, byte for byte (the last line still without its newline).
        ui.send("u")
        XCTAssertTrue(ui.waitFor { _ in Files.text(self.path) == text }, Files.text(path))
        XCTAssertTrue(ui.waitFor { $0.lines.last == "undone: sorted" }, ui.screen.text)
        // Sorted again, then changed elsewhere: the order no longer fits, so nothing is written.
        ui.send("s")
        XCTAssertTrue(ui.waitFor { _ in Files.text(self.path).hasPrefix("call mom\n") }, Files.text(path))
        let changed = Files.text(path) + "\nfrom elsewhere\n"
        Files.write(path, changed)
        XCTAssertTrue(ui.waitForText("from elsewhere", timeout: 3), ui.screen.text)
        ui.send("u")
        XCTAssertTrue(ui.waitForText("changed elsewhere meanwhile"), ui.screen.text)
        XCTAssertEqual(Files.text(path), changed)
        quit(ui)
    }

    func testFilterNarrowsAsYouTypeAndEscapeClearsIt() throws {
        let ui = try start("call mom +family\nbuy milk @shop\nfix bike +garage\n")
        ui.send("/milk")
        XCTAssertTrue(ui.waitFor { $0.lines.first == "2 buy milk @shop" && !$0.text.contains("call mom") }, ui.screen.text)
        ui.send("\r")
        ui.send("x")
        XCTAssertTrue(ui.waitFor { _ in Files.text(self.path) == "call mom +family\nx 2025-11-29 buy milk @shop\nfix bike +garage\n" },
                      Files.text(path))
        ui.send([0x1B])
        XCTAssertTrue(ui.waitForText("call mom +family"), ui.screen.text)
        quit(ui)
    }

    func testChangesMadeElsewhereShowAndTheNextEditKeepsThem() throws {
        let ui = try start("call mom\nbuy milk\n")
        ui.send("j")  // select buy milk
        // Another process: appends a line, completes a task, then replaces the file by rename.
        let appended = Spawn.run(["sh", "-c", "echo 'from elsewhere' >> '\(path)'"])
        XCTAssertEqual(appended.status, 0)
        XCTAssertTrue(ui.waitForText("3 from elsewhere", timeout: 3), ui.screen.text)
        Files.write(directory + "/new.txt", "x 2025-11-28 call mom\nbuy milk\nfrom elsewhere\n")
        XCTAssertEqual(rename(directory + "/new.txt", path), 0)
        XCTAssertTrue(ui.waitForText("1 x 2025-11-28 call mom", timeout: 3), ui.screen.text)
        // The selection stayed on buy milk: complete it; everything else is kept.
        ui.send("x")
        XCTAssertTrue(ui.waitFor { _ in
            Files.text(self.path) == "x 2025-11-28 call mom\nx 2025-11-29 buy milk\nfrom elsewhere\n"
        }, Files.text(path))
        quit(ui)
    }

    func testEditingATaskWithAUIDShowsTheTextWithoutItAndKeepsIt() throws {
        let ui = try start("(A) call mom uid:k3f9qz +family\n")
        ui.send("e")
        XCTAssertTrue(ui.waitFor { $0.lines.last == "edit: call mom +family" }, ui.screen.text)
        ui.send(" today\r")
        XCTAssertTrue(ui.waitFor { _ in Files.text(self.path) == "(A) call mom +family today uid:k3f9qz\n" }, Files.text(path))
        quit(ui)
    }

    func testTheFileChangesWhileATaskIsBeingEdited() throws {
        let ui = try start("call mom\nbuy milk\n")
        ui.send("e")
        XCTAssertTrue(ui.waitForText("edit: call mom"), ui.screen.text)
        // Meanwhile a line is added in front of it: the edit still lands on call mom.
        Files.write(path, "first\ncall mom\nbuy milk\n")
        usleep(300_000)
        ui.send([0x15])
        ui.send("call dad\r")
        XCTAssertTrue(ui.waitFor { _ in Files.text(self.path) == "first\ncall dad\nbuy milk\n" }, Files.text(path))
        // And when the task is gone by the time Enter is pressed, the text can be added instead.
        ui.send("g")
        XCTAssertTrue(ui.waitFor { $0.lines.first == "1 first" }, ui.screen.text)
        ui.send("e")
        Files.write(path, "call dad\nbuy milk\n")
        usleep(300_000)
        ui.send([0x15])
        ui.send("the first\r")
        XCTAssertTrue(ui.waitFor { $0.lines.last == "task gone (changed or deleted elsewhere); add it as new? (y/n) the first" },
                      ui.screen.text)
        ui.send("y")
        XCTAssertTrue(ui.waitFor { _ in Files.text(self.path).hasPrefix("call dad\nbuy milk\n2025-11-29 the first uid:") },
                      Files.text(path))
        quit(ui)
    }

    func testResizeRedrawsToTheNewSize() throws {
        let ui = try start("a task with a rather long text that does not fit in a narrow window\n", columns: 80, rows: 8)
        ui.resize(columns: 30, rows: 5)
        XCTAssertTrue(ui.waitFor { $0.lines.first == "1 a task with a rather long t…" }, ui.screen.text)
        quit(ui)
    }

    func testTheSmallestAndAVeryLargeTerminal() throws {
        let text = "日本語のタスクとその説明 +work\ncafé crèmé @home\n(A) call mom\n"
        let small = try start(text, columns: 20, rows: 5)
        // Four rows of tasks and the status line, each cut to 20 columns by display width.
        XCTAssertEqual(Array(small.screen.lines.prefix(3)), ["1 日本語のタスクと…", "2 café crèmé @home", "3 (A) call mom"])
        XCTAssertEqual(small.screen.lines.count, 5)
        small.send("a")
        small.send("日本語 more\r")
        XCTAssertTrue(small.waitFor { _ in Files.text(self.path).contains("\n2025-11-29 日本語 more uid:") }, Files.text(path))
        quit(small)
        let large = try start(text, columns: 400, rows: 150)
        XCTAssertEqual(large.screen.lines.first, "1 日本語のタスクとその説明 +work")
        // The file under HOME is named ~/…, to leave room.
        XCTAssertEqual(large.screen.lines.last, "~/todo.txt — 3 open, 0 done — ? keys, q quit")
        quit(large)
    }

    func testSIGTERMRestoresTheTerminal() throws {
        try checkSignalRestoresTheTerminal(SIGTERM)
    }

    func testSIGHUPRestoresTheTerminal() throws {
        try checkSignalRestoresTheTerminal(SIGHUP)
    }

    private func checkSignalRestoresTheTerminal(_ signal: Int32) throws {
        let ui = try start("call mom\n")
        kill(ui.pid, signal)
        XCTAssertEqual(ui.waitForExit(), 0, "signal \(signal)")
        XCTAssertFalse(ui.screen.alternateScreen, "signal \(signal)")
        XCTAssertTrue(ui.screen.cursorVisible, "signal \(signal)")
        XCTAssertEqual(Files.text(path), "call mom\n")
    }

    func testWithoutATerminalItSaysSo() {
        Files.write(path, "call mom\n")
        let run = Spawn.todo(["-f", path, "ui"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.err, "todo: ui needs a terminal: standard input is not one\n")
    }

    func testAPathThatCannotBeOpenedIsSaidBeforeTheScreenIsTaken() throws {
        let cases: [(String, String, Int32)] = [
            (directory + "/missing/todo.txt", "todo: ui: cannot watch \(directory)/missing/todo.txt: directory \(directory)/missing: No such file or directory", 1),
            (directory, "todo: \(directory): is a directory", 1),
            ("--bogus", "todo: unknown option --bogus; usage: todo ui [--view NAME] [FILE]", 2)]
        for (argument, message, status) in cases {
            let environment = ["HOME": directory, "TERM": "xterm", "LC_ALL": "C.UTF-8"]
            let ui = try XCTUnwrap(PseudoTerminalProcess([Spawn.todo, "ui", argument], environment: environment))
            XCTAssertEqual(ui.waitForExit(), status, argument)
            let output = String(decoding: ui.output, as: UTF8.self)
            XCTAssertTrue(output.contains(message), "\(argument): \(output.debugDescription)")
            XCTAssertFalse(output.contains("\u{1B}[?1049h"), "\(argument): the alternate screen was never entered")
            XCTAssertEqual(output.filter { $0 == "\n" || $0 == "\r\n" }.count, 1, "\(argument): one line: \(output.debugDescription)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory + "/missing"), "nothing created")
    }

    func testHelpWideCharactersAndControlCharacters() throws {
        let ui = try start("日本語のタスク +work\nbell \u{07} in text\n", columns: 24, rows: 6)
        let lines = ui.screen.lines
        XCTAssertEqual(lines[0], "1 日本語のタスク +work", "wide characters take two columns each")
        XCTAssertEqual(lines[1], "2 bell ^G in text", "a control character is shown escaped")
        ui.send("?")
        XCTAssertTrue(ui.waitForText("j/k, arrows"), ui.screen.text)
        ui.send(" ")
        XCTAssertTrue(ui.waitForText("1 日本語"), ui.screen.text)
        quit(ui)
    }

    func testAnUnwritableChangeIsShownAndTheUIGoesOn() throws {
        let ui = try start("call mom\n")
        // Conflict markers arrive from elsewhere: the next edit is refused, on the status line.
        checkAnAddIsRefused(ui, after: "<<<<<<< ours\ncall mom\n=======\ncall dad\n>>>>>>> theirs\n", shows: "<<<<<<< ours",
                            saying: "unresolved merge conflict")
        quit(ui)
    }

    /// Another program writes `content`; once the screen shows `shown`, an add is refused with
    /// `message` on the status line and the file keeps `content`.
    private func checkAnAddIsRefused(_ ui: PseudoTerminalProcess, after content: String, shows shown: String, saying message: String,
                                     line: UInt = #line) {
        Files.write(path, content)
        XCTAssertTrue(ui.waitForText(shown, timeout: 3), ui.screen.text, line: line)
        ui.send("a")
        ui.send("new task\r")
        XCTAssertTrue(ui.waitForText(message), ui.screen.text, line: line)
        XCTAssertEqual(Files.text(path), content, line: line)
    }

    func testABinaryFileArrivingIsNotRewrittenAndAHardLinkIsToldOf() throws {
        let ui = try start("call mom\n")
        // Another name for the file: the UI's write detaches it, and says so on the status line.
        let other = directory + "/linked.txt"
        XCTAssertNoThrow(try FileManager.default.linkItem(atPath: path, toPath: other))
        ui.send("x")
        XCTAssertTrue(ui.waitForText("hard links"), ui.screen.text)
        XCTAssertEqual(Files.text(path), "x 2025-11-29 call mom\n")
        XCTAssertEqual(Files.text(other), "call mom\n")
        // A binary file put in its place is never rewritten: the edit is refused on the status line.
        checkAnAddIsRefused(ui, after: "call mom\n\u{0}\u{1}\n", shows: "2 ^@^A", saying: "NUL byte")
        quit(ui)
    }

    func testColoursMarkPriorityDueDatesProjectsAndContextsUnlessNO_COLOR() throws {
        let text = "(A) call mom +family @phone\npay rent due:2025-11-01\nwater plants due:2025-11-29\nx 2025-11-20 old +family\n"
        let ui = try start(text, environment: ["NO_COLOR": ""])
        quit(ui)
        let output = String(decoding: ui.output, as: UTF8.self)
        XCTAssertTrue(output.contains("\u{1B}[1;33m"), "priority A")
        XCTAssertTrue(output.contains("\u{1B}[35m+family\u{1B}[0m"), "a project")
        XCTAssertTrue(output.contains("\u{1B}[34m@phone\u{1B}[0m"), "a context")
        XCTAssertTrue(output.contains("\u{1B}[31m2 pay rent"), "overdue")
        XCTAssertTrue(output.contains("\u{1B}[1m3 water plants"), "due today")
        XCTAssertTrue(output.contains("\u{1B}[90m4 x 2025-11-20 old +family "), "completed: grey, its project not coloured")
        let plain = try start(text)
        quit(plain)
        let plainOutput = String(decoding: plain.output, as: UTF8.self)
        for colour in ["\u{1B}[3", "\u{1B}[9", "\u{1B}[1m", "\u{1B}[1;"] {
            XCTAssertFalse(plainOutput.contains(colour), "NO_COLOR: no \(colour.debugDescription)")
        }
    }

    func testALockHeldByAnotherProcessIsShownAndTheUIGoesOn() throws {
        let ui = try start("call mom\n", environment: ["TODO_LOCK_TIMEOUT": "0.2"])
        let descriptor = LockTests.lockFile(path)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        ui.send("x")
        XCTAssertTrue(ui.waitForText("is locked by another process that can write it"), ui.screen.text)
        XCTAssertEqual(Files.text(path), "call mom\n")
        // Released: the same key works.
        flock(descriptor, LOCK_UN)
        close(descriptor)
        ui.send("x")
        XCTAssertTrue(ui.waitFor { _ in Files.text(self.path) == "x 2025-11-29 call mom\n" }, Files.text(path))
        quit(ui)
    }

    func testCtrlZSuspendsAndContinuingRedraws() throws {
        let ui = try start("call mom\n")
        // The test's process group has no job-control shell (it is orphaned), so the kernel drops
        // the stop: the UI leaves the alternate screen, restores the terminal, stops (or would),
        // and comes back in raw mode on the alternate screen.
        let before = ui.output.count
        ui.send([0x1A])
        XCTAssertTrue(ui.waitFor { _ in
            let written = String(decoding: ui.output[before...], as: UTF8.self)
            guard let left = written.range(of: "\u{1B}[?1049l") else { return false }
            return written[left.upperBound...].contains("\u{1B}[?1049h")
        }, "suspending leaves the alternate screen, continuing enters it again")
        kill(ui.pid, SIGCONT)
        XCTAssertTrue(ui.waitFor { $0.alternateScreen && $0.text.contains("1 call mom") }, ui.screen.text)
        ui.send("x")
        XCTAssertTrue(ui.waitFor { _ in Files.text(self.path) == "x 2025-11-29 call mom\n" }, "raw mode is back: keys work")
        quit(ui)
    }

    func testHiddenTasksShowWithAllSortPriorityRemovalAndEscapeCancelsAnAdd() throws {
        let text = "x 2025-11-01 paid rent\n(B) call mom\nwait t:2027-01-01\nsecret h:1\n"
        let ui = try start(text)
        XCTAssertFalse(ui.screen.text.contains("wait") || ui.screen.text.contains("secret"), ui.screen.text)
        // p then space: no priority.
        ui.send("p ")
        XCTAssertTrue(ui.waitFor { _ in Files.text(self.path).contains("\ncall mom\n") }, Files.text(path))
        XCTAssertTrue(ui.waitFor { $0.lines.last == "priority removed" }, ui.screen.text)
        // Esc drops an add in progress: nothing written.
        let before = Files.text(path)
        ui.send("anever mind")
        XCTAssertTrue(ui.waitForText("add: never mind"), ui.screen.text)
        ui.send([0x1B])
        XCTAssertTrue(ui.waitFor { !$0.text.contains("add: ") }, ui.screen.text)
        XCTAssertEqual(Files.text(path), before)
        // s: the file sorted as `todo sort` sorts it.
        ui.send("s")
        XCTAssertTrue(ui.waitFor { _ in
            Files.text(self.path) == "call mom\nwait t:2027-01-01\nsecret h:1\nx 2025-11-01 paid rent\n"
        }, Files.text(path))
        quit(ui)
        // With -a, the hidden ones are listed too.
        let all = try start(Files.text(path), arguments: [], options: ["-a"])
        XCTAssertTrue(all.waitForText("wait t:2027-01-01") && all.screen.text.contains("secret h:1"), all.screen.text)
        quit(all)
    }

    func testAddFollowsTodoAddsSettingsAndRefusesAnEmptyTask() throws {
        let ui = try start("call mom\n", environment: ["TODOTXT_DATE_ON_ADD": "0", "TODOTXT_UID_ON_ADD": "0",
                                                      "TODOTXT_PRIORITY_ON_ADD": "c"])
        ui.send("abuy milk\r")
        XCTAssertTrue(ui.waitFor { _ in Files.text(self.path) == "call mom\n(C) buy milk\n" }, Files.text(path))
        ui.send("a(A) \r")
        XCTAssertTrue(ui.waitForText("the task text is empty; nothing added"), ui.screen.text)
        XCTAssertEqual(Files.text(path), "call mom\n(C) buy milk\n")
        quit(ui)
    }
}
