import TodoTestSupport
import XCTest

/// Under the name `todo`, task text on a terminal cannot drive the terminal; pipes get raw bytes.
final class TerminalOutputTests: XCTestCase {
    private func setUp(_ text: String) -> (String, [String: String]) {
        let home = Spawn.makeTemporaryDirectory("terminal-home")
        Files.write(home + "/todo.txt", text)
        return (home, ["HOME": home, "TODO_FILE": home + "/todo.txt", "TODO_TEST_TIME": "1764410000", "TZ": "UTC",
                       "NO_COLOR": "", "TERM": "dumb"])
    }

    func testEscapeSequencesAreEscapedOnATerminalAndRawOnAPipe() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "script(1) is needed for a pty")
        let (_, environment) = setUp("buy milk \u{1B}]0;pwned\u{07}\u{1B}[2J now\n")
        let onTerminal = Spawn.run(["/usr/bin/script", "-qec", "\(Spawn.todo) --color=never ls", "/dev/null"],
                                   environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
        XCTAssertEqual(onTerminal.status, 0, onTerminal.err)
        XCTAssertTrue(onTerminal.out.contains("1 buy milk ^[]0;pwned^G^[[2J now"), onTerminal.out)
        XCTAssertFalse(onTerminal.stdout.contains(0x1B), "no raw ESC may reach the terminal")
        let onPipe = Spawn.todo(["--color=never", "ls"], environment: environment)
        XCTAssertEqual(onPipe.status, 0, onPipe.err)
        XCTAssertTrue(onPipe.out.hasPrefix("1 buy milk \u{1B}]0;pwned\u{07}\u{1B}[2J now\n"), onPipe.out)
    }

    /// Every action that prints task text, run on a pseudo-terminal against a file whose tasks carry
    /// OSC (retitle) and CSI (clear screen) sequences: the echo is escaped, never raw. Before, only
    /// `ls` escaped; the echoes of the edits printed the raw bytes.
    func testEveryEchoOfTaskTextIsEscapedOnATerminal() throws {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "script(1) is needed for a pty")
        let evil = "\u{1B}]0;pwned\u{07}\u{1B}[2J"
        let file = "(A) first \(evil) +p\(evil) @c\(evil) uid:aaaaaa\nx 2025-11-01 second \(evil) pri:B uid:bbbbbb\n"
            + "third \(evil) uid:cccccc\n"
        let commands = ["add \"$EVIL\"", "addm \"$EVIL\"", "do 1", "undo 2", "pri 3 C", "depri 1",
                        "append 3 \"$EVIL\"", "prepend 3 \"$EVIL\"", "replace 3 \"new $EVIL\"", "--force del 3",
                        "archive", "listproj", "listcon", "lsa", "lsp", "ls", "ls first"]
        for command in commands {
            let (_, environment) = setUp(file)
            var full = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            full["EVIL"] = evil
            full["NO_COLOR"] = "1"
            full["SHELL"] = "/bin/sh"
            let result = Spawn.run(["/usr/bin/script", "-qec", "\(Spawn.todo) \(command)", "/dev/null"], environment: full)
            XCTAssertEqual(result.status, 0, "\(command): \(result.out)")
            XCTAssertFalse(result.stdout.contains(0x1B) || result.stdout.contains(0x07),
                           "todo \(command) printed raw control bytes: \(result.out.debugDescription)")
            XCTAssertTrue(result.out.contains("^[]0;pwned^G^[[2J"), "todo \(command): \(result.out.debugDescription)")
        }
    }

    func testColourOnlyWhenAskedOrOnATerminalAndNeverWithNoColor() throws {
        let (_, environment) = setUp("(A) urgent\nplain\n")
        let piped = Spawn.todo(["ls"], environment: environment)
        XCTAssertFalse(piped.stdout.contains(0x1B), "no colour on a pipe by default")
        let forced = Spawn.todo(["--color=always", "ls"], environment: environment)
        XCTAssertTrue(forced.out.contains("\u{1B}[1;33m1 (A) urgent\u{1B}[0m"), forced.out)
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "script(1) is needed for a pty")
        var noColor = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        noColor["NO_COLOR"] = "1"
        let terminal = Spawn.run(["/usr/bin/script", "-qec", "\(Spawn.todo) ls", "/dev/null"], environment: noColor)
        XCTAssertFalse(terminal.stdout.contains(0x1B), "NO_COLOR wins on a terminal: \(terminal.out)")
    }

    func testOverdueTasksAreHighlightedAndHiddenTasksNeedAll() {
        let (_, environment) = setUp("pay rent due:2025-11-01\nlater t:2026-06-01\nplaceholder +house h:1\nnow\n")
        let listed = Spawn.todo(["--color=always", "ls"], environment: environment)
        XCTAssertTrue(listed.out.contains("\u{1B}[1;31m1 pay rent due:2025-11-01\u{1B}[0m"), listed.out)
        XCTAssertFalse(listed.out.contains("later") || listed.out.contains("placeholder"), listed.out)
        XCTAssertTrue(listed.out.contains("2 of 4 tasks shown"), listed.out)
        let all = Spawn.todo(["-a", "--color=never", "ls"], environment: environment)
        XCTAssertTrue(all.out.contains("later") && all.out.contains("placeholder"), all.out)
    }
}
