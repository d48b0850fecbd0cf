import Testing
@testable import TodoTxt

/// docs/format.md section 6: due, t, rec, h, pri; recurrence.
@Suite struct ExtensionsTests {
    @Test func validValues() {
        let item = parseLine("(A) task due:2026-03-05 t:2026-03-01 rec:+2w h:1 pri:B")
        #expect(item.due == .valid(d("2026-03-05")))
        #expect(item.threshold == .valid(d("2026-03-01")))
        #expect(item.recurrence.value == Recurrence("+2w"))
        #expect(item.hidden == .valid(true))
        #expect(item.keptPriority == .valid(Priority("B")!))
        #expect(parseLine("a h:0").hidden == .valid(false))
    }

    @Test func absentValues() {
        let item = parseLine("plain task")
        #expect(item.due == .absent)
        #expect(item.threshold == .absent)
        #expect(item.recurrence == .absent)
        #expect(item.hidden == .absent)
        #expect(item.keptPriority == .absent)
        #expect(item.due.value == nil)
    }

    @Test func invalidValuesAreKeptAsText() {
        let item = parseLine("a due:someday t:2026-02-30 rec:weekly h:yes pri:b")
        #expect(item.due == .invalid("someday"))
        #expect(item.threshold == .invalid("2026-02-30"))
        #expect(item.recurrence == .invalid("weekly"))
        #expect(item.hidden == .invalid("yes"))
        #expect(item.keptPriority == .invalid("b"))
        #expect(item.body == "a due:someday t:2026-02-30 rec:weekly h:yes pri:b")
    }

    @Test func firstValueDecides() {
        #expect(parseLine("a due:bad due:2026-01-01").due == .invalid("bad"))
    }

    @Test(arguments: [("1d", false, 1, Recurrence.Unit.day), ("+3w", true, 3, .week), ("12m", false, 12, .month),
                      ("+1y", true, 1, .year), ("10b", false, 10, .businessDay), ("9999d", false, 9999, .day),
                      ("01w", false, 1, .week)])
    func recurrenceParses(_ text: String, _ strict: Bool, _ count: Int, _ unit: Recurrence.Unit) throws {
        let rule = try #require(Recurrence(text))
        #expect(rule.isStrict == strict)
        #expect(rule.count == count)
        #expect(rule.unit == unit)
    }

    @Test(arguments: ["", "d", "+", "+d", "0d", "1", "1D", "1x", "++1d", "-1d", "10000d", "1.5d", "1 d", "w1"])
    func recurrenceRejects(_ text: String) {
        #expect(Recurrence(text) == nil)
    }

    @Test func recurrenceDescription() {
        #expect(Recurrence("+3w")?.description == "+3w")
        #expect(Recurrence("01b")?.description == "1b")
    }

    @Test func advance() {
        #expect(Recurrence("3d")?.advance(d("2026-12-30")) == d("2027-01-02"))
        #expect(Recurrence("2w")?.advance(d("2026-02-20")) == d("2026-03-06"))
        #expect(Recurrence("1m")?.advance(d("2026-01-31")) == d("2026-02-28"))
        #expect(Recurrence("1m")?.advance(d("2024-01-31")) == d("2024-02-29"))
        #expect(Recurrence("1m")?.advance(d("2026-03-31")) == d("2026-04-30"))
        #expect(Recurrence("13m")?.advance(d("2026-12-15")) == d("2028-01-15"))
        #expect(Recurrence("1y")?.advance(d("2024-02-29")) == d("2025-02-28"))
        #expect(Recurrence("4y")?.advance(d("2024-02-29")) == d("2028-02-29"))
        // 2026-03-06 is a Friday.
        #expect(Recurrence("1b")?.advance(d("2026-03-06")) == d("2026-03-09"))
        #expect(Recurrence("5b")?.advance(d("2026-03-06")) == d("2026-03-13"))
        #expect(Recurrence("1b")?.advance(d("2026-03-07")) == d("2026-03-09"))
        #expect(Recurrence("1b")?.advance(d("2026-03-08")) == d("2026-03-09"))
        #expect(Recurrence("1b")?.advance(d("2026-03-09")) == d("2026-03-10"))
        #expect(Recurrence("1y")?.advance(d("9999-01-01")) == nil)
    }

