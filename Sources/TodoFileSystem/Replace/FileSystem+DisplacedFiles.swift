/// The old file a replacement swapped out, kept until what others appended to it is in the new file
/// (docs/files.md section 1, "A writer killed after its rename").
///
/// `renameExchange` leaves the old file under the temporary name. Bytes another program appends to
/// it around the swap are copied into the new file afterwards; a writer killed before that copy is
/// done used to leave them only in the old file, which was already unlinked. Now the old file is
/// renamed at once to a name that says which writer displaced it and how many of its bytes the new
/// file already holds (`.NAME.XXXXXX.PID.BYTES.displaced`), and removed only after the copy. The
/// next writer of the file (under the writers' lock, before it reads) finds a displaced file whose
/// writer is gone and appends the lines after BYTES that the file does not hold yet, then removes it.
struct DisplacedFile: Equatable {
    /// The process that displaced it.
    let writer: Int32
    /// How many bytes at its start the new file already reflects; the rest are late appends.
    let accounted: Int64

    /// The name for the old file of `target` displaced from `temporaryName` (`.NAME.XXXXXX.tmp`).
    static func name(target: String, temporaryName: String, writer: Int32, accounted: Int64) -> String {
        let token = temporaryName.hasSuffix(".tmp") ? String(temporaryName.dropLast(4)) : temporaryName
        return "\(token).\(writer).\(accounted).displaced"
    }

    /// Reads a displaced file's name (`.TARGET.XXXXXX.PID.BYTES.displaced`); nil for any other name.
    init?(name: String, target: String) {
        let prefix = "." + target + "."
        guard name.hasPrefix(prefix), name.hasSuffix(".displaced") else { return nil }
        let parts = name.dropFirst(prefix.count).dropLast(".displaced".count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].utf8.count == 6, let writer = Int32(parts[1]), let accounted = Int64(parts[2]),
              writer > 0, accounted >= 0 else { return nil }
        self.writer = writer
        self.accounted = accounted
    }
}

extension FileSystem {
    /// Right after the swap: renames the old file (now at `temporaryPath`) to its displaced name.
    /// Returns where it is now, for the caller to remove after the late-append copy; if the rename
    /// fails, it is still at `temporaryPath` (and a kill before its removal leaves it to the cleanup
    /// of abandoned temporary files, as before).
    func keepDisplaced(_ temporaryPath: String, _ target: ResolvedPath, accounted: Int64) -> String {
        let temporaryName = temporaryPath.split(separator: "/").last.map(String.init) ?? temporaryPath
        let name = DisplacedFile.name(target: target.name, temporaryName: temporaryName,
                                      writer: ProcessContext.processID(), accounted: accounted)
        let displaced = PathName.join(target.directory, name)
        do { try system.rename(temporaryPath, displaced) } catch { return temporaryPath }
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
            guard let status = try? system.lstat(path), status.kind == .regular,
                  let fd = try? openForReading(path) else { continue }
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
