/// The machinery both merges share: line identities, result units, placement of the other side's
/// lines, the sorted partition and rendering.

/// What a line is matched by.
enum MergeKey: Hashable {
    /// The owner of a uid (format.md section 4).
    case uid(String)
    /// Any other line: its bytes, and which occurrence of those bytes it is in file order.
    case text([UInt8], Int)
}

/// One input file, indexed for matching.
struct MergeSide {
    let document: TodoDocument
    /// The key of each line, by 0-based line index.
    let keys: [MergeKey]
    /// The line holding each key.
    let lineOfKey: [MergeKey: Int]

    /// Indexes `document`: one parse of each line's header and tags. O(n) expected.
    init(_ document: TodoDocument) {
        self.document = document
        let count = document.lineCount
        var uids: [String?] = Array(repeating: nil, count: count)
        var holders: [String: [Int]] = [:]
        var completed: [Bool] = Array(repeating: false, count: count)
        for index in 0..<count {
            let item = document.item(at: index)
            guard let uid = item.uid else { continue }
            uids[index] = uid
            completed[index] = item.isCompleted
            holders[uid, default: []].append(index)
        }
        var owners: [String: Int] = [:]
        for (uid, lines) in holders {
            if lines.count == 1 { owners[uid] = lines[0]; continue }
            let done = lines.filter { completed[$0] }
            owners[uid] = done.count == 1 ? done[0] : lines[0]
        }
        var occurrences: [[UInt8]: Int] = [:]
        var keys: [MergeKey] = []
        keys.reserveCapacity(count)
        var lineOfKey: [MergeKey: Int] = [:]
        lineOfKey.reserveCapacity(count)
        for index in 0..<count {
            let key: MergeKey
            if let uid = uids[index], owners[uid] == index {
                key = .uid(uid)
            } else {
                let bytes = Array(document.content(at: index))
                let occurrence = occurrences[bytes, default: 0]
                occurrences[bytes] = occurrence + 1
                key = .text(bytes, occurrence)
            }
            keys.append(key)
            lineOfKey[key] = index
        }
        self.keys = keys
        self.lineOfKey = lineOfKey
    }

    func content(_ index: Int) -> [UInt8] { Array(document.content(at: index)) }

    /// Whether the file is stably partitioned: no open line (task or blank) after a completed task.
    var isPartitioned: Bool {
        var seenCompleted = false
        for index in 0..<document.lineCount {
            if document.isCompletedLine(index) { seenCompleted = true } else if seenCompleted { return false }
        }
        return true
    }

    /// Whether any line is a completed task.
    var hasCompletedTask: Bool { (0..<document.lineCount).contains { document.isCompletedLine($0) } }
}

/// One line of the result; a nil terminator means "the result's dominant one".
struct MergeLine {
    var content: [UInt8]
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

    /// A single line; completed iff it starts with `x `.
    init(line content: [UInt8], terminator: LineTerminator?) {
        self.lines = [MergeLine(content: content, terminator: terminator)]
        self.isCompleted = content.count >= 2 && content[0] == 0x78 && content[1] == 0x20
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
            if isLast && !endsWithTerminator { break }
            var terminator = line.terminator ?? dominant
            if terminator == .none { terminator = dominant }
            if terminator == .lf && line.content.last == 0x0D { terminator = .crlf }
            out.append(contentsOf: terminator.bytes)
        }
        return TodoDocument(bytes: out)
    }
}
