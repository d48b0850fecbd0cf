import TodoTxt
import TodoFileSystem

/// The todo.sh engine's view of a run: the run's one context (`Invocation`: streams, clock,
/// environment, file system) and the todo.sh settings resolved for it, under either name.
struct TodoShContext {
    var settings: TodoShSettings
    /// The run this engine serves.
    var invocation: Invocation

    /// The name usage lines give (`todo.sh`, or `todo` for todo's additions run on these actions).
    var programName: String { invocation.programName }
    /// argv[0] as given (exported to add-ons as `TODO_FULL_SH`).
    var programPath: String { invocation.programPath }
    var io: CommandIO { invocation.io }
    var clock: Clock { invocation.clock }
    var environment: [String: String] { invocation.environment }
    /// Every file read and write.
    var files: FileAccess { invocation.files }

    /// A line on stdout (under `todo` on a terminal, escaped: it may hold task text).
    func say(_ text: String) { io.print(displayed(text)) }
    /// Bytes on stdout, as given.
    func sayBytes(_ bytes: [UInt8]) { io.writeOutput(bytes) }
    /// A line on stderr (soft errors: processing continues).
    func warn(_ text: String) { io.printError(text) }
    /// A warning about a file that was written (hard links detached, late bytes not carried over):
    /// on stderr under either name, never silenced.
    func warnOfReplacement(_ text: String) { io.printError("\(programName): \(text)") }

    /// A line on stdout when verbose.
    func inform(_ text: String) { if settings.verbose > 0 { io.print(displayed(text)) } }

    /// `text` as printed: through `TerminalText` when escaping is on (the `todo` name on a terminal).
    func displayed(_ text: String) -> String {
        guard settings.escapeControls else { return text }
        return String(decoding: TerminalText.escapingControls(Array(text.utf8)), as: UTF8.self)
    }

    /// todo.sh's `die`: the message on stderr, exit 1. Under the name `todo` the message follows
    /// `todo: what: why` (todo.sh's `TODO: ` or file prefix becomes the program name).
    func die(_ message: String) -> CLIError {
        settings.rules.ownMessages
            ? .failure(TodoShContext.todoStyle(message))
            : .todoSh(message: message, onStandardOutput: false, status: 1)
    }

    /// A soft error on stderr (processing continues), styled like `die`.
    func softError(_ message: String) {
        die(message).report(to: io, programName: programName)
    }

    /// todo.sh's `usage`: two lines on stdout, exit 1; under `todo`, one line on stderr, exit 2.
    func usage() -> CLIError {
        let name = programName
        if settings.rules.ownMessages { return .usage("no action given; see '\(name) --help'") }
        return .todoSh(message: "Usage: \(name) [-fhpantvV] [-d todo_config] action [task_number] [task_description]\n"
                           + "Try '\(name) -h' for more information.", onStandardOutput: true, status: 1)
    }

    /// `usage: todo.sh ACTION …` on stderr, exit 1; under `todo`, `todo: usage: todo ACTION …`, exit 2.
    func actionUsage(_ rest: String) -> CLIError {
        if settings.rules.ownMessages { return .usage("usage: \(programName) \(rest)") }
        return die("usage: \(programName) \(rest)")
    }

