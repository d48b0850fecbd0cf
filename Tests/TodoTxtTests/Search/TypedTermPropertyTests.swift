import Testing
import TodoTestSupport
@testable import TodoTxt

/// Seeded laws of typed queries on random tasks (docs/todo-command.md, "Typed terms"): negation is
/// the complement, `a|b` the union, words combine as an intersection in any order, and the filter
/// agrees with the fields read directly.
@Suite struct TypedTermPropertyTests {
    /// Random tasks and terms around a fixed today, drawn from a seeded generator.
    struct Generator {
        var rng: SplitMix64
        let today = TodoDate(year: 2024, month: 2, day: 28)!

        mutating func pick<T>(_ values: [T]) -> T { values[Int(rng.next() % UInt64(values.count))] }
        mutating func chance(_ percent: UInt64) -> Bool { rng.next() % 100 < percent }
        mutating func date() -> String { today.adding(days: Int(rng.next() % 21) - 10)!.description }

        mutating func task() -> [UInt8] {
            var words: [String] = []
            let completed = chance(30)
            if completed { words.append("x") }
            if chance(40) { words.append("(" + pick(["A", "B", "C", "D"]) + ")") }
            if completed && chance(70) { words.append(date()) }
            if chance(50) { words.append(date()) }
            words.append(pick(["call", "buy", "fix", "plan"]))
            if chance(50) { words.append("due:" + (chance(10) ? pick(["tomorow", "2024-02-30", "soon"]) : date())) }
            if chance(20) { words.append("due:" + date()) }
            if chance(30) { words.append("t:" + date()) }
            if chance(25) { words.append("pri:" + pick(["A", "B", "Z", "a"])) }
            if chance(30) { words.append(pick(["+home", "@phone", "+work"])) }
            return Array(words.joined(separator: " ").utf8)
        }

        mutating func alternative() -> String {
            if chance(25) {
                return "pri:" + pick(["A", "B", "A-C", "c-b", "none", "any"])
            }
            let key = pick(["due:", "t:", "created:", "completed:"])
            if chance(20) { return key + pick(["none", "any"]) }
            let operation = pick(["", "<", "<=", ">", ">=", "="])
            let operand = chance(50) ? pick(["today", "tm", "yesterday", "3d", "-1w", "mon", "+2b", "1m"]) : date()
            return key + operation + operand
        }

        mutating func term() -> String {
            chance(30) ? alternative() + "|" + alternative() : alternative()
        }
    }

    @Test func laws() {
        let settings = PropertySettings(defaultSeed: 0x7E_25, defaultCount: 600)
        var generator = Generator(rng: SplitMix64(seed: settings.seed))
        var failures: [String] = []
        for iteration in 0..<settings.count {
            let today = generator.today
            let tasks = (0..<12).map { _ in generator.task() }
            let a = generator.alternative(), b = generator.alternative(), c = generator.term()
            #expect(TypedTerm(a) != nil && TypedTerm(c) != nil, "generated terms are typed: \(a) \(c)")
            func set(_ terms: [String]) -> Set<Int> {
                let filter = TermFilter(terms, plainText: true, typedTermsOn: today)
                return Set(tasks.indices.filter { filter.accepts(tasks[$0]) })
            }
            let all = Set(tasks.indices)
            var problems: [String] = []
            if set(["-" + c]) != all.subtracting(set([c])) { problems.append("-(\(c)) is not the complement") }
            if set([a + "|" + b]) != set([a]).union(set([b])) { problems.append("\(a)|\(b) is not the union") }
            if set([a + "|" + b]) != set([b + "|" + a]) { problems.append("| is not symmetric") }
            if set([a, c]) != set([a]).intersection(set([c])) { problems.append("\(a) \(c) is not the intersection") }
            if set([a, c]) != set([c, a]) { problems.append("term order matters for \(a) \(c)") }
            if set(["-" + a + "|" + b]) != set(["-" + a, "-" + b]) { problems.append("De Morgan fails for \(a)|\(b)") }
            for key in ["due:", "t:", "created:", "completed:", "pri:"] where set([key + "none"]) != set(["-" + key + "any"]) {
                problems.append("\(key)none is not -\(key)any")
            }
            if let term = TypedTerm(c), tasks.contains(where: { term.matches($0[...], today: today) != term.resolved(today: today).matches($0[...], today: today) }) {
                problems.append("\(c) resolved answers differently")
            }
            // The filter against the fields read directly, for one comparison.
            if case .date(let field, let comparison, let expression, alsoText: false)? = TypedTerm(a)?.alternatives.first,
               let bound = expression.resolve(today: today) {
                let direct = Set(tasks.indices.filter { index in
                    QueryFields(tasks[index][...]).date(field).map { comparison.holds($0, bound) } ?? false
                })
                if direct != set([a]) { problems.append("\(a) disagrees with the fields") }
            }
            if !problems.isEmpty, failures.count < 3 {
                failures.append("iteration \(iteration): \(problems) on \(tasks.map { String(decoding: $0, as: UTF8.self) })")
            }
        }
        #expect(failures.isEmpty, "seed \(settings.seed): \(failures)")
    }
}
