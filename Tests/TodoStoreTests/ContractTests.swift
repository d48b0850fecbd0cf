import Foundation
import Testing
import TodoStore
import TodoTestSupport

// The call sites, verbatim: they compile as written (the contract of TodoStore).
@MainActor func example() async throws {
    let store = try TodoStore(path: "/home/me/todo.txt")   // also TodoStore(url:)
    let task = try await store.add("Buy milk @shop")          // as `todo add`: date, uid, settings
    try await store.setPriority(task, "A")                    // nil removes it
    try await store.rename(task, to: "Buy oat milk")          // as `todo replace`
    try await store.toggle(task)                              // done sinks; pri: kept; rec: next one
    try await store.remove(task)
    try await store.remove(atOffsets: IndexSet([0, 2]))       // offsets into store.tasks, one write
    try await store.undo()                                    // the last change made by this store
    store.filter = "+house -@waiting"                         // the terms of `todo ls`
    store.showsHidden = false                                 // h:1 and future t: (the default)
    let open: [TodoTask] = store.tasks.filter { !$0.isDone }  // open in file order, then done ones
    print(store.openCount, store.doneCount, store.lastError?.localizedDescription ?? "")
    let following = Task { await store.follow() }             // live until cancelled (SwiftUI .task)
    following.cancel()
}

/// The same calls on a real file, each one's effect checked; only the public API is used.
@MainActor struct ContractTests {
    let directory = TemporaryDirectory("store")
    var path: String { directory.file("todo.txt") }

    @Test func theContractRunsAndDoesWhatItSays() async throws {
        writeFile(path, "Paint the fence +house\nCall the plumber +house @waiting\nx 2026-01-01 Old thing\n")
        let store = try TodoStore(url: URL(fileURLWithPath: path))
        let today = TodoDate.today()
        let task = try await store.add("Buy milk @shop")
        #expect(task.text == "Buy milk @shop")
        #expect(task.creationDate == today)
        let uid = try #require(task.uid)
        #expect(task.id == "uid:" + uid)
        #expect(task.line == 4)
        #expect(readFile(path)?.hasSuffix("\n\(today) Buy milk @shop uid:\(uid)\n") == true)

        try await store.setPriority(task, "A")
        #expect(store.tasks.first { $0.id == task.id }?.priority == Priority("A"))
        try await store.rename(task, to: "Buy oat milk")
        #expect(store.tasks.first { $0.id == task.id }?.rawLine == "(A) \(today) Buy oat milk uid:\(uid)")
        try await store.toggle(task)
        let done = try #require(store.tasks.first { $0.id == task.id })
        #expect(done.isDone && done.completionDate == today)
        #expect(done.rawLine == "x \(today) \(today) Buy oat milk uid:\(uid) pri:A")
        #expect(done.priority == Priority("A"))
        #expect(store.tasks.last?.id == task.id, "done sinks below the open ones")
        #expect(store.openCount == 2 && store.doneCount == 2)

        try await store.remove(task)
        #expect(!store.tasks.contains { $0.id == task.id })
        // Offsets 0 and 2: the fence (open, first) and the old done thing (third).
        #expect(store.tasks.map(\.text) == ["Paint the fence +house", "Call the plumber +house @waiting", "Old thing"])
        try await store.remove(atOffsets: IndexSet([0, 2]))
        #expect(readFile(path) == "Call the plumber +house @waiting\n")
        try await store.undo()
        #expect(readFile(path) == "Paint the fence +house\nCall the plumber +house @waiting\nx 2026-01-01 Old thing\n")
        store.filter = "+house -@waiting"
        #expect(store.tasks.map(\.text) == ["Paint the fence +house"])
        store.showsHidden = false
        store.filter = ""
        let open: [TodoTask] = store.tasks.filter { !$0.isDone }
        #expect(open.count == 2 && store.openCount == 2 && store.doneCount == 1)
        #expect(store.lastError == nil)
        let following = Task { await store.follow() }
        following.cancel()
        await following.value
    }

    @Test func theVerbatimExampleFailsCleanlyWhereItsFolderIsMissing() async {
        // /home/me does not exist here: the first write fails with a message for the app, nothing crashes.
        guard !FileManager.default.fileExists(atPath: "/home/me") else { return }
        await #expect(throws: TodoStoreError.self) { try await example() }
    }

