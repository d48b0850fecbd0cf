// The `parse` target: bytes in, the same bytes out, and every accessor agreeing with its definition.
import TodoTxt

/// `TodoItem.uid` as docs/format.md section 4 defines it, over `tags` (the byte scan must agree with it):
/// the first `uid:` tag, else the first `uuid:` tag, never for a blank line.
func uidFromTags(_ item: TodoItem) -> String? {
    guard !item.isBlank else { return nil }
    var uuid: String?
    for tag in item.tags {
        if tag.key == "uid" { return tag.value }
        if tag.key == "uuid" && uuid == nil { uuid = tag.value }
    }
    return uuid
}

/// Parse target, public entry point: the failures for `bytes` (cut to the parse limits).
public func parseFailures(_ bytes: [UInt8]) -> [InvariantFailure] { FuzzTarget.parse.failures(bytes) }

/// `render(parse(b)) == b`, then every field of every line and the document-wide passes.
///
/// Invariants: each item's content is its line's content; the body offset lies within the line; each
/// tag lies within the body and its value ends the word; `uid` and `firstValue(forTag:)` agree with
/// the parsed tags. Everything else is called for its crashes (consumed, not compared).
func checkParse(_ bytes: [UInt8], _ log: inout FailureLog) {
    let document = TodoDocument(bytes: bytes)
    log.expect(document.rendered() == bytes, "render(parse(b)) != b")
    for index in 0..<document.lineCount {
        let item = document.item(at: index)
        log.expect(item.content.elementsEqual(document.content(at: index)), "item content differs from line \(index)")
        consume((item.isBlank, item.isTask, item.isCompleted, item.priority, item.completionDate, item.creationDate))
        consume((item.body, item.text, document.text(at: index), document.terminator(at: index)))
        guard log.expect(item.bodyOffset >= 0 && item.bodyOffset <= item.content.count,
                         "body offset out of range on line \(index)") else { continue }
        let fields = item.fields
        for tag in fields.tags {
            log.expect(tag.range.lowerBound >= item.bodyOffset && tag.range.upperBound <= item.content.count,
                       "tag \(tag.key) range outside the body on line \(index)")
            log.expect(tag.valueRange.upperBound == tag.range.upperBound,
                       "tag \(tag.key) value does not end the word on line \(index)")
        }
        consume((fields.projects, fields.contexts, item.projects, item.contexts))
        log.expect(item.uid == uidFromTags(item), "uid differs from its definition over tags on line \(index)")
        for tag in fields.tags {
            log.expect(item.firstValue(forTag: tag.key) == fields.tags.first { $0.key == tag.key }?.value,
                       "firstValue(forTag: \(tag.key)) differs from the first tag on line \(index)")
        }
        consume((item.due, item.threshold, item.recurrence, item.hidden, item.keptPriority))
        if let today = fixedToday {
            consume((item.isHidden(on: today), item.isOverdue(on: today), item.firstValue(forTag: "due")))
            consume(item.nextRecurrence(completedOn: today, uid: "fzuid1"))
        }
    }
    consume(document.diagnostics())
    consume(document.exportJSONLines())
    consume(UIDIndex(document).duplicates)
    consume(document.dominantTerminator)
    consume(ConflictMarkers.firstBlockLine(in: bytes))
}
