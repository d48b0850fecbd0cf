/// The machinery both merges share for building the result: result units, placement of the other
/// side's lines, the sorted partition and rendering. Matching is in Merge+Index.swift and Merge+Side.swift.

/// One line of the result; a nil terminator means "the result's dominant one".
struct MergeLine {
    var content: ArraySlice<UInt8>
    var terminator: LineTerminator?
}

/// A piece of the result that moves as a whole: one line, a conflict block, or a task with its marked
/// other version.
///
/// Stored as its first line plus the rest, so that the usual single line (one per line of a merged
/// file) allocates nothing: `rest` is empty, and an empty array has no storage.
struct MergeUnit {
    /// The first line.
    var head: MergeLine
    /// The lines after the first (a conflict block's, or a marked other version); usually none.
    var rest: [MergeLine]
    /// Sinks in a sorted result.
    var isCompleted: Bool

    /// A unit of `lines`, which is not empty.
    init(_ lines: [MergeLine], isCompleted: Bool) {
        precondition(!lines.isEmpty, "a merge unit holds at least one line")
        self.head = lines[0]
        self.rest = Array(lines.dropFirst())
        self.isCompleted = isCompleted
    }

    /// Every line of the unit, in order.
    var lineCount: Int { 1 + rest.count }

    /// Calls `body` with each line, in order.
    @inline(__always)
    func forEachLine(_ body: (MergeLine) -> Void) {
        body(head)
        for line in rest { body(line) }
    }

    /// A single line; completed iff it starts with `x ` (after a line's own byte order marks, as
    /// `TodoItem` reads it).
    init(line content: ArraySlice<UInt8>, terminator: LineTerminator?) {
        self.head = MergeLine(content: content, terminator: terminator)
        self.rest = []
        self.isCompleted = CompletedLine.isCompleted(content)
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
        // The stable partition into one new array (not two filtered ones and their sum).
        var partitioned: [MergeUnit] = []
        partitioned.reserveCapacity(result.count)
        for unit in result where !unit.isCompleted { partitioned.append(unit) }
        for unit in result where unit.isCompleted { partitioned.append(unit) }
        return partitioned
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
        // One exactly sized buffer: the contents plus at most two terminator bytes per line.
        var capacity = 3, lineTotal = 0
        for unit in units {
            unit.forEachLine { capacity += $0.content.count + 2 }
            lineTotal += unit.lineCount
        }
        var out: [UInt8] = []
        out.reserveCapacity(capacity)
        if byteOrderMark { out += TodoDocument.byteOrderMark }
        var position = 0
        for unit in units {
            unit.forEachLine { line in
                out.append(contentsOf: line.content)
                let isLast = position == lineTotal - 1
                position += 1
                if isLast && !endsWithTerminator && !line.content.isEmpty { return }
                var terminator = line.terminator ?? dominant
                if terminator == .none { terminator = dominant }
                if terminator == .lf && line.content.last == 0x0D { terminator = .crlf }
                switch terminator {
                case .lf: out.append(0x0A)
                case .crlf: out.append(0x0D); out.append(0x0A)
                case .none: break
                }
            }
        }
        return TodoDocument(bytes: out)
    }
}
