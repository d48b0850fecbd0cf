import Foundation
import TodoTestSupport
import XCTest

/// `todo ui` and the planning features (issue 25): relative dates typed in the add and edit
/// fields, `--view NAME` and `v` (docs/todo-command.md, "Dates relative to today", "Saved views").
/// The clock is 2025-11-29, a Saturday.
final class UIDatesAndViewsTests: XCTestCase {
    private var directory = ""
    private var path: String { directory + "/todo.txt" }
    private var environment: [String: String] {
        ["HOME": directory, "TODO_FILE": path, "TERM": "xterm", "NO_COLOR": "1", "TODO_TEST_TIME": "1764410000",
         "TZ": "UTC", "TODO_TEST_UID_SEED": "1", "LC_ALL": "C.UTF-8", "TODOTXT_CFG_FILE": ""]
    }

    override func setUp() {
        directory = Spawn.makeTemporaryDirectory("ui-plan")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func start(_ text: String, arguments: [String] = []) throws -> PseudoTerminalProcess {
        Files.write(path, text)
        let ui = try XCTUnwrap(PseudoTerminalProcess([Spawn.todo, "ui"] + arguments, environment: environment,
                                                     columns: 80, rows: 12))
        XCTAssertTrue(ui.waitFor { $0.alternateScreen && $0.lines.last?.isEmpty == false }, "\(ui.screen.text)")
        return ui
    }

    private func quit(_ ui: PseudoTerminalProcess) {
        ui.send("q")
        XCTAssertEqual(ui.waitForExit(), 0)
    }

    private func writeViews(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: directory + "/.config/todo", withIntermediateDirectories: true)
        Files.write(directory + "/.config/todo/views.txt", text)
    }

    func testAddAndEditFieldsWriteRelativeDatesAsDays() throws {
        let ui = try start("call mom due:soon uid:k3f9qz\n")
        ui.send("a")
        ui.send("pay rent due:tm\r")
        XCTAssertTrue(ui.waitForText("2025-11-29 pay rent due:2025-11-30 uid:"), ui.screen.lines.joined(separator: "|"))
        // A typo: nothing written, the reason on the status line; `a` opens the field again as typed.
        let before = Files.text(path)
        ui.send("a")
        ui.send("typo due:tomorow\r")
        XCTAssertTrue(ui.waitForText("due:tomorow is not a date or a relative date (did you mean due:tomorrow?)"), ui.screen.text)
        XCTAssertEqual(Files.text(path), before)
        ui.send("a")
        XCTAssertTrue(ui.waitForText("add: typo due:tomorow"), ui.screen.text)
        ui.send([0x1B])
        // Edit: the old, invalid due:soon was not typed now and stays; the new t: is resolved.
        ui.send("g")
        ui.send("e")
        ui.send(" t:mon\r")
        XCTAssertTrue(ui.waitFor { _ in Files.text(self.path).hasPrefix("call mom due:soon t:2025-12-01 uid:k3f9qz\n") },
                      Files.text(path))
        quit(ui)
    }

    func testViewOptionAndTheVKeyFilterByASavedView() throws {
        try writeViews("shop = @shop -+bike\nphone = @phone\n")
        let ui = try start("buy milk @shop\ncall mom @phone\nfix bike @shop +bike\n", arguments: ["--view", "shop"])
        XCTAssertEqual(ui.screen.lines.first, "1 buy milk @shop")
        XCTAssertFalse(ui.screen.text.contains("call mom"), ui.screen.text)
        XCTAssertFalse(ui.screen.text.contains("fix bike"), "the view's -+bike: \(ui.screen.text)")
        ui.send("v")
        XCTAssertTrue(ui.waitForText("view (shop, phone):"), ui.screen.text)
        ui.send("phone\r")
        XCTAssertTrue(ui.waitFor { $0.lines.first == "2 call mom @phone" }, ui.screen.text)
        ui.send("v")
        ui.send("shp\r")
        XCTAssertTrue(ui.waitForText("no view 'shp' (did you mean 'shop'?)"), ui.screen.text)
        quit(ui)
    }

    func testAnUnknownViewIsRefusedBeforeTheScreen() throws {
        try writeViews("shop = @shop\n")
        Files.write(path, "buy milk @shop\n")
        let result = Spawn.run([Spawn.todo, "ui", "--view", "nope"], environment: environment)
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(String(decoding: result.stderr, as: UTF8.self),
                       "todo: \(directory)/.config/todo/views.txt: no view 'nope'\n")
        XCTAssertTrue(result.stdout.isEmpty)
    }
}
