import Testing
import TodoTestSupport
@testable import TodoTxt

/// docs/todo-command.md, "Ordering and grouping a listing": every key, descending keys, tasks
/// without a key last, the group sections; and the seeded property that every key order is a
/// stable permutation.
@Suite struct ListingOrderTests {
    static func records(_ lines: [String]) -> [ListingRecord] {
        lines.enumerated().map { ListingRecord(Array($0.element.utf8)[...], line: $0.offset + 1) }
    }

    /// Line numbers in the order `keys` gives.
    static func ordered(_ lines: [String], _ keys: String) -> [Int] {
        let records = records(lines)
        return ListingRecord.order(records, by: ListingSortKey.parseList(keys)!).map { records[$0].line }
    }

    static let tasks = [
        "(B) 2025-11-03 wash car +home @garage due:2025-12-02 t:2025-11-30", // 1
        "2025-11-01 buy milk @shop due:2025-11-28",                         // 2
        "x 2025-11-20 2025-11-02 file taxes pri:A +work",                   // 3
        "(A) Answer mail +Work @desk due:2025-12-02",                       // 4
        "call mum due:bad",                                                 // 5
    ]

    @Test func eachKey() {
        #expect(Self.ordered(Self.tasks, "due") == [2, 1, 4, 3, 5], "ties keep input order; no valid date last")
        #expect(Self.ordered(Self.tasks, "-due") == [1, 4, 2, 3, 5], "descending, missing still last")
        #expect(Self.ordered(Self.tasks, "priority") == [3, 4, 1, 2, 5], "a completed task's pri:A counts")
        #expect(Self.ordered(Self.tasks, "-priority") == [1, 3, 4, 2, 5])
        #expect(Self.ordered(Self.tasks, "created") == [2, 3, 1, 4, 5])
        #expect(Self.ordered(Self.tasks, "completed") == [3, 1, 2, 4, 5])
        #expect(Self.ordered(Self.tasks, "threshold") == [1, 2, 3, 4, 5])
        #expect(Self.ordered(Self.tasks, "project") == [1, 3, 4, 2, 5], "+work and +Work tie, case-insensitively")
        #expect(Self.ordered(Self.tasks, "context") == [4, 1, 2, 3, 5])
        #expect(Self.ordered(Self.tasks, "text") == [4, 2, 5, 3, 1], "the body, after the header")
        #expect(Self.ordered(Self.tasks, "-line") == [5, 4, 3, 2, 1])
        #expect(Self.ordered(Self.tasks, "due,priority") == [2, 4, 1, 3, 5], "the second key breaks ties")
        #expect(Self.ordered(Self.tasks, "due,-line") == [2, 4, 1, 5, 3], "both missing: the next key decides")
    }

    @Test func parsing() {
        #expect(ListingSortKey.parseList("due,-priority") == [ListingSortKey(.due), ListingSortKey(.priority, descending: true)])
        #expect(ListingSortKey.parseList("") == nil)
        #expect(ListingSortKey.parseList("due,") == nil)
        #expect(ListingSortKey.parseList("Due") == nil)
        #expect(ListingSortKey.parseList("--due") == nil)
        #expect(ListingSortKey.parseList("-line")?.first?.description == "-line")
    }

    @Test func groups() {
        let records = Self.records(Self.tasks + ["two projects +home +Work"])
        let order = Array(records.indices)
        func shown(_ group: ListingGroup) -> [String] {
            group.sections(records, order: order).map { section in
                String(decoding: section.heading, as: UTF8.self) + " " + section.members.map { String(records[$0].line) }.joined(separator: ",")
            }
        }
        #expect(shown(.project) == ["+home 1,6", "+Work 4,6", "+work 3", "(no project) 2,5"])
        #expect(shown(.context) == ["@desk 4", "@garage 1", "@shop 2", "(no context) 3,5,6"])
        #expect(shown(.priority) == ["pri:A 3,4", "pri:B 1", "(no priority) 2,5,6"])
        #expect(shown(.due) == ["due:2025-11-28 2", "due:2025-12-02 1,4", "(no due date) 3,5,6"])
        let reversed = ListingGroup.due.sections(records, order: order.reversed())
        #expect(reversed.map(\.members) == [[1], [3, 0], [5, 4, 2]], "within a group, the order given")
    }

    /// Every key list orders any tasks as a stable permutation: each position once, adjacent tasks in
    /// key order, and tasks equal by every key in their input order.
    @Test func everyKeyOrderIsAStablePermutation() {
        let settings = PropertySettings(defaultSeed: 0x50_25, defaultCount: 1_500)
        var generator = TypedTermPropertyTests.Generator(rng: SplitMix64(seed: settings.seed))
        var failures: [String] = []
        for iteration in 0..<settings.count {
            let records = (0..<Int(generator.rng.next() % 14)).map { _ in ListingRecord(generator.task()[...], line: 1 + Int(generator.rng.next() % 5)) }
            var keys: [ListingSortKey] = []
            for _ in 0...(generator.rng.next() % 3) {
                keys.append(ListingSortKey(generator.pick(ListingSortKey.Field.allCases), descending: generator.chance(30)))
            }
            let order = ListingRecord.order(records, by: keys)
            var problems: [String] = []
            if order.sorted() != Array(records.indices) { problems.append("not a permutation") }
            for (left, right) in zip(order, order.dropFirst()) {
                let comparison = records[left].compare(to: records[right], by: keys)
                if comparison > 0 { problems.append("\(left) before \(right) out of order") }
                if comparison == 0 && left > right { problems.append("\(left) before \(right): not stable") }
            }
            for first in records.indices {
                for second in records.indices {
                    let forward = records[first].compare(to: records[second], by: keys)
                    let backward = records[second].compare(to: records[first], by: keys)
                    if forward.signum() != -backward.signum() { problems.append("compare not antisymmetric") }
                }
            }
            if !problems.isEmpty, failures.count < 3 { failures.append("iteration \(iteration) keys \(keys): \(problems)") }
        }
        #expect(failures.isEmpty, "seed \(settings.seed): \(failures)")
    }
}
