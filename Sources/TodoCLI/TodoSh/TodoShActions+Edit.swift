import TodoTxt
import TodoFileSystem

/// `append`, `prepend`, `replace`, `pri`, `depri` (docs/todosh.md section 5, "Editing", "Priorities").
extension TodoShActions {
    /// Resolves NR in the todo file and rewrites that line with `edit`; returns the echo number and the
    /// old and new line.
    static func editTask(_ address: String, usage: String, _ context: TodoShContext, document read: TodoDocument? = nil,
                         _ edit: ([UInt8]) -> [UInt8]) throws(TodoShExit) -> (shown: String, old: [UInt8], new: [UInt8]) {
        let path = context.settings.todoFile
        // `read`: the todo file as the caller just read it (saves reading a large file twice).
        let document: TodoDocument
        if let read { document = read } else { document = try context.document(path) }
        let (index, shown) = try resolve(address, in: document, file: path, usage: usage, context)
        let old = Array(document.content(at: index))
        var new = edit(old)
        try context.update(path) { (current: TodoDocument) throws(TodoShExit) -> TodoDocument? in
            let found = try relocate(index, old, in: current, shown: shown, context)
            var edited = current
            new = edit(Array(current.content(at: found)))
            edited.replaceContent(at: found, with: new)
            return edited
        }
        return (shown, old, new)
    }

    /// The text of NR-taking edits: the remaining arguments, or a prompt when there are none.
    static func editText(_ arguments: ArraySlice<String>, prompt: String, usage: String,
                         _ context: TodoShContext) throws(TodoShExit) -> [UInt8] {
        try textOrPrompt(Array(arguments), prompt: prompt, usage: usage, context)
    }

    static func append(_ context: inout TodoShContext, _ arguments: [String]) throws(TodoShExit) -> Int32 {
        let usage = "append NR \"TEXT TO APPEND\""
        let address = arguments.first ?? ""
        let path = context.settings.todoFile
        _ = try resolve(address, in: try context.document(path), file: path, usage: usage, context)
        let text = try editText(arguments.dropFirst(), prompt: "Append: ", usage: usage, context)
        let delimiters = Array(context.settings.sentenceDelimiters.utf8)
        let joiner: [UInt8] = text.first.map { delimiters.contains($0) } == true ? [] : [0x20]
        let result = try editTask(address, usage: usage, context) { $0 + joiner + text }
        context.inform("\(result.shown) \(string(result.new))")
        return 0
    }

