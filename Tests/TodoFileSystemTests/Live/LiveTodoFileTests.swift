#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import Testing
import TodoFileSystem
import TodoTestSupport
import TodoTxt

/// The live document on its own: edits are re-applied to their task after a concurrent change,
/// an edit on a vanished task fails and writes nothing, and changes made elsewhere arrive.
struct LiveTodoFileTests {
    let directory = TemporaryDirectory("live")
    var path: String { directory.file("todo.txt") }

    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func anEditFindsItsTaskAfterAConcurrentChange() throws {
        writeFile(path, "call mom\nbuy milk\npay rent\n")
        let file = try LiveTodoFile(path: path)
        let milk = TaskIdentity(index: 1, in: file.document)
        // Someone else adds a line at the top and completes another task meanwhile.
        writeFile(path, "new first\ncall mom\nbuy milk\nx 2026-01-01 pay rent\n")
        let written = try file.edit(milk) { item in item.settingPriority(Priority(letter: UInt8(ascii: "A"))) }
        #expect(readFile(path) == "new first\ncall mom\n(A) buy milk\nx 2026-01-01 pay rent\n")
        #expect(written.rendered() == bytes("new first\ncall mom\n(A) buy milk\nx 2026-01-01 pay rent\n"))
        #expect(file.document == written)
    }

    @Test func aTaskWithAUIDIsFoundWhereverItMoved() throws {
        writeFile(path, "buy milk uid:m2x8ab\ncall mom\n")
        let file = try LiveTodoFile(path: path)
        let milk = TaskIdentity(index: 0, in: file.document)
        // Moved, and its text changed: the uid still names it.
        writeFile(path, "call mom\nbuy oat milk uid:m2x8ab\n")
        try file.edit(milk) { item in item.completed(on: TodoDate(year: 2026, month: 12, day: 2)!) }
        #expect(readFile(path) == "call mom\nx 2026-12-02 buy oat milk uid:m2x8ab\n")
    }

