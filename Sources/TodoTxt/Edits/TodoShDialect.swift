/// todo.txt-cli's own reading of a line, for the `todo.sh` name's byte-exact edits (docs/todosh.md
/// section 5). todo.sh edits lines with `sed` on bytes, not with the format's fields: its priority is
/// any `(c) ` at the very start, its completion marker is `x ` at the start, and a date is whatever
/// `[0-9]{2,4}-[0-9]{2}-[0-9]{2} ` matches. The format's own rules (`TodoItem`) differ on purpose
/// in places (a lowercase `(a)` is not a priority there); each function here says which todo.sh
/// command it mirrors.
///
/// Every function is pure: it takes the line's content (no terminator) and returns the new one.
package enum TodoShDialect {
    /// The length of a leading `(c) ` (todo.sh's `^(.) `), where c is one character, multi-byte
    /// included; nil when the line has none.
    package static func priorityPrefixLength(_ line: [UInt8]) -> Int? {
        if line.count >= 4, line[0] == 0x28, line[2] == 0x29, line[3] == 0x20 { return 4 }
        if line.count >= 4, line[0] == 0x28, line[1] >= 0xC0 {
            let length = BasicRegex.scalar(in: line, at: 1).1
            if line.count >= 3 + length, line[1 + length] == 0x29, 2 + length < line.count, line[2 + length] == 0x20 {
                return 3 + length
            }
        }
        return nil
    }

    /// Whether the line starts with `x ` (todo.sh's test for a done task).
    package static func isDone(_ line: some Collection<UInt8>) -> Bool {
        var bytes = line.makeIterator()
        return bytes.next() == UInt8(ascii: "x") && bytes.next() == 0x20
    }

    /// `do`: `x TODAY ` in front, any leading `(c) ` removed (the `todo` name completes with
    /// `TodoItem.completed(on:)`, which keeps the priority as `pri:`).
    package static func markedDone(_ line: [UInt8], today: [UInt8]) -> [UInt8] {
        [UInt8(ascii: "x"), 0x20] + today + [0x20] + line[(priorityPrefixLength(line) ?? 0)...]
    }

    /// `append`: a space between unless the text starts with one of `sentenceDelimiters`.
    package static func appending(_ text: [UInt8], to line: [UInt8], sentenceDelimiters: [UInt8]) -> [UInt8] {
        let joiner: [UInt8] = text.first.map { sentenceDelimiters.contains($0) } == true ? [] : [0x20]
        return line + joiner + text
    }

    /// `prepend`: the text goes after a leading A–Z priority and date, which stay in front.
    package static func prepending(_ text: [UInt8], to line: [UInt8]) -> [UInt8] {
        let parts = keptPrefix(line, anyPriority: false)
        return parts.priority + parts.date + text + [0x20] + parts.rest
    }

    /// `replace`: the new text, with the old priority and date unless the text gives its own. A
    /// lowercase priority from the text is upper-cased, as `add` does (docs/todosh.md section 8).
    package static func replacing(_ line: [UInt8], with text: [UInt8]) -> [UInt8] {
        let oldParts = keptPrefix(line, anyPriority: true)
        var newParts = keptPrefix(text, anyPriority: true)
        if newParts.priority.count == 4, newParts.priority[1] >= 0x61, newParts.priority[1] <= 0x7A {
            newParts.priority[1] -= 0x20
        }
        return (newParts.priority.isEmpty ? oldParts.priority : newParts.priority)
            + (newParts.date.isEmpty ? oldParts.date : newParts.date) + newParts.rest
    }

    /// `pri`: `(LETTER) ` in place of any leading priority.
    package static func prioritizing(_ line: [UInt8], letter: UInt8) -> [UInt8] {
        [0x28, letter, 0x29, 0x20] + line[(priorityPrefixLength(line) ?? 0)...]
    }

    /// `depri`: the leading priority removed.
    package static func deprioritizing(_ line: [UInt8]) -> [UInt8] {
        Array(line[(priorityPrefixLength(line) ?? 0)...])
    }

    /// The leading `(X) ` and `YYYY-MM-DD `-like date todo.sh keeps in front on prepend and replace.
    static func keptPrefix(_ line: [UInt8], anyPriority: Bool) -> (priority: [UInt8], date: [UInt8], rest: [UInt8]) {
        var position = 0
        var priority: [UInt8] = []
        if line.count >= 4, line[0] == 0x28, line[2] == 0x29, line[3] == 0x20,
           anyPriority || (line[1] >= 0x41 && line[1] <= 0x5A) {
            priority = Array(line[0..<4])
            position = 4
        }
        var date: [UInt8] = []
        if let length = dateLength(line, at: position) {
            date = Array(line[position..<(position + length)])
            position += length
        }
        return (priority, date, Array(line[position...]))
    }

    /// `[0-9]{2,4}-[0-9]{2}-[0-9]{2} ` at `position`: its length including the space.
    static func dateLength(_ line: [UInt8], at position: Int) -> Int? {
        func isDigit(_ offset: Int) -> Bool { offset < line.count && line[offset] >= 0x30 && line[offset] <= 0x39 }
        var digits = 0
        while digits < 4 && isDigit(position + digits) { digits += 1 }
        // Backtrack as the regex would: 4, 3 or 2 year digits.
        for yearDigits in stride(from: digits, through: 2, by: -1) {
            let dash = position + yearDigits
            guard dash + 6 < line.count,
                  line[dash] == 0x2D, isDigit(dash + 1), isDigit(dash + 2), line[dash + 3] == 0x2D,
                  isDigit(dash + 4), isDigit(dash + 5), line[dash + 6] == 0x20 else { continue }
            return yearDigits + 7
        }
        return nil
    }

    /// `del NR TERM`: todo.sh's five substitutions, TERM a case-sensitive basic regular expression.
    package static func removingTerm(_ term: [UInt8], from line: [UInt8]) -> [UInt8] {
        let space: [UInt8] = [0x20]
        let star: [UInt8] = Array(" *".utf8)
        var text = line
        // 1. At the start, after an optional priority: s/^\((.) \)\{0,1\} *TERM */\1/
        let anchored = BasicRegex(bytes: Array("^ *".utf8) + term + star, ignoreCase: false)
        let priority = priorityPrefixLength(text) ?? 0
        for keep in Set([priority, 0]).sorted(by: >) {
            let rest = Array(text[keep...])
            if let range = anchored.firstMatch(in: rest, from: 0) {
                text = Array(text[..<keep]) + rest[range.upperBound...]
                break
            }
        }
        // 2. At the end: s/ *TERM *$//g
        text = BasicRegex(bytes: star + term + Array(" *$".utf8), ignoreCase: false).removingMatches(from: text)
        // 3./4. In the middle: s/  *TERM */ /g and s/ *TERM  */ /g
        text = BasicRegex(bytes: Array("  *".utf8) + term + star, ignoreCase: false).replacingMatches(in: text, with: space)
        text = BasicRegex(bytes: star + term + Array("  *".utf8), ignoreCase: false).replacingMatches(in: text, with: space)
        // 5. Anywhere else: s/TERM//g
        return BasicRegex(bytes: term, ignoreCase: false).removingMatches(from: text)
    }
}

