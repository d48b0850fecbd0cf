// The `edits` target: every edit on every line of the input.
import TodoTxt

/// Edits target, public entry point: the failures for `bytes` (cut to the edits limits).
public func editsFailures(_ bytes: [UInt8]) -> [InvariantFailure] { FuzzTarget.edits.failures(bytes) }

/// Every edit on every line, with arguments drawn from the input's seed and the line number.
func checkEdits(_ bytes: [UInt8], _ log: inout FailureLog) {
    let document = TodoDocument(bytes: bytes)
    guard log.expect(document.rendered() == bytes, "render(parse(b)) != b") else { return }
    let base = seed(of: bytes)
    for index in 0..<document.lineCount {
        checkEdits(document, at: index, seed: base &+ UInt8(truncatingIfNeeded: index), &log)
    }
}

/// Applies `edit` to line `index` of a copy of `document` and checks that nothing else moved.
///
/// Invariants: the line count and BOM stay; an edit that reports no change changes no byte; one that
/// does leaves every other line's content and terminator as they were, and the edited file, written
/// and read again, gives back the same lines (up to the two known reinterpretations noted below).
func checkEdit(_ name: String, _ document: TodoDocument, at index: Int, _ log: inout FailureLog,
               _ edit: (inout TodoDocument) -> Bool) {
    var edited = document
    let changed = edit(&edited)
    guard log.expect(edited.lineCount == document.lineCount, "\(name) at \(index) changed the line count") else { return }
    log.expect(edited.hasByteOrderMark == document.hasByteOrderMark, "\(name) at \(index) changed the BOM")
    if !changed {
        log.expect(edited.rendered() == document.rendered(), "\(name) at \(index) reported no change but changed bytes")
        return
    }
    for other in 0..<document.lineCount where other != index {
        log.expect(edited.content(at: other).elementsEqual(document.content(at: other)),
                   "\(name) at \(index) touched line \(other)")
        log.expect(edited.terminator(at: other) == document.terminator(at: other),
                   "\(name) at \(index) touched terminator \(other)")
    }
    // The edited file, written and read again, still holds the other lines unchanged.
    let bytes = edited.rendered()
    let reread = TodoDocument(bytes: bytes)
    log.expect(reread.rendered() == bytes, "\(name) at \(index): round trip of the edited file")
    let gainedBOM = gainedByteOrderMark(document, reread)
    // An edit that leaves the last line empty and unterminated makes it vanish on re-read: a file
    // cannot end in an empty line without a terminator (docs/notes/bench.md).
    let vanished = reread.lineCount == document.lineCount - 1 && index == document.lineCount - 1
        && edited.content(at: index).isEmpty && edited.terminator(at: index) == .none
    guard log.expect(reread.lineCount == document.lineCount || vanished,
                     "\(name) at \(index): re-read line count differs") else { return }
    for other in 0..<document.lineCount where other != index {
        log.expect(content(of: reread, at: other, gainedBOM: gainedBOM).elementsEqual(document.content(at: other)),
                   "\(name) at \(index): re-read line \(other)")
    }
    if !vanished {
        log.expect(content(of: reread, at: index, gainedBOM: gainedBOM).elementsEqual(edited.content(at: index)),
                   "\(name) at \(index): re-read edited line")
    }
}

/// Every edit on line `index`, with arguments drawn from `seed`; then the user's text edits keep the
/// task's uid, and complete-then-uncomplete restores a task without a `pri:` tag byte for byte.
func checkEdits(_ document: TodoDocument, at index: Int, seed: UInt8, _ log: inout FailureLog) {
    // Month 1...12 and day 1...28 always make a valid date; the fallback only keeps this total.
    guard let date = TodoDate(year: 2026, month: 1 + Int(seed % 12), day: 1 + Int(seed % 28)) ?? fixedToday else { return }
    let priority = Priority(letter: 0x41 + seed % 26)
    let keys = ["due", "t", "rec", "h", "pri", "uid", "uuid", "k"]
    let key = keys[Int(seed) % keys.count]
    let values = ["2026-02-03", "1w", "1", "B", "abc123", "x:y", "", "a b\nc\r"]
    let value = values[Int(seed >> 3) % values.count]
    let texts: [[UInt8]] = [Array("more +p @c".utf8), Array(", then".utf8), [], [0x0D], Array("a\nb\r\n".utf8),
                            Array("(A) 2026-01-01 x".utf8), [0xE2, 0x80, 0xA8], [0xFF]]
    let text = texts[Int(seed >> 2) % texts.count]

    checkEdit("complete", document, at: index, &log) { $0.complete(at: index, on: date) }
    checkEdit("uncomplete", document, at: index, &log) { $0.uncomplete(at: index) }
    checkEdit("setPriority", document, at: index, &log) { $0.setPriority(priority, at: index) }
    checkEdit("clearPriority", document, at: index, &log) { $0.setPriority(nil, at: index) }
    checkEdit("setTag", document, at: index, &log) { $0.setTag(key, to: value, at: index) }
    checkEdit("removeTag", document, at: index, &log) { $0.removeTag(key, at: index) }
    // The user's edits: refused (nothing changed) or made with the task's identity kept.
    checkEdit("append", document, at: index, &log) {
        (try? $0.appendText(text, at: index, joinDirectlyBefore: Array(",.:;".utf8))) ?? false
    }
    checkEdit("prepend", document, at: index, &log) { (try? $0.prependText(text, at: index)) ?? false }
    checkEdit("replace", document, at: index, &log) { (try? $0.replaceText(text, at: index)) ?? false }
    let item = document.item(at: index)
    if let identity = item.uid {
        let results: [(String, [UInt8]?)] = [
            ("append", try? item.appendingDescription(text, joinDirectlyBefore: Array(",.:;".utf8))),
            ("prepend", try? item.prependingDescription(text)),
            ("replace", try? item.replacingDescription(with: text)),
        ]
        for case let (name, result?) in results {
            log.expect(TodoItem(result).uid == identity, "\(name) at \(index) changed the task's identity")
        }
    }

    // Appended text never changes a word that was there: every tag, project and context stays.
    if let appended = try? item.appendingDescription(text, joinDirectlyBefore: Array(",.:;".utf8)) {
        let after = TodoItem(appended)
        let words = { (item: TodoItem) in item.tags.map { $0.key + ":" + $0.value } + item.projects + item.contexts }
        let kept = words(after)
        log.expect(words(item).allSatisfy(kept.contains), "append at \(index) changed a tag, project or context")
    }

    // Complete then uncomplete restores a task that had no `pri:` tag of its own.
    if item.isTask, !item.isCompleted, !item.tags.contains(where: { $0.key == "pri" }),
       let done = item.completed(on: date) {
        let doneItem = TodoItem(done)
        log.expect(doneItem.isCompleted, "completed line \(index) does not parse as completed")
        log.expect(doneItem.completionDate == date, "completed line \(index) lost its completion date")
        log.expect(doneItem.uncompleted().map { $0.elementsEqual(item.content) } == true,
                   "complete then uncomplete does not restore line \(index)")
    }
}
