import Testing
@testable import TodoTxt

/// The edits a user asks for by hand (TodoItem+TaskEdits): identity kept, what was not named kept,
/// blank text refused. Each case here failed before these edits existed (the CLI then dropped uids,
/// completion and dates on `replace`, glued `append` text to the uid, reopened on `pri`).
struct TaskEditTests {
    func edit(_ line: String, _ body: (TodoItem) throws(TaskEditError) -> [UInt8]) -> Result<String, TaskEditError> {
        do throws(TaskEditError) {
            return .success(String(decoding: try body(TodoItem(line)), as: UTF8.self))
        } catch {
            return .failure(error)
        }
    }

    // MARK: replace

    @Test(arguments: [
        ("buy milk uid:k3f9qz", "buy oat milk", "buy oat milk uid:k3f9qz"),
        ("(A) 2026-01-01 buy milk uid:k3f9qz", "buy oat milk", "(A) 2026-01-01 buy oat milk uid:k3f9qz"),
        ("x 2026-02-01 2026-01-01 buy milk uid:k3f9qz pri:B", "buy oat milk",
         "x 2026-02-01 2026-01-01 buy oat milk pri:B uid:k3f9qz"),
        ("x 2026-02-01 buy milk", "buy oat milk", "x 2026-02-01 buy oat milk"),
        ("x 2026-02-01 buy milk uid:k3f9qz", "(C) buy oat milk", "x 2026-02-01 buy oat milk pri:C uid:k3f9qz"),
        ("(A) buy milk uid:k3f9qz", "(b) 2025-12-12 buy oat milk", "(B) 2025-12-12 buy oat milk uid:k3f9qz"),
        ("(A) buy milk uid:k3f9qz", "x 2026-03-03 bought uid:k3f9qz", "x 2026-03-03 bought uid:k3f9qz pri:A"),
        ("buy milk uuid:ABC-1", "buy oat milk", "buy oat milk uuid:ABC-1"),
        ("buy milk", "buy oat milk uid:mine01", "buy oat milk uid:mine01"),
        ("buy milk uid:k3f9qz", "buy oat milk uid:k3f9qz +shop", "buy oat milk uid:k3f9qz +shop"),
    ])
    func replaceKeepsWhatTheTextDoesNotGive(line: String, text: String, expected: String) {
        #expect(edit(line) { (item) throws(TaskEditError) in try item.replacingDescription(with: b(text)) } == .success(expected))
    }

    /// What an editor starts with: the body without the header and without the whole identity word
    /// (key and value), no double space left; replacing with it keeps the line.
    @Test(arguments: [
        ("call mom uid:k3f9qz", "call mom", "call mom uid:k3f9qz"),
        ("(A) 2026-01-02 call mom uid:k3f9qz +family", "call mom +family", "(A) 2026-01-02 call mom +family uid:k3f9qz"),
        ("x 2026-01-03 2026-01-02 pay rent uuid:1234-ab pri:B", "pay rent pri:B", "x 2026-01-03 2026-01-02 pay rent pri:B uuid:1234-ab"),
        ("water plants  ", "water plants", "water plants"),
        ("say uid: out loud uid:a1", "say uid: out loud", "say uid: out loud uid:a1"),
    ])
    func editableDescriptionLeavesOutTheHeaderAndTheIdentity(line: String, editable: String, replaced: String) throws {
        let item = TodoItem(line)
        #expect(String(decoding: item.editableDescription, as: UTF8.self) == editable)
        #expect(String(decoding: try item.replacingDescription(with: item.editableDescription), as: UTF8.self) == replaced)
    }

