/// The two-way merge on the compact index: `TwoWayMerger` (docs/sync.md section 2), line by line,
/// on line offsets instead of documents, keys and units.
struct CompactTwoWay {
    static let fileSide = 0, copySide = 1

    let buffers: CompactBuffers
    let index: CompactIndex
    let doneUIDs: Set<String>
    var rules = TwoWayRules()
    let arrays: [[UInt8]]
    let inputs: [CompactInput]

    /// The merge, or nil when the inputs are outside the compact merge's reach (`CompactIndex`).
    static func merge(file: [UInt8], copy: [UInt8], doneUIDs: Set<String>,
                      fragmentMask: UInt32 = CompactIndex.widestFragmentMask, workers: MergeWorkers = .oneThread) -> MergeOutput? {
        guard let first = CompactFirstScan(copy, side: copySide, sideCount: 2, keepEntries: true, fragmentMask: fragmentMask) else { return nil }
        return merge(file: file, copy: first, doneUIDs: doneUIDs, workers: workers)
    }

    /// The merge on the copy scanned ahead (`TodoMerge.prepareCopy`), or nil when the file is outside
    /// the compact merge's reach. The copy is scanned first, the file after: which input goes into
    /// the table first changes only the entries' numbers, never which lines match (the k-th line
    /// with some bytes in one input matches the k-th in the other either way).
    ///
    /// `fileAligned`, when given, is the file lined up against the copy (`TodoMerge.prepareSide`); its
    /// array becomes the file scan's entries, not a copy.
    static func merge(file: [UInt8], copy first: consuming CompactFirstScan, doneUIDs: Set<String>,
                      workers: MergeWorkers = .oneThread, fileAligned: consuming CompactAlignment? = nil) -> MergeOutput? {
        var inputs = [fileAligned?.input ?? CompactInput(file), first.input]
        if fileAligned == nil { inputs[fileSide].lineCount = CompactScanner.lineCount(file, begin: inputs[fileSide].begin) }
        let arrays = [file, first.input.bytes]
        let copyEntries = first.entries
        // Moved out, not copied: the scans below extend the index, and fill the aligned array, in place.
        var scanner = (consume first).scanner
        var fileLines = (consume fileAligned)?.lines ?? []
        return CompactBuffers.with(arrays) { buffers -> MergeOutput? in
            guard let decided = decide(&scanner, &inputs, buffers, arrays, copyEntries: copyEntries, doneUIDs: doneUIDs,
                                       workers: workers, fileLines: &fileLines) else { return nil }
            // The index is gone by now (`decide`): the result is laid out without it.
            let assembly = CompactAssembly(buffers: buffers, first: inputs[fileSide], firstSide: fileSide, otherSide: copySide,
                                           decisions: decided.decisions, extras: decided.extras, placements: decided.placements)
            let fileInput = inputs[fileSide]
            let sorted = fileInput.isPartitioned && fileInput.hasCompletedTask
            let (pieces, extraBytes) = assembly.pieces(layout: fileInput, fallback: inputs[copySide], sorted: sorted,
                                                          workers: workers)
            return MergeOutput(sources: arrays + [extraBytes], pieces: pieces, conflicts: [], reports: decided.reports)
        }
    }

    /// The file scanned into the index, then every line of both decided; the index is moved out of
    /// `scanner` and released when this returns, its buckets as soon as the scan is done (as
    /// `CompactThreeWay.decide` does).
    private static func decide(_ scanner: inout CompactScanner, _ inputs: inout [CompactInput], _ buffers: CompactBuffers,
                               _ arrays: [[UInt8]], copyEntries: [UInt32], doneUIDs: Set<String>, workers: MergeWorkers,
                               fileLines: inout [UInt32])
        -> (decisions: [UInt32], extras: [CompactUnit], placements: [CompactPlacement], reports: [MergeReport])? {
        var aligned: [UInt32] = []
        swap(&aligned, &fileLines)
        let scanned: [UInt32]?
        if CompactScanner.canScanAligned(inputs[fileSide], aligned) {
            scanned = scanner.scanAligned(&inputs[fileSide], side: fileSide, against: copySide, buffers, aligned: consume aligned, workers: workers)
        } else {
            scanned = scanner.scan(&inputs[fileSide], side: fileSide, buffers, keepEntries: true, aligned: consume aligned)
        }
        guard var fileEntries = scanned else { return nil }
        var index = scanner.takeIndex()
        index.releaseBuckets()
        var merger = CompactTwoWay(buffers: buffers, index: index, doneUIDs: doneUIDs, arrays: arrays, inputs: inputs)
        var extras: [CompactUnit] = []
        // The file's entries become its decisions, in place; the copy's lines are decided beside
        // them, on the second half's worker (they need none of the file's decisions).
        var placed: (placements: [CompactPlacement], reports: [MergeReport]) = ([], [])
        let context = merger
        merger.decideFile(entriesToDecisions: &fileEntries, extras: &extras, workers: workers) {
            placed = context.decideCopy(entries: copyEntries)
        }
        CompactHalves.join(&merger.rules.reports, taking: &placed.reports)
        return (fileEntries, extras, placed.placements, merger.rules.reports)
    }

