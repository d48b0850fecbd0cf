import TodoTestSupport
import XCTest

/// The program under its own name `todo` (docs/todo-command.md): zero configuration, uids, extensions, errors.
final class TodoNameTests: XCTestCase {
    /// A temp HOME with nothing in it (no config), run from that directory via -f where needed.
    private func home() -> (home: String, environment: [String: String]) {
        let home = Spawn.makeTemporaryDirectory("todo-home")
        return (home, ["HOME": home, "TODO_TEST_TIME": "1764410000", "TZ": "UTC", "NO_COLOR": "",
                       "TODO_FILE": "", "TODO_DIR": "", "DONE_FILE": "", "TODOTXT_CFG_FILE": ""])
    }

    func testAddWritesDateAndUIDToHomeTodoFileWithoutConfig() throws {
        let (home, environment) = home()
        let result = Spawn.todo(["add", "(a) call mom +family"], environment: environment)
        XCTAssertEqual(result.status, 0, result.err)
        let text = Files.text(home + "/todo.txt")
        let pattern = try NSRegularExpression(pattern: "^\\(A\\) 2025-11-29 call mom \\+family uid:[a-hj-km-np-tv-z][0-9a-hj-km-np-tv-z]{5}\\n$")
        XCTAssertEqual(pattern.numberOfMatches(in: text, range: NSRange(text.startIndex..., in: text)), 1, text)
        XCTAssertEqual(result.out, "1 " + text.dropLast() + "\nTODO: 1 added.\n")
    }

    func testAddWithMinusTWritesNoDateAndEmptyTextIsUsageError() {
        let (home, environment) = home()
        XCTAssertEqual(Spawn.todo(["-T", "add", "plain task"], environment: environment).status, 0)
        XCTAssertTrue(Files.text(home + "/todo.txt").hasPrefix("plain task uid:"))
        let empty = Spawn.todo(["add", ""], environment: environment)
        XCTAssertEqual(empty.status, 2)
        XCTAssertTrue(empty.err.hasPrefix("todo: the task text is empty; usage: todo add"), empty.err)
        XCTAssertEqual(Files.text(home + "/todo.txt").filter { $0 == "\n" }.count, 1, "no empty task added")
    }

    func testReadOnlyCommandDoesNotCreateTheFile() {
        let (home, environment) = home()
        let result = Spawn.todo(["ls"], environment: environment)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/todo.txt"))
    }