    @Test func anEditOnAVanishedTaskFailsAndWritesNothing() throws {
        writeFile(path, "call mom\nbuy milk\n")
        let file = try LiveTodoFile(path: path)
        let milk = TaskIdentity(index: 1, in: file.document)
        writeFile(path, "call mom\nbuy bread\n")
        #expect(throws: LiveEditError.self) {
            try file.edit(milk) { item in item.completed(on: TodoDate(year: 2026, month: 12, day: 2)!) }
        }
        #expect(throws: LiveEditError.self) { try file.delete(milk) }
        #expect(readFile(path) == "call mom\nbuy bread\n")
    }

    @Test func twoLinesHoldingTheSameBytesAreNotGuessedBetween() throws {
        writeFile(path, "a\nsame\nb\n")
        let file = try LiveTodoFile(path: path)
        let task = TaskIdentity(index: 1, in: file.document)
        writeFile(path, "same\na\nsame\n")
        #expect(throws: LiveEditError.self) { try file.delete(task) }
        #expect(readFile(path) == "same\na\nsame\n")
    }

    @Test func deleteAndAppendKeepEveryOtherByte() throws {
        writeFile(path, "one\r\ntwo\r\n\r\nthree")
        let file = try LiveTodoFile(path: path)
        try file.delete(TaskIdentity(index: 1, in: file.document))
        try file.append(bytes("four"))
        #expect(readFile(path) == "one\r\n\r\nthree\r\nfour\r\n")
    }

    @Test func aMissingFileIsEmptyAndCreatedByTheFirstEdit() throws {
        let file = try LiveTodoFile(path: path)
        #expect(file.document.lineCount == 0)
        try file.append(bytes("first"))
        #expect(readFile(path) == "first\n")
    }

    @Test func conflictMarkersAreRefused() throws {
        let text = "<<<<<<< ours\na\n=======\nb\n>>>>>>> theirs\n"
        writeFile(path, text)
        let file = try LiveTodoFile(path: path)
        #expect(throws: LiveEditError.self) { try file.append(bytes("c")) }
        #expect(readFile(path) == text)
    }

    @Test func changesMadeElsewhereArrive() async throws {
        writeFile(path, "one\n")
        let file = try LiveTodoFile(path: path, settle: .milliseconds(20))
        let seen = Mutex<[String]>([])
        try file.start { document in
            seen.withLock { $0.append(String(decoding: document.rendered(), as: UTF8.self)) }
        }
        defer { file.stop() }
        writeFile(path, "one\ntwo\n")
        let deadline = ContinuousClock.now + .seconds(3)
        while seen.withLock({ $0.isEmpty }) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(seen.withLock { $0 } == ["one\ntwo\n"])
        #expect(file.document.rendered() == bytes("one\ntwo\n"))
        // Its own writes are not reported back as changes.
        try file.append(bytes("three"))
        try await Task.sleep(for: .milliseconds(300))
        #expect(seen.withLock { $0 } == ["one\ntwo\n"])
    }

    /// Waits (at most 3 s) until `condition` holds.
    func eventually(_ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(3)
        while !condition() && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        return condition()
    }

    @Test func theEventsSayWhatBecameOfTheFile() async throws {
        writeFile(path, "one\n")
        let file = try LiveTodoFile(path: path, settle: .milliseconds(20))
        let seen = Mutex<[String]>([])
        try file.start { event in
            let word: String
            switch event {
            case .changed(let document): word = "changed " + String(decoding: document.rendered(), as: UTF8.self)
            case .removed: word = "removed"
            case .relocated(let place): word = "relocated \(place)"
            case .unreadable(let error): word = "unreadable \(error)"
            case .directoryGone: word = "directoryGone"
            case .watchFailed(let message): word = "failed \(message)"
            }
            seen.withLock { $0.append(word) }
        }
        defer { file.stop() }
        #expect(file.watchStatus != nil)
        unlink(path)
        #expect(try await eventually { seen.withLock { $0 } == ["removed"] })
        #expect(file.document.lineCount == 0)
        // Back with the very bytes it had: still news, the file exists again.
        writeFile(path, "one\n")
        #expect(try await eventually { seen.withLock { $0 } == ["removed", "changed one\n"] })
        try file.append(bytes("two"))
        try await Task.sleep(for: .milliseconds(200))
        #expect(seen.withLock { $0 } == ["removed", "changed one\n"], "its own write is not an event")
    }

    @Test func aFileHoldingNULIsNotRewritten() throws {
        writeFile(path, "one\n\0two\n")
        let file = try LiveTodoFile(path: path)
        #expect {
            try file.append(bytes("three"))
        } throws: { error in
            guard case LiveEditError.file(.holdsNUL(_, let line)) = error else { return false }
            return line == 2
        }
        #expect(readFile(path) == "one\n\0two\n")
    }

    @Test func aChangeThatChangesNothingWritesNothing() throws {
        writeFile(path, "b\nx done\n")
        var before = stat()
        #expect(stat(path, &before) == 0)
        let file = try LiveTodoFile(path: path)
        try file.update { (document: inout TodoDocument) throws(LiveEditError) in document.reorder(document.sortedOrder()) }
        var after = stat()
        #expect(stat(path, &after) == 0)
        #expect(after.st_ino == before.st_ino, "not replaced")
        #expect(readFile(path) == "b\nx done\n")
    }

    @Test func whatAWriteHadToTellIsHandedOn() throws {
        writeFile(path, "one\n")
        let other = directory.file("linked.txt")
        #expect(link(path, other) == 0)
        let notes = Mutex<[ReplaceNote]>([])
        let file = try LiveTodoFile(path: path) { note in notes.withLock { $0.append(note) } }
        try file.append(bytes("two"))
        #expect(notes.withLock { $0 } == [.hardLinksDetached(linkCount: 2)])
        #expect(readFile(path) == "one\ntwo\n")
        #expect(readFile(other) == "one\n")
    }

    @Test(.timeLimit(.minutes(1))) func theEventsAreAnAsynchronousSequenceToo() async throws {
        writeFile(path, "one\n")
        let file = try LiveTodoFile(path: path, settle: .milliseconds(20))
        let events = try file.events()
        writeFile(path, "one\ntwo\n")
        var iterator = events.makeAsyncIterator()
        guard case .changed(let document)? = await iterator.next() else {
            Issue.record("the first event is not a change")
            return
        }
        #expect(document.rendered() == bytes("one\ntwo\n"))
        file.stop()
    }
}
