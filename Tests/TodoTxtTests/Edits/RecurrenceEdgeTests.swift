import Testing
@testable import TodoTxt

/// `TodoItem.recurrence(completedOn:uid:)` where there is no next instance, or where the old `due:`
/// is unusable: a reason instead of silence, never a second `due:`, never a repeated date.
@Suite struct RecurrenceEdgeTests {
    let done = TodoDate(year: 2026, month: 3, day: 10)!

    func outcome(_ line: String) -> RecurrenceOutcome {
        TodoItem(Array(line.utf8)[...]).recurrence(completedOn: done, uid: "newuid")
    }

    func next(_ line: String) -> (String, String?)? {
        guard case .next(let bytes, let replaced) = outcome(line) else { return nil }
        return (String(decoding: bytes, as: UTF8.self), replaced)
    }

    @Test func noRecTagIsNone() {
        #expect(outcome("a due:2026-03-01") == .none)
    }

    @Test(arguments: ["0d", "-1d", "1x", "+99999999999y", "10000d", "d", "+"])
    func anInvalidRuleIsNamed(rule: String) {
        #expect(outcome("water plants rec:\(rule) uid:k3f9qz") == .invalidRule(rule))
        #expect(TodoItem(Array("water plants rec:\(rule)".utf8)[...]).nextRecurrence(completedOn: done, uid: nil) == nil)
    }

    @Test func aDateBeyondTheCalendarGivesNoInstance() {
        #expect(outcome("last due:9999-12-31 rec:+1d") == .beyondCalendar)
        #expect(outcome("last due:9999-12-31 rec:+1y") == .beyondCalendar)
        #expect(outcome("last t:9999-12-30 rec:+1w") == .beyondCalendar)
        #expect(outcome("last due:9999-12-30 t:9999-12-31 rec:+1d") == .beyondCalendar)
        #expect(TodoItem(Array("last due:9999-12-31 rec:+1d".utf8)[...]).nextRecurrence(completedOn: done, uid: nil) == nil)
    }

    @Test func anInvalidDueIsReplacedNotJoinedBySecondDue() throws {
        let (line, replaced) = try #require(next("pay rent due:2026-13-01 rec:1m uid:k3f9qz"))
        #expect(line == "pay rent due:2026-04-10 rec:1m uid:newuid")
        #expect(replaced == "2026-13-01")
        // Strict recurrence has no valid old due date to count from: the completion date it is.
        #expect(next("pay rent due:someday rec:+2w")?.0 == "pay rent due:2026-03-24 rec:+2w uid:newuid")
    }

    @Test func anInvalidDueBeforeAValidOneIsTheOneReplaced() {
        // The first `due:` is the one that counts (docs/format.md); it is the one given the date.
        #expect(next("a due:nope due:2026-03-01 rec:1d")?.0 == "a due:2026-03-11 due:2026-03-01 rec:1d uid:newuid")
    }

    @Test func validDueUnchangedBehaviour() {
        #expect(next("(A) 2026-01-01 pay rent due:2026-03-01 rec:1m uid:k3f9qz")?.0
                == "(A) 2026-03-10 pay rent due:2026-04-10 rec:1m uid:newuid")
        #expect(next("(A) 2026-01-01 pay rent due:2026-03-01 rec:1m uid:k3f9qz")?.1 == nil)
        #expect(next("call dad rec:3d")?.0 == "call dad rec:3d due:2026-03-13 uid:newuid")
    }
}
