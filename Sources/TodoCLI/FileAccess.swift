import TodoFileSystem
import TodoTxt

/// The CLI's only door to the file layer: maps file-system errors to `CLIError` lines that name the
/// file and the problem.
///
/// Every write goes through `update` (safe replacement under the writers' lock, compare-and-swap,
/// nothing written when nothing changed) or `appendDurably`.
enum FileAccess {
    static func exists(_ path: String) -> Bool { ProcessContext.exists(path) }

    /// The directory part of `path` (`.` for a bare name).
    static func directoryName(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// Reads the whole file.
    static func read(_ path: String) throws(CLIError) -> [UInt8] {
        do {
            return try ProcessContext.readFile(path)
        } catch {
            throw .failure("cannot read \(path): \(error)")
        }
    }

    /// Reads the whole file, or nil when it does not exist.
    static func readIfExists(_ path: String) throws(CLIError) -> [UInt8]? {
        guard exists(path) else { return nil }
        return try read(path)
    }

    /// Replaces the file's content with `transform(old)`, safely; `transform` returns nil (or the same
    /// bytes) for "no change", and then nothing is written at all.
    ///
    /// `transform` may run more than once (when another writer changed the file meanwhile, the edit is
    /// re-applied on top of the new content), so it must not print: collect messages and print after
    /// `update` returns. With `createIfMissing`, a missing file counts as empty and is created.
    /// Returns whether the file was written.
    @discardableResult
    static func update(_ path: String, createIfMissing: Bool = false,
                       _ transform: ([UInt8]) throws(CLIError) -> [UInt8]?) throws(CLIError) -> Bool {
        let old: [UInt8]
        if createIfMissing, !exists(path) { old = [] } else { old = try read(path) }
        guard let new = try transform(old), new != old else { return false }
        do {
            try ProcessContext.writeFileProvisionally(path, new)
        } catch {
            throw .failure("cannot write \(path): \(error)")
        }
        return true
    }

    /// Appends lines to a file (created if missing) and fsyncs it before returning. The lines use the
    /// file's dominant terminator; a last line without one first gets one.
    static func appendLinesDurably(_ path: String, _ lines: [[UInt8]]) throws(CLIError) {
        try update(path, createIfMissing: true) { current throws(CLIError) in
            var document = TodoDocument(bytes: current)
            for line in lines { document.appendLine(line) }
            return document.rendered()
        }
    }
}
