/// The old file a replacement swaps out, kept until what others appended to it is in the new file
/// (docs/files.md section 1, "A writer killed after its swap").
///
/// `renameExchange` leaves the old file under the temporary file's name, and bytes another program
/// appends to it around the swap are copied into the new file afterwards; a writer killed before
/// that copy used to leave them only in the old file, already unlinked. So just before the swap the
/// temporary file is renamed `.NAME.XXXXXX.PID.BYTES.INODE.displaced`: the writer, how many bytes at
/// the old file's start the new file holds, and the old file's inode. After the swap that name holds
/// the old file (its inode is INODE) until the writer removes it, after the copy; before the swap it
/// holds the new content (another inode). The next writer of the file, under the writers' lock and
/// before it reads, finds such a file whose writer is gone: the old file gets its lines after BYTES
/// appended where the file lacks them, and is removed; a temporary file that never got swapped in is
/// only removed.
struct DisplacedFile: Equatable {
    /// The process that displaced it.
    let writer: Int32
    /// How many bytes at its start the new file already reflects; the rest are late appends.
    let accounted: Int64
    /// The old file's inode: the file under this name is the old file only if it has this inode.
    let inode: UInt64

    /// The displaced name for the temporary file `temporaryName` (`.NAME.XXXXXX.tmp`).
    static func name(temporaryName: String, writer: Int32, accounted: Int64, inode: UInt64) -> String {
        let token = temporaryName.hasSuffix(".tmp") ? String(temporaryName.dropLast(4)) : temporaryName
        return "\(token).\(writer).\(accounted).\(inode).displaced"
    }

    /// Reads a displaced name (`.TARGET.XXXXXX.PID.BYTES.INODE.displaced`); nil for any other name.
    init?(name: String, target: String) {
        let prefix = "." + target + "."
        guard name.hasPrefix(prefix), name.hasSuffix(".displaced") else { return nil }
        let parts = name.dropFirst(prefix.count).dropLast(".displaced".count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0].utf8.count == 6, let writer = Int32(parts[1]), let accounted = Int64(parts[2]),
              let inode = UInt64(parts[3]), writer > 0, accounted >= 0 else { return nil }
        self.writer = writer
        self.accounted = accounted
        self.inode = inode
    }
}

extension FileSystem {
    /// Just before the swap: renames the temporary file at `temporaryPath` to its displaced name
    /// (`old` is the identity of the file it is about to replace). Returns where it is now; if the
    /// rename fails it stays where it was, and a kill between the swap and its removal leaves the
    /// old file to the cleanup of abandoned temporary files, with any line appended to it then.
    func nameForSwap(_ temporaryPath: String, _ target: ResolvedPath, accounted: Int64, old: FileIdentity) -> String {
        let temporaryName = temporaryPath.split(separator: "/").last.map(String.init) ?? temporaryPath
        let name = DisplacedFile.name(temporaryName: temporaryName, writer: ProcessContext.processID(),
                                      accounted: accounted, inode: old.inode)
        let displaced = PathName.join(target.directory, name)
        do { try system.renameNoReplace(temporaryPath, displaced) } catch { return temporaryPath }
        return displaced
    }

    /// Appends to `target` the late lines of every displaced file beside it whose writer is gone,
    /// those the file does not hold already (the writer may have copied some before it died), then
    /// removes the displaced file. Call it holding the writers' lock. Best effort: a file that cannot
    /// be read or appended, or that another process still has open for writing, is left for the next
    /// writer. One directory listing when there is none.
    func recoverDisplacedFiles(_ target: ResolvedPath) {
        guard let names = directoryEntries(target.directory, withPrefix: "." + target.name + ".") else { return }
        for name in names {
            guard let displaced = DisplacedFile(name: name, target: target.name),
                  !ProcessContext.processExists(displaced.writer) else { continue }
            let path = PathName.join(target.directory, name)
            guard let status = try? system.lstat(path), status.kind == .regular else { continue }
            // Its writer died before the swap: a temporary file like any other, never the only copy.
            guard status.identity.inode == displaced.inode else {
                _ = try? system.unlink(path)
                continue
            }
            guard let fd = try? openForReading(path) else { continue }
            // An appender that opened the old file before the swap may still write to it: the file
            // waits for the next writer then (a line it wrote after the removal would be lost).
            let contents = (try? system.othersWriting(fd)) == true ? nil : try? readOpenFile(fd, path: path)
            system.closeQuietly(fd)
            guard let bytes = contents?.1 else { continue }
            if bytes.count > displaced.accounted {
                let late = Array(bytes[Int(displaced.accounted)...])
                guard let current = try? read(target.path).bytes else { continue }
                let missing = FileSystem.lines(of: late, missingFrom: current)
                if !missing.isEmpty {
                    guard (try? appendRecovered(target, missing, options: AppendOptions(startOnNewLine: true, createIfMissing: false))) != nil
                    else { continue }
                }
            }
            _ = try? system.unlink(path)
        }
    }

    /// The lines of `late` (each with its terminator; a last line without one gets a newline) that
    /// `current` does not hold, counted: a line `late` holds twice and `current` once is missing once.
    static func lines(of late: [UInt8], missingFrom current: [UInt8]) -> [UInt8] {
        func split(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
            var lines: [ArraySlice<UInt8>] = []
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: newline) ?? bytes.count
                var line = bytes[start..<end]
                if line.last == 0x0D { line = line.dropLast() }
                lines.append(line)
                start = end + 1
            }
            return lines
        }
        let lateLines = split(late).filter { !$0.isEmpty }
        var wanted: [ArraySlice<UInt8>: Int] = [:]
        for line in lateLines { wanted[line, default: 0] += 1 }
        for line in split(current) where wanted[line, default: 0] > 0 { wanted[line, default: 0] -= 1 }
        var missing: [UInt8] = []
        for line in lateLines where wanted[line, default: 0] > 0 {
            wanted[line, default: 0] -= 1
            missing += line
            missing.append(newline)
        }
        return missing
    }
}
