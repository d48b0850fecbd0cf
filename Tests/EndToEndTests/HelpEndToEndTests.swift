import Foundation
import TodoTestSupport
import XCTest

/// `todo --help`, `todo -h` and `todo help ACTION` from the built binary: every group, every global
/// option, the examples, the aliases (the transcripts check `help ACTION` texts byte for byte).
final class HelpEndToEndTests: XCTestCase {
    func testHelpGroupsTheActionsAndListsEveryOptionAndExamples() {
        for flag in ["--help", "-h", "help"] {
            let run = Spawn.todo([flag])
            XCTAssertEqual(run.status, 0, "\(flag): \(run.err)")
            XCTAssertEqual(run.err, "", flag)
            for heading in ["tasks:", "listing:", "the file:", "sync:", "help and setup:", "options:", "examples:"] {
                XCTAssertTrue(run.out.contains("\n\(heading)\n"), "\(flag): no \(heading)")
            }
            for line in ["  list, ls ", "  do, done ", "  ui ", "  where ", "  -f FILE, --file=FILE ", "  -q, --quiet ",
                         "  --color=WHEN ", "  todo do 3\n", "'todo where' says which and why"] {
                XCTAssertTrue(run.out.contains(line), "\(flag): no \(line.debugDescription)")
            }
            XCTAssertFalse(run.out.contains("__complete"), "\(flag): a hidden helper is listed")
            XCTAssertFalse(run.out.contains("shorthelp"), "\(flag): todo.sh's own action is listed")
        }
    }

    func testHelpForTheUIListsItsKeys() {
        let run = Spawn.todo(["help", "ui"])
        XCTAssertEqual(run.status, 0, run.err)
        XCTAssertTrue(run.out.hasPrefix("usage: todo ui [--view NAME] [FILE]\n"), run.out)
        XCTAssertTrue(run.out.contains("x or space done/not done"), run.out)
    }
}