    @Test func nilRemovesThePriorityAndABadLetterIsRefused() async throws {
        writeFile(path, "(B) call mom\n")
        let store = try TodoStore(path: path)
        let task = try #require(store.tasks.first)
        await #expect(throws: TodoStoreError.invalidText(reason: "'AB' is not a priority (a letter from A to Z)")) {
            try await store.setPriority(task, "AB")
        }
        try await store.setPriority(task, nil)
        #expect(readFile(path) == "call mom\n")
        #expect(store.tasks.first?.id == task.id)
    }

    @Test func aRecurringTaskGetsItsNextInstance() async throws {
        writeFile(path, "2026-01-01 water plants due:2026-01-05 rec:1w uid:aaaaaa\n")
        let store = try TodoStore(path: path)
        let task = try #require(store.tasks.first)
        try await store.toggle(task)
        #expect(store.tasks.count == 2)
        let next = try #require(store.tasks.first { !$0.isDone })
        #expect(next.text.hasPrefix("water plants due:"))
        #expect(next.uid != nil && next.uid != "aaaaaa")
        try await store.undo()
        #expect(readFile(path) == "2026-01-01 water plants due:2026-01-05 rec:1w uid:aaaaaa\n")
        await #expect(throws: TodoStoreError.nothingToUndo) { try await store.undo() }
    }

    @Test func blankTextAndATakenUIDAreRefused() async throws {
        writeFile(path, "one uid:abcdef\n")
        let store = try TodoStore(path: path)
        await #expect(throws: TodoStoreError.self) { try await store.add("   ") }
        await #expect(throws: TodoStoreError.self) { try await store.add("(A) ") }
        await #expect(throws: TodoStoreError.self) { try await store.add("two uid:abcdef") }
        #expect(readFile(path) == "one uid:abcdef\n")
    }

    /// `add` and `rename` write relative dates as the days they name and refuse a typo, as `todo add`
    /// and `todo replace` do; the option turns it off.
    @Test func relativeDatesAreWrittenAsDatesAndATypoIsRefused() async throws {
        writeFile(path, "")
        var options = TodoStore.Options()
        options.addsCreationDate = false
        options.addsUID = false
        options.timeZone = TimeZone(identifier: "UTC") ?? .current
        let store = try TodoStore(path: path, options: options)
        let today = TodoDate.today(in: options.timeZone)
        let tomorrow = try #require(today.adding(days: 1)), inAWeek = try #require(today.adding(days: 7))
        let task = try await store.add("pay rent due:tomorrow")
        #expect(task.due == tomorrow)
        #expect(readFile(path) == "pay rent due:\(tomorrow)\n")
        try await store.rename(task, to: "pay the rent due:1w")
        #expect(readFile(path) == "pay the rent due:\(inAWeek)\n")
        await #expect(throws: TodoStoreError.self) { try await store.add("call Ann due:tomorow") }
        await #expect(throws: TodoStoreError.self) { try await store.rename(store.tasks[0], to: "x t:fridy") }
        #expect(readFile(path) == "pay the rent due:\(inAWeek)\n")
        options.resolvesRelativeDates = false
        let literal = try TodoStore(path: path, options: options)
        try await literal.add("as typed due:tomorrow")
        #expect(readFile(path) == "pay the rent due:\(inAWeek)\nas typed due:tomorrow\n")
    }

    @Test func theOptionGivesEveryTaskAUIDOnTheFirstWrite() async throws {
        writeFile(path, "one\n\ntwo\n")
        var options = TodoStore.Options()
        options.givesEveryTaskAUID = true
        options.addsCreationDate = false
        let store = try TodoStore(path: path, options: options)
        try await store.add("three")
        let lines = try #require(readFile(path)).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 5 && lines[1].isEmpty)
        #expect(store.tasks.allSatisfy { $0.uid != nil && $0.id == "uid:" + ($0.uid ?? "") })
    }

    @Test func tasksAreCodableAndTheDateBridgeRoundTrips() throws {
        writeFile(path, "(A) 2026-03-01 pay rent +home @desk due:2026-03-05 uid:k3f9qz\n")
        let store = try TodoStore(path: path)
        let task = try #require(store.tasks.first)
        #expect(task.text == "pay rent +home @desk due:2026-03-05")
        #expect(task.projects == ["home"] && task.contexts == ["desk"])
        #expect(task.due == TodoDate("2026-03-05") && task.creationDate == TodoDate("2026-03-01"))
        let decoded = try JSONDecoder().decode(TodoTask.self, from: JSONEncoder().encode(task))
        #expect(decoded == task)
        let date = try #require(TodoDate("2026-03-05"))
        #expect(try JSONDecoder().decode(TodoDate.self, from: JSONEncoder().encode(date)) == date)
        let zone = try #require(TimeZone(identifier: "Pacific/Auckland"))
        #expect(TodoDate(Date(date, in: zone), in: zone) == date)
        #expect(TodoDate(Date(timeIntervalSince1970: 0), in: .gmt) == TodoDate("1970-01-01"))
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Priority.self, from: Data("\"a\"".utf8)) }
    }
}

