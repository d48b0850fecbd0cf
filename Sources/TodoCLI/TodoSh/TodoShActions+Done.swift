import TodoTxt
import TodoFileSystem

/// `do`, `archive`, `del`, `move`, `deduplicate`, `report` (docs/todosh.md section 5, "Completing and removing",
/// "Reporting").
extension TodoShActions {
    static func markDone(_ context: inout TodoShContext, _ arguments: [String]) throws(TodoShExit) -> Int32 {
        let usage = "do NR [NR ...]"
        let numbers = numberList(arguments)
        guard !numbers.isEmpty else { throw context.actionUsage(usage) }
        var status: Int32 = 0
        let today = context.clock.today.bytes
        let keepPriority = context.settings.keepsPriorityOnDone
        func markedDone(_ line: [UInt8]) -> [UInt8] {
            let strip = priorityPrefixLength(line) ?? 0
            var done = [UInt8(ascii: "x"), 0x20] + today + [0x20] + line[strip...]
            if keepPriority, strip == 4 { done += Array(" pri:".utf8) + [line[1]] }
            return done
        }
        // With auto-archive (todo.sh's default) the edits and the archive are one write of the todo
        // file: the done file is appended first, then the todo file replaced once.
        if context.settings.autoArchive && !context.settings.addsRecurrence {
            let path = context.settings.todoFile
            let document = try context.document(path)
            var edits: [ArchiveEdit] = []
            var planned = document
            for address in numbers {
                let (index, shown) = try resolve(address, in: planned, file: path, usage: usage, context)
                let old = Array(planned.content(at: index))
                if old.count >= 2 && old[0] == UInt8(ascii: "x") && old[1] == 0x20 {
                    context.softError("TODO: \(shown) is already marked done.")
                    status = 1
                    continue
                }
                let new = markedDone(old)
                planned.replaceContent(at: index, with: new)
                edits.append(ArchiveEdit(index: index, shown: shown, old: old, new: new))
            }
            let announcer = context
            _ = try archive(&context, applying: edits, snapshot: document) {
                for edit in edits {
                    announcer.inform("\(edit.shown) \(string(edit.new))")
                    announcer.inform("TODO: \(edit.shown) marked as done.")
                }
            }
            return status
        }
        for address in numbers {
            let path = context.settings.todoFile
            let document = try context.document(path)
            let (index, shown) = try resolve(address, in: document, file: path, usage: usage, context)
            let old = Array(document.content(at: index))
            if old.count >= 2 && old[0] == UInt8(ascii: "x") && old[1] == 0x20 {
                context.softError("TODO: \(shown) is already marked done.")
                status = 1
                continue
            }
            let result = try editTask(address, usage: usage, context, document: document, markedDone)
            context.inform("\(result.shown) \(string(result.new))")
            context.inform("TODO: \(shown) marked as done.")
            if context.settings.addsRecurrence {
                try addNextRecurrence(of: old, shown: shown, context)
            }
        }
        if context.settings.autoArchive { _ = try archive(&context) }
        return status
    }

    /// For a completed task with a valid `rec:`, appends its next instance (fresh uid, dates moved as
    /// docs/format.md section 6 says) and says so.
    static func addNextRecurrence(of original: [UInt8], shown: String, _ context: TodoShContext) throws(TodoShExit) {
        let item = TodoItem(original[...])
        guard item.recurrence.value != nil else { return }
        let settings = context.settings
        let today = context.clock.today
        let done = try context.document(settings.doneFile)
        var added: (number: Int, line: [UInt8])?
        try context.update(settings.todoFile) { (document: TodoDocument) throws(TodoShExit) -> TodoDocument? in
            var generator = SystemRandomNumberGenerator()
            let uid = UID.generate(using: &generator, unusedIn: document, and: done)
            guard let next = item.nextRecurrence(completedOn: today, uid: uid) else { return nil }
            var edited = document
            edited.appendLine(next)
            added = (edited.lineCount, next)
            return edited
        }
        if let added {
            context.inform("\(added.number) \(string(added.line))")
            context.inform("TODO: \(shown) recurs: next instance added as \(added.number).")
        }
    }

