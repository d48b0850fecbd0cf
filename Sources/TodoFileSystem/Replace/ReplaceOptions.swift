// The types of `FileSystem.replace` (FileSystem+Replace.swift): its options, outcome, notes, content and error.

import TodoTxt

/// How `FileSystem.replace` behaves where callers differ.
package struct ReplaceOptions: Sendable, Hashable {
    /// Create the file if it does not exist (the closure then receives `[]`). The new file gets
    /// mode `0666 & ~umask` (and the directory's default ACL), exactly like a file made by `>`.
    /// An empty result for a missing file creates nothing.
    package var createIfMissing: Bool
    /// How many times to read, compute and compare-and-swap before giving up with
    /// `FileSystemError.keptChanging`. At least 1.
    package var maxAttempts: Int

    /// Refuse to replace a file that holds a NUL byte (`FileSystemError.holdsNUL`), even when the
    /// closure changes nothing: a todo file never holds one, so it is most likely a binary file given
    /// by mistake, and rewriting it would help nobody. The bytes are searched during the
    /// compare-and-swap comparison, which reads them anyway (on a second thread for a large file).
    package var refusesNULBytes: Bool

    /// How long to wait for another process to close the file it has open for writing (an appender
    /// between its `open` and `close`: `( sleep 1; echo task ) >> todo.txt`) before the rename, and
    /// again after it for one that opened the old file just before. Bytes written to the old file
    /// after the rename would otherwise be lost with it. Still open before the rename when this runs
    /// out: `FileSystemError.openForWriting`, nothing written. See docs/notes/file-layer.md,
    /// "Late appends".
    package var writerWait: Duration

    /// Defaults: the file must exist; five attempts; NUL bytes allowed; writers waited for 5 s.
    /// `maxAttempts` below 1 is raised to 1.
    package init(createIfMissing: Bool = false, maxAttempts: Int = 5, refusesNULBytes: Bool = false,
                writerWait: Duration = .seconds(5)) {
        self.createIfMissing = createIfMissing
        self.maxAttempts = max(1, maxAttempts)
        self.refusesNULBytes = refusesNULBytes
        self.writerWait = writerWait
    }
}

/// Something worth telling the user about a replacement that did happen.
public enum ReplaceNote: Sendable, Hashable {
    /// Someone appended `byteCount` bytes to the old file after it was read (`echo … >> todo.txt`);
    /// they were appended to the new file too, before the rename (seen by the compare-and-swap check)
    /// or right after it (seen on the old descriptor, best effort).
    case lateAppend(byteCount: Int, afterRename: Bool)
    /// Bytes appended to the old file after the rename could not be copied into the new file.
    case lateAppendLost(byteCount: Int, FileSystemError)
    /// The old file had `linkCount` hard links; the other names still show the old content, because
    /// a rename gives the target a new inode.
    case hardLinksDetached(linkCount: UInt64)
    /// After the rename, another process still had the old file open for writing when
    /// `ReplaceOptions.writerWait` ran out: what it writes from now on goes to the replaced file.
    case stillOpenForWriting(waited: Duration)
    /// The rename happened, but syncing the directory failed, so a crash could still bring back
    /// the old file. The new content itself was synced.
    case notDurable(FileSystemError)
}

/// What `FileSystem.replace` did.
package enum ReplaceOutcome: Sendable, Hashable {
    /// The closure returned `nil` or the bytes it was given: nothing was created, written or renamed,
    /// so the inode and the modification time are untouched.
    case unchanged
    /// The target now holds the closure's result plus any late appends (see `notes`). `attempts`
    /// counts compare-and-swap rounds, 1 when nobody interfered.
    case written(attempts: Int, notes: [ReplaceNote])
}

/// The new content a `FileSystem.replace` closure returns.
public enum ReplacementContent: Sendable, Hashable {
    /// Exactly these bytes.
    case bytes([UInt8])
    /// The old content's byte ranges, concatenated in this order: the shape of a command that only
    /// reorders or drops lines (`todo sort`). The pieces go from the old bytes straight to `writev`
    /// while the temporary file is written, so no second file-sized buffer is built (its page faults
    /// would cost about as much as writing it: docs/notes/file-layer.md).
    ///
    /// Every range must lie within the old content (checked; a range outside is a programming error).
    case pieces([Range<Int>])
    /// Runs of several buffers (`BytePiece.source` numbers `sources`), concatenated in this order:
    /// the shape of a merge, whose result is lines of its inputs with a few new ones (`todo merge`,
    /// `todo reconcile`). Written with `writev` straight from the buffers, like `pieces`, so the
    /// result is never built in memory.
    ///
    /// Every piece must lie within its source (checked; one outside is a programming error).
    case gathered(sources: [[UInt8]], pieces: [BytePiece])

    /// Whether the new content equals `old` byte for byte. Pieces that tile `old` in order are equal
    /// without a look at the bytes; otherwise the comparison stops at the first difference, so a real
    /// change costs next to nothing to detect.
    func isSame(as old: [UInt8]) -> Bool {
        switch self {
        case .bytes(let bytes):
            return FileSystem.sameBytes(bytes[...], old[...])
        case .pieces(let pieces):
            var offset = 0
            var tiles = true
            for piece in pieces {
                if piece.lowerBound != offset { tiles = false }
                offset += piece.count
            }
            guard offset == old.count else { return false }
            if tiles { return true }
            offset = 0
            for piece in pieces where !piece.isEmpty {
                if !FileSystem.sameBytes(old[piece], old[offset..<(offset + piece.count)]) { return false }
                offset += piece.count
            }
            return true
        case .gathered(let sources, let pieces):
            var offset = 0
            for piece in pieces where piece.count > 0 {
                let range = piece.range
                guard offset + range.count <= old.count,
                      FileSystem.sameBytes(sources[Int(piece.source)][range], old[offset..<(offset + range.count)]) else { return false }
                offset += range.count
            }
            return offset == old.count
        }
    }
}

/// A failure of `FileSystem.replace`: either the file system's or the caller's closure's.
package enum ReplaceError<TransformError: Error>: Error, CustomStringConvertible {
    /// The file system failed; see `FileSystemError` for what is guaranteed about the target.
    case fileSystem(FileSystemError)
    /// The closure threw; nothing was written.
    case transform(TransformError)

    /// The underlying error's own one-line description.
    package var description: String {
        switch self {
        case .fileSystem(let error): error.description
        case .transform(let error): "\(error)"
        }
    }
}
