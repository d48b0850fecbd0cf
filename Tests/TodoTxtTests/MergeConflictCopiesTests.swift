import TodoTxt
import XCTest

final class MergeConflictCopiesTests: XCTestCase {
    private func parse(_ name: String, _ file: String = "todo.txt") -> ConflictCopy? {
        ConflictCopies.parse(name, copyOf: file)
    }

    func testDropbox() {
        let named = parse("todo (Ann's conflicted copy 2026-11-29).txt")
        XCTAssertEqual(named?.scheme, .dropbox)
        XCTAssertEqual(named?.stamp, "2026-11-29")
        XCTAssertEqual(named?.origin, "Ann")
        XCTAssertEqual(parse("todo (Ann\u{2019}s conflicted copy 2026-11-29).txt")?.origin, "Ann")
        XCTAssertEqual(parse("todo (Ann Lee's Laptop's conflicted copy 2026-11-29).txt")?.origin, "Ann Lee's Laptop")
        let anonymous = parse("todo (conflicted copy 2026-11-29).txt")
        XCTAssertEqual(anonymous?.scheme, .dropbox)
        XCTAssertNil(anonymous?.origin)
        XCTAssertEqual(parse("todo (conflicted copy 2026-11-29 (1)).txt")?.scheme, .dropbox)
        XCTAssertEqual(parse("todo (Ann's conflicted copy 2026-11-29) (2).txt")?.stamp, "2026-11-29")
        XCTAssertEqual(parse("todo (Ann's conflicted copy 2026-11-29 (12)).txt")?.origin, "Ann")
    }

    func testSyncthing() {
        let copy = parse("todo.sync-conflict-20261129-101500-ABCDEFG.txt")
        XCTAssertEqual(copy?.scheme, .syncthing)
        XCTAssertEqual(copy?.stamp, "20261129-101500")
        XCTAssertEqual(copy?.origin, "ABCDEFG")
        XCTAssertEqual(parse("todo.sync-conflict-20261129-101500.txt")?.scheme, .syncthing)
        XCTAssertEqual(parse("todo.sync-conflict-20261129-101500-ABCDEFG", "todo")?.origin, "ABCDEFG")
        XCTAssertEqual(parse("my.todo.sync-conflict-20261129-101500-ABCDEFG.txt", "my.todo.txt")?.scheme, .syncthing)
    }

    func testNextcloudAndOwnCloud() {
        let copy = parse("todo (conflicted copy 2026-11-29 101500).txt")
        XCTAssertEqual(copy?.scheme, .nextcloud)
        XCTAssertEqual(copy?.stamp, "2026-11-29 101500")
        XCTAssertNil(copy?.origin)
        XCTAssertEqual(parse("todo (conflicted copy Ann 2026-11-29 101500).txt")?.origin, "Ann")
        XCTAssertEqual(parse("todo_conflict-20261129-101500.txt")?.scheme, .owncloud)
    }

    func testNotCopies() {
        for name in ["todo.txt", "done.txt", "todo.txt.bak", "todo (copy).txt", "todo (conflicted copy).txt",
                     "other (conflicted copy 2026-11-29).txt", "mytodo (conflicted copy 2026-11-29).txt",
                     "todo (conflicted copy 2026-11-29).md", "todo (conflicted copy 2026-13-29).txt",
                     "todo (conflicted copy 2026-11-29 10150).txt", "todo ('s conflicted copy 2026-11-29).txt",
                     "todo (Anns conflicted copy 2026-11-29).txt", "todo.sync-conflict-20261129-101500-abcdefg.txt",
                     "todo.sync-conflict-20260230-101500-ABCDEFG.txt", "todo.sync-conflict-20261129-101500-ABCDEF.txt",
                     "Todo (conflicted copy 2026-11-29).txt", "todo_conflict-20261129-1015.txt",
                     "todo (conflicted copy 2026-11-29) (x).txt", "todo (conflicted copy 2026-11-29)).txt"] {
            XCTAssertNil(parse(name), name)
        }
    }

    func testListingIsFilteredAndSorted() {
        let listing = ["todo.txt", "done.txt", "todo.sync-conflict-20261129-101500-ABCDEFG.txt", "notes.txt",
                       "done (conflicted copy 2026-11-29).txt", "todo (conflicted copy 2026-11-29 101500).txt",
                       "todo (Ann's conflicted copy 2026-11-28).txt"]
        XCTAssertEqual(ConflictCopies.copies(of: "todo.txt", in: listing).map(\.name),
                       ["todo (Ann's conflicted copy 2026-11-28).txt", "todo (conflicted copy 2026-11-29 101500).txt",
                        "todo.sync-conflict-20261129-101500-ABCDEFG.txt"])
        XCTAssertEqual(ConflictCopies.copies(of: "done.txt", in: listing).map(\.name),
                       ["done (conflicted copy 2026-11-29).txt"])
        XCTAssertEqual(ConflictCopies.copies(of: "", in: listing), [])
    }
}
