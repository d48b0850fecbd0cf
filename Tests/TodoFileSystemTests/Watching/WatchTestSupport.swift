// Helpers for the watcher tests: the ways files get saved. The event log, raw file operations and
// the descriptor count are in TodoTestSupport (WatchEvents.swift), shared with the resource tests.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization
import Testing
@testable import TodoFileSystem
import TodoTestSupport

/// The ways editors, sync clients and tools save a file (docs/notes/toolchain.md lists their inotify events).
enum SavePattern: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inPlaceTruncateWrite
    case tempThenRename
    case deleteThenRecreate
    case sedInPlace
    case appendOnly
    case vimBackupRename

    var testDescription: String { rawValue }

    /// What the file holds after `save(path, content)` when it held `initial`.
    func expected(initial: String, content: String) -> String {
        switch self {
        case .appendOnly: initial + content
        case .sedInPlace: "(A) " + initial
        default: content
        }
    }

    /// Saves `content` to `path` (which exists) this way. Writes are spread over ~40 ms, well inside
    /// the default settle time, so each save is one burst.
    func save(_ path: String, _ content: String) {
        let (directory, name) = WatchSystem.split(path)
        switch self {
        case .inPlaceTruncateWrite:
            writeFile(path, content, flags: O_WRONLY | O_TRUNC, chunks: 3, pause: .milliseconds(20))
        case .tempThenRename:
            let temp = directory + "/." + name + ".tmp"
            writeFile(temp, content, chunks: 2, pause: .milliseconds(20))
            precondition(rename(temp, path) == 0)
        case .deleteThenRecreate:
            precondition(unlink(path) == 0)
            sleepFor(.milliseconds(20))
            writeFile(path, content, flags: O_WRONLY | O_CREAT | O_EXCL, chunks: 2, pause: .milliseconds(20))
        case .sedInPlace:
            precondition(spawnWait(["sed", "-i", "1s/^/(A) /", path]) == 0)
        case .appendOnly:
            writeFile(path, content, flags: O_WRONLY | O_APPEND, chunks: 2, pause: .milliseconds(20))
        case .vimBackupRename:
            precondition(rename(path, path + "~") == 0)
            writeFile(path, content, flags: O_WRONLY | O_CREAT | O_EXCL, chunks: 2, pause: .milliseconds(20))
            precondition(unlink(path + "~") == 0)
        }
    }
}

