/// The one test of "is this line a completed task" (docs/format.md section 2): the line starts with
/// `x` and a space, read after the byte order marks the line itself starts with (as every line is
/// read, wherever it sits). The parser (`TodoItem`, `TodoItem.classify`), sorting
/// (`TodoDocument.sortedOrder`) and the vector scans of `sortedPieces` and `completedRuns` all ask
/// here; a vector scan only picks candidate lines, which this test then decides.
///
/// (todo.sh's own reading, `TodoShDialect.isDone`, is a different rule on purpose: no marks skipped.)
enum CompletedLine {
    /// `x`, the first byte of the mark.
    static let markLetter: UInt8 = 0x78
    /// The space after it.
    static let markSpace: UInt8 = 0x20
    /// The mark as a writer puts it in front of a line.
    static let mark: [UInt8] = [markLetter, markSpace]

    /// Where the reading of the line starting at `start` begins: after every UTF-8 byte order mark
    /// (EF BB BF) at its start. `end` bounds the bytes that may be read.
    @inline(__always)
    static func textStart(_ base: UnsafePointer<UInt8>, from start: Int, end: Int) -> Int {
        var position = start
        while end - position >= 3 && base[position] == 0xEF && base[position + 1] == 0xBB && base[position + 2] == 0xBF {
            position += 3
        }
        return position
    }

    /// Whether the mark starts at `position` (the line's text start), reading no byte at `end` or past it.
    @inline(__always)
    static func hasMark(_ base: UnsafePointer<UInt8>, at position: Int, end: Int) -> Bool {
        end - position >= 2 && base[position] == markLetter && base[position + 1] == markSpace
    }

    /// Whether the line starting at `start` is a completed task. `end` is the end of the line or of
    /// the whole buffer (the marks and `x ` never hold a line feed, so neither reads into the next
    /// line).
    @inline(__always)
    static func isCompleted(_ base: UnsafePointer<UInt8>, lineStart start: Int, end: Int) -> Bool {
        hasMark(base, at: textStart(base, from: start, end: end), end: end)
    }

    /// `isCompleted` for a line's content.
    @inline(__always)
    static func isCompleted(_ content: ArraySlice<UInt8>) -> Bool {
        content.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress else { return false }
            return isCompleted(base, lineStart: 0, end: bytes.count)
        }
    }
}