    /// One line `do` rewrites before archiving: found again by its bytes if the file changed.
    struct ArchiveEdit {
        let index: Int
        let shown: String
        let old: [UInt8]
        let new: [UInt8]
    }

    /// Removes empty lines from the todo file and moves every `x ` line to the done file.
    ///
    /// `edits` (from `do`) are applied first, in the same single write of the todo file; `announce`
    /// runs once the files are written, before archive's own messages, so nothing is reported done
    /// that was not written.
    static func archive(_ context: inout TodoShContext, applying edits: [ArchiveEdit] = [],
                        snapshot read: TodoDocument? = nil, announce: () -> Void = {}) throws(TodoShExit) -> Int32 {
        let todoPath = context.settings.todoFile
        let donePath = context.settings.doneFile
        func isDone(_ line: ArraySlice<UInt8>) -> Bool {
            line.count >= 2 && line[line.startIndex] == UInt8(ascii: "x") && line[line.startIndex + 1] == 0x20
        }
        let original: TodoDocument
        if let read { original = read } else { original = try context.document(todoPath) }
        let originalBytes = original.rendered()
        /// `document` with the edits applied, each found again by its bytes.
        func applyingEdits(to document: TodoDocument) throws(TodoShExit) -> TodoDocument {
            var edited = document
            for edit in edits {
                let found = try relocate(edit.index, edit.old, in: edited, shown: edit.shown, context)
                edited.replaceContent(at: found, with: edit.new)
            }
            return edited
        }
        let snapshot = edits.isEmpty ? original : try applyingEdits(to: original)
        let snapshotBytes = edits.isEmpty ? originalBytes : snapshot.rendered()
        var doneLines: [[UInt8]] = []
        for index in 0..<snapshot.lineCount where isDone(snapshot.content(at: index)) {
            doneLines.append(Array(snapshot.content(at: index)))
        }
        if !doneLines.isEmpty {
            try context.update(donePath) { (document: TodoDocument) throws(TodoShExit) -> TodoDocument? in
                var edited = document
                for line in doneLines { edited.appendLine(line) }
                return edited
            }
        }
        // Only the lines just appended to the done file leave the todo file (as a multiset): a task
        // another writer completed in between stays for the next archive instead of being lost.
        // When the file is still the snapshot (the usual case), that is every done line, found
        // without hashing them.
        var editFailure: TodoShExit?
        try context.updateBytes(todoPath) { current in
            if ProcessSpawning.sameBytes(current, originalBytes) { return removingEmptyAndDoneLines(snapshotBytes, archived: nil) }
            // Only now, when someone else wrote meanwhile, are the archived lines counted (hashing
            // 300,000 lines took a fifth of a 1M-line `do`).
            var archived: [[UInt8]: Int] = [:]
            for line in doneLines { archived[line, default: 0] += 1 }
            do throws(TodoShExit) {
                let edited = edits.isEmpty ? current : try applyingEdits(to: TodoDocument(bytes: current)).rendered()
                return removingEmptyAndDoneLines(edited, archived: archived)
            } catch {
                editFailure = error
                return nil
            }
        }
        if let editFailure { throw editFailure }
        announce()
        if doneLines.isEmpty {
            context.inform("TODO: \(todoPath) does not contain any done tasks.")
        } else {
            if context.settings.verbose > 0 {
                // One write for all the lines (each as `say` would print it).
                var output: [UInt8] = []
                for line in doneLines {
                    if line.allSatisfy({ $0 < 0x80 }) { output += line } else { output += Array(string(line).utf8) }
                    output.append(0x0A)
                }
                context.sayBytes(output)
            }
            context.inform("TODO: \(todoPath) archived.")
        }
        return 0
    }