    /// The line at `offset` of `side` as a slice of its input.
    func slice(_ side: Int, _ offset: Int) -> ArraySlice<UInt8> {
        arrays[side][offset..<(offset + buffers.content(side, at: offset).count)]
    }

    /// `TwoWayMerger.run`'s loop over the file's lines: each line's entry replaced by its
    /// `CompactDecision`, in two halves for a large file (`CompactHalves`).
    ///
    /// `alongside` runs on the second half's worker after it (`CompactHalves`), which therefore
    /// takes the smaller share of the file.
    mutating func decideFile(entriesToDecisions decisions: inout [UInt32], extras: inout [CompactUnit], workers: MergeWorkers,
                             alongside: () -> Void) {
        let context = self
        var pieces = CompactHalves.decide(buffers[Self.fileSide], from: inputs[Self.fileSide].begin, into: &decisions,
                                          checkpoints: inputs[Self.fileSide].checkpoints, workers: workers, units: \.extras.count,
                                          firstPercent: Self.fileShareBesideCopy,
                                          alongside: alongside) { start, end, firstLine, decisions in
            context.decideLines(from: start, to: end, firstLine: firstLine, into: decisions)
        }
        for piece in pieces.indices {
            CompactHalves.join(&extras, taking: &pieces[piece].extras)
            CompactHalves.join(&rules.reports, taking: &pieces[piece].rules.reports)
        }
    }

    /// The decisions of the file's lines starting in `start..<end` (line `firstLine` the first of
    /// them): each line's entry in `decisions` replaced by its decision, with the units and reports
    /// they made.
    func decideLines(from start: Int, to end: Int, firstLine: Int,
                     into decisions: UnsafeMutableBufferPointer<UInt32>) -> (extras: [CompactUnit], rules: TwoWayRules) {
        var rules = TwoWayRules()
        var extras: [CompactUnit] = []
        let buffer = buffers[Self.fileSide]
        guard let base = buffer.baseAddress else { return (extras, rules) }
        // The rules ask whether a version marked `conflict:` is on another line of either input.
        // Here it never is: only a uid's two versions differ (a line keyed by its bytes matches only
        // equal bytes), a marked version keeps that uid, and within the compact merge's reach no
        // other line of either input holds the uid. So no line needs counting.
        let counter = { (_: (UnsafeBufferPointer<UInt8>) -> Bool) in [ArraySlice<UInt8>: Int]() }
        var start = start
        var line = firstLine
        while start < end {
            let (contentEnd, next) = CompactInput.line(base, at: start, count: buffer.count)
            let entry = Int(decisions[line])
            let copyOffset = index.slot(entry, Self.copySide)
            var decision = CompactDecision.kept
            if copyOffset == CompactIndex.absent {
                decision |= CompactDecision.onlyFirst
            } else if !buffers.holds(Self.copySide, at: Int(copyOffset), UnsafeBufferPointer(start: base + start, count: contentEnd - start)) {
                let uid = index.isUIDEntry(entry) ? MergeSide.uid(of: buffers.content(Self.fileSide, at: start)) : nil
                let unit = rules.merge(uid: uid, file: slice(Self.fileSide, start), copy: slice(Self.copySide, Int(copyOffset)),
                                       terminator: CompactInput.terminator(contentEnd: contentEnd, next: next), countLines: counter)
                extras.append(.built(unit))
                decision = CompactDecision.extra + UInt32(extras.count - 1)
            }
            decisions[line] = decision
            start = next
            line += 1
        }
        return (extras, rules)
    }

    /// The percentage of the file's bytes decided by the first worker when the second also decides
    /// the copy's lines: about where both end together on the benchmark's files (the copy's lines
    /// cost about a fifth of the file's decisions there); any share gives the same result.
    static let fileShareBesideCopy = 60

    /// `TwoWayMerger.run`'s loop over the copy's lines: the lines placed, with their anchors, and
    /// the reports they made (which follow the file's).
    func decideCopy(entries: [UInt32]) -> (placements: [CompactPlacement], reports: [MergeReport]) {
        var reports: [MergeReport] = []
        var placements: [CompactPlacement] = []
        var anchor = CompactIndex.absent
        let buffer = buffers[Self.copySide]
        guard let base = buffer.baseAddress else { return (placements, reports) }
        var start = inputs[Self.copySide].begin
        var line = 0
        while start < buffer.count {
            let next = CompactInput.line(base, at: start, count: buffer.count).next
            defer {
                start = next
                line += 1
            }
            let entry = Int(entries[line])
            let fileOffset = index.slot(entry, Self.fileSide)
            if fileOffset != CompactIndex.absent {
                anchor = fileOffset
                continue
            }
            let other = slice(Self.copySide, start)
            let item = TodoItem(other)
            if index.isUIDEntry(entry), let uid = MergeSide.uid(of: buffers.content(Self.copySide, at: start)), doneUIDs.contains(uid) {
                reports.append(MergeReport(kind: .notResurrected, uid: uid, text: lossyString(other), fields: []))
                continue
            }
            if item.isTask {
                reports.append(MergeReport(kind: .addedFromCopy, uid: item.uid, text: lossyString(other), fields: []))
            }
            placements.append(CompactPlacement(anchor: anchor, offset: UInt32(truncatingIfNeeded: start)))
        }
        return (placements, reports)
    }
}