    /// The leading `(X) ` (A–Z) and `YYYY-MM-DD `-like date todo.sh keeps in front on prepend.
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
        // Backtrack like the regex would: 4, 3 or 2 year digits.
        for yearDigits in stride(from: digits, through: 2, by: -1) {
            let dash = position + yearDigits
            guard dash + 6 < line.count,
                  line[dash] == 0x2D, isDigit(dash + 1), isDigit(dash + 2), line[dash + 3] == 0x2D,
                  isDigit(dash + 4), isDigit(dash + 5), line[dash + 6] == 0x20 else { continue }
            return yearDigits + 7
        }
        return nil
    }

    static func prepend(_ context: inout TodoShContext, _ arguments: [String]) throws(TodoShExit) -> Int32 {
        let usage = "prepend NR \"TEXT TO PREPEND\""
        let address = arguments.first ?? ""
        let path = context.settings.todoFile
        _ = try resolve(address, in: try context.document(path), file: path, usage: usage, context)
        let text = try editText(arguments.dropFirst(), prompt: "Prepend: ", usage: usage, context)
        let result = try editTask(address, usage: usage, context) { old in
            let parts = keptPrefix(old, anyPriority: false)
            return parts.priority + parts.date + text + [0x20] + parts.rest
        }
        context.inform("\(result.shown) \(string(result.new))")
        return 0
    }

    static func replace(_ context: inout TodoShContext, _ arguments: [String]) throws(TodoShExit) -> Int32 {
        let usage = "replace NR \"UPDATED ITEM\""
        let address = arguments.first ?? ""
        let path = context.settings.todoFile
        _ = try resolve(address, in: try context.document(path), file: path, usage: usage, context)
        let text = try editText(arguments.dropFirst(), prompt: "Replacement: ", usage: usage, context)
        let result = try editTask(address, usage: usage, context) { old in
            let oldParts = keptPrefix(old, anyPriority: true)
            var newParts = keptPrefix(text, anyPriority: true)
            // Decision (docs/todosh.md section 8): a lowercase priority from TEXT is upper-cased, as add does.
            if newParts.priority.count == 4, newParts.priority[1] >= 0x61, newParts.priority[1] <= 0x7A {
                newParts.priority[1] -= 0x20
            }
            return (newParts.priority.isEmpty ? oldParts.priority : newParts.priority)
                + (newParts.date.isEmpty ? oldParts.date : newParts.date) + newParts.rest
        }
        context.inform("\(result.shown) \(string(result.old))")
        context.inform("TODO: Replaced task with:")
        context.inform("\(result.shown) \(string(result.new))")
        return 0
    }

    static func prioritize(_ context: inout TodoShContext, _ arguments: [String]) throws(TodoShExit) -> Int32 {
        let usage = "pri NR PRIORITY [NR PRIORITY ...]\nnote: PRIORITY must be anywhere from A to Z."
        var status: Int32 = 0
        var remaining = arguments[...]
        if remaining.isEmpty { throw context.actionUsage(usage) }
        while !remaining.isEmpty {
            guard remaining.count >= 2 else { throw context.actionUsage(usage) }
            let address = remaining.removeFirst()
            let letterText = remaining.removeFirst()
            let letters = Array(letterText.utf8)
            guard letters.count == 1, (letters[0] | 0x20) >= 0x61, (letters[0] | 0x20) <= 0x7A else {
                throw context.actionUsage(usage)
            }
            let letter = letters[0] & ~0x20
            let path = context.settings.todoFile
            let document = try context.document(path)
            let (index, shown) = try resolve(address, in: document, file: path, usage: usage, context)
            let old = Array(document.content(at: index))
            let oldLetter: UInt8? = priorityPrefixLength(old) == 4 ? old[1] : nil
            if oldLetter == letter {
                context.inform("\(shown) \(string(old))")
                context.softError("TODO: \(shown) already prioritized (\(string([letter]))).")
                status = 1
                continue
            }
            let result = try editTask(address, usage: usage, context) { line in
                let strip = priorityPrefixLength(line) ?? 0
                return [0x28, letter, 0x29, 0x20] + line[strip...]
            }
            context.inform("\(result.shown) \(string(result.new))")
            if let oldLetter {
                context.inform("TODO: \(shown) re-prioritized from (\(string([oldLetter]))) to (\(string([letter]))).")
            } else if let multi = priorityPrefixLength(old) {
                context.inform("TODO: \(shown) re-prioritized from \(string(old[0..<(multi - 1)])) to (\(string([letter]))).")
            } else {
                context.inform("TODO: \(shown) prioritized (\(string([letter]))).")
            }
        }
        return status
    }

    static func deprioritize(_ context: inout TodoShContext, _ arguments: [String]) throws(TodoShExit) -> Int32 {
        let usage = "depri NR [NR ...]"
        let numbers = numberList(arguments)
        guard !numbers.isEmpty else { throw context.actionUsage(usage) }
        var status: Int32 = 0
        for address in numbers {
            let path = context.settings.todoFile
            let document = try context.document(path)
            let (index, shown) = try resolve(address, in: document, file: path, usage: usage, context)
            guard priorityPrefixLength(Array(document.content(at: index))) != nil else {
                context.softError("TODO: \(shown) is not prioritized.")
                status = 1
                continue
            }
            let result = try editTask(address, usage: usage, context) { line in
                Array(line[(priorityPrefixLength(line) ?? 0)...])
            }
            context.inform("\(result.shown) \(string(result.new))")
            context.inform("TODO: \(shown) deprioritized.")
        }
        return status
    }
}
