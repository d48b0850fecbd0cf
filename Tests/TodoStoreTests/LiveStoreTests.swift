import Foundation
import Observation
import Synchronization
import TodoFileSystem
import Testing
import TodoStore
import TodoTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Ids across changes, other writers, observation, refusals and cancellation: public API only.
@MainActor struct LiveStoreTests {
    let directory = TemporaryDirectory("store-live")
    var path: String { directory.file("todo.txt") }

    /// Waits until `condition` holds, giving the store 3,000 chances 10 ms apart (30 s when the
    /// machine is free); false if it never does. Chances, not a wall-clock deadline: in the full
    /// suite the synchronous tests of other suites can hold every thread for many seconds, and a
    /// deadline passed meanwhile would fail the test without the store having had a turn.
    func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<3_000 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    /// Whether the store lists exactly the file's tasks, each with its line number.
    func listsTheFile(_ store: TodoStore) -> Bool {
        guard let text = readFile(path) else { return false }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0)
        let file = Set(lines.enumerated().filter { !$0.element.isEmpty }.map { "\($0.offset + 1) \($0.element)" })
        return Set(store.tasks.map { "\($0.line) \($0.rawLine)" }) == file && store.tasks.count == file.count
    }

    func ids(_ store: TodoStore) -> [String: String] {
        Dictionary(store.tasks.map { ($0.text, $0.id) }, uniquingKeysWith: { first, _ in first })
    }

    /// The built `todo` binary, beside this test bundle.
    var todo: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().path + "/todo"
    }

    @Test func idsWithoutUIDsSurviveTheStoresEditsAndEveryoneElses() async throws {
        writeFile(path, "call mom\nbuy milk\npay rent\nwater plants\n")
        let store = try TodoStore(path: path)
        let before = ids(store)
        #expect(Set(before.values).count == 4)
        let following = Task { await store.follow() }
        defer { following.cancel() }

        let milk = try #require(store.tasks.first { $0.text == "buy milk" })
        try await store.toggle(milk)
        try await store.rename(try #require(store.tasks.first { $0.text == "pay rent" }), to: "pay the rent")
        #expect(store.tasks.first { $0.text == "buy milk" }?.id == before["buy milk"])
        #expect(store.tasks.first { $0.text == "pay the rent" }?.id == before["pay rent"])

        // `todo sort` (the built binary), then a shell's append, then a line deleted above.
        let sorted = Subprocess.run([todo, "-d", "/dev/null", "sort"], extraEnvironment: ["TODO_FILE": path, "TODO_DIR": directory.path])
        #expect(sorted.status == 0, "\(sorted.err)")
        #expect(readFile(path) != "call mom\nx \(TodoDate.today()) buy milk\npay the rent\nwater plants\n", "sort moved a line")
        #expect(await eventually { listsTheFile(store) })
        let sortedIDs = ids(store)
        #expect(sortedIDs["call mom"] == before["call mom"] && sortedIDs["buy milk"] == before["buy milk"])
        #expect(sortedIDs["pay the rent"] == before["pay rent"] && sortedIDs["water plants"] == before["water plants"])
        writeFile(path, "appended by a shell\n", flags: O_WRONLY | O_APPEND)
        #expect(await eventually { store.tasks.count == 5 && listsTheFile(store) })
        let lines = try #require(readFile(path)).split(separator: "\n").map(String.init)
        writeFile(path, lines.dropFirst().joined(separator: "\n") + "\n")
        #expect(await eventually { store.tasks.count == 4 && listsTheFile(store) })
        let after = ids(store)
        #expect(after["buy milk"] == before["buy milk"])
        #expect(after["pay the rent"] == before["pay rent"])
        #expect(after["water plants"] == before["water plants"])
        #expect(after["appended by a shell"] != nil && !before.values.contains(after["appended by a shell"] ?? ""))
    }

    @Test func aLineEditedElsewhereKeepsItsId() async throws {
        writeFile(path, "one\ntwo\nthree\n")
        let store = try TodoStore(path: path)
        let before = ids(store)
        let following = Task { await store.follow() }
        defer { following.cancel() }
        writeFile(path, "one\ntwo, edited in an editor\nthree\n")
        #expect(await eventually { store.tasks.contains { $0.text == "two, edited in an editor" } })
        #expect(ids(store)["two, edited in an editor"] == before["two"])
        #expect(ids(store)["one"] == before["one"] && ids(store)["three"] == before["three"])
    }

    @Test func twoStoresOnOneFileSeeEachOthersWrites() async throws {
        writeFile(path, "shared\n")
        let first = try TodoStore(path: path), second = try TodoStore(path: path)
        let following = [Task { await first.follow() }, Task { await second.follow() }]
        defer { following.forEach { $0.cancel() } }
        let added = try await first.add("from the first")
        #expect(await eventually { second.tasks.contains { $0.id == added.id } })
        try await second.toggle(try #require(second.tasks.first { $0.id == added.id }))
        #expect(await eventually { first.tasks.first { $0.id == added.id }?.isDone == true })
        #expect(first.tasks == second.tasks)
    }

    @Test func observationFiresOnAChangeMadeElsewhere() async throws {
        writeFile(path, "one\n")
        let store = try TodoStore(path: path)
        let following = Task { await store.follow() }
        defer { following.cancel() }
        let fired = Flag()
        withObservationTracking { _ = store.tasks } onChange: { fired.set() }
        writeFile(path, "one\ntwo\n")
        #expect(await eventually { fired.isSet })
        #expect(await eventually { store.tasks.count == 2 })
    }

    @Test func writesAreRefusedOnConflictMarkersAndOnATaskDeletedElsewhere() async throws {
        writeFile(path, "one\ntwo\n")
        let store = try TodoStore(path: path)
        let two = try #require(store.tasks.last)
        writeFile(path, "one\n")
        await #expect(throws: TodoStoreError.taskGone(text: "two")) { try await store.toggle(two) }
        #expect(readFile(path) == "one\n")
        #expect(store.lastError == .taskGone(text: "two"))

        let conflict = "one\n<<<<<<< ours\ntwo\n=======\nthree\n>>>>>>> theirs\n"
        writeFile(path, conflict)
        let again = try TodoStore(path: path)
        #expect(again.lastError == .conflictMarkers(path: path, line: 2))
        await #expect(throws: TodoStoreError.conflictMarkers(path: path, line: 2)) { try await again.add("four") }
        await #expect(throws: TodoStoreError.conflictMarkers(path: path, line: 2)) {
            try await again.toggle(try #require(again.tasks.first))
        }
        #expect(readFile(path) == conflict)
        #expect(again.lastError?.localizedDescription == "todo.txt has a sync conflict that needs resolving.")
    }

    @Test func aBinaryFileIsRefused() throws {
        writeFile(path, "one\ntw\0o\n")
        #expect(throws: TodoStoreError.binaryFile(path: path, line: 2)) { try TodoStore(path: path) }
    }

    @Test func lineEndingsAndAMissingFinalNewlineAreKept() async throws {
        writeFile(path, "one\r\ntwo\r\nthree")
        let store = try TodoStore(path: path)
        try await store.toggle(try #require(store.tasks.first { $0.text == "two" }))
        #expect(readFile(path) == "one\r\nx \(TodoDate.today()) two\r\nthree")
        try await store.rename(try #require(store.tasks.first { $0.text == "three" }), to: "three!")
        #expect(readFile(path) == "one\r\nx \(TodoDate.today()) two\r\nthree!")
    }

    @Test func aWriteCancelledWhileWaitingForTheLockLeavesTheFileAsItWasOrFullyWritten() async throws {
        writeFile(path, "one\n")
        let store = try TodoStore(path: path)
        let lock = try FileLock(for: path)
        let adding = Task { try await store.add("two") }
        try await Task.sleep(for: .milliseconds(120))
        adding.cancel()
        let result = await adding.result
        lock.release()
        let content = try #require(readFile(path))
        switch result {
        case .failure(let error):
            #expect(error as? TodoStoreError == .cancelled)
            #expect(content == "one\n")
        case .success(let task):
            #expect(content == "one\n" + task.rawLine + "\n")
        }
        // Not cancelled: the same wait ends in a write once the lock is free.
        let held = try FileLock(for: path)
        let waiting = Task { try await store.add("three") }
        try await Task.sleep(for: .milliseconds(120))
        held.release()
        let three = try await waiting.value
        #expect(readFile(path)?.hasSuffix(three.rawLine + "\n") == true)
    }
}

/// A flag an observation callback sets from any thread.
final class Flag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}

/// Equal lines, and a uid written twice: every listed task has an id of its own.
@MainActor struct RepeatedLineTests {
    let directory = TemporaryDirectory("store-repeats")
    var path: String { directory.file("todo.txt") }

    @Test func equalLinesAndARepeatedUIDGetIdsOfTheirOwn() async throws {
        writeFile(path, "same\nother uid:aaaaaa\nsame\ncopy uid:aaaaaa\n")
        let store = try TodoStore(path: path)
        let ids = store.tasks.map(\.id)
        #expect(Set(ids).count == 4)
        #expect(store.tasks.first { $0.text == "other" }?.id == "uid:aaaaaa", "the uid's first holder")
        let second = try #require(store.tasks.last { $0.text == "same" })
        try await store.rename(second, to: "same, renamed")
        #expect(store.tasks.first { $0.text == "same, renamed" }?.id == second.id)
        #expect(Set(store.tasks.map(\.id)) == Set(ids))
    }
}