    @Test func replaceRefusesBlankTextAndAnotherUID() {
        #expect(edit("task uid:k3f9qz") { (item) throws(TaskEditError) in try item.replacingDescription(with: b("   ")) }
                == .failure(.blankText))
        #expect(edit("task uid:k3f9qz") { (item) throws(TaskEditError) in try item.replacingDescription(with: b("other uid:zzzzzz")) }
                == .failure(.changesUID(existing: "k3f9qz", given: "zzzzzz")))
        #expect(edit("   ") { (item) throws(TaskEditError) in try item.replacingDescription(with: b("x")) } == .failure(.notATask))
    }

    // MARK: append / prepend

    @Test(arguments: [
        ("buy milk uid:k3f9qz", ", 2 litres", "buy milk, 2 litres uid:k3f9qz"),
        ("buy milk uid:k3f9qz", "tomorrow", "buy milk tomorrow uid:k3f9qz"),
        ("(A) 2026-01-01 uid:k3f9qz", "call", "(A) 2026-01-01 call uid:k3f9qz"),
        ("uid:k3f9qz", "call", "call uid:k3f9qz"),
        ("buy milk", ", 2 litres", "buy milk, 2 litres"),
        ("buy milk uid:k3f9qz due:2026-01-01", "soon", "buy milk uid:k3f9qz due:2026-01-01 soon"),
        ("buy milk  uid:k3f9qz", "now", "buy milk now  uid:k3f9qz"),
        // Glued to a tag, project or context, a delimiter would change that word; glued to `uid:`
        // it would make a second identity that reads first.
        ("note uid: uid:u2x0", ", 2 litres", "note uid: , 2 litres uid:u2x0"),
        ("buy milk @shop uid:k3f9qz", ", 2 litres", "buy milk @shop , 2 litres uid:k3f9qz"),
        ("pay due:2026-01-05", ", soon", "pay due:2026-01-05 , soon"),
        ("file +admin", ".", "file +admin ."),
        ("note key:", ",v", "note key: ,v"),
        ("buy milk ", ", 2 litres", "buy milk , 2 litres"),
        ("buy milk", ",2 litres", "buy milk,2 litres"),
    ])
    func appendKeepsTheUIDLast(line: String, text: String, expected: String) {
        let result = edit(line) { (item) throws(TaskEditError) in
            try item.appendingDescription(b(text), joinDirectlyBefore: b(",.:;"))
        }
        #expect(result == .success(expected))
        if case .success(let edited) = result {
            let (before, after) = (TodoItem(line), TodoItem(edited))
            #expect(after.uid == before.uid)
            let words = { (item: TodoItem) in item.tags.map { $0.key + ":" + $0.value } }
            #expect(words(before).allSatisfy(words(after).contains) && before.projects.allSatisfy(after.projects.contains)
                    && before.contexts.allSatisfy(after.contexts.contains), "a word of the task changed its meaning")
        }
    }

    @Test func appendAndPrependRefuseBlankTextAndASecondIdentity() {
        #expect(edit("a uid:k3f9qz") { (item) throws(TaskEditError) in try item.appendingDescription(b(" \t ")) } == .failure(.blankText))
        #expect(edit("a uid:k3f9qz") { (item) throws(TaskEditError) in try item.prependingDescription(b("uid:other1")) }
                == .failure(.changesUID(existing: "k3f9qz", given: "other1")))
        #expect(edit("a") { (item) throws(TaskEditError) in try item.appendingDescription(b("uid:given1")) } == .success("a uid:given1"))
        #expect(edit("(A) a uid:k3f9qz") { (item) throws(TaskEditError) in try item.prependingDescription(b("please")) }
                == .success("(A) please a uid:k3f9qz"))
    }

    // MARK: priority

    @Test func priorityNeverReopensACompletedTask() {
        #expect(edit("x 2026-01-01 done pri:A") { (item) throws(TaskEditError) in try item.prioritized(Priority("B")) }
                == .failure(.completedTask))
        #expect(edit("x 2026-01-01 done pri:A") { (item) throws(TaskEditError) in try item.prioritized(nil) } == .failure(.completedTask))
        #expect(edit("open uid:k3f9qz") { (item) throws(TaskEditError) in try item.prioritized(Priority("B")) } == .success("(B) open uid:k3f9qz"))
        #expect(edit("(B) open") { (item) throws(TaskEditError) in try item.prioritized(nil) } == .success("open"))
    }
}

// MARK: conflict markers

struct ConflictMarkerTests {
    @Test(arguments: [
        ("a\n<<<<<<< ours\nb\n=======\nc\n>>>>>>> theirs\n", 2 as Int?),
        ("<<<<<<<\nb\n>>>>>>>\n", 1),
        ("\u{FEFF}<<<<<<< HEAD\r\nb\r\n=======\r\nc\r\n>>>>>>> x\r\n", 1),
        ("a\n<<<<<<< ours\nb\n", nil),
        ("a\n=======\nb\n", nil),
        ("a <<<<<<< b\n>>>>>>> c\n", nil),
        ("<<<<<<<< eight\n>>>>>>>\n", nil),
        ("x\n>>>>>>> before\n<<<<<<< after\n", nil),
        ("", nil),
    ])
    func firstBlockLine(text: String, expected: Int?) {
        #expect(ConflictMarkers.firstBlockLine(in: b(text)) == expected)
    }
}
