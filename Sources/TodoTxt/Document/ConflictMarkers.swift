/// Unresolved merge-conflict markers left in a todo file (a `git merge` that stopped, or a merge
/// driver's conflict block that nobody resolved).
///
/// A file holding them is two versions of some tasks at once: sorting it would move the versions
/// apart and leave empty markers behind, and any edit would be made to one version only. So every
/// writer refuses such a file until the user has resolved the block (docs/todo-command.md, "Unresolved conflict markers").
///
/// A block counts only when complete: a line that starts with seven `<` (then a space or the line's
/// end), and after it a line that starts with seven `>` (likewise). A lone `=======` line is
/// a separator some people write, and a lone start marker is text; neither is a block.
public enum ConflictMarkers {
    /// The 1-based number of the line where the first complete conflict block starts, or nil.
    ///
    /// Complexity: O(n), one vectorised search for `<` (rare in task text) and, after a start
    /// marker, one for `>`; no allocation.
    public static func firstBlockLine(in bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            let count = buffer.count
            let begin = TodoDocument.startsWithByteOrderMark(buffer) ? 3 : 0
            guard let start = markerLine(of: 0x3C, in: base, from: begin, begin: begin, count: count) else { return nil }
            guard markerLine(of: 0x3E, in: base, from: start + 7, begin: begin, count: count) != nil else { return nil }
            var lines = 1
            forEachLF(base, from: begin, to: start) { _ in lines += 1 }
            return lines
        }
    }

    /// The offset of the first line at or after `from` that starts with seven `marker` bytes followed
    /// by a space, CR, LF or the end of the buffer.
    static func markerLine(of marker: UInt8, in base: UnsafePointer<UInt8>, from: Int, begin: Int,
                           count: Int) -> Int? {
        var index = from
        while true {
            index = ByteSearch.firstIndex(of: marker, in: base, from: index, to: count)
            guard index < count else { return nil }
            if index == begin || base[index - 1] == 0x0A, index + 7 <= count {
                var run = 1
                while run < 7 && base[index + run] == marker { run += 1 }
                if run == 7 {
                    let after = index + 7
                    if after == count || base[after] == 0x20 || base[after] == 0x0D || base[after] == 0x0A {
                        return index
                    }
                }
            }
            index += 1
        }
    }
}
