import Synchronization
import Testing
import TodoFileSystem
import TodoTestSupport
import TodoTxt

/// What an app's trial of `LiveTodoFile` asked for: edit closures without annotations, many
/// listeners, and a sequence that starts with the file as it is.
struct LiveTodoFileListenersTests {
    let directory = TemporaryDirectory("live-listeners")
    var path: String { directory.file("todo.txt") }

    @Test func anEditClosureNeedsNoAnnotation() throws {
        writeFile(path, "old text uid:k3f9qz\n")
        let file = try LiveTodoFile(path: path)
        let id = TaskIdentity(index: 0, in: file.document)
        try file.edit(id) { item in try item.replacingDescription(with: "new") }
        #expect(readFile(path) == "new uid:k3f9qz\n")
        // A TaskEditError thrown by the closure keeps its case; the file is as it was.
        let refusal = #expect(throws: LiveEditError.self) {
            try file.edit(TaskIdentity(index: 0, in: file.document)) { item in try item.replacingDescription(with: " ") }
        }
        guard case .edit(.blankText)? = refusal else {
            Issue.record("not the edit's own error: \(String(describing: refusal))")
            return
        }
        #expect(readFile(path) == "new uid:k3f9qz\n")
    }

    @Test(.timeLimit(.minutes(1))) func everySequenceGetsEveryChange() async throws {
        writeFile(path, "one\n")
        let file = try LiveTodoFile(path: path, settle: .milliseconds(20))
        let heard = Mutex<[String]>([])
        try file.start { event in
            if case .changed(let document) = event { heard.withLock { $0.append(String(decoding: document.rendered(), as: UTF8.self)) } }
        }
        let first = try file.events(), second = try file.events()
        writeFile(path, "one\ntwo\n")
        var a = first.makeAsyncIterator(), b = second.makeAsyncIterator()
        guard case .changed(let seenByA)? = await a.next(), case .changed(let seenByB)? = await b.next() else {
            Issue.record("a sequence did not get the change")
            return
        }
        #expect(seenByA.rendered() == Array("one\ntwo\n".utf8))
        #expect(seenByB.rendered() == seenByA.rendered())
        #expect(heard.withLock { $0 } == ["one\ntwo\n"])
        file.stop()
        let end = await a.next()
        #expect(end == nil, "stop ends every sequence")
    }

    @Test(.timeLimit(.minutes(1))) func updatesStartWithTheFileAsItIsIncludingChangesSinceInit() async throws {
        writeFile(path, "one\n")
        let file = try LiveTodoFile(path: path, settle: .milliseconds(20))
        // Changed between init and the first event: nothing watched yet, nothing lost.
        writeFile(path, "one\ntwo\n")
        let updates = try file.updates()
        var iterator = updates.makeAsyncIterator()
        guard case .changed(let now)? = await iterator.next() else {
            Issue.record("the first update is not the file")
            return
        }
        #expect(now.rendered() == Array("one\ntwo\n".utf8))
        writeFile(path, "one\ntwo\nthree\n")
        guard case .changed(let next)? = await iterator.next() else {
            Issue.record("the change after it did not come")
            return
        }
        #expect(next.rendered() == Array("one\ntwo\nthree\n".utf8))
        file.stop()
    }
}