    /// The file without its empty lines and the `x ` lines listed in `archived` (each removed as
    /// often as it is counted there; every `x ` line when `archived` is nil), byte for byte what
    /// `TodoDocument.removeLines` and `rendered()` give (a BOM stays; every other line keeps its own
    /// terminator), without parsing it into a document: the kept lines are copied as they are.
    static func removingEmptyAndDoneLines(_ bytes: [UInt8], archived: [[UInt8]: Int]?) -> [UInt8] {
        var pending = archived
        return bytes.withUnsafeBufferPointer { buffer -> [UInt8] in
            guard let base = buffer.baseAddress else { return [] }
            let count = buffer.count
            let begin = count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF ? 3 : 0
            var result = [UInt8]()
            result.reserveCapacity(count)
            result.append(contentsOf: UnsafeBufferPointer(start: base, count: begin))
            var start = begin
            var keptFrom = begin  // the start of the run of kept lines not copied yet
            while start < count {
                let newline = TodoShListing.Lines.findNewline(base, from: start, count: count)
                let end = newline == count ? count : newline + 1
                // Content: the line without LF or CR LF.
                var length = newline - start
                if newline < count && length > 0 && base[newline - 1] == 0x0D { length -= 1 }
                var remove = length == 0
                if !remove && length >= 2 && base[start] == UInt8(ascii: "x") && base[start + 1] == 0x20 {
                    if pending == nil {
                        remove = true
                    } else {
                        let line = Array(UnsafeBufferPointer(start: base + start, count: length))
                        if let left = pending?[line], left > 0 {
                            pending?[line] = left - 1
                            remove = true
                        }
                    }
                }
                if remove {
                    result.append(contentsOf: UnsafeBufferPointer(start: base + keptFrom, count: start - keptFrom))
                    keptFrom = end
                }
                start = end
            }
            result.append(contentsOf: UnsafeBufferPointer(start: base + keptFrom, count: count - keptFrom))
            return result
        }
    }

    /// Empties (or, without line-number preservation, removes) line `index`; `-n` also squeezes every
    /// other empty line, as todo.sh's `sed -e 'Ns/^.*//' -e '/./!d'` does.
    static func removingTask(at index: Int, from document: TodoDocument, preserve: Bool) -> TodoDocument {
        var edited = document
        guard index < edited.lineCount else { return edited }
        edited.replaceContent(at: index, with: [])
        return preserve ? edited : squeezingEmptyLines(edited)
    }

    static func delete(_ context: inout TodoShContext, _ arguments: [String]) throws(TodoShExit) -> Int32 {
        let usage = "del NR [TERM]"
        let path = context.settings.todoFile
        let document = try context.document(path)
        let (index, shown) = try resolve(arguments.first ?? "", in: document, file: path, usage: usage, context)
        let old = Array(document.content(at: index))
        if arguments.count >= 2 {
            let term = arguments[1]
            let new = removingTerm(Array(term.utf8), from: old)
            guard new != old else {
                context.inform("\(shown) \(string(old))")
                throw context.die("TODO: '\(term)' not found; no removal done.")
            }
            try context.update(path) { (current: TodoDocument) throws(TodoShExit) -> TodoDocument? in
                let found = try relocate(index, old, in: current, shown: shown, context)
                var edited = current
                edited.replaceContent(at: found, with: removingTerm(Array(term.utf8), from: Array(current.content(at: found))))
                return edited
            }
            context.inform("\(shown) \(string(old))")
            context.inform("TODO: Removed '\(term)' from task.")
            context.inform("\(shown) \(string(new))")
            return 0
        }
        guard confirm("Delete '\(string(old))'", context) else { throw context.die("TODO: No tasks were deleted.") }
        let preserve = context.settings.preserveLineNumbers
        try context.update(path) { (current: TodoDocument) throws(TodoShExit) -> TodoDocument? in
            removingTask(at: try relocate(index, old, in: current, shown: shown, context), from: current, preserve: preserve)
        }
        context.inform("\(shown) \(string(old))")
        context.inform("TODO: \(shown) deleted.")
        return 0
    }

