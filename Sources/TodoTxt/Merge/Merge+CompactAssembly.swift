/// The compact merge's result: the order of `MergeAssembler.orderedUnits` and the layout of
/// `MergeAssembler.render`, written as runs of the inputs (`MergeOutput`) instead of units and a
/// rendered buffer.

/// A result unit that is not simply a line of the first side kept as it is.
enum CompactUnit {
    /// The line at `offset` of input `side`, with `terminator` (nil: the result's dominant one).
    case line(side: Int, offset: Int, terminator: LineTerminator?)
    /// A unit the rules built (a merged line, a conflict block, a version with its marked other).
    case built(MergeUnit)
}

/// What became of each line of the first side, in one `UInt32` (its entry number before).
enum CompactDecision {
    static let removed: UInt32 = 0
    static let kept: UInt32 = 1
    /// `extra + k`: the unit `extras[k]`.
    static let extra: UInt32 = 2
    /// Set when only the first side has the line: THEIRS' lines placed before it wait past it.
    static let onlyFirst: UInt32 = 1 << 31
}

/// A line of the second side placed in the result: after the first side's line at `anchor`
/// (its offset), or at the start when `anchor` is `CompactIndex.absent`.
struct CompactPlacement {
    var anchor: UInt32
    var offset: UInt32
}

/// Orders and writes the result.
struct CompactAssembly {
    let buffers: CompactBuffers
    let first: CompactInput
    let firstSide: Int
    let otherSide: Int
    /// Per line of the first side, a `CompactDecision`.
    let decisions: [UInt32]
    let extras: [CompactUnit]
    /// The second side's placed lines, in its order.
    let placements: [CompactPlacement]

    /// The merged file's runs: over `sources`, which are the inputs followed by the buffer of new
    /// bytes this returns with them.
    func pieces(layout: CompactInput, fallback: CompactInput, sorted: Bool) -> (pieces: [BytePiece], extraBytes: [UInt8]) {
        let source = layout.lineCount > 0 ? layout : fallback
        var emitter = PieceEmitter(buffers: buffers, extrasSource: buffers.all.count, dominant: source.dominantTerminator)
        if layout.hasByteOrderMark || (layout.lineCount == 0 && fallback.hasByteOrderMark) { emitter.emitByteOrderMark() }
        if sorted {
            forEachUnit { unit in if !isCompleted(unit) { emitter.emit(unit, firstSide: firstSide, otherSide: otherSide) } }
            forEachUnit { unit in if isCompleted(unit) { emitter.emit(unit, firstSide: firstSide, otherSide: otherSide) } }
        } else {
            forEachUnit { emitter.emit($0, firstSide: firstSide, otherSide: otherSide) }
        }
        return emitter.finish(endsWithTerminator: source.lineCount > 0 ? source.endsWithTerminator : true)
    }

    /// A unit of the result.
    enum Unit {
        /// The first side's line at `offset`, with its own terminator; its content ends at
        /// `contentEnd` and the next line starts at `next` (found once, by `forEachUnit`).
        case first(offset: Int, contentEnd: Int, next: Int)
        /// A line of the second side placed as it is (the dominant terminator).
        case placed(offset: Int)
        case extra(CompactUnit)
    }

    /// Whether the unit sinks in a sorted result.
    func isCompleted(_ unit: Unit) -> Bool {
        switch unit {
        case .first(let offset, let contentEnd, _):
            guard let base = buffers[firstSide].baseAddress else { return false }
            return CompletedLine.isCompleted(base, lineStart: offset, end: contentEnd)
        case .placed(let offset): return lineIsCompleted(otherSide, offset)
        case .extra(.line(let side, let offset, _)): return lineIsCompleted(side, offset)
        case .extra(.built(let unit)): return unit.isCompleted
        }
    }

    private func lineIsCompleted(_ side: Int, _ offset: Int) -> Bool {
        let content = buffers.content(side, at: offset)
        guard let base = content.baseAddress else { return false }
        return CompletedLine.isCompleted(base, lineStart: 0, end: content.count)
    }

    /// Calls `body` with each unit in result order: the first side's order, each placed line after
    /// its anchor, past the lines only the first side has (`MergeAssembler.orderedUnits`).
    func forEachUnit(_ body: (Unit) -> Void) {
        let atStart = placements.filter { $0.anchor == CompactIndex.absent }
        // By anchor, the second side's order kept among one anchor's lines.
        let anchored = placements.enumerated().filter { $0.element.anchor != CompactIndex.absent }
            .sorted { ($0.element.anchor, $0.offset) < ($1.element.anchor, $1.offset) }.map(\.element)
        var pending = atStart.map(\.offset)
        var next = 0
        let buffer = buffers[firstSide]
        guard let base = buffer.baseAddress else {
            for offset in pending { body(.placed(offset: Int(offset))) }
            return
        }
        var start = first.begin
        var line = 0
        while start < buffer.count {
            let (contentEnd, following) = CompactInput.line(base, at: start, count: buffer.count)
            let decision = decisions[line]
            let code = decision & ~CompactDecision.onlyFirst
            defer {
                start = following
                line += 1
            }
            // Placed lines anchored here follow it (none can be anchored on a removed line: a line
            // the second side holds is always kept).
            func anchoredHere() -> ArraySlice<CompactPlacement> {
                let from = next
                while next < anchored.count && Int(anchored[next].anchor) == start { next += 1 }
                return anchored[from..<next]
            }
            if code == CompactDecision.removed {
                _ = anchoredHere()
                continue
            }
            if decision & CompactDecision.onlyFirst == 0 && !pending.isEmpty {
                for offset in pending { body(.placed(offset: Int(offset))) }
                pending.removeAll(keepingCapacity: true)
            }
            if code == CompactDecision.kept {
                body(.first(offset: start, contentEnd: contentEnd, next: following))
            } else {
                body(.extra(extras[Int(code - CompactDecision.extra)]))
            }
            pending.append(contentsOf: anchoredHere().map(\.offset))
        }
        for offset in pending { body(.placed(offset: Int(offset))) }
    }
}