    @Test func hiddenAndOverdue() {
        let today = d("2026-03-01")
        #expect(parseLine("a h:1").isHidden(on: today))
        #expect(!parseLine("a h:0").isHidden(on: today))
        #expect(parseLine("a t:2026-03-02").isHidden(on: today))
        #expect(!parseLine("a t:2026-03-01").isHidden(on: today))
        #expect(!parseLine("a t:someday").isHidden(on: today))
        #expect(parseLine("a due:2026-02-28").isOverdue(on: today))
        #expect(!parseLine("a due:2026-03-01").isOverdue(on: today))
        #expect(!parseLine("x a due:2026-02-28").isOverdue(on: today))
    }

    // MARK: Recurrence

    let done = d("2026-03-10")

    func next(_ line: String, uid: String? = "newuid") -> String? {
        parseLine(line).nextRecurrence(completedOn: done, uid: uid).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func noRecurrenceNoCopy() {
        #expect(next("a due:2026-03-01") == nil)
        #expect(next("a rec:often due:2026-03-01") == nil)
    }

    @Test func fromCompletionDate() {
        #expect(next("(A) 2026-01-01 pay rent due:2026-03-01 rec:1m uid:k3f9qz")
                == "(A) 2026-03-10 pay rent due:2026-04-10 rec:1m uid:newuid")
    }

    @Test func strictFromOldDueDate() {
        #expect(next("pay rent due:2026-01-31 rec:+1m uid:k3f9qz") == "pay rent due:2026-02-28 rec:+1m uid:newuid")
    }

    @Test func thresholdKeepsItsDistanceToDue() {
        #expect(next("a t:2026-02-25 due:2026-03-01 rec:+1w") == "a t:2026-03-04 due:2026-03-08 rec:+1w uid:newuid")
        #expect(next("a due:2026-03-01 t:2026-02-25 rec:2d") == "a due:2026-03-12 t:2026-03-08 rec:2d uid:newuid")
    }

    @Test func thresholdWithoutDue() {
        #expect(next("a t:2026-03-01 rec:+1w", uid: nil) == "a t:2026-03-08 rec:+1w")
        #expect(next("a t:2026-03-01 rec:1w", uid: nil) == "a t:2026-03-17 rec:1w")
    }

    @Test func noDatesGetsADueDate() {
        #expect(next("water plants rec:3d", uid: nil) == "water plants rec:3d due:2026-03-13")
    }

    @Test func businessDays() {
        // 2026-03-13 is a Friday.
        #expect(next("report due:2026-03-13 rec:+1b", uid: nil) == "report due:2026-03-16 rec:+1b")
    }

    @Test func yearly() {
        #expect(next("birthday due:2024-02-29 rec:+1y", uid: nil) == "birthday due:2025-02-28 rec:+1y")
    }

    @Test func fromCompletedLineRestoresPriorityAndDropsCompletion() {
        #expect(next("x 2026-03-10 2026-01-01 pay due:2026-03-01 rec:+1m uid:k3f9qz pri:A")
                == "(A) 2026-03-10 pay due:2026-04-01 rec:+1m uid:newuid")
    }

    @Test func freshUIDIsAppendedWhenMissing() {
        #expect(next("a due:2026-03-01 rec:1d") == "a due:2026-03-11 rec:1d uid:newuid")
    }

    @Test func simpletaskUUIDIsNotTheUIDTag() {
        // The copy gets a uid: tag; the old uuid: stays as text (it no longer decides identity).
        let copy = next("a due:2026-03-01 rec:1d uuid:x1")
        #expect(copy == "a due:2026-03-11 rec:1d uuid:x1 uid:newuid")
        #expect(parseLine(copy!).uid == "newuid")
    }
}
