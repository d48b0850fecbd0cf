import Foundation
import TodoTestSupport
import XCTest

/// Issue 23: `where` prints absolute paths, the done file of a symlinked todo file lives beside the
/// link's target, `merge --setup` outside a repository says one line, and `edit` says when the
/// editor left a conflict block.
final class PathsAndEditTests: XCTestCase {
    /// Runs `todo ARGUMENTS` in `directory` (through `sh`, which changes into it first).
    private func todo(in directory: String, _ arguments: [String], environment: [String: String] = [:]) -> ProcessResult {
        Spawn.run(["/bin/sh", "-c", "cd \"$1\" && shift && exec \"$@\"", "sh", directory, Spawn.todo] + arguments,
                  extraEnvironment: environment)
    }

    func testWherePrintsAbsolutePaths() {
        let directory = Spawn.makeTemporaryDirectory("where-absolute")
        Files.write(directory + "/todo.txt", "open\n")
        let result = todo(in: directory, ["where"], environment: ["HOME": directory + "/nowhere"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.out, """
            todo file: \(directory)/todo.txt (todo.txt in the current directory)
            done file: \(directory)/done.txt (beside the todo file; does not exist yet)

            """)
    }

    /// `~/todo.txt` a symlink into a synced folder: archive writes done.txt in that folder, where
    /// `reconcile` looks for its copies, and `where` says so.
    func testTheDoneFileOfASymlinkedTodoFileIsBesideItsTarget() throws {
        let root = Spawn.makeTemporaryDirectory("done-beside-target")
        let synced = root + "/Dropbox/todo", home = root + "/home"
        for path in [synced, home] { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        Files.write(synced + "/todo.txt", "x 2026-01-01 paid rent uid:rent01\ncall mom uid:mom001\n")
        try FileManager.default.createSymbolicLink(atPath: home + "/todo.txt", withDestinationPath: synced + "/todo.txt")
        let environment = ["HOME": home]
        let where_ = todo(in: root, ["where"], environment: environment)
        XCTAssertTrue(where_.out.contains("done file: \(synced)/done.txt (beside \(synced)/todo.txt, which the todo file links to; does not exist yet)"), where_.out)
        let archived = todo(in: root, ["archive"], environment: environment)
        XCTAssertEqual(archived.status, 0, archived.err)
        XCTAssertEqual(Files.text(synced + "/done.txt"), "x 2026-01-01 paid rent uid:rent01\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: home + "/done.txt"), "no done.txt outside the synced folder")
        XCTAssertEqual(Files.text(synced + "/todo.txt"), "call mom uid:mom001\n")
    }

    func testMergeSetupOutsideARepositorySaysOneLine() {
        let directory = Spawn.makeTemporaryDirectory("merge-setup-outside")
        let result = todo(in: directory, ["merge", "--setup"], environment: ["GIT_CEILING_DIRECTORIES": directory])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.err, "todo: merge --setup: not inside a git repository\n", "git's own fatal line is not shown")
    }

    /// The editor leaves a conflict block: one line says every write will refuse the file, exit 1.
    func testEditThatLeavesAConflictBlockSaysSoAndFails() {
        let directory = Spawn.makeTemporaryDirectory("edit-conflict")
        let path = directory + "/todo.txt"
        Files.write(path, "call mom\n")
        let editor = directory + "/editor"
        Files.writeExecutable(editor, "#!/bin/sh\nprintf '<<<<<<< ours\\npay rent\\n=======\\npay the rent\\n>>>>>>> theirs\\n' >> \"$1\"\n")
        let result = Spawn.todo(["-f", path, "edit"], environment: ["EDITOR": editor, "VISUAL": ""])
        XCTAssertEqual(result.status, 1, result.err)
        XCTAssertTrue(result.err.hasSuffix("todo: \(path): line 2: unresolved merge conflict (<<<<<<< … >>>>>>>) after editing; every write refuses the file until it is resolved (run 'todo edit' again)\n"), result.err)
        // A clean edit still exits with the editor's status and says nothing.
        Files.write(path, "call mom\n")
        let clean = Spawn.todo(["-f", path, "edit"], environment: ["EDITOR": "true", "VISUAL": ""])
        XCTAssertEqual(clean.status, 0, clean.err)
        XCTAssertEqual(clean.err, "")
    }
}

/// Issue 24 item 13: a relative `XDG_CONFIG_HOME` is ignored under the name `todo` (the XDG
/// specification says so), so no config or add-on is run from the current directory.
final class RelativeXDGConfigHomeTests: XCTestCase {
    func testARelativeXDGConfigHomeRunsNothingFromTheCurrentDirectory() throws {
        let directory = Spawn.makeTemporaryDirectory("relative-xdg")
        try FileManager.default.createDirectory(atPath: directory + "/rel/todo/actions", withIntermediateDirectories: true)
        let marker = directory + "/ran"
        Files.write(directory + "/rel/todo/config", "touch '\(marker)'\nexport TODO_DIR='\(directory)/planted'\n")
        Files.writeExecutable(directory + "/rel/todo/actions/planted", "#!/bin/sh\ntouch '\(marker)'\n")
        let environment = ["HOME": directory + "/home", "XDG_CONFIG_HOME": "rel", "TODO_DIR": "", "TODO_FILE": ""]
        let result = Spawn.run(["/bin/sh", "-c", "cd \"$1\" && shift && exec \"$@\"", "sh", directory, Spawn.todo, "where"],
                               extraEnvironment: environment)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertFalse(result.out.contains("planted"), result.out)
        XCTAssertFalse(result.out.contains("config:"), result.out)
        let addon = Spawn.run(["/bin/sh", "-c", "cd \"$1\" && shift && exec \"$@\"", "sh", directory, Spawn.todo, "planted"],
                              extraEnvironment: environment)
        XCTAssertEqual(addon.status, 2, addon.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: marker), "nothing from ./rel was run")
        // The same directory named absolutely is used.
        let absolute = Spawn.run([Spawn.todo, "where"], extraEnvironment: environment.merging(["XDG_CONFIG_HOME": directory + "/rel"]) { $1 })
        XCTAssertTrue(absolute.out.contains("config: \(directory)/rel/todo/config"), absolute.out)
    }
}
