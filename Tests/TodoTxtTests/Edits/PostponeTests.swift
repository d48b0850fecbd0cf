import Testing
@testable import TodoTxt

@Suite struct PostponeTests {
    let today = d("2026-12-02")

    func postponed(_ line: String, _ period: String, threshold: Bool = false) throws(PostponeError) -> String {
        String(decoding: try TodoItem(line).postponed(by: DateOffset(period)!, today: today, movingThreshold: threshold), as: UTF8.self)
    }

    @Test func movesTheDueDateInPlace() throws {
        #expect(try postponed("pay rent due:2026-12-01 +home uid:k3f9qz", "1w") == "pay rent due:2026-12-08 +home uid:k3f9qz")
        #expect(try postponed("a due:2026-01-31 b", "1m") == "a due:2026-02-28 b")
        #expect(try postponed("a due:2026-12-04", "1b") == "a due:2026-12-07")
        #expect(try postponed("a due:2026-12-04", "-1d") == "a due:2026-12-03")
    }

    @Test func aTaskWithoutDueGetsTodayPlusThePeriod() throws {
        #expect(try postponed("(A) call mom uid:k3f9qz", "3d") == "(A) call mom due:2026-12-05 uid:k3f9qz")
        #expect(try postponed("call mom", "2b") == "call mom due:2026-12-04")
    }

    @Test func thresholdMovesOnlyWhenAskedAndPresent() throws {
        #expect(try postponed("a t:2026-12-01 due:2026-12-03", "1w") == "a t:2026-12-01 due:2026-12-10")
        #expect(try postponed("a t:2026-12-01 due:2026-12-03", "1w", threshold: true) == "a t:2026-12-08 due:2026-12-10")
        #expect(try postponed("a due:2026-12-03", "1w", threshold: true) == "a due:2026-12-10")
    }

    @Test func refusals() {
        #expect(throws: PostponeError.notADate(key: "due", value: "tomorow")) { try postponed("a due:tomorow", "1d") }
        #expect(throws: PostponeError.notADate(key: "t", value: "x")) { try postponed("a t:x due:2026-12-01", "1d", threshold: true) }
        #expect(throws: PostponeError.completedTask) { try postponed("x 2026-12-01 a due:2026-12-01", "1d") }
        #expect(throws: PostponeError.beyondCalendar(key: "due")) { try postponed("a due:9999-12-31", "1d") }
        #expect(throws: PostponeError.notATask) { try postponed("  ", "1d") }
    }
}
