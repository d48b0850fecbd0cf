/// The three-way merge on the compact index: `ThreeWayMerger`'s table (docs/sync.md section 1), row
/// by row, on line offsets instead of documents, keys and units.
struct CompactThreeWay {
    static let baseSide = 0, oursSide = 1, theirsSide = 2

    let buffers: CompactBuffers
    let index: CompactIndex
    var rules: ThreeWayRules
    /// The inputs as arrays, for the slices the rules take (only on the rare rows that need them).
    let arrays: [[UInt8]]

    /// The merge, or nil when the inputs are outside the compact merge's reach (`CompactIndex`).
    static func merge(base: [UInt8], ours: [UInt8], theirs: [UInt8], options: ThreeWayOptions,
                      fragmentMask: UInt32 = CompactIndex.widestFragmentMask, workers: MergeWorkers = .oneThread) -> MergeOutput? {
        guard let first = CompactFirstScan(base, side: baseSide, sideCount: 3, keepEntries: false, fragmentMask: fragmentMask) else { return nil }
        return merge(base: first, ours: ours, theirs: theirs, options: options, workers: workers)
    }

    /// The merge on BASE scanned ahead (`TodoMerge.prepareBase`), or nil when OURS or THEIRS is
    /// outside the compact merge's reach.
    /// `oursAligned` and `theirsAligned`, when given, are those inputs lined up against BASE
    /// (`TodoMerge.prepareSide`); their arrays become the scans' entries, not copies.
    static func merge(base first: consuming CompactFirstScan, ours: [UInt8], theirs: [UInt8], options: ThreeWayOptions,
                      workers: MergeWorkers = .oneThread, oursAligned: consuming CompactAlignment? = nil,
                      theirsAligned: consuming CompactAlignment? = nil) -> MergeOutput? {
        var inputs = [first.input, oursAligned?.input ?? CompactInput(ours), theirsAligned?.input ?? CompactInput(theirs)]
        let counted = [false, oursAligned != nil, theirsAligned != nil]
        for side in [oursSide, theirsSide] where !counted[side] {
            inputs[side].lineCount = CompactScanner.lineCount(inputs[side].bytes, begin: inputs[side].begin)
        }
        let arrays = [first.input.bytes, ours, theirs]
        // Moved out, not copied: the scans below extend the index, and fill the aligned arrays, in place.
        var scanner = (consume first).scanner
        var oursLines = (consume oursAligned)?.lines ?? [], theirsLines = (consume theirsAligned)?.lines ?? []
        return CompactBuffers.with(arrays) { buffers -> MergeOutput? in
            guard let decided = decide(&scanner, &inputs, buffers, arrays, options: options, workers: workers,
                                       oursLines: &oursLines, theirsLines: &theirsLines) else { return nil }
            // The index is gone by now (`decide`): the result is laid out without it.
            let assembly = CompactAssembly(buffers: buffers, first: inputs[oursSide], firstSide: oursSide, otherSide: theirsSide,
                                           decisions: decided.decisions, extras: decided.extras, placements: decided.placements)
            let (oursInput, baseInput) = (inputs[oursSide], inputs[baseSide])
            let sorted = oursInput.isPartitioned && (oursInput.hasCompletedTask || (baseInput.hasCompletedTask && baseInput.isPartitioned))
            let (pieces, extraBytes) = assembly.pieces(layout: oursInput, fallback: inputs[theirsSide], sorted: sorted,
                                                          workers: workers)
            return MergeOutput(sources: arrays + [extraBytes], pieces: pieces, conflicts: decided.rules.conflicts,
                               reports: decided.rules.reports)
        }
    }

