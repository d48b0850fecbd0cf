import Foundation
import Testing
import TodoTestSupport
import TodoTxt

/// The dependency graph: examples of the rule, then seeded random graphs checked against a
/// reference written from the definition (docs/format.md section 4, "Dependencies").
///
/// `TODO_PROPERTY_SEED` fixes the first seed, `TODO_PROPERTY_COUNT` the number of rounds; a failure
/// prints the seed of its round.
@Suite struct DependencyGraphTests {
    private var firstSeed: UInt64 {
        ProcessInfo.processInfo.environment["TODO_PROPERTY_SEED"].flatMap { UInt64($0) } ?? 0xDE9_2026
    }
    private var rounds: Int {
        ProcessInfo.processInfo.environment["TODO_PROPERTY_COUNT"].flatMap { Int($0) } ?? 500
    }

    @Test func aTaskWaitingForAnOpenTaskIsBlockedAndForADoneOneIsNot() {
        let todo = TodoDocument(bytes: b("paint walls after:aa1 after:bb2 uid:cc3\nbuy paint uid:aa1\nx 2026-12-01 sand uid:bb2\nhang art after:cc3\n"))
        let graph = DependencyGraph(todo: todo)
        #expect(graph.isBlocked(0))
        #expect(!graph.isBlocked(1))
        // Waiting for a blocked but open task is blocked too: the target is open.
        #expect(graph.isBlocked(3))
        #expect(graph.freed(byCompleting: 1) == [0])
        #expect(graph.freed(byCompleting: 0) == [3])
        #expect(graph.waiting(for: 0) == [3])
        #expect(graph.missingLinks.isEmpty && graph.cycles.isEmpty)
    }

    @Test func archivedTargetsNeverBlockAndMissingOnesAreReported() {
        let todo = TodoDocument(bytes: b("a after:dd4 after:zz9 uid:aa1\n"))
        let done = TodoDocument(bytes: b("x 2026-11-30 old uid:dd4\n"))
        let graph = DependencyGraph(todo: todo, done: done)
        #expect(!graph.isBlocked(0))
        #expect(graph.targets(of: 0).map(\.holders) == [[1], []])
        #expect(graph.missingLinks.map { "\($0.node) \($0.uid)" } == ["0 zz9"])
    }

    @Test func cyclesAreFoundOnceEachSelfLinksIncluded() {
        let todo = TodoDocument(bytes: b("a uid:a1 after:b1\nb uid:b1 after:c1\nc uid:c1 after:a1\nd uid:d1 after:d1\ne after:a1\n"))
        let graph = DependencyGraph(todo: todo)
        #expect(graph.cycles == [[0, 1, 2], [3]])
        #expect(graph.reaches(from: 0, to: 2))
        #expect(!graph.reaches(from: 0, to: 4))
    }

    @Test func addingAndRemovingLinksKeepsEverythingElse() {
        let item = parseLine("call bob after:aa1 @phone after:bb2 after:aa1 due:2026-12-01")
        #expect(show(item.removingAfter("aa1")) == "call bob @phone after:bb2 due:2026-12-01")
        #expect(show(item.addingAfter("bb2")) == show(item.content))
        #expect(show(item.addingAfter("cc3")) == "call bob after:aa1 @phone after:bb2 after:aa1 due:2026-12-01 after:cc3")
        #expect(item.afterUIDs == ["aa1", "bb2"])
    }

    @Test func randomGraphsAgreeWithTheReference() {
        for round in 0..<rounds {
            let seed = firstSeed &+ UInt64(round)
            var random = SplitMix64(seed: seed)
            let count = Int(random.next() % 12) + 1
            let uidPool = (0..<(count + 3)).map { "u\($0)" }
            var nodes: [DependencyGraph.Node] = []
            for _ in 0..<count {
                // Some tasks without a uid, a few uids held twice, links to uids no task holds.
                let uid: String? = random.next() % 5 == 0 ? nil : uidPool[Int(random.next() % UInt64(uidPool.count))]
                let links = Int(random.next() % 4)
                var after: [String] = []
                for _ in 0..<links {
                    let target = uidPool[Int(random.next() % UInt64(uidPool.count))]
                    if !after.contains(target) { after.append(target) }
                }
                nodes.append(.init(uid: uid, isOpen: random.next() % 3 != 0, after: after))
            }
            let graph = DependencyGraph(nodes: nodes)
            var failures: [String] = []
            let edges: (Int) -> [Int] = { from in
                nodes.indices.filter { to in nodes[to].uid.map { nodes[from].after.contains($0) } ?? false }
            }
            func referenceReaches(_ start: Int, _ goal: Int, steps minimum: Int) -> Bool {
                // Breadth-first over at most `count` rounds: a bounded reference, so it cannot loop either.
                var frontier: Set<Int> = minimum == 0 ? [start] : Set(edges(start))
                var seen = frontier
                for _ in 0...count {
                    if frontier.contains(goal) { return true }
                    frontier = Set(frontier.flatMap(edges)).subtracting(seen)
                    seen.formUnion(frontier)
                }
                return false
            }
            let inCycles = Set(graph.cycles.flatMap { $0 })
            for index in nodes.indices {
                let referenceBlocked = edges(index).contains { nodes[$0].isOpen }
                if graph.isBlocked(index) != referenceBlocked { failures.append("blocked(\(index)) = \(graph.isBlocked(index))") }
                if inCycles.contains(index) != referenceReaches(index, index, steps: 1) { failures.append("cycle membership of \(index)") }
                for goal in nodes.indices where graph.reaches(from: index, to: goal) != referenceReaches(index, goal, steps: 0) {
                    failures.append("reaches(\(index), \(goal))")
                }
                let referenceMissing = nodes[index].after.filter { uid in !nodes.contains { $0.uid == uid } }
                if graph.missingLinks.filter({ $0.node == index }).map(\.uid) != referenceMissing { failures.append("missing of \(index)") }
            }
            if !failures.isEmpty {
                Issue.record(Comment(rawValue: "seed \(seed): " + failures.joined(separator: ", ") + "\n\(nodes)"))
                return
            }
        }
        print("DependencyGraphTests: \(rounds) random graphs from seed \(firstSeed)")
    }
}
