import Testing
import TodoTxt

/// A task's links: its first URL, its note's name, and the `note:` tag added once.
struct TaskLinksTests {
    func line(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test(arguments: [
        ("read https://example.org/a?b=c later", "https://example.org/a?b=c"),
        ("spec file:///home/me/plan.pdf", "file:///home/me/plan.pdf"),
        ("vault obsidian://open?vault=v and http://second.org", "obsidian://open?vault=v"),
        ("(A) 2026-12-01 tab\thttp://x.org\tafter", "http://x.org"),
        ("x 2026-12-02 done git+ssh://host/repo", "git+ssh://host/repo"),
    ])
    func theFirstWordThatIsAURLIsFound(text: String, url: String) {
        #expect(TodoItem(text).firstURL == url)
    }

    @Test(arguments: [
        "no link here", "(https://x.org)", "link:https://x.org", "https://", "1http://x.org",
        "mailto:me@example.org", "ht_tp://x.org", "://x.org", "due:2026-12-01 uid:k3f9qz",
    ])
    func aWordThatIsNotAWholeURLIsNone(text: String) {
        #expect(TodoItem(text).firstURL == nil)
    }

    @Test func aURLInTheHeaderIsNotLookedFor() {
        // The body starts after the completion mark and dates; "x" alone is never a URL anyway.
        #expect(TodoItem("x 2026-12-02 2026-12-01 plain").firstURL == nil)
    }

    @Test func theNoteFileIsNamedByTheUID() {
        #expect(TodoItem.noteFileName(forUID: "k3f9qz") == "k3f9qz.md")
    }

    @Test(arguments: [("k3f9qz.md", true), ("plan notes.md", true), ("../x.md", false), ("a/b.md", false),
                      (".hidden", false), ("", false), ("..", false)])
    func aNoteNameIsOnePlainFileName(name: String, plain: Bool) {
        #expect(TodoItem.isPlainNoteName(name) == plain)
    }

    @Test func theNoteTagGoesBeforeTheUIDOnce() throws {
        let first = try TodoItem("call mom +family uid:k3f9qz").addingNoteTag("k3f9qz.md")
        #expect(line(first) == "call mom +family note:k3f9qz.md uid:k3f9qz")
        let second = try TodoItem(first).addingNoteTag("k3f9qz.md")
        #expect(line(second) == line(first))
        #expect(TodoItem(second).noteTag == "k3f9qz.md")
    }

    @Test func aTaskThatNamesANoteKeepsIt() throws {
        let kept = try TodoItem("plan note:plan.md uid:k3f9qz").addingNoteTag("k3f9qz.md")
        #expect(line(kept) == "plan note:plan.md uid:k3f9qz")
        #expect(TodoItem(kept).noteTag == "plan.md")
    }

    @Test func aBlankLineGetsNoNote() {
        #expect(throws: TaskEditError.notATask) { try TodoItem("").addingNoteTag("a.md") }
    }
}