extension TodoShDialect {
    /// `del NR` and `mv`: line `index` emptied, or, without line-number preservation, removed with
    /// every other empty line (todo.sh's `sed -e 'Ns/^.*//' -e '/./!d'`).
    package static func removingTask(at index: Int, from document: TodoDocument, preserveLineNumbers: Bool) -> TodoDocument {
        var edited = document
        guard index < edited.lineCount else { return edited }
        edited.replaceContent(at: index, with: [])
        return preserveLineNumbers ? edited : squeezingEmptyLines(edited)
    }

    /// Every empty line removed: todo.sh's `sed '/./!d'`.
    package static func squeezingEmptyLines(_ document: TodoDocument) -> TodoDocument {
        var result = document
        for index in stride(from: result.lineCount - 1, through: 0, by: -1) where result.content(at: index).isEmpty {
            result.removeLine(at: index)
        }
        return result
    }

    /// `deduplicate`: every repeat of a line removed (emptied when line numbers are preserved);
    /// returns the document and how many non-empty lines went.
    package static func deduplicating(_ document: TodoDocument, preserveLineNumbers: Bool) -> (document: TodoDocument, removed: Int) {
        var edited = document
        var seen = Set<[UInt8]>()
        var before = 0, after = 0
        var index = 0
        while index < edited.lineCount {
            let line = Array(edited.content(at: index))
            if !line.isEmpty { before += 1 }
            if seen.insert(line).inserted {
                if !line.isEmpty { after += 1 }
                index += 1
            } else if preserveLineNumbers {
                edited.replaceContent(at: index, with: [])
                index += 1
            } else {
                edited.removeLine(at: index)
            }
        }
        return (edited, before - after)
    }
}
