import Testing
import TodoTxt

/// The text forms of the edits give the same bytes as the byte forms, and the models compare by
/// what they would write.
struct TodoItemStringEditsTests {
    let line = "(A) 2026-01-02 call mum +family uid:k3f9qz"

    @Test func textEditsEqualTheByteEdits() throws {
        let item = TodoItem(line)
        #expect(try item.appendingDescription(", 2 litres", joinDirectlyBefore: ",")
                == item.appendingDescription(Array(", 2 litres".utf8), joinDirectlyBefore: Array(",".utf8)))
        #expect(try item.prependingDescription("urgent") == item.prependingDescription(Array("urgent".utf8)))
        #expect(try item.replacingDescription(with: "call dad") == item.replacingDescription(with: Array("call dad".utf8)))
        // The uid stays last and unchanged whatever the text form adds.
        #expect(TodoItem(try item.appendingDescription("today")).uid == "k3f9qz")
    }

    @Test func documentTextEditsEqualTheByteEdits() throws {
        var byText = TodoDocument("a\n\(line)\n")
        var byBytes = byText
        #expect(try byText.appendText("today", at: 1) == byBytes.appendText(Array("today".utf8), at: 1))
        #expect(try byText.prependText("now", at: 1) == byBytes.prependText(Array("now".utf8), at: 1))
        #expect(byText.addTask("new", creationDate: nil, uid: "m2x8ab") == byBytes.addTask(Array("new".utf8), creationDate: nil, uid: "m2x8ab"))
        #expect(try byText.replaceText("b", at: 0) == byBytes.replaceText(Array("b".utf8), at: 0))
        #expect(byText.rendered() == byBytes.rendered())
    }

    @Test func itemsAreEqualWhenTheirLinesAre() {
        #expect(TodoItem(line) == TodoItem(Array(line.utf8)))
        #expect(TodoItem(line) != TodoItem(line + " "))
        #expect(Set([TodoItem(line), TodoItem(line), TodoItem("other")]).count == 2)
    }

    @Test func documentsAreEqualWhenTheyWriteTheSameBytes() {
        let parsed = TodoDocument("a\nx b\r\n")
        var edited = TodoDocument("a\nb\r\n")
        // Built differently (an edit kept beside the parsed bytes), written the same.
        edited.replaceContent(at: 1, with: Array("x b".utf8))
        #expect(parsed == edited)
        edited.replaceContent(at: 0, with: Array("c".utf8))
        #expect(parsed != edited)
        var unmarked = TodoDocument("\u{FEFF}a\n")
        unmarked.hasByteOrderMark = false
        #expect(unmarked == TodoDocument("a\n"))
    }
}