    /// OURS and THEIRS scanned into the index, then every line decided. The index is moved out of
    /// `scanner` and released when this returns, and its buckets as soon as the scans are done, so
    /// that the merge's largest tables are not all held at once (docs/notes/speed-commands.md).
    private static func decide(_ scanner: inout CompactScanner, _ inputs: inout [CompactInput], _ buffers: CompactBuffers,
                               _ arrays: [[UInt8]], options: ThreeWayOptions, workers: MergeWorkers,
                               oursLines: inout [UInt32], theirsLines: inout [UInt32])
        -> (decisions: [UInt32], extras: [CompactUnit], placements: [CompactPlacement], rules: ThreeWayRules)? {
        var oursAligned: [UInt32] = [], theirsAligned: [UInt32] = []
        swap(&oursAligned, &oursLines)
        swap(&theirsAligned, &theirsLines)
        var oursEntries: [UInt32]
        let theirsEntries: [UInt32]
        if CompactScanner.canScanAligned(inputs[oursSide], oursAligned) && CompactScanner.canScanAligned(inputs[theirsSide], theirsAligned) {
            // Both lined up against BASE: their first passes at once (`CompactAlignedPass`).
            var (ours, theirs) = (inputs[oursSide], inputs[theirsSide])
            guard let both = scanner.scanAligned(&ours, side: oursSide, aligned: consume oursAligned, &theirs, side: theirsSide,
                                                 aligned: consume theirsAligned, against: baseSide, buffers, workers: workers)
            else { return nil }
            (inputs[oursSide], inputs[theirsSide]) = (ours, theirs)
            (oursEntries, theirsEntries) = both
        } else {
            guard let ours = scanner.scan(&inputs[oursSide], side: oursSide, buffers, keepEntries: true, aligned: consume oursAligned),
                  let theirs = scanner.scan(&inputs[theirsSide], side: theirsSide, buffers, keepEntries: true,
                                            aligned: consume theirsAligned) else { return nil }
            (oursEntries, theirsEntries) = (ours, theirs)
        }
        var index = scanner.takeIndex()
        index.releaseBuckets()
        var merger = CompactThreeWay(buffers: buffers, index: index, rules: ThreeWayRules(options: options), arrays: arrays)
        var extras: [CompactUnit] = []
        // OURS' entries become its decisions, in place; THEIRS' lines are decided beside them, on
        // the second half's worker (they need none of OURS' decisions), with rules of their own
        // whose reports follow OURS'.
        var theirsMerger = merger
        theirsMerger.rules = ThreeWayRules(options: options)
        var placements: [CompactPlacement] = []
        let theirsInput = inputs[theirsSide]
        merger.decideOurs(inputs[oursSide], entriesToDecisions: &oursEntries, extras: &extras, workers: workers) {
            placements = theirsMerger.decideTheirs(theirsInput, entries: theirsEntries)
        }
        CompactHalves.join(&merger.rules.conflicts, taking: &theirsMerger.rules.conflicts)
        CompactHalves.join(&merger.rules.reports, taking: &theirsMerger.rules.reports)
        return (oursEntries, extras, placements, merger.rules)
    }

    /// The line at `offset` of `side` as a slice of its input.
    func slice(_ side: Int, _ offset: Int) -> ArraySlice<UInt8> {
        let content = buffers.content(side, at: offset)
        return arrays[side][offset..<(offset + content.count)]
    }

    /// The uid of the line at `offset` of `side`, when the rules need it as a String.
    func uid(_ side: Int, _ offset: Int) -> String? {
        MergeSide.uid(of: buffers.content(side, at: offset))
    }

    /// Whether the line at `otherOffset` of `otherSide` holds exactly `line`.
    @inline(__always)
    func same(_ line: UnsafeBufferPointer<UInt8>, _ otherSide: Int, _ otherOffset: UInt32) -> Bool {
        buffers.holds(otherSide, at: Int(otherOffset), line)
    }

