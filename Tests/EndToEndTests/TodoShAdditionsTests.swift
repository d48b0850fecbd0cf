import TodoTestSupport
import XCTest

/// `todo`'s additions work under the name `todo.sh` too, on the files its config names (docs/todo-command.md).
final class TodoShAdditionsTests: XCTestCase {
    func testSortUndoAndExportUnderTodoShUseTheConfiguredFile() {
        let home = Spawn.makeTemporaryDirectory("todosh-additions")
        let data = home + "/data"
        try? FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        Files.write(home + "/.todo.cfg", "export TODO_DIR=\"\(data)\"\n")
        Files.write(data + "/todo.txt", "x 2026-01-01 done pri:A\nopen\n")
        let environment = ["HOME": home, "TODO_TEST_TIME": "1764410000", "TZ": "UTC", "TODOTXT_CFG_FILE": "",
                           "TODO_DIR": "", "TODO_FILE": ""]
        let sort = Spawn.todo(["sort"], environment: environment, asName: "todo.sh")
        XCTAssertEqual(sort.status, 0, sort.err)
        XCTAssertEqual(Files.text(data + "/todo.txt"), "open\nx 2026-01-01 done pri:A\n")
        let undo = Spawn.todo(["undo", "2"], environment: environment, asName: "todo.sh")
        XCTAssertEqual(undo.status, 0, undo.err)
        XCTAssertEqual(Files.text(data + "/todo.txt"), "open\n(A) done\n")
        let export = Spawn.todo(["export"], environment: environment, asName: "todo.sh")
        XCTAssertEqual(export.out.split(separator: "\n").count, 2, export.out)
        let unknown = Spawn.todo(["frobnicate"], environment: environment, asName: "todo.sh")
        XCTAssertEqual(unknown.status, 1)
        XCTAssertTrue(unknown.out.hasPrefix("Usage: todo.sh"), unknown.out)
    }

    /// Typed terms and `--sort` are the `todo` name's (docs/todo-command.md, "Typed terms"): under
    /// `todo.sh` a term such as `due:<=today` is grep's text, as in todo.txt-cli.
    func testTypedTermsAreTextUnderTodoSh() {
        let home = Spawn.makeTemporaryDirectory("todosh-typed")
        Files.write(home + "/.todo.cfg", "export TODO_DIR=\"\(home)\"\n")
        Files.write(home + "/todo.txt", "pay due:2025-11-01\nnote due:<=today literally\n")
        let environment = ["HOME": home, "TODO_TEST_TIME": "1764410000", "TZ": "UTC", "TODOTXT_CFG_FILE": "",
                           "TODO_DIR": "", "TODO_FILE": ""]
        let typed = Spawn.todo(["-p", "ls", "due:<=today"], environment: environment, asName: "todo.sh")
        XCTAssertEqual(typed.out, "2 note due:<=today literally\n--\nTODO: 1 of 2 tasks shown\n", typed.err)
        let asTodo = Spawn.todo(["-f", home + "/todo.txt", "ls", "due:<=today"], environment: environment)
        XCTAssertEqual(asTodo.out, "1 pay due:2025-11-01\n--\nTODO: 1 of 2 tasks shown\n", asTodo.err)
    }
}