    /// `TODO: 3 is already marked done.` → `3 is already marked done`: the program name replaces
    /// todo.sh's upper-case file prefix, no final period.
    static func todoStyle(_ message: String) -> String {
        var text = Substring(message)
        if let colon = text.firstIndex(of: ":"),
           text[..<colon].allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "_" || $0 == "-" }),
           !text[..<colon].isEmpty {
            text = text[text.index(after: colon)...].drop(while: { $0 == " " })
        }
        if text.hasSuffix(".") { text = text.dropLast() }
        return String(text)
    }

    /// The summary prefix of `path`: basename cut at the first `.` followed by a non-dot, upper-cased.
    static func prefix(of path: String) -> String {
        let base = Array((path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path).utf8)
        var end = base.count
        var index = 0
        while index + 1 < base.count {
            if base[index] == 0x2E && base[index + 1] != 0x2E { end = index; break }
            index += 1
        }
        return String(decoding: base[..<end].map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
    }

    /// Reads a file: missing counts as empty. Under `todo.sh` an unreadable file or a directory
    /// counts as empty too (todo.sh's `cat` errors are not its output); under `todo` it is a failure,
    /// and so is a file whose directory does not exist (a mistyped path, not a list with no tasks
    /// yet), so a listing never hides one behind an empty list.
    func document(_ path: String) throws(CLIError) -> TodoDocument {
        TodoDocument(bytes: try bytes(path))
    }

    /// The bytes of `path`, with `document`'s rules.
    func bytes(_ path: String) throws(CLIError) -> [UInt8] {
        let read: [UInt8]?
        do {
            read = try files.readIfExists(path)
        } catch {
            if settings.rules.strictFiles { throw error }
            return []
        }
        if let read { return read }
        let directory = FileAccess.directoryName(of: path)
        if settings.rules.strictFiles && files.fileSystem.kind(of: directory) != .directory {
            throw .failure("\(path): no such file, and no directory \(directory)")
        }
        return []
    }

    /// A failed write as this name reports it: under `todo` as it is; under `todo.sh` after todo.sh's
    /// `TODO: ` prefix.
    func writeFailure(_ error: CLIError) -> CLIError {
        if settings.rules.ownMessages { return error }
        switch error {
        case .usage(let text), .failure(let text): return die("TODO: \(programName): \(text)")
        case .todoSh, .status: return die("TODO: write failed")
        }
    }

    /// Rewrites `path` in one transaction of the file layer (`FileAccess.transact`: the writers'
    /// lock, one read under it, a NUL byte refused, compare-and-swap, nothing written when nothing
    /// changed; a missing file is created). Under `todo` a conflict block is refused too; todo.sh
    /// knows none. A character device (`/dev/null`) is never replaced (what would be written there
    /// is discarded, as writing to it would). `transform`'s own failure is thrown as it is; the
    /// file layer's is worded by `writeFailure`.
    func update(_ path: String, _ transform: (TodoDocument) throws(CLIError) -> TodoDocument?) throws(CLIError) {
        if files.fileSystem.kind(of: path) == .characterDevice { return }
        var failure: CLIError?
        do throws(CLIError) {
            _ = try files.transact(path, createIfMissing: true, refusesConflictBlocks: settings.rules.refusesUnsafeFiles,
                                   lockTimeout: settings.lockTimeout, warn: warnOfReplacement) {
                (document: inout TodoDocument) throws(CLIError) -> Void in
                failure = nil
                do throws(CLIError) {
                    if let edited = try transform(document) { document = edited }
                } catch {
                    failure = error
                }
            }
        } catch {
            throw writeFailure(error)
        }
        if let failure { throw failure }
    }

    /// `update` on the raw bytes: for edits that never need the lines parsed.
    func updateBytes(_ path: String, _ transform: ([UInt8]) -> [UInt8]?) throws(CLIError) {
        if files.fileSystem.kind(of: path) == .characterDevice { return }
        do throws(CLIError) {
            try files.transactBytes(path, createIfMissing: true, refusesConflictBlocks: settings.rules.refusesUnsafeFiles,
                                    lockTimeout: settings.lockTimeout, warn: warnOfReplacement) {
                (old: [UInt8]) throws(CLIError) -> ReplacementContent? in
                transform(old).map { .bytes($0) }
            }
        } catch {
            throw writeFailure(error)
        }
    }

    /// Appends one line to `path` as `update` with `TodoDocument.appendLine` would leave the file, but
    /// by appending (O_APPEND, fsync) under the writers' lock instead of rewriting the whole file:
    /// the terminator the last line may lack, the line (LFs made spaces), and the file's dominant
    /// terminator (CRLF when the line ends in CR). Returns the new line count. Whatever goes wrong
    /// before anything is written falls back to `update`, for its checks and messages.
    func appendLine(_ path: String, _ content: [UInt8]) throws(CLIError) -> Int {
        let cleaned = content.map { $0 == 0x0A ? 0x20 : $0 }
        var lineCount: Int?
        var entered = false
        // Part of the line is still in the file (its removal failed too: docs/files.md section 5):
        // the fallback's rewrite would add it a second time, so that failure is final.
        var leftInFile: CLIError?
        do throws(CLIError) {
            lineCount = try FileAccess.withLock(path, timeout: settings.lockTimeout) { () throws(CLIError) -> Int? in
                entered = true
                var scan = AppendScan()
                try files.scanInPieces(path, into: &scan)
                let bytes = scan.bytesAppending([cleaned[...]])
                do throws(FileSystemError) {
                    let result = try files.fileSystem.appendDurably(path, bytes, options: AppendOptions(startOnNewLine: false, createIfMissing: true))
                    FileAccess.tell(result, path: path, warn: warnOfReplacement)
                } catch {
                    if case .appendLeftBytes = error { leftInFile = .failure(error.description) }
                    return nil
                }
                return scan.lineCount + 1
            }
        } catch {
            // The lock itself failed: what `update` would have reported.
            if !entered {
                throw writeFailure(error)
            }
            lineCount = nil
        }
        if let leftInFile { throw writeFailure(leftInFile) }
        if let lineCount { return lineCount }
        var count = 0
        try update(path) { (document: TodoDocument) throws(CLIError) -> TodoDocument? in
            var edited = document
            edited.appendLine(content)
            count = edited.lineCount
            return edited
        }
        return count
    }

    /// The environment a child (add-on, sort command, final filter, config) sees.
    var childEnvironment: [String: String] {
        var result = settings.exportedEnvironment.isEmpty ? environment : settings.exportedEnvironment
        let s = settings
        result["TODO_SH"] = programName
        result["TODO_FULL_SH"] = programPath
        result["TODO_DIR"] = s.todoDirectory
        result["TODO_FILE"] = s.todoFile
        result["DONE_FILE"] = s.doneFile
        result["REPORT_FILE"] = s.reportFile
        result["TODO_ACTIONS_DIR"] = s.actionsDirectory
        result["TODOTXT_VERBOSE"] = String(s.verbose)
        result["TODOTXT_PLAIN"] = s.plain ? "1" : "0"
        result["TODOTXT_FORCE"] = s.force ? "1" : "0"
        result["TODOTXT_PRESERVE_LINE_NUMBERS"] = s.preserveLineNumbers ? "1" : "0"
        result["TODOTXT_AUTO_ARCHIVE"] = s.autoArchive ? "1" : "0"
        result["TODOTXT_DATE_ON_ADD"] = s.dateOnAdd ? "1" : "0"
        result["TODOTXT_DISABLE_FILTER"] = s.disableFilter ? "1" : "0"
        result["TODOTXT_DEFAULT_ACTION"] = s.defaultAction
        result["TODOTXT_SORT_COMMAND"] = s.sortCommand
        result["TODOTXT_FINAL_FILTER"] = s.finalFilter
        for name in TodoShConfig.presetNames { result[name] = s.variables[name] ?? "" }
        for (name, value) in s.variables where name.hasPrefix("PRI_") || name.hasPrefix("COLOR_") {
            result[name] = value
        }
        return result
    }
}