/// Writes units as runs: lines kept with their own terminator are runs of their input (consecutive
/// lines one run); other terminators and built lines go into a buffer of new bytes.
struct PieceEmitter {
    let buffers: CompactBuffers
    /// The number of the new bytes' buffer among the sources.
    let extrasSource: Int
    let dominant: LineTerminator
    private var pieces = PieceList()
    /// CR LF at 0 (LF alone at 1), the byte order mark at 2; then built lines.
    private var extras: [UInt8] = [0x0D, 0x0A, 0xEF, 0xBB, 0xBF]
    private var lineTotal = 0
    private var lastTerminatorLength = 0
    private var lastContentEmpty = true

    init(buffers: CompactBuffers, extrasSource: Int, dominant: LineTerminator) {
        self.buffers = buffers
        self.extrasSource = extrasSource
        self.dominant = dominant
    }

    mutating func emitByteOrderMark() {
        pieces.append(source: extrasSource, start: 2, count: 3)
    }

    /// Which terminator a line gets.
    enum Ending {
        /// Its own, as stored (none: the dominant one).
        case own
        /// This one (none: the dominant one).
        case given(LineTerminator)
        /// The result's dominant one.
        case dominant
    }

    mutating func emit(_ unit: CompactAssembly.Unit, firstSide: Int, otherSide: Int) {
        switch unit {
        case .first(let offset, let contentEnd, let next):
            emitLine(side: firstSide, offset: offset, contentEnd: contentEnd, next: next, ending: .own)
        case .placed(let offset): emitLine(side: otherSide, offset: offset, ending: .dominant)
        case .extra(.line(let side, let offset, let terminator)):
            emitLine(side: side, offset: offset, ending: terminator.map { .given($0) } ?? .dominant)
        case .extra(.built(let built)): emitBuilt(built)
        }
    }

    /// The terminator a result line gets (`MergeAssembler.render`): its own, else the dominant one;
    /// a line whose content ends in CR gets CR LF.
    @inline(__always)
    private func resolved(_ terminator: LineTerminator?, endsInCR: Bool) -> LineTerminator {
        var resolved = terminator ?? dominant
        if resolved == .none { resolved = dominant }
        if resolved == .lf && endsInCR { resolved = .crlf }
        return resolved
    }

    /// The line at `offset` of input `side`.
    mutating func emitLine(side: Int, offset: Int, ending: Ending) {
        let buffer = buffers[side]
        guard let base = buffer.baseAddress else { return }
        let (contentEnd, next) = CompactInput.line(base, at: offset, count: buffer.count)
        emitLine(side: side, offset: offset, contentEnd: contentEnd, next: next, ending: ending)
    }

    /// The line at `offset` of input `side`, whose content ends at `contentEnd` and after which the
    /// next line starts at `next`.
    @inline(__always)
    mutating func emitLine(side: Int, offset: Int, contentEnd: Int, next: Int, ending: Ending) {
        guard let base = buffers[side].baseAddress else { return }
        let stored = CompactInput.terminator(contentEnd: contentEnd, next: next)
        let wanted: LineTerminator? = switch ending {
        case .own: stored
        case .given(let given): given
        case .dominant: nil
        }
        let endsInCR = contentEnd > offset && base[contentEnd - 1] == 0x0D
        let ending = resolved(wanted, endsInCR: endsInCR)
        if ending == stored {
            pieces.append(source: side, start: offset, count: next - offset)
        } else {
            pieces.append(source: side, start: offset, count: contentEnd - offset)
            appendTerminator(ending)
        }
        noteLine(contentEmpty: contentEnd == offset, terminator: ending)
    }

    /// A unit the rules built: its bytes and terminators into the new bytes' buffer.
    mutating func emitBuilt(_ unit: MergeUnit) {
        unit.forEachLine { line in
            let start = extras.count
            extras.append(contentsOf: line.content)
            let ending = resolved(line.terminator, endsInCR: line.content.last == 0x0D)
            switch ending {
            case .lf: extras.append(0x0A)
            case .crlf: extras.append(0x0D); extras.append(0x0A)
            case .none: break
            }
            pieces.append(source: extrasSource, start: start, count: extras.count - start)
            noteLine(contentEmpty: line.content.isEmpty, terminator: ending)
        }
    }

    private mutating func appendTerminator(_ ending: LineTerminator) {
        switch ending {
        case .crlf: pieces.append(source: extrasSource, start: 0, count: 2)
        case .lf: pieces.append(source: extrasSource, start: 1, count: 1)
        case .none: break
        }
    }

    private mutating func noteLine(contentEmpty: Bool, terminator: LineTerminator) {
        lineTotal += 1
        lastContentEmpty = contentEmpty
        lastTerminatorLength = terminator.byteCount
    }

    /// The runs, with the last line's terminator dropped when the layout has no final newline (an
    /// empty last line keeps it: without one it would not be a line), and the new bytes.
    mutating func finish(endsWithTerminator: Bool) -> (pieces: [BytePiece], extraBytes: [UInt8]) {
        if lineTotal > 0 && !endsWithTerminator && !lastContentEmpty { pieces.dropLast(lastTerminatorLength) }
        return (pieces.pieces, extras)
    }
}
