/// Scanning inputs lined up against the first one (`CompactAlignment`) once the first is indexed, in
/// two passes (docs/notes/speed-commands.md, "Round five").
///
/// Pass one gives every line lined up with a uid line of the first input that line's entry (the
/// first input's line k is entry k) and notes the layout facts of every line. It compares no bytes,
/// hashes nothing and adds no entry; it writes only its own lines' slots and entries. So two passes
/// one (two inputs, or the two halves of one) can run at once, on the slots of one table.
/// Every other line (not lined up, or keyed by its bytes) is left to pass two, which looks it up as
/// `CompactScanner.scan` does, in file order, input after input.
///
/// The result is `scan`'s over the whole input: a uid is one key with one entry and no chain of
/// occurrences, so taking the lined-up uid lines first changes no entry another line gets; where the
/// order could tell (a uid on two lines of one input), the input is outside the compact merge's
/// reach whichever line comes first. MergeCompactPropertyTests compare both with the general merge.
struct CompactAlignedPass {
    /// The lines left to pass two: their numbers and starts, in file order, and for a line with a
    /// uid the first input's entry of that uid when pass one found it (else -1).
    var deferred: [(line: Int, start: Int, uidEntry: Int)] = []
    var lineCount = 0
    var sawLF = false, sawCRLF = false
    /// The last line's terminator (`.none` when the pass had no line).
    var lastTerminator = LineTerminator.none
    var hasCompletedTask = false
    /// No open line after a completed task within the pass's lines.
    var isPartitioned = true
    /// Whether any of the pass's lines is not a completed task.
    var hasOpenLine = false

    /// Pass one over the lines of `buffer` starting in `start..<end`, line `firstLine` the first of
    /// them; `entries` holds each line's partner in the first input (`CompactAlignment.lines`), and
    /// gets the entry of each line lined up with a uid line.
    ///
    /// For a line not lined up that has a uid, it looks the uid up among the first input's entries
    /// (the only ones in the table yet), which needs no write: pass two then only takes the entry.
    static func passOne(side: Int, _ buffers: CompactBuffers, from start: Int, to end: Int, firstLine: Int,
                        entries: UnsafeMutableBufferPointer<UInt32>, table: CompactTableReader) -> CompactAlignedPass {
        var pass = CompactAlignedPass()
        let buffer = buffers[side]
        let (tags, slots, sideCount) = (table.tags, table.slots, table.sideCount)
        guard let base = buffer.baseAddress else { return pass }
        var start = start, line = firstLine
        var seenCompleted = false
        while start < end && line < entries.count {
            let (contentEnd, next) = CompactInput.line(base, at: start, count: buffer.count)
            let terminator = CompactInput.terminator(contentEnd: contentEnd, next: next)
            if terminator == .lf { pass.sawLF = true } else if terminator == .crlf { pass.sawCRLF = true }
            pass.lastTerminator = terminator
            if CompletedLine.isCompleted(base, lineStart: start, end: contentEnd) {
                seenCompleted = true
                pass.hasCompletedTask = true
            } else {
                pass.hasOpenLine = true
                if seenCompleted { pass.isPartitioned = false }
            }
            let partner = Int(entries[line])
            let slot = partner &* sideCount &+ side
            if partner < tags.count && tags[partner] & 3 == CompactIndex.Kind.uid.rawValue && slots[slot] == CompactIndex.absent {
                slots[slot] = UInt32(truncatingIfNeeded: start)
            } else {
                var uidEntry = -1
                let content = UnsafeBufferPointer(start: base + start, count: contentEnd - start)
                if partner == Int(CompactIndex.absent), let uid = MergeSide.uidRange(of: content) {
                    let value = UnsafeBufferPointer(rebasing: content[uid])
                    if ByteScanning.isASCII(value) { uidEntry = table.uidEntry(CompactScanner.uidTag(value), value, of: content, buffers) ?? -1 }
                }
                pass.deferred.append((line, start, uidEntry))
            }
            start = next
            line += 1
        }
        pass.lineCount = line - firstLine
        return pass
    }

