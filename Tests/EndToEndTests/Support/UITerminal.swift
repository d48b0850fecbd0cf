import Foundation
import TodoTestSupport
import XCTest

/// `todo ui` in a pseudo-terminal, as the UI's end-to-end tests start it: its own home and todo
/// file, xterm without colour, a fixed clock (2025-11-29T09:53:20Z), time zone, uid seed and locale.
enum UITerminal {
    /// The environment of a UI test on `todoFile`; `extra` overrides or adds variables.
    static func environment(home: String, todoFile: String, _ extra: [String: String] = [:]) -> [String: String] {
        ["HOME": home, "TODO_FILE": todoFile, "TERM": "xterm", "NO_COLOR": "1",
         "TODO_TEST_TIME": "1764410000", "TZ": "UTC", "TODO_TEST_UID_SEED": "1", "LC_ALL": "C.UTF-8"].merging(extra) { $1 }
    }

    /// Writes `text` to `todoFile`, starts `todo OPTIONS ui ARGUMENTS` on it and waits for the
    /// first screen (the alternate screen with its status line drawn).
    static func start(_ text: String, home: String, todoFile: String, arguments: [String] = [], options: [String] = [],
                      columns: Int = 80, rows: Int = 12, environment extra: [String: String] = [:],
                      file: StaticString = #filePath, line: UInt = #line) throws -> PseudoTerminalProcess {
        Files.write(todoFile, text)
        let ui = try XCTUnwrap(PseudoTerminalProcess([Spawn.todo] + options + ["ui"] + arguments,
                                                     environment: environment(home: home, todoFile: todoFile, extra),
                                                     columns: columns, rows: rows), file: file, line: line)
        XCTAssertTrue(ui.waitFor { $0.alternateScreen && $0.lines.last?.isEmpty == false }, "\(ui.screen.text)",
                      file: file, line: line)
        return ui
    }

    /// Quits with `q`: exit status 0, and the main screen back.
    static func quit(_ ui: PseudoTerminalProcess, file: StaticString = #filePath, line: UInt = #line) {
        ui.send("q")
        XCTAssertEqual(ui.waitForExit(), 0, file: file, line: line)
        XCTAssertFalse(ui.screen.alternateScreen, "the main screen is back", file: file, line: line)
    }
}
