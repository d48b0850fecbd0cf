/// The machinery both merges share for building the result: result units, placement of the other
/// side's lines, the sorted partition and rendering. Matching is in Merge+Index.swift and Merge+Side.swift.

/// One line of the result; a nil terminator means "the result's dominant one".
struct MergeLine {
    var content: ArraySlice<UInt8>
    var terminator: LineTerminator?
}

/// A piece of the result that moves as a whole: one line, a conflict block, or a task with its marked
/// other version.
struct MergeUnit {
    var lines: [MergeLine]
    /// Sinks in a sorted result.
    var isCompleted: Bool

    init(_ lines: [MergeLine], isCompleted: Bool) {
        self.lines = lines
        self.isCompleted = isCompleted
    }

    /// A single line; completed iff it starts with `x ` (after a line's own byte order marks, as
    /// `TodoItem` reads it).
    init(line content: ArraySlice<UInt8>, terminator: LineTerminator?) {
        self.lines = [MergeLine(content: content, terminator: terminator)]
        var first = content.startIndex
        while content.endIndex - first >= 3 && content[first] == 0xEF && content[first + 1] == 0xBB && content[first + 2] == 0xBF {
            first += 3
        }
        self.isCompleted = content.endIndex - first >= 2 && content[first] == 0x78 && content[first + 1] == 0x20
    }
}

/// What became of a line of the second side (THEIRS, or the copy).
enum OtherLineFate {
    /// Matched a line of the first side that is in the result (at its index): it anchors what follows.
    case matched(Int)
    /// Only this side has it and it stays: placed after its anchor.
    case placed(MergeUnit)
    /// Not in the result.
    case dropped
}

/// Builds the merged document from the decisions of a merge.
///
/// - `first`: a unit (or nil: removed) for each line of the first side, in its order.
/// - `onlyFirst`: whether each first-side line is one only that side has (skipped past when placing).
/// - `otherFates`: the fate of each line of the second side, in its order.
struct MergeAssembler {
    var first: [MergeUnit?]
    var onlyFirst: [Bool]
    var otherFates: [OtherLineFate]

    /// The units in result order: the first side's order, the second side's placed lines after their
    /// nearest preceding anchor (past lines only the first side has), optionally stably partitioned.
    func orderedUnits(sorted: Bool) -> [MergeUnit] {
        var atStart: [MergeUnit] = []
        var after: [Int: [MergeUnit]] = [:]
        var anchor: Int?
        for fate in otherFates {
            switch fate {
            case .matched(let index): anchor = index
            case .placed(let unit):
                if let anchor { after[anchor, default: []].append(unit) } else { atStart.append(unit) }
            case .dropped: break
            }
        }
        var result: [MergeUnit] = []
        result.reserveCapacity(first.count + otherFates.count)
        var pending = atStart
        for (index, unit) in first.enumerated() {
            guard let unit else { continue }
            if !onlyFirst[index] && !pending.isEmpty {
                result.append(contentsOf: pending)
                pending.removeAll()
            }
            result.append(unit)
            if let placed = after[index] { pending.append(contentsOf: placed) }
        }
        result.append(contentsOf: pending)
        guard sorted else { return result }
        return result.filter { !$0.isCompleted } + result.filter(\.isCompleted)
    }

    /// Renders units with the layout of `layout` (OURS or the file), falling back to `fallback`'s when
    /// the layout file has no lines.
    ///
    /// Invariant: the rendered document has exactly one line per unit line. The final newline follows
    /// the layout, except that an empty last line always gets a terminator: without one it would render
    /// as nothing and vanish when read back, dropping a blank line a side kept or added (as
    /// `TodoDocument.reorder` does, the line count wins over the final-newline state).
    static func render(_ units: [MergeUnit], layout: TodoDocument, fallback: TodoDocument) -> TodoDocument {
        let source = layout.lineCount > 0 ? layout : fallback
        let dominant = source.dominantTerminator
        let endsWithTerminator = source.lineCount > 0 ? source.endsWithTerminator : true
        let byteOrderMark = layout.hasByteOrderMark || (layout.lineCount == 0 && fallback.hasByteOrderMark)
        var out: [UInt8] = byteOrderMark ? TodoDocument.byteOrderMark : []
        let lines = units.flatMap(\.lines)
        for (position, line) in lines.enumerated() {
            out.append(contentsOf: line.content)
            let isLast = position == lines.count - 1
            if isLast && !endsWithTerminator && !line.content.isEmpty { break }
            var terminator = line.terminator ?? dominant
            if terminator == .none { terminator = dominant }
            if terminator == .lf && line.content.last == 0x0D { terminator = .crlf }
            out.append(contentsOf: terminator.bytes)
        }
        return TodoDocument(bytes: out)
    }
}
