import Testing
import TodoTestSupport
@testable import TodoTxt

@Suite struct AgendaTests {
    /// 2026-12-02 is a Wednesday.
    let today = d("2026-12-02")

    func agenda(_ lines: [String], days: Int = 7, everything: Bool = false) -> Agenda {
        Agenda(document: TodoDocument(lines.joined(separator: "\n") + "\n"), today: today, days: days,
               includesEverything: everything)
    }

    /// Each group as `heading: line numbers`.
    func shape(_ agenda: Agenda) -> [String] {
        agenda.groups.map { group in
            agenda.heading(group.section) + ": " + group.entries.map { String($0.index + 1) }.joined(separator: " ")
        }
    }

    @Test func sectionsInOrder() {
        let result = agenda([
            "later due:2027-01-20",          // 1
            "(B) today b due:2026-12-02",    // 2
            "old due:2026-11-01",            // 3
            "(A) undated a",                 // 4
            "tomorrow due:2026-12-03",       // 5
            "today due:2026-12-02",          // 6
            "(A) today a due:2026-12-02",    // 7
            "older due:2026-10-01",          // 8
            "plain, not shown",              // 9
            "x 2026-12-01 done due:2026-12-02", // 10
            "week end due:2026-12-09",       // 11
            "day after the week due:2026-12-10", // 12
            "(C) undated c",                 // 13
            "(B) undated b",                 // 14
        ])
        #expect(shape(result) == [
            "Overdue: 8 3",
            "Today (Wed 2026-12-02): 7 2 6",
            "Thu 2026-12-03: 5",
            "Wed 2026-12-09: 11",
            "Later: 12 1",
            "No due date: 4 14 13",
        ])
    }

    @Test func hiddenAndWaitingTasksAreLeftOut() {
        let result = agenda(["a h:1 due:2026-12-02", "b t:2026-12-03 due:2026-12-02", "c t:2026-12-02 due:2026-12-02",
                             "d h:0 due:2026-12-02", "e t:soon due:2026-12-02"])
        #expect(shape(result) == ["Today (Wed 2026-12-02): 3 4 5"])
    }

    @Test func undatedIncludesTheRestOnRequest() {
        let lines = ["b", "(C) c", "a due:notadate", "(A) a"]
        #expect(shape(agenda(lines)) == ["No due date: 4 2"])
        #expect(shape(agenda(lines, everything: true)) == ["No due date: 4 2 1 3"])
    }

    @Test func daysSetsHowManyDaysGetASection() {
        let lines = ["a due:2026-12-03", "b due:2026-12-04"]
        #expect(shape(agenda(lines, days: 1)) == ["Thu 2026-12-03: 1", "Later: 2"])
        #expect(shape(agenda(lines, days: 0)) == ["Later: 1 2"])
    }

    @Test func distances() {
        let groups = agenda(["a due:2026-11-29", "b due:2026-12-02", "c due:2026-12-04", "(A) d"]).groups
        #expect(groups.flatMap(\.entries).map(Agenda.distance) == ["3d overdue", "today", "in 2d", nil])
    }

    @Test func linesGivenOneByOneMatchTheDocument() {
        let lines = ["b due:2026-12-04", "(A) a", "c due:2026-11-04"]
        var streamed = Agenda(today: today)
        for (index, line) in lines.enumerated() { streamed.consider(Array(line.utf8)[...], at: index) }
        #expect(streamed.groups == agenda(lines).groups)
    }

    /// Random tasks: the agenda's byte-level shortcuts agree with the library's own reading of each
    /// task (`isCompleted`, `isHidden(on:)`, `due`, `priority`), and each section is in order.
    @Test func agreesWithTheTaskAccessorsOnRandomTasks() {
        let settings = PropertySettings(defaultSeed: 0xA6E4DA, defaultCount: 300)
        var rng = SplitMix64(seed: settings.seed)
        let words = ["call", "mom", "+home", "@phone", "uid:k3f9qz", "due:2026-12-01", "due:2026-12-02", "due:2026-12-05",
                     "due:2027-02-01", "due:2026-10-10", "due:soon", "t:2026-12-01", "t:2026-12-09", "h:1", "h:0", "x:1",
                     "Due:2026-12-01", "idue:2026-12-01", "12:30", "(B)", "t:", "tt:2026-12-09"]
        let heads = ["", "(A) ", "(C) ", "x 2026-12-01 ", "2026-11-01 ", "(B) 2026-11-01 ", "  ", "\u{FEFF}"]
        for iteration in 0..<settings.count {
            var lines: [String] = []
            for _ in 0..<Int(rng.next() % 12) {
                var line = heads[Int(rng.next() % UInt64(heads.count))]
                for _ in 0..<Int(rng.next() % 5) { line += words[Int(rng.next() % UInt64(words.count))] + " " }
                lines.append(line)
            }
            let document = TodoDocument(lines.joined(separator: "\n"))
            let result = Agenda(document: document, today: today, includesEverything: true)
            var expected: [Int] = []
            for index in 0..<document.lineCount {
                let item = document.item(at: index)
                if item.isTask, !item.isCompleted, !item.isHidden(on: today) { expected.append(index) }
            }
            let entries = result.groups.flatMap(\.entries)
            #expect(entries.map(\.index).sorted() == expected, "seed \(settings.seed) iteration \(iteration): \(lines)")
            for entry in entries {
                let item = document.item(at: entry.index)
                #expect(entry.due == item.due.value && entry.priority == item.priority, "seed \(settings.seed): \(item.text)")
            }
            let dated = entries.compactMap(\.daysFromToday)
            #expect(dated == dated.sorted(), "seed \(settings.seed) iteration \(iteration)")
        }
    }
}