    /// The layout facts of an input whose lines are `passes`' (in file order), into `input`, as
    /// `CompactScanner.scan` sets them.
    static func finish(_ input: inout CompactInput, _ passes: [CompactAlignedPass]) {
        var lineCount = 0, sawLF = false, sawCRLF = false, lastTerminator = LineTerminator.none
        var hasCompletedTask = false, isPartitioned = true
        for pass in passes where pass.lineCount > 0 {
            if hasCompletedTask && pass.hasOpenLine { isPartitioned = false }
            isPartitioned = isPartitioned && pass.isPartitioned
            hasCompletedTask = hasCompletedTask || pass.hasCompletedTask
            lineCount += pass.lineCount
            sawLF = sawLF || pass.sawLF
            sawCRLF = sawCRLF || pass.sawCRLF
            lastTerminator = pass.lastTerminator
        }
        input.lineCount = lineCount
        input.dominantTerminator = sawLF || !sawCRLF ? .lf : .crlf
        input.endsWithTerminator = lineCount > 0 && lastTerminator != .none
        input.hasCompletedTask = hasCompletedTask
        input.isPartitioned = isPartitioned
    }
}

/// A compact index's table as `CompactAlignedPass.passOne` reads and writes it
/// (`CompactIndex.withReader`), while only the first input's entries are in it.
struct CompactTableReader {
    let tags: UnsafeBufferPointer<UInt32>
    let buckets: UnsafeBufferPointer<UInt32>
    let fragmentMask: UInt32
    let slots: UnsafeMutableBufferPointer<UInt32>
    let sideCount: Int
    let firstSide: Int

    /// The first input's entry for the uid `value` of `line` (`tag` its tag), or nil: compared with
    /// the first input's line of each candidate, never with a slot another pass may be writing.
    @inline(__always)
    func uidEntry(_ tag: UInt32, _ value: UnsafeBufferPointer<UInt8>, of line: UnsafeBufferPointer<UInt8>,
                  _ buffers: CompactBuffers) -> Int? {
        CompactIndex.probe(tag: tag, buckets: buckets, tags: tags, fragmentMask: fragmentMask) { entry in
            buffers.holdsUID(firstSide, at: Int(slots[entry &* sideCount &+ firstSide]), value, of: line)
        }.entry
    }
}

extension CompactScanner {
    /// Whether `aligned` can take `scanAligned`'s passes for `input`: one partner per line, within
    /// the offsets a slot holds.
    static func canScanAligned(_ input: CompactInput, _ aligned: [UInt32]) -> Bool {
        !aligned.isEmpty && aligned.count == input.lineCount && input.bytes.count < Int(UInt32.max)
    }

    /// `scan` of one input lined up against the first input, side `indexedSide` (`aligned`, which
    /// becomes the entries returned): pass one in two halves through `workers` for a large input,
    /// then pass two.
    mutating func scanAligned(_ input: inout CompactInput, side: Int, against indexedSide: Int, _ buffers: CompactBuffers,
                              aligned: consuming [UInt32], workers: MergeWorkers) -> [UInt32]? {
        var entries = aligned
        let buffer = buffers[side]
        let begin = input.begin, end = buffer.count
        guard let base = buffer.baseAddress, begin < end else { return scan(&input, side: side, buffers, keepEntries: true) }
        let (split, secondLine) = end - begin >= max(1, workers.halvingThreshold)
            ? CompactInput.split(base, near: begin + (end - begin) / 2, from: begin, count: end, checkpoints: input.checkpoints) : (end, 0)
        let within = entries.withUnsafeMutableBufferPointer { entries -> Bool in
            let passes = index.withReader(firstSide: indexedSide) { table -> [CompactAlignedPass] in
                guard split < end else {
                    return [CompactAlignedPass.passOne(side: side, buffers, from: begin, to: end, firstLine: 0, entries: entries, table: table)]
                }
                var first = CompactAlignedPass(), second = CompactAlignedPass()
                workers.runBoth({
                    first = CompactAlignedPass.passOne(side: side, buffers, from: begin, to: split, firstLine: 0, entries: entries,
                                                       table: table)
                }, {
                    second = CompactAlignedPass.passOne(side: side, buffers, from: split, to: end, firstLine: secondLine,
                                                        entries: entries, table: table)
                })
                return [first, second]
            }
            CompactAlignedPass.finish(&input, passes)
            guard input.lineCount == entries.count else { return false }
            return passes.allSatisfy { passTwo($0, side: side, entries: entries, buffers) }
        }
        return within ? entries : nil
    }