    /// `del NR TERM`: todo.sh's five substitutions, TERM a case-sensitive BRE.
    static func removingTerm(_ term: [UInt8], from line: [UInt8]) -> [UInt8] {
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

    static func move(_ context: inout TodoShContext, _ arguments: [String]) throws(TodoShExit) -> Int32 {
        let usage = "mv NR DEST [SRC]"
        guard arguments.count >= 2, !arguments[0].isEmpty, !arguments[1].isEmpty else {
            throw context.actionUsage(usage)
        }
        let directory = context.settings.todoDirectory
        let destination = directory + "/" + arguments[1]
        let source = arguments.count >= 3 && !arguments[2].isEmpty ? directory + "/" + arguments[2] : context.settings.todoFile
        func isFile(_ path: String) -> Bool {
            let kind = ProcessSpawning.kind(of: path)
            return kind == .regular || kind == .characterDevice
        }
        guard isFile(source) else { throw context.die("TODO: Source file \(source) does not exist.") }
        guard isFile(destination) else { throw context.die("TODO: Destination file \(destination) does not exist.") }
        let sourceBytes = try context.bytes(source)
        if context.settings.personality == .todo {
            // The destination is written first: refuse a binary source before touching it.
            do throws(CLIError) { try FileAccess.refuseNULBytes(sourceBytes, path: source) } catch { throw context.fail(error) }
        }
        let document = TodoDocument(bytes: sourceBytes)
        let (index, shown) = try resolve(arguments[0], in: document, file: source, usage: usage, context)
        let line = Array(document.content(at: index))
        let sourcePrefix = TodoShContext.prefix(of: source)
        guard confirm("Move '\(string(line))' from \(source) to \(destination)", context) else {
            throw context.die("\(sourcePrefix): No tasks moved.")
        }
        let preserve = context.settings.preserveLineNumbers
        // The destination first: a crash between the two writes leaves the task in both files, never
        // in neither.
        var newCount = 0
        try context.update(destination) { (current: TodoDocument) throws(TodoShExit) -> TodoDocument? in
            var edited = current
            edited.appendLine(line)
            newCount = edited.lineCount
            return edited
        }
        try context.update(source) { (current: TodoDocument) throws(TodoShExit) -> TodoDocument? in
            removingTask(at: try relocate(index, line, in: current, shown: shown, context), from: current, preserve: preserve)
        }
        context.inform("\(shown) \(string(line))")
        context.inform("\(sourcePrefix): \(shown) moved to \(newCount) in \(TodoShContext.prefix(of: destination)).")
        return 0
    }

    static func deduplicate(_ context: inout TodoShContext, _ arguments: [String]) throws(TodoShExit) -> Int32 {
        let path = context.settings.todoFile
        let preserve = context.settings.preserveLineNumbers
        var removed = 0
        try context.update(path) { (document: TodoDocument) throws(TodoShExit) -> TodoDocument? in
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
                } else if preserve {
                    edited.replaceContent(at: index, with: [])
                    index += 1
                } else {
                    edited.removeLine(at: index)
                }
            }
            removed = before - after
            return removed > 0 ? edited : nil
        }
        guard removed > 0 else { throw context.die("TODO: No duplicate tasks found") }
        // todo.sh prints this even when quiet; under `todo`, `-q` silences every report.
        if context.settings.personality == .todo {
            context.inform("TODO: \(removed) duplicate task(s) removed")
        } else {
            context.say("TODO: \(removed) duplicate task(s) removed")
        }
        return 0
    }

    static func report(_ context: inout TodoShContext, _ arguments: [String]) throws(TodoShExit) -> Int32 {
        _ = try archive(&context)
        let open = try context.document(context.settings.todoFile).lineCount
        let done = try context.document(context.settings.doneFile).lineCount
        let counts = "\(open) \(done)"
        let reportPath = context.settings.reportFile
        let report = try context.document(reportPath)
        if report.lineCount > 0 {
            let last = Array(report.content(at: report.lineCount - 1))
            if let space = last.firstIndex(of: 0x20), string(last[(space + 1)...]) == counts {
                context.say(string(last))
                context.inform("TODO: Report file is up-to-date.")
                return 0
            }
        }
        let line = "\(context.clock.timestamp) \(counts)"
        try context.update(reportPath) { (document: TodoDocument) throws(TodoShExit) -> TodoDocument? in
            var edited = document
            edited.appendLine(Array(line.utf8))
            return edited
        }
        context.say(line)
        context.inform("TODO: Report file updated.")
        return 0
    }
}