    func testDoKeepsPriorityDoesNotArchiveAndUndoRestores() {
        let (home, environment) = home()
        let path = home + "/todo.txt"
        Files.write(path, "(B) 2025-11-01 write report uid:aaaaaa\nsecond uid:bbbbbb\n")
        let done = Spawn.todo(["do", "aa"], environment: environment)
        XCTAssertEqual(done.status, 0, done.err)
        XCTAssertEqual(Files.text(path), "x 2025-11-29 2025-11-01 write report uid:aaaaaa pri:B\nsecond uid:bbbbbb\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/done.txt"), "no auto-archive")
        let again = Spawn.todo(["do", "1"], environment: environment)
        XCTAssertEqual(again.status, 1)
        XCTAssertEqual(again.err, "todo: \(path): 1 is already marked done\n")
        let undo = Spawn.todo(["undo", "uid:aaaaaa"], environment: environment)
        XCTAssertEqual(undo.status, 0, undo.err)
        XCTAssertEqual(Files.text(path), "(B) 2025-11-01 write report uid:aaaaaa\nsecond uid:bbbbbb\n")
    }

    func testRecurringTaskGetsNextInstanceWithFreshUID() throws {
        let (home, environment) = home()
        let path = home + "/todo.txt"
        Files.write(path, "2025-11-01 water plants rec:+1w due:2025-11-28 t:2025-11-26 uid:aaaaaa\n")
        let result = Spawn.todo(["do", "1"], environment: environment)
        XCTAssertEqual(result.status, 0, result.err)
        let lines = Files.text(path).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(lines[0], "x 2025-11-29 2025-11-01 water plants rec:+1w due:2025-11-28 t:2025-11-26 uid:aaaaaa")
        XCTAssertTrue(lines[1].hasPrefix("2025-11-29 water plants rec:+1w due:2025-12-05 t:2025-12-03 uid:"), lines[1])
        XCTAssertFalse(lines[1].hasSuffix("uid:aaaaaa"))
        XCTAssertTrue(result.out.contains("recurs"), result.out)
    }

    func testAddressingByUIDPrefixAndAmbiguity() {
        let (home, environment) = home()
        let path = home + "/todo.txt"
        Files.write(path, "one uid:k3f9qz\ntwo uid:k3abcd\nthree uid:m00000\n")
        XCTAssertEqual(Spawn.todo(["pri", "m0", "A"], environment: environment).status, 0)
        XCTAssertEqual(Files.text(path), "one uid:k3f9qz\ntwo uid:k3abcd\n(A) three uid:m00000\n")
        let ambiguous = Spawn.todo(["do", "k3"], environment: environment)
        XCTAssertEqual(ambiguous.status, 1)
        XCTAssertTrue(ambiguous.err.contains("k3abcd") && ambiguous.err.contains("k3f9qz"), ambiguous.err)
        XCTAssertEqual(Files.text(path), "one uid:k3f9qz\ntwo uid:k3abcd\n(A) three uid:m00000\n")
    }

    func testUIDAssignBackfillsAndUIDListShowsThem() {
        let (home, environment) = home()
        let path = home + "/todo.txt"
        Files.write(path, "one\n\ntwo uid:abcdef\n")
        XCTAssertEqual(Spawn.todo(["uid", "--assign"], environment: environment).status, 0)
        let lines = Files.text(path).split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertTrue(lines[0].hasPrefix("one uid:"))
        XCTAssertEqual(lines[1], "")
        XCTAssertEqual(lines[2], "two uid:abcdef")
        let list = Spawn.todo(["uid"], environment: environment)
        XCTAssertEqual(list.out.split(separator: "\n").count, 2)
        XCTAssertTrue(list.out.contains("3 abcdef"), list.out)
    }

    func testEditRunsEditorAtTheTaskLine() {
        let (home, environment) = home()
        let path = home + "/todo.txt"
        Files.write(path, "one\ntwo uid:abcdef due:someday\n")
        var env = environment
        env["EDITOR"] = "echo"
        env["VISUAL"] = ""
        let result = Spawn.todo(["edit", "abc"], environment: env)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.out, "\(path)\n", "echo is not a known line-taking editor: path only")
        XCTAssertTrue(result.err.contains("invalid due: value 'someday'"), result.err)
        env["EDITOR"] = "/usr/bin/vim-that-does-not-exist"
        XCTAssertNotEqual(Spawn.todo(["edit"], environment: env).status, 0)
    }

    func testUnknownActionAndBadOptionsExitTwo() {
        let (_, environment) = home()
        let unknown = Spawn.todo(["frobnicate"], environment: environment)
        XCTAssertEqual(unknown.status, 2)
        XCTAssertEqual(unknown.err, "todo: unknown action 'frobnicate'; usage: todo [-f FILE] [-q] [--color=always|never|auto] ACTION [ARGUMENTS]\n")
        XCTAssertEqual(Spawn.todo(["--color=sometimes", "ls"], environment: environment).status, 2)
    }

    func testFileResolutionOrderWithoutAndWithConfig() {
        let (home, environment) = home()
        let data = home + "/data"
        try? FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        // A todo.sh config names the directory: used when nothing more explicit is given.
        try? FileManager.default.createDirectory(atPath: home + "/.todo", withIntermediateDirectories: true)
        Files.write(home + "/.todo/config", "export TODO_DIR=\"\(data)\"\n")
        XCTAssertEqual(Spawn.todo(["-T", "add", "from config"], environment: environment).status, 0)
        XCTAssertTrue(Files.text(data + "/todo.txt").hasPrefix("from config uid:"))
        // $TODO_DIR beats the config; -f beats $TODO_DIR.
        let other = home + "/other"
        try? FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        var env = environment
        env["TODO_DIR"] = other
        XCTAssertEqual(Spawn.todo(["-T", "add", "from env"], environment: env).status, 0)
        XCTAssertTrue(Files.text(other + "/todo.txt").hasPrefix("from env uid:"))
        XCTAssertEqual(Spawn.todo(["-T", "-f", home + "/explicit.txt", "add", "explicit"], environment: env).status, 0)
        XCTAssertTrue(Files.text(home + "/explicit.txt").hasPrefix("explicit uid:"))
        XCTAssertEqual(Files.text(data + "/todo.txt").filter { $0 == "\n" }.count, 1)
    }
}
