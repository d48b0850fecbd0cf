import Foundation
import TodoTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `todo ui` under random keys while another process appends to the file: the UI keeps running, and
/// every appended line ends up in the file exactly once. The keys that would remove a line or
/// rewrite its text (`d`, `e`) are left out, so every appended line must keep its marker whatever
/// else happens to it (done, priority, sorted, undone). Seeded (`TODO_PROPERTY_SEED`, printed);
/// runs for `TODO_SOAK_SECONDS` (default 3).
final class UISoakTests: XCTestCase {
    func testRandomKeysWhileAnotherProcessAppendsLoseNothing() throws {
        let directory = Spawn.makeTemporaryDirectory("ui-soak")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "(B) call mom\nbuy milk due:2025-11-20\nx 2025-11-01 paid rent\nwater plants rec:1w\n")
        let seed = propertySeed()
        var random = SplitMix64(seed: seed)
        let environment = ["HOME": directory, "TODO_FILE": path, "TERM": "xterm", "TODO_TEST_TIME": "1764410000", "TZ": "UTC",
                           "TODO_TEST_UID_SEED": String(seed % 1000), "LC_ALL": "C.UTF-8"]
        let ui = try XCTUnwrap(PseudoTerminalProcess([Spawn.todo, "ui"], environment: environment, columns: 60, rows: 10))
        XCTAssertTrue(ui.waitFor { $0.alternateScreen && $0.lines.last?.isEmpty == false }, ui.screen.text)

        let keys = ["j", "k", "x", " ", "pa", "pc", "p ", "g", "G", "s", "u", "u", "/milk\r", "/ca", "\u{1B}", "\u{1B}[A",
                    "\u{1B}[B", "\u{1B}[6~", "anew task\r", "? ", "e\u{1B}[200~ pasted\rx\u{1B}[201~\r"]
        let deadline = Date().addingTimeInterval(Spawn.soakSeconds(default: 3))
        var appended = 0, sent = 0
        while Date() < deadline {
            for _ in 0..<3 {
                ui.send(keys[Int(random.next() % UInt64(keys.count))])
                sent += 1
            }
            // Still running: no key above quits (`?` is sent with a key that dismisses the list).
            XCTAssertNil(ui.waitForExit(timeout: 0), "seed \(seed): the UI stopped: \(ui.screen.text)")
            // Another program appends, as `echo >> todo.txt` does: open, write, close.
            let line = "ext-\(appended)-end\n"
            let descriptor = open(path, O_WRONLY | O_APPEND)
            XCTAssertGreaterThanOrEqual(descriptor, 0)
            _ = line.withCString { write(descriptor, $0, strlen($0)) }
            close(descriptor)
            appended += 1
            ui.pump(waitingUpTo: .milliseconds(Int64(random.next() % 30)))
        }
        // Out of any prompt or the key list, then quit.
        ui.send("\u{1B}")
        usleep(200_000)
        ui.send("\u{1B}")
        usleep(200_000)
        ui.send("q")
        XCTAssertEqual(ui.waitForExit(timeout: 10), 0, "seed \(seed): \(ui.screen.text)")
        XCTAssertFalse(ui.screen.alternateScreen, "seed \(seed): the main screen is back")

        let words = Files.text(path).split(whereSeparator: { $0 == " " || $0 == "\n" })
        var counts: [Substring: Int] = [:]
        for word in words where word.hasPrefix("ext-") { counts[word, default: 0] += 1 }
        let lost = (0..<appended).filter { counts["ext-\($0)-end"] == nil }
        let doubled = counts.filter { $0.value > 1 }.map(\.key)
        print("UISoak: \(sent) keys, \(appended) lines appended, \(lost.count) lost, \(doubled.count) doubled (seed \(seed))")
        XCTAssertEqual(lost, [], "seed \(seed): appended lines lost\n\(Files.text(path))")
        XCTAssertEqual(doubled, [], "seed \(seed): appended lines doubled")
    }
}
