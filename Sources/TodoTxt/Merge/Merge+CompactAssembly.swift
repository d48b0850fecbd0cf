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
    /// bytes this returns with them. A large result is laid out in two parts through `workers`
    /// (`CompactHalves.threshold`): the first side's lines cut in two at a line both sides hold,
    /// or, for a sorted result, the open units and the completed ones; the parts are joined in
    /// order, so the bytes are the ones a single pass lays out.
    func pieces(layout: CompactInput, fallback: CompactInput, sorted: Bool,
                workers: MergeWorkers = .oneThread) -> (pieces: [BytePiece], extraBytes: [UInt8]) {
        let source = layout.lineCount > 0 ? layout : fallback
        var emitter = PieceEmitter(buffers: buffers, extrasSource: buffers.all.count, dominant: source.dominantTerminator)
        var later = emitter
        if layout.hasByteOrderMark || (layout.lineCount == 0 && fallback.hasByteOrderMark) { emitter.emitByteOrderMark() }
        let placed = orderedPlacements()
        let whole = Stretch(start: first.begin, line: 0, end: buffers[firstSide].count, placesAtStart: true)
        let halving = whole.end - whole.start >= max(1, workers.halvingThreshold)
        let (firstSide, otherSide) = (self.firstSide, self.otherSide)
        if sorted {
            let open = { (emitter: inout PieceEmitter) in
                forEachUnit(in: whole, placed) { unit in if !isCompleted(unit) { emitter.emit(unit, firstSide: firstSide, otherSide: otherSide) } }
            }
            let completed = { (emitter: inout PieceEmitter) in
                forEachUnit(in: whole, placed) { unit in if isCompleted(unit) { emitter.emit(unit, firstSide: firstSide, otherSide: otherSide) } }
            }
            if halving {
                workers.runBoth({ open(&emitter) }, { completed(&later) })
                emitter.absorb(later)
            } else {
                open(&emitter)
                completed(&emitter)
            }
        } else if halving, let (head, tail) = cut(whole) {
            workers.runBoth({ forEachUnit(in: head, placed) { emitter.emit($0, firstSide: firstSide, otherSide: otherSide) } },
                            { forEachUnit(in: tail, placed) { later.emit($0, firstSide: firstSide, otherSide: otherSide) } })
            emitter.absorb(later)
        } else {
            forEachUnit(in: whole, placed) { emitter.emit($0, firstSide: firstSide, otherSide: otherSide) }
        }
        return emitter.finish(endsWithTerminator: source.lineCount > 0 ? source.endsWithTerminator : true)
    }

    /// Lines of the first side laid out together (`forEachUnit`): those starting in `start..<end`,
    /// line `line` the first; the first stretch also places the lines anchored before any line.
    struct Stretch {
        var start: Int
        var line: Int
        var end: Int
        var placesAtStart: Bool
    }

    /// `whole` cut in two near its middle, before a line both sides hold (so that no placed line
    /// waits across the cut: `forEachUnit` places waiting lines before such a line, and at the
    /// end of a stretch); nil when no such line is found near the middle.
    func cut(_ whole: Stretch) -> (Stretch, Stretch)? {
        let buffer = buffers[firstSide]
        guard let base = buffer.baseAddress else { return nil }
        var (start, line) = CompactInput.split(base, near: whole.start + (whole.end - whole.start) / 2, from: whole.start,
                                               count: whole.end, checkpoints: first.checkpoints)
        var looked = 0
        while start < whole.end && line < decisions.count && looked < Self.cutSearch {
            let decision = decisions[line]
            if decision & CompactDecision.onlyFirst == 0 && decision & ~CompactDecision.onlyFirst != CompactDecision.removed {
                return (Stretch(start: whole.start, line: whole.line, end: start, placesAtStart: true),
                        Stretch(start: start, line: line, end: whole.end, placesAtStart: false))
            }
            start = CompactInput.line(base, at: start, count: buffer.count).next
            line += 1
            looked += 1
        }
        return nil
    }

    /// Lines `cut` looks at past the middle for one both sides hold.
    static let cutSearch = 1 << 12

    /// The second side's placed lines: those before any line of the first side, and the others by
    /// anchor, the second side's order kept among one anchor's lines.
    func orderedPlacements() -> (atStart: [UInt32], anchored: [CompactPlacement]) {
        let atStart = placements.filter { $0.anchor == CompactIndex.absent }.map(\.offset)
        let anchored = placements.enumerated().filter { $0.element.anchor != CompactIndex.absent }
            .sorted { ($0.element.anchor, $0.offset) < ($1.element.anchor, $1.offset) }.map(\.element)
        return (atStart, anchored)
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

    /// Calls `body` with each unit of `stretch` in result order: the first side's order, each placed
    /// line after its anchor, past the lines only the first side has (`MergeAssembler.orderedUnits`);
    /// the lines still waiting at the stretch's end follow it. `placed` is `orderedPlacements()`.
    func forEachUnit(in stretch: Stretch, _ placed: (atStart: [UInt32], anchored: [CompactPlacement]), _ body: (Unit) -> Void) {
        let anchored = placed.anchored
        var pending = stretch.placesAtStart ? placed.atStart : []
        // The first placement anchored in the stretch: anchors are line starts, in order.
        var next = 0, above = anchored.count
        while next < above {
            let middle = (next + above) / 2
            if Int(anchored[middle].anchor) < stretch.start { next = middle + 1 } else { above = middle }
        }
        let buffer = buffers[firstSide]
        guard let base = buffer.baseAddress else {
            for offset in pending { body(.placed(offset: Int(offset))) }
            return
        }
        var start = stretch.start
        var line = stretch.line
        while start < stretch.end {
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

    /// Takes in `later`'s units, laid out after these by an emitter of the same sources: its runs
    /// (those in its new bytes moved past these), its new bytes, and its last line's facts.
    mutating func absorb(_ later: PieceEmitter) {
        let shift = extras.count
        for piece in later.pieces.pieces {
            let source = Int(piece.source)
            pieces.append(source: source, start: source == extrasSource ? piece.start + shift : piece.start, count: Int(piece.count))
        }
        extras += later.extras
        guard later.lineTotal > 0 else { return }
        lineTotal += later.lineTotal
        lastContentEmpty = later.lastContentEmpty
        lastTerminatorLength = later.lastTerminatorLength
    }

    /// The runs, with the last line's terminator dropped when the layout has no final newline (an
    /// empty last line keeps it: without one it would not be a line), and the new bytes.
    mutating func finish(endsWithTerminator: Bool) -> (pieces: [BytePiece], extraBytes: [UInt8]) {
        if lineTotal > 0 && !endsWithTerminator && !lastContentEmpty { pieces.dropLast(lastTerminatorLength) }
        return (pieces.pieces, extras)
    }
}
