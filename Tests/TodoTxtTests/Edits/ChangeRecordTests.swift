import Testing
import TodoTestSupport
import TodoTxt

/// Undo by record: a change taken back on the document as it is later, finding its lines by the
/// bytes it wrote; all or nothing.
struct ChangeRecordTests {
    func document(_ text: String) -> TodoDocument { TodoDocument(bytes: Array(text.utf8)) }
    func text(_ document: TodoDocument) -> String { String(decoding: document.rendered(), as: UTF8.self) }
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func aLineChangeIsTakenBackWhereverTheLineMoved() throws {
        var file = document("call mom\nbuy milk\n")
        var record = ChangeRecord()
        record.replace(at: 1, with: bytes("buy oat milk"), in: &file)
        // Someone else puts a line in front of it.
        file.insertLine(bytes("first"), at: 0)
        try file.undo(record)
        #expect(text(file) == "first\ncall mom\nbuy milk\n")
    }

    @Test func anAddedLineIsRemovedAndARemovedOnePutBack() throws {
        var file = document("a\nb\nc\n")
        var record = ChangeRecord()
        record.remove(at: 1, in: &file)
        record.append(bytes("d"), in: &file)
        try file.undo(record)
        #expect(text(file) == "a\nb\nc\n")
    }

    @Test func aLineGoneFailsAndChangesNothing() {
        var file = document("a\nb\n")
        var record = ChangeRecord()
        record.append(bytes("c"), in: &file)
        record.replace(at: 0, with: bytes("A"), in: &file)
        // Elsewhere, `c` (the older change) was edited: the newer one could be undone, but nothing is.
        file.replaceContent(at: 2, with: bytes("c changed"))
        let before = text(file)
        #expect(throws: UndoError.lineGone(index: 2, content: bytes("c"))) { try file.undo(record) }
        #expect(text(file) == before)
    }

    @Test func aReorderingIsTakenBackByteForByteOnlyOnTheDocumentItLeft() throws {
        let original = "x 2025-01-01 done\nopen one\r\nx 2025-01-02 done too\nopen two"
        var file = document(original)
        var record = ChangeRecord()
        record.reorder(&file, by: file.sortedOrder())
        #expect(text(file).hasPrefix("open one"))
        var changed = file
        changed.appendLine(bytes("new"))
        #expect(throws: UndoError.changedSinceReordering) { try changed.undo(record) }
        try file.undo(record)
        #expect(text(file) == original)
    }

    /// Random edits recorded one record each, then undone newest first: the original bytes come back.
    @Test func undoingEveryRecordRestoresTheDocument() throws {
        let settings = PropertySettings(defaultCount: 300)
        var random = SplitMix64(seed: settings.seed)
        for round in 0..<settings.count {
            // Lines of every kind, LF and CRLF mixed, the last one with or without its newline.
            let kinds = ["task \(round)", "x 2025-01-01 done \(round)", "", "  ", "(A) call uid:u\(round)"]
            var original = ""
            let lineCount = Int(random.next() % 6)
            for index in 0..<lineCount {
                original += kinds[Int(random.next() % UInt64(kinds.count))] + " \(index)"
                if index < lineCount - 1 || random.next() % 2 == 0 { original += random.next() % 3 == 0 ? "\r\n" : "\n" }
            }
            var file = document(original)
            var records: [ChangeRecord] = []
            var steps: [String] = []
            for step in 0..<Int(1 + random.next() % 5) {
                var record = ChangeRecord()
                let count = file.lineCount
                switch random.next() % 4 {
                case 0 where count > 0:
                    let index = Int(random.next() % UInt64(count))
                    let content = random.next() % 4 == 0 ? [] : Array(file.content(at: index)) + bytes(" +edit\(step)")
                    record.replace(at: index, with: content, in: &file)
                    steps.append("replace \(index)")
                case 1 where count > 0:
                    let index = Int(random.next() % UInt64(count))
                    record.remove(at: index, in: &file)
                    steps.append("remove \(index)")
                case 2:
                    let index = Int(random.next() % UInt64(count + 1))
                    record.insert(bytes("added \(round)-\(step)"), at: index, in: &file)
                    steps.append("insert \(index)")
                default:
                    var order = Array(0..<count)
                    order.shuffle(using: &random)
                    record.reorder(&file, by: order)
                    steps.append("reorder \(order)")
                }
                records.append(record)
            }
            for record in records.reversed() { try file.undo(record) }
            #expect(text(file) == original, "\(original.debugDescription) became \(text(file).debugDescription) after \(steps) and their undo; seed \(settings.seed), round \(round)")
        }
    }
}
