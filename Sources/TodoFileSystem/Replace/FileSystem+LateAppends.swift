// Late appends (docs/notes/file-layer.md, "Late appends"): bytes another process appended to the old file, carried into the new one.

extension FileSystem {
    /// Writes the part of `late` not yet in the temporary file (`late` extends `copied`) and
    /// records it in `copied`. The first late bytes start on a line of their own; later ones
    /// continue them as they are, since an appender may write one line in several pieces.
    func copyLate(
        _ late: [UInt8], after copied: inout [UInt8], into writer: inout TemporaryFileWriter, path: String
    ) throws(FileSystemError) {
        guard late.count > copied.count else { return }
        let new = Array(late[copied.count...])
        do {
            try writer.append(copied.isEmpty ? FileSystem.joiningLines(after: writer.lastByte, new) : new)
        } catch {
            throw .failed(.write, path: path, error)
        }
        copied = late
    }

    /// Step 6, after the rename: copies bytes appended to the old inode since `accounted` into the
    /// new file; `continuing` when late bytes were copied before the rename, which these continue
    /// as they are. Never throws; failures become notes.
    /// Returns the notes and how many bytes of the old file it read (copied, or reported lost).
    func copyLateAppends(
        from old: FileDescriptor, accounted: Int64, continuing: Bool,
        into writer: inout TemporaryFileWriter, path: String
    ) -> (notes: [ReplaceNote], count: Int) {
        guard let status = try? system.fstat(old), status.identity.size > accounted else { return ([], 0) }
        let count = Int(status.identity.size - accounted)
        do {
            let late = try system.pread(old, count: count, at: accounted)
            try writer.append(continuing ? late : FileSystem.joiningLines(after: writer.lastByte, late))
            try system.fsync(writer.descriptor)
            return ([.lateAppend(byteCount: late.count, afterRename: true)], late.count)
        } catch {
            return ([.lateAppendLost(byteCount: count, .failed(.append, path: path, error))], count)
        }
    }

    /// How long after the rename the second look for late appends waits (only when an appender is
    /// at work; see `replace`).
    static let secondLookDelay: Duration = .milliseconds(10)

    /// `late` as it must be appended after content whose last byte is `lastByte`: preceded by a
    /// newline if that content does not end with one, so an appended line never fuses with the last
    /// line of the new content.
    static func joiningLines(after lastByte: UInt8?, _ late: [UInt8]) -> [UInt8] {
        guard let lastByte, lastByte != newline, !late.isEmpty else { return late }
        return [newline] + late
    }
}
