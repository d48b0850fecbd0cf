import Foundation
import TodoTestSupport
import XCTest

/// Add-ons in every place todo.sh looks for them (docs/todosh.md section 7: `TODO_ACTIONS_DIR`,
/// `~/.todo/actions`, `~/.todo.actions.d`, `$XDG_CONFIG_HOME/todo/actions`; a file, or a folder
/// holding a file of the same name), with and without a `#!` line, under both names: each runs
/// with its own name as first argument, and `help NAME` prints its usage exactly as it writes it.
final class AddonLocationTests: XCTestCase {
    /// What every add-on here prints for `usage`: todo.sh's convention, ending in an empty line.
    static let usage = "    greet [NAME]\n      Says hello.\n\n"

    /// An add-on script, with or without a `#!` line.
    static func script(shebang: Bool) -> String {
        (shebang ? "#!/bin/sh\n" : "")
            + "[ \"$1\" = usage ] && { printf '%s' '\(usage)'; exit 0; }\n"
            + "echo \"greet ran as $1 with $2\"\n"
    }

    /// Runs both names in a fresh home whose add-on is placed by `place` (given the home), with
    /// `environment` added; checks the run and the help.
    private func check(_ label: String, environment extra: [String: String] = [:], shebang: Bool,
                       place: (String) -> String) {
        let home = Spawn.makeTemporaryDirectory("addon-home")
        let data = home + "/data"
        try? FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        Files.write(home + "/todo.cfg", "export TODO_DIR=\"\(data)\"\n")
        let addon = place(home)
        try? FileManager.default.createDirectory(atPath: URL(fileURLWithPath: addon).deletingLastPathComponent().path,
                                                 withIntermediateDirectories: true)
        Files.writeExecutable(addon, Self.script(shebang: shebang))
        var environment = ["HOME": home, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                           "TODO_ACTIONS_DIR": "", "XDG_CONFIG_HOME": "", "TODOTXT_CFG_FILE": "", "TODO_FILE": "",
                           "TODO_DIR": ""]
        environment.merge(extra) { _, new in new }
        for name in ["todo", "todo.sh"] {
            let what = "\(label), \(shebang ? "with" : "without") #!, as \(name)"
            let ran = Spawn.run([Spawn.todo, "greet", "you"], environment: environment, argv0: name)
            XCTAssertEqual(ran.status, 0, "\(what): \(ran.err)")
            XCTAssertEqual(ran.out, "greet ran as greet with you\n", what)
            let help = Spawn.run([Spawn.todo, "help", "greet"], environment: environment, argv0: name)
            XCTAssertEqual(help.status, 0, "\(what): \(help.err)")
            XCTAssertEqual(help.out, Self.usage, "\(what): help prints the usage as the add-on writes it")
        }
    }

    func testTodoActionsDirectory() {
        for shebang in [true, false] {
            check("TODO_ACTIONS_DIR", environment: [:], shebang: shebang) { home in
                Files.write(home + "/todo.cfg", "export TODO_DIR=\"\(home)/data\"\nexport TODO_ACTIONS_DIR=\"\(home)/mine\"\n")
                return home + "/mine/greet"
            }
        }
    }

    func testDotTodoActions() {
        for shebang in [true, false] { check("~/.todo/actions", shebang: shebang) { $0 + "/.todo/actions/greet" } }
    }

    func testDotTodoActionsD() {
        for shebang in [true, false] { check("~/.todo.actions.d", shebang: shebang) { $0 + "/.todo.actions.d/greet" } }
    }

    func testXDGConfigHome() {
        for shebang in [true, false] {
            let config = Spawn.makeTemporaryDirectory("addon-xdg")
            check("$XDG_CONFIG_HOME/todo/actions", environment: ["XDG_CONFIG_HOME": config], shebang: shebang) { _ in
                config + "/todo/actions/greet"
            }
        }
    }

    func testAddonInAFolderOfItsName() {
        for shebang in [true, false] { check("~/.todo.actions.d/greet/greet", shebang: shebang) { $0 + "/.todo.actions.d/greet/greet" } }
    }
}
