import Foundation
import TodoFileSystem

/// Why a `TodoStore` could not read the file or make a change. After every write error the file is
/// exactly as it was: nothing was written (docs/store.md, "Errors").
///
/// The cases are what an app decides on (show the file's problem, drop a stale row, offer a retry);
/// the messages (`LocalizedError`) are sentences for a person using the app, not for a terminal.
public enum TodoStoreError: Error, LocalizedError, Sendable, Equatable {
    /// The file could not be read, locked or written (permissions, a directory in its place, a full
    /// disk, a file too large). `reason` is the file layer's one-line account of it.
    case fileUnreadable(path: String, reason: String)
    /// The file holds a NUL byte at this line (1-based): most likely not a todo list at all. It is
    /// never written.
    case binaryFile(path: String, line: Int)
    /// The file holds an unresolved sync conflict (`<<<<<<<` … `>>>>>>>`) starting at this line
    /// (1-based). It is never written until the conflict is resolved in the file.
    case conflictMarkers(path: String, line: Int)
    /// The task is no longer in the file: deleted or changed beyond recognition elsewhere. Its text
    /// as the app last saw it.
    case taskGone(text: String)
    /// Another program held the file's writers' lock for this long.
    case lockTimeout(path: String, waited: Duration)
    /// The text cannot be a task, or the change cannot be made as asked: why.
    case invalidText(reason: String)
    /// The write was cancelled before it began (its task was cancelled while waiting for the lock).
    case cancelled
    /// There is no change of this store left to undo.
    case nothingToUndo
    /// The change to undo no longer applies: the file has changed since in a way it cannot be
    /// taken back over (the lines it made were edited or removed elsewhere).
    case undoNoLongerApplies

    public var errorDescription: String? {
        switch self {
        case .fileUnreadable(let path, _): "The to-do list \(Self.name(path)) can't be opened or saved."
        case .binaryFile(let path, _): "\(Self.name(path)) doesn't look like a to-do list."
        case .conflictMarkers(let path, _): "\(Self.name(path)) has a sync conflict that needs resolving."
        case .taskGone(let text): "The task \u{201C}\(text)\u{201D} was changed or deleted somewhere else."
        case .lockTimeout(let path, _): "\(Self.name(path)) is busy in another app."
        case .invalidText(let reason): "That can't be saved: \(reason)."
        case .cancelled: "The change was cancelled."
        case .nothingToUndo: "There is nothing to undo."
        case .undoNoLongerApplies: "The last change can't be undone: the list has changed since."
        }
    }

    public var failureReason: String? {
        switch self {
        case .fileUnreadable(_, let reason): reason
        case .binaryFile(_, let line): "Line \(line) holds a NUL byte, which a text file never has."
        case .conflictMarkers(_, let line): "A conflict block starts at line \(line)."
        case .lockTimeout(_, let waited): "Another program kept it locked for \(waited)."
        case .taskGone, .invalidText, .cancelled, .nothingToUndo, .undoNoLongerApplies: nil
        }
    }

    public var recoverySuggestion: String? {
        switch self {
        case .fileUnreadable: "Check that the file exists and that this app may read and write it."
        case .binaryFile: "Choose the right file. This one is left untouched."
        case .conflictMarkers: "Keep the lines you want between the <<<<<<< and >>>>>>> markers and remove the markers; nothing is saved until then."
        case .taskGone: "The list shows the file as it is now."
        case .lockTimeout: "Try again in a moment."
        case .invalidText, .cancelled, .nothingToUndo, .undoNoLongerApplies: nil
        }
    }

    /// The file's name, as a person recognises it.
    static func name(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The store's reading of a file-layer error about the file at `path`.
    init(_ error: FileSystemError, path: String) {
        switch error {
        case .holdsNUL(let path, let line): self = .binaryFile(path: path, line: line)
        case .locked(let path, let waited, _): self = .lockTimeout(path: path, waited: waited)
        case .openForWriting(let path, let waited): self = .lockTimeout(path: path, waited: waited)
        default: self = .fileUnreadable(path: path, reason: error.description)
        }
    }

    /// The store's reading of a live-file error about the file at `path`.
    init(_ error: LiveEditError, path: String) {
        switch error {
        case .taskGone(_, let task): self = .taskGone(text: String(decoding: task.content, as: UTF8.self))
        case .conflictMarkers(let path, let line): self = .conflictMarkers(path: path, line: line)
        case .changedMeanwhile: self = .undoNoLongerApplies
        case .edit(let problem): self = .invalidText(reason: problem.description)
        case .refused(let reason): self = .invalidText(reason: reason)
        case .file(let problem): self = TodoStoreError(problem, path: path)
        }
    }
}