    /// `ThreeWayMerger.decideOurs` for every line of OURS: each line's entry replaced by its
    /// `CompactDecision`, in two halves for a large file (`CompactHalves`).
    ///
    /// `alongside` runs on the second half's worker after it (`CompactHalves`), which therefore
    /// takes the smaller share of OURS.
    mutating func decideOurs(_ ours: CompactInput, entriesToDecisions decisions: inout [UInt32], extras: inout [CompactUnit],
                             workers: MergeWorkers, alongside: () -> Void) {
        let context = self
        var pieces = CompactHalves.decide(buffers[Self.oursSide], from: ours.begin, into: &decisions,
                                          checkpoints: ours.checkpoints, workers: workers, units: \.extras.count,
                                          firstPercent: Self.oursShareBesideTheirs,
                                          alongside: alongside) { start, end, firstLine, decisions in
            context.decideOursLines(from: start, to: end, firstLine: firstLine, into: decisions)
        }
        for piece in pieces.indices {
            CompactHalves.join(&extras, taking: &pieces[piece].extras)
            CompactHalves.join(&rules.conflicts, taking: &pieces[piece].rules.conflicts)
            CompactHalves.join(&rules.reports, taking: &pieces[piece].rules.reports)
        }
    }

    /// The decisions of OURS' lines starting in `start..<end` (line `firstLine` the first of them):
    /// each line's entry in `decisions` replaced by its decision, with the units, conflicts and
    /// reports they made.
    func decideOursLines(from start: Int, to end: Int, firstLine: Int,
                         into decisions: UnsafeMutableBufferPointer<UInt32>) -> (extras: [CompactUnit], rules: ThreeWayRules) {
        var rules = ThreeWayRules(options: self.rules.options)
        var extras: [CompactUnit] = []
        let archived = !rules.options.archivedUIDs.isEmpty
        let buffer = buffers[Self.oursSide]
        guard let base = buffer.baseAddress else { return (extras, rules) }
        var start = start
        var line = firstLine
        func extra(_ unit: CompactUnit) -> UInt32 {
            extras.append(unit)
            return CompactDecision.extra + UInt32(extras.count - 1)
        }
        while start < end {
            let (contentEnd, next) = CompactInput.line(base, at: start, count: buffer.count)
            let own = UnsafeBufferPointer(start: base + start, count: contentEnd - start)
            let entry = Int(decisions[line])
            let baseOffset = index.slot(entry, Self.baseSide), theirsOffset = index.slot(entry, Self.theirsSide)
            let hasUID = index.isUIDEntry(entry)
            let terminator = CompactInput.terminator(contentEnd: contentEnd, next: next)
            var decision = CompactDecision.kept
            if baseOffset == CompactIndex.absent {
                // – A –, – A A (once), – A B.
                if theirsOffset == CompactIndex.absent {
                    decision |= CompactDecision.onlyFirst
                    if archived && hasUID && rules.isArchivedComingBack(uid: uid(Self.oursSide, start), slice(Self.oursSide, start)) {
                        decision = CompactDecision.removed
                    }
                } else if !same(own, Self.theirsSide, theirsOffset) {
                    decision |= CompactDecision.onlyFirst
                    let mine = slice(Self.oursSide, start)
                    if rules.options.isDoneFile && hasUID {
                        rules.reports.append(MergeReport(kind: .archivedTwiceKeptOnce, uid: uid(Self.oursSide, start),
                                                         text: lossyString(mine), fields: []))
                    } else if hasUID {
                        let unit = rules.conflictBlock(uid: uid(Self.oursSide, start), base: nil, ours: mine,
                                                       theirs: slice(Self.theirsSide, Int(theirsOffset)), fields: [.line],
                                                       terminator: terminator)
                        decision = extra(.built(unit)) | CompactDecision.onlyFirst
                    } else {
                        rules.reports.append(MergeReport(kind: .duplicateUIDAdded, uid: nil, text: lossyString(mine), fields: []))
                    }
                }
            } else if theirsOffset == CompactIndex.absent {
                // X X – removed; X A – kept and reported, unless THEIRS archived it (stays archived).
                if same(own, Self.baseSide, baseOffset) {
                    decision = CompactDecision.removed
                } else {
                    let uid = hasUID ? uid(Self.oursSide, start) : nil
                    let mine = slice(Self.oursSide, start)
                    if rules.staysArchived(uid: uid, base: slice(Self.baseSide, Int(baseOffset)), edited: mine) {
                        decision = CompactDecision.removed
                    } else {
                        rules.reports.append(MergeReport(kind: .keptEditedDeletedByThem, uid: uid, text: lossyString(mine), fields: []))
                    }
                }
            } else if !same(own, Self.theirsSide, theirsOffset)
                        && !same(buffers.content(Self.theirsSide, at: Int(theirsOffset)), Self.baseSide, baseOffset) {
                if same(own, Self.baseSide, baseOffset) {
                    decision = extra(.line(side: Self.theirsSide, offset: Int(theirsOffset), terminator: terminator))
                } else {
                    let unit = rules.fieldMerge(uid: hasUID ? uid(Self.oursSide, start) : nil,
                                                base: slice(Self.baseSide, Int(baseOffset)), ours: slice(Self.oursSide, start),
                                                theirs: slice(Self.theirsSide, Int(theirsOffset)), terminator: terminator)
                    decision = extra(.built(unit))
                }
            }
            decisions[line] = decision
            start = next
            line += 1
        }
        return (extras, rules)
    }