    /// `scan` of two inputs lined up against the first input, side `indexedSide`, with the result
    /// of `scan` of `earlier`, then of `later`: both passes one at once through `workers`, then
    /// both passes two in that order.
    mutating func scanAligned(_ earlier: inout CompactInput, side earlierSide: Int, aligned earlierAligned: consuming [UInt32],
                              _ later: inout CompactInput, side laterSide: Int, aligned laterAligned: consuming [UInt32],
                              against indexedSide: Int, _ buffers: CompactBuffers,
                              workers: MergeWorkers) -> (earlier: [UInt32], later: [UInt32])? {
        var earlierEntries = earlierAligned, laterEntries = laterAligned
        let (earlierBegin, laterBegin) = (earlier.begin, later.begin)
        let (earlierEnd, laterEnd) = (buffers[earlierSide].count, buffers[laterSide].count)
        let within = earlierEntries.withUnsafeMutableBufferPointer { earlierEntries -> Bool in
            laterEntries.withUnsafeMutableBufferPointer { laterEntries -> Bool in
                var earlierPass = CompactAlignedPass(), laterPass = CompactAlignedPass()
                index.withReader(firstSide: indexedSide) { table in
                    workers.runBoth({
                        earlierPass = CompactAlignedPass.passOne(side: earlierSide, buffers, from: earlierBegin, to: earlierEnd,
                                                                 firstLine: 0, entries: earlierEntries, table: table)
                    }, {
                        laterPass = CompactAlignedPass.passOne(side: laterSide, buffers, from: laterBegin, to: laterEnd,
                                                               firstLine: 0, entries: laterEntries, table: table)
                    })
                }
                CompactAlignedPass.finish(&earlier, [earlierPass])
                CompactAlignedPass.finish(&later, [laterPass])
                guard earlier.lineCount == earlierEntries.count, later.lineCount == laterEntries.count else { return false }
                return passTwo(earlierPass, side: earlierSide, entries: earlierEntries, buffers)
                    && passTwo(laterPass, side: laterSide, entries: laterEntries, buffers)
            }
        }
        return within ? (earlierEntries, laterEntries) : nil
    }

    /// Pass two: the lines `pass` left, looked up in the table as `scan` looks up a line (its
    /// partner's entry when that is a key's own entry, else the hint, else the table); false when
    /// the input is outside the compact merge's reach.
    private mutating func passTwo(_ pass: CompactAlignedPass, side: Int, entries: UnsafeMutableBufferPointer<UInt32>,
                                  _ buffers: CompactBuffers) -> Bool {
        let buffer = buffers[side]
        guard let base = buffer.baseAddress, !pass.deferred.isEmpty else { return true }
        var occurrences = lastOccurrence[side]
        defer { lastOccurrence[side] = occurrences }
        var hint = 0
        for (lineNumber, start, found) in pass.deferred {
            let contentEnd = CompactInput.line(base, at: start, count: buffer.count).contentEnd
            let line = UnsafeBufferPointer(start: base + start, count: contentEnd - start)
            let partner = Int(entries[lineNumber])
            var uidEntry: Int?, firstOccurrence: Int?
            if found >= 0 {
                uidEntry = found
            } else if index.isTableEntry(partner) {
                if index.isUIDEntry(partner) { uidEntry = partner } else { firstOccurrence = partner }
            } else if let known = index.entry(holding: line, hint: hint, buffers) {
                if index.isUIDEntry(known) { uidEntry = known } else { firstOccurrence = known }
            } else {
                guard let key = Self.tableKey(line) else { return false }
                (uidEntry, firstOccurrence) = lookUp(key, line: line, hint: hint, buffers)
            }
            guard let entry = takeEntry(uidEntry: uidEntry, firstOccurrence: firstOccurrence, side: side,
                                        occurrences: &occurrences) else { return false }
            index.setSlot(entry, side, start)
            entries[lineNumber] = UInt32(truncatingIfNeeded: entry)
            hint = entry + 1
        }
        return true
    }
}
