import TodoTxt
import TodoFileSystem

/// `append`, `prepend`, `replace`, `pri`, `depri` (docs/todosh.md section 5, "Editing", "Priorities").
extension TodoShActions {
    /// Resolves NR in the todo file and rewrites that line with `edit`; returns the echo number and the
    /// old and new line.
    static func editTask(_ address: String, usage: String, _ context: TodoShContext, document read: TodoDocument? = nil,
                         _ edit: ([UInt8]) -> [UInt8]) throws(CLIError) -> (shown: String, old: [UInt8], new: [UInt8]) {
        let path = context.settings.todoFile
        // `read`: the todo file as the caller just read it (saves reading a large file twice).
        let document: TodoDocument
        if let read { document = read } else { document = try context.document(path) }
        let (index, shown) = try resolve(address, in: document, file: path, usage: usage, context)
        let old = Array(document.content(at: index))
        var new = edit(old)
        try context.update(path) { (current: TodoDocument) throws(CLIError) -> TodoDocument? in
            let found = try relocate(index, old, in: current, shown: shown, context)
            var edited = current
            new = edit(Array(current.content(at: found)))
            edited.replaceContent(at: found, with: new)
            return edited
        }
        return (shown, old, new)
    }

    /// `append`, `prepend`, `replace`: NR checked first (a bad one is reported before any prompt),
    /// then the text (the remaining arguments, or a prompt when there are none), then the edit.
    static func editWithText(_ arguments: [String], usage: String, prompt: String, _ context: TodoShContext,
                             _ edit: ([UInt8], [UInt8]) -> [UInt8]) throws(CLIError) -> (shown: String, old: [UInt8], new: [UInt8]) {
        let address = arguments.first ?? ""
        let path = context.settings.todoFile
        _ = try resolve(address, in: try context.document(path), file: path, usage: usage, context)
        let text = try textOrPrompt(Array(arguments.dropFirst()), prompt: prompt, usage: usage, context)
        return try editTask(address, usage: usage, context) { edit(text, $0) }
    }

    static func append(_ context: inout TodoShContext, _ arguments: [String]) throws(CLIError) -> Int32 {
        let delimiters = Array(context.settings.sentenceDelimiters.utf8)
        let result = try editWithText(arguments, usage: "append NR \"TEXT TO APPEND\"", prompt: "Append: ", context) {
            TodoShDialect.appending($0, to: $1, sentenceDelimiters: delimiters)
        }
        context.inform("\(result.shown) \(string(result.new))")
        return 0
    }

    static func prepend(_ context: inout TodoShContext, _ arguments: [String]) throws(CLIError) -> Int32 {
        let result = try editWithText(arguments, usage: "prepend NR \"TEXT TO PREPEND\"", prompt: "Prepend: ", context) {
            TodoShDialect.prepending($0, to: $1)
        }
        context.inform("\(result.shown) \(string(result.new))")
        return 0
    }

    static func replace(_ context: inout TodoShContext, _ arguments: [String]) throws(CLIError) -> Int32 {
        let result = try editWithText(arguments, usage: "replace NR \"UPDATED ITEM\"", prompt: "Replacement: ", context) {
            TodoShDialect.replacing($1, with: $0)
        }
        context.inform("\(result.shown) \(string(result.old))")
        context.inform("TODO: Replaced task with:")
        context.inform("\(result.shown) \(string(result.new))")
        return 0
    }

    static func prioritize(_ context: inout TodoShContext, _ arguments: [String]) throws(CLIError) -> Int32 {
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
            let oldLetter: UInt8? = TodoShDialect.priorityPrefixLength(old) == 4 ? old[1] : nil
            if oldLetter == letter {
                context.inform("\(shown) \(string(old))")
                context.softError("TODO: \(shown) already prioritized (\(string([letter]))).")
                status = 1
                continue
            }
            let result = try editTask(address, usage: usage, context) { TodoShDialect.prioritizing($0, letter: letter) }
            context.inform("\(result.shown) \(string(result.new))")
            if let oldLetter {
                context.inform("TODO: \(shown) re-prioritized from (\(string([oldLetter]))) to (\(string([letter]))).")
            } else if let multi = TodoShDialect.priorityPrefixLength(old) {
                context.inform("TODO: \(shown) re-prioritized from \(string(old[0..<(multi - 1)])) to (\(string([letter]))).")
            } else {
                context.inform("TODO: \(shown) prioritized (\(string([letter]))).")
            }
        }
        return status
    }

    static func deprioritize(_ context: inout TodoShContext, _ arguments: [String]) throws(CLIError) -> Int32 {
        let usage = "depri NR [NR ...]"
        let numbers = numberList(arguments)
        guard !numbers.isEmpty else { throw context.actionUsage(usage) }
        var status: Int32 = 0
        for address in numbers {
            let path = context.settings.todoFile
            let document = try context.document(path)
            let (index, shown) = try resolve(address, in: document, file: path, usage: usage, context)
            guard TodoShDialect.priorityPrefixLength(Array(document.content(at: index))) != nil else {
                context.softError("TODO: \(shown) is not prioritized.")
                status = 1
                continue
            }
            let result = try editTask(address, usage: usage, context) { TodoShDialect.deprioritizing($0) }
            context.inform("\(result.shown) \(string(result.new))")
            context.inform("TODO: \(shown) deprioritized.")
        }
        return status
    }
}