    /// The percentage of OURS' bytes decided by the first worker when the second also decides
    /// THEIRS' lines: about where both end together on the benchmark's files; any share gives the
    /// same result.
    static let oursShareBesideTheirs = 58

    /// `ThreeWayMerger.decideTheirs` for every line of THEIRS: the lines placed, with their anchors.
    mutating func decideTheirs(_ theirs: CompactInput, entries: [UInt32]) -> [CompactPlacement] {
        var placements: [CompactPlacement] = []
        var anchor = CompactIndex.absent
        let archived = !rules.options.archivedUIDs.isEmpty
        let buffer = buffers[Self.theirsSide]
        guard let base = buffer.baseAddress else { return placements }
        var start = theirs.begin
        var line = 0
        while start < buffer.count {
            let (contentEnd, next) = CompactInput.line(base, at: start, count: buffer.count)
            defer {
                start = next
                line += 1
            }
            let own = UnsafeBufferPointer(start: base + start, count: contentEnd - start)
            let entry = Int(entries[line])
            let baseOffset = index.slot(entry, Self.baseSide), oursOffset = index.slot(entry, Self.oursSide)
            let hasUID = index.isUIDEntry(entry)
            let place = CompactPlacement(anchor: anchor, offset: UInt32(truncatingIfNeeded: start))
            if oursOffset != CompactIndex.absent {
                // Every key both sides hold is in the result; – A B keeps THEIRS' version too, except
                // for a uid both hold (one unit: kept once in a done file, a conflict block otherwise).
                if baseOffset == CompactIndex.absent && !hasUID && !same(own, Self.oursSide, oursOffset) {
                    placements.append(place)
                } else {
                    anchor = oursOffset
                }
                continue
            }
            if baseOffset == CompactIndex.absent {
                // – – A: new in THEIRS, unless an open task whose uid is archived comes back.
                if archived && hasUID && rules.isArchivedComingBack(uid: uid(Self.theirsSide, start), slice(Self.theirsSide, start)) {
                    continue
                }
                placements.append(place)
                continue
            }
            if same(own, Self.baseSide, baseOffset) { continue }
            let uid = hasUID ? uid(Self.theirsSide, start) : nil
            let other = slice(Self.theirsSide, start)
            if rules.staysArchived(uid: uid, base: slice(Self.baseSide, Int(baseOffset)), edited: other) { continue }
            rules.reports.append(MergeReport(kind: .keptEditedDeletedByUs, uid: uid, text: lossyString(other), fields: []))
            placements.append(place)
        }
        return placements
    }
}
