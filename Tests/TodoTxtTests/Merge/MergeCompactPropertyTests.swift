import Testing
import TodoTestSupport
@testable import TodoTxt

/// The compact merge (`CompactThreeWay`, `CompactTwoWay`) against the general one on random inputs:
/// the same bytes, conflicts and reports, round after round. The inputs mix what the compact merge
/// must get exactly right: uid and text lines, repeated text and blank lines, CR LF and LF, a
/// missing final newline, a byte order mark, sorted and unsorted files, archived uids and done
/// files; and, now and then, what it must hand back to the general merge (a uid on two lines, a
/// non-ASCII uid).
///
/// `TODO_PROPERTY_SEED` fixes the seed (printed), `TODO_PROPERTY_COUNT` the rounds.
@Suite struct MergeCompactPropertyTests {
    static let words = ["call", "mom", "buy", "milk", "+home", "@phone", "due:2026-12-01", "due:2027-01-02", "pri:B", "x", "fix",
                        "t:2026-11-11", "+work", "conflict:copy", "bike", "é"]

    /// A random task or other line; `uid` its uid, if any.
    static func line(uid: String?, _ random: inout SplitMix64) -> [UInt8] {
        var text = ""
        switch random.next() % 12 {
        case 0: return []
        case 1: text = "x 2026-11-0\(random.next() % 9 + 1) "
        case 2: text = "(\(["A", "B", "C"][Int(random.next() % 3)])) "
        case 3: text = "2026-10-1\(random.next() % 9) "
        default: break
        }
        for _ in 0..<(1 + random.next() % 4) { text += words[Int(random.next() % UInt64(words.count))] + " " }
        if let uid { text += random.next() % 8 == 0 ? "uuid:\(uid)" : "uid:\(uid)" }
        if random.next() % 20 == 0 { text += "\r" }
        return Array(text.utf8)
    }

    /// A random file of uid lines, text lines and blank lines.
    static func file(_ random: inout SplitMix64, uids: inout Int) -> [[UInt8]] {
        var lines: [[UInt8]] = [], texts: [[UInt8]] = []
        for _ in 0..<(random.next() % 14) {
            if random.next() % 3 == 0 {
                // Repeated text and blank lines: the k-th copy matches the k-th copy.
                let text = random.next() % 3 == 0 && !texts.isEmpty ? texts[Int(random.next() % UInt64(texts.count))] : line(uid: nil, &random)
                texts.append(text)
                lines.append(text)
            } else {
                uids += 1
                lines.append(line(uid: "u\(uids)", &random))
            }
        }
        if random.next() % 3 == 0 {
            lines = lines.filter { !CompletedLine.isCompleted($0[...]) } + lines.filter { CompletedLine.isCompleted($0[...]) }
        }
        return lines
    }

    /// `lines` edited at random: lines removed, changed (same uid kept), added, moved.
    static func edit(_ lines: [[UInt8]], _ random: inout SplitMix64, uids: inout Int) -> [[UInt8]] {
        var result: [[UInt8]] = []
        for line in lines {
            switch random.next() % 10 {
            case 0: continue
            case 1, 2:
                let uid = line.withUnsafeBufferPointer { MergeSide.uid(of: $0) }
                result.append(Self.line(uid: uid, &random))
            case 3:
                result.append(line)
                uids += 1
                result.append(Self.line(uid: random.next() % 2 == 0 ? "u\(uids)" : nil, &random))
            default: result.append(line)
            }
        }
        if result.count > 1 && random.next() % 6 == 0 { result.swapAt(0, result.count - 1) }
        // Now and then what only the general merge handles: a uid twice, a non-ASCII uid.
        if random.next() % 15 == 0, let copy = result.first { result.append(copy + Array(" again".utf8)) }
        if random.next() % 25 == 0 { result.append(Array("caf uid:café".utf8)) }
        return result
    }

    /// The lines as a file: LF or CR LF (or mixed), a missing final newline, a BOM.
    static func bytes(_ lines: [[UInt8]], _ random: inout SplitMix64) -> [UInt8] {
        var bytes: [UInt8] = random.next() % 10 == 0 ? [0xEF, 0xBB, 0xBF] : []
        let style = random.next() % 4
        for (index, line) in lines.enumerated() {
            bytes += line
            if index == lines.count - 1 && random.next() % 4 == 0 { break }
            bytes += style == 0 || (style == 1 && random.next() % 2 == 0) ? [0x0D, 0x0A] : [0x0A]
        }
        return bytes
    }

    static func describe(_ output: MergeOutput) -> String {
        "\(String(decoding: output.rendered(), as: UTF8.self).debugDescription)\n\(output.reports)\n\(output.conflicts)"
    }

    /// Room for entry numbers up to 15 below the fragment: the random inputs, which often make more
    /// entries, reach the index's change to buckets without fragments.
    static let narrowFragmentMask: UInt32 = 0xFFFF_FFF0

    /// Workers that cut every input in two and decide the second half before the first: neither
    /// half may depend on the other, nor on their order.
    static var halvesBackwards: MergeWorkers {
        var workers = MergeWorkers { first, second in
            second()
            first()
        }
        workers.halvingThreshold = 1
        return workers
    }

    @Test func compactThreeWayEqualsTheGeneralMerge() {
        let settings = PropertySettings(defaultCount: 3000)
        var random = SplitMix64(seed: settings.seed)
        var compactRounds = 0
        for round in 0..<settings.count {
            var uids = 0
            let baseLines = Self.file(&random, uids: &uids)
            let base = Self.bytes(baseLines, &random)
            let ours = Self.bytes(Self.edit(baseLines, &random, uids: &uids), &random)
            let theirs = Self.bytes(Self.edit(baseLines, &random, uids: &uids), &random)
            var options = ThreeWayOptions(markerSize: 7, isDoneFile: random.next() % 5 == 0)
            if random.next() % 3 == 0 { options.archivedUIDs = Set((0...uids).filter { _ in random.next() % 3 == 0 }.map { "u\($0)" }) }
            // The public entry on BASE indexed ahead: the same as on BASE's bytes whatever the inputs,
            // those handed back included.
            let prepared = TodoMerge.threeWay(base: TodoMerge.prepareBase(base), ours: ours, theirs: theirs, options: options)
            let unprepared = TodoMerge.threeWay(base: base, ours: ours, theirs: theirs, options: options)
            #expect(prepared.rendered() == unprepared.rendered() && prepared.reports == unprepared.reports
                    && prepared.conflicts == unprepared.conflicts, "seed \(settings.seed), round \(round): prepared BASE")
            // And with OURS and THEIRS lined up against BASE, decided in halves.
            let lined = TodoMerge.threeWay(base: TodoMerge.prepareBase(base), ours: TodoMerge.prepareSide(ours, against: base),
                                           theirs: TodoMerge.prepareSide(theirs, against: base), options: options,
                                           workers: Self.halvesBackwards)
            #expect(lined.rendered() == unprepared.rendered() && lined.reports == unprepared.reports
                    && lined.conflicts == unprepared.conflicts, "seed \(settings.seed), round \(round): prepared sides")
            let general = TodoMerge.generalThreeWay(base: base, ours: ours, theirs: theirs, options: options)
            guard let compact = CompactThreeWay.merge(base: base, ours: ours, theirs: theirs, options: options) else { continue }
            compactRounds += 1
            // Buckets whose fragments give way to entry numbers after 15 entries, and OURS decided in
            // two halves (the second first): the same merge.
            let narrow = CompactThreeWay.merge(base: base, ours: ours, theirs: theirs, options: options,
                                               fragmentMask: Self.narrowFragmentMask)
            let halved = CompactThreeWay.merge(base: base, ours: ours, theirs: theirs, options: options, workers: Self.halvesBackwards)
            let same = compact.rendered() == general.rendered() && compact.reports == general.reports
                && compact.conflicts == general.conflicts
                && narrow.map { $0.rendered() == general.rendered() && $0.reports == general.reports } == true
                && halved.map { $0.rendered() == general.rendered() && $0.reports == general.reports
                                && $0.conflicts == general.conflicts } == true
            #expect(same, """
                seed \(settings.seed), round \(round)
                base \(String(decoding: base, as: UTF8.self).debugDescription)
                ours \(String(decoding: ours, as: UTF8.self).debugDescription)
                theirs \(String(decoding: theirs, as: UTF8.self).debugDescription)
                compact \(Self.describe(compact))
                general \(Self.describe(general))
                """)
            if !same { return }
        }
        #expect(compactRounds > settings.count / 2, "seed \(settings.seed): the compact merge ran in only \(compactRounds) rounds")
    }

    @Test func compactTwoWayEqualsTheGeneralMerge() {
        let settings = PropertySettings(defaultCount: 3000)
        var random = SplitMix64(seed: settings.seed)
        var compactRounds = 0
        for round in 0..<settings.count {
            var uids = 0
            let shared = Self.file(&random, uids: &uids)
            let file = Self.bytes(Self.edit(shared, &random, uids: &uids), &random)
            let copy = Self.bytes(Self.edit(shared, &random, uids: &uids), &random)
            let done = Set((0...uids).filter { _ in random.next() % 4 == 0 }.map { "u\($0)" })
            let prepared = TodoMerge.twoWay(file: file, copy: TodoMerge.prepareCopy(copy), doneUIDs: done)
            let unprepared = TodoMerge.twoWay(file: file, copy: copy, doneUIDs: done)
            #expect(prepared.rendered() == unprepared.rendered() && prepared.reports == unprepared.reports,
                    "seed \(settings.seed), round \(round): prepared copy")
            let lined = TodoMerge.twoWay(file: TodoMerge.prepareSide(file, against: copy), copy: TodoMerge.prepareCopy(copy),
                                         doneUIDs: done, workers: Self.halvesBackwards)
            #expect(lined.rendered() == unprepared.rendered() && lined.reports == unprepared.reports,
                    "seed \(settings.seed), round \(round): prepared file")
            let general = TodoMerge.generalTwoWay(file: file, copy: copy, doneUIDs: done)
            guard let compact = CompactTwoWay.merge(file: file, copy: copy, doneUIDs: done) else { continue }
            compactRounds += 1
            let narrow = CompactTwoWay.merge(file: file, copy: copy, doneUIDs: done, fragmentMask: Self.narrowFragmentMask)
            let halved = CompactTwoWay.merge(file: file, copy: copy, doneUIDs: done, workers: Self.halvesBackwards)
            let same = compact.rendered() == general.rendered() && compact.reports == general.reports
                && narrow.map { $0.rendered() == general.rendered() && $0.reports == general.reports } == true
                && halved.map { $0.rendered() == general.rendered() && $0.reports == general.reports } == true
            #expect(same, """
                seed \(settings.seed), round \(round)
                file \(String(decoding: file, as: UTF8.self).debugDescription)
                copy \(String(decoding: copy, as: UTF8.self).debugDescription)
                compact \(Self.describe(compact))
                general \(Self.describe(general))
                """)
            if !same { return }
        }
        #expect(compactRounds > settings.count / 2, "seed \(settings.seed): the compact merge ran in only \(compactRounds) rounds")
    }

    @Test func inputsOutsideTheCompactMergeAreHandedBack() {
        let twice = Array("a uid:k1\nb uid:k1\n".utf8), accented = Array("a uid:café\n".utf8), plain = Array("a uid:k1\n".utf8)
        #expect(CompactThreeWay.merge(base: plain, ours: twice, theirs: plain, options: ThreeWayOptions()) == nil)
        #expect(CompactThreeWay.merge(base: plain, ours: accented, theirs: plain, options: ThreeWayOptions()) == nil)
        #expect(CompactTwoWay.merge(file: twice, copy: plain, doneUIDs: []) == nil)
        #expect(CompactTwoWay.merge(file: plain, copy: Array("b uid:k1\n".utf8), doneUIDs: []) != nil)
        // Prepared inputs outside the compact merge's reach go to the general merge.
        #expect(TodoMerge.prepareBase(twice).scan == nil && TodoMerge.prepareCopy(accented).scan == nil)
        let merged = TodoMerge.threeWay(base: TodoMerge.prepareBase(twice), ours: plain, theirs: Array("c uid:k2\n".utf8),
                                        options: ThreeWayOptions())
        #expect(merged.rendered() == TodoMerge.threeWay(base: twice, ours: plain, theirs: Array("c uid:k2\n".utf8),
                                                        options: ThreeWayOptions()).rendered())
    }

    /// `CompactAlignment`'s invariant on random files: every line it lines up has exactly the bytes
    /// of the first input's line it names; and most lines of a lightly edited file are lined up.
    @Test func alignedLinesHoldTheirPartnersBytes() {
        let settings = PropertySettings(defaultCount: 2000)
        var random = SplitMix64(seed: settings.seed)
        var linedUp = 0, total = 0
        for round in 0..<settings.count {
            var uids = 0
            let firstLines = Self.file(&random, uids: &uids)
            let first = Self.bytes(firstLines, &random)
            let other = Self.bytes(Self.edit(firstLines, &random, uids: &uids), &random)
            let alignment = CompactAlignment(other, against: first)
            let firstDocument = TodoDocument(bytes: first), otherDocument = TodoDocument(bytes: other)
            #expect(alignment.lines.count == otherDocument.lineCount && alignment.input.lineCount == otherDocument.lineCount,
                    "seed \(settings.seed), round \(round)")
            for (line, partner) in alignment.lines.enumerated() where partner != CompactIndex.absent {
                linedUp += 1
                let same = Int(partner) < firstDocument.lineCount
                    && Array(otherDocument.content(at: line)) == Array(firstDocument.content(at: Int(partner)))
                #expect(same, "seed \(settings.seed), round \(round): line \(line) lined up with \(partner)")
                if !same { return }
            }
            total += alignment.lines.count
        }
        #expect(linedUp * 2 > total, "seed \(settings.seed): only \(linedUp) of \(total) lines lined up")
    }

    /// Sides lined up against another array than the merge's first input, even one with the same
    /// bytes, are not trusted: the merge is the same as without them.
    @Test func sidesLinedUpAgainstAnotherArrayAreIgnored() {
        let base = Array("a uid:k1\nb uid:k2\nc uid:k3\n".utf8)
        let ours = Array("a uid:k1\n(A) b uid:k2\nc uid:k3\n".utf8), theirs = Array("a uid:k1\nb uid:k2\nc uid:k3 +p\n".utf8)
        let expected = TodoMerge.threeWay(base: base, ours: ours, theirs: theirs, options: ThreeWayOptions()).rendered()
        let shifted = Array("x uid:k9\n".utf8) + base
        let equalCopy = Array(base.map { $0 })
        for against in [shifted, equalCopy] {
            let sideOurs = TodoMerge.prepareSide(ours, against: against), sideTheirs = TodoMerge.prepareSide(theirs, against: against)
            #expect(sideOurs.alignment?.isAligned(with: base) == false)
            let merged = TodoMerge.threeWay(base: TodoMerge.prepareBase(base), ours: sideOurs, theirs: sideTheirs, options: ThreeWayOptions())
            #expect(merged.rendered() == expected)
        }
        #expect(TodoMerge.prepareSide(ours, against: base).alignment?.isAligned(with: base) == true)
    }

    /// A large first input's line count is estimated from samples: close above the count for lines
    /// of one length throughout, and where the samples miss a stretch of short lines (an estimate
    /// far too low), the tables grow and the merge is still the general one's.
    @Test func estimatedLineCountsSizeTablesWithoutChangingTheMerge() {
        func padded(_ number: Int) -> String { String(repeating: "0", count: 6 - String(number).count) + String(number) }
        let uniform = Array((0..<60_000).map { "task \($0 % 10) of the day uid:u\(padded($0))\n" }.joined().utf8)
        let exact = CompactScanner.lineCount(uniform, begin: 0)
        let estimate = CompactFirstScan.estimatedLineCount(uniform, begin: 0)
        #expect(estimate >= exact && estimate <= exact + exact / 20 + 64, "\(estimate) for \(exact) lines")

        // Long lines where the samples fall, short ones between: the estimate is far below.
        let size = CompactFirstScan.countedSize + CompactFirstScan.countedSize / 4
        var lines: [String] = [], bytes = 0, number = 0
        while bytes < size {
            let position = Double(bytes) / Double(size)
            let sampled = position < 0.11 || (position > 0.44 && position < 0.56) || position > 0.89
            let line = sampled ? String(repeating: "long words ", count: 30) + "uid:s\(number)" : "x uid:s\(number)"
            lines.append(line)
            bytes += line.utf8.count + 1
            number += 1
        }
        let copy = Array((lines.joined(separator: "\n") + "\n").utf8)
        let file = Array((lines.reversed().map { $0 + " +edited" }.joined(separator: "\n") + "\n").utf8)
        #expect(CompactFirstScan.estimatedLineCount(copy, begin: 0) * 2 < CompactScanner.lineCount(copy, begin: 0))
        let merged = TodoMerge.twoWay(file: file, copy: TodoMerge.prepareCopy(copy), doneUIDs: [])
        let general = TodoMerge.generalTwoWay(file: file, copy: copy, doneUIDs: [])
        #expect(merged.rendered() == general.rendered() && merged.reports == general.reports)
    }

    /// Inputs long enough to have checkpoints (`CompactInput.checkpoints`), lined up and cut in two
    /// at them: the scans' first passes and the decisions' halves start at a checkpoint's line, and
    /// the merges are the general ones'. The file also holds, far from its lined-up line, a second
    /// line with one uid, which hands the two-way merge back to the general one.
    @Test func longInputsCutAtCheckpointsMergeAsTheGeneralMerge() {
        let lines = (0..<40_000).map { number -> String in
            number % 7 == 0 ? "shared note \(number % 5)" : "task \(number) of the day\(number % 3 == 0 ? " +home" : "") uid:c\(number)"
        }
        func joined(_ lines: [String]) -> [UInt8] { Array((lines.joined(separator: "\n") + "\n").utf8) }
        let base = joined(lines)
        var oursLines = lines, theirsLines = lines
        for number in stride(from: 3, to: lines.count, by: 97) where number % 7 != 0 { oursLines[number] = "(A) " + lines[number] }
        for number in stride(from: 5, to: lines.count, by: 89) where number % 7 != 0 { theirsLines[number] += " due:2026-12-05" }
        oursLines.removeSubrange(20_000..<20_050)
        theirsLines.insert(contentsOf: (0..<30).map { "new task \($0) uid:n\($0)" }, at: 30_000)
        let ours = joined(oursLines), theirs = joined(theirsLines)
        let sideOurs = TodoMerge.prepareSide(ours, against: base)
        #expect(sideOurs.alignment?.input.checkpoints.count == 3)
        let options = ThreeWayOptions(markerSize: 7)
        let lined = TodoMerge.threeWay(base: TodoMerge.prepareBase(base), ours: sideOurs,
                                       theirs: TodoMerge.prepareSide(theirs, against: base), options: options,
                                       workers: Self.halvesBackwards)
        let general = TodoMerge.generalThreeWay(base: base, ours: ours, theirs: theirs, options: options)
        #expect(lined.rendered() == general.rendered() && lined.reports == general.reports && lined.conflicts == general.conflicts)

        let file = joined(oursLines), copy = joined(theirsLines)
        let twoWay = TodoMerge.twoWay(file: TodoMerge.prepareSide(file, against: copy), copy: TodoMerge.prepareCopy(copy),
                                      doneUIDs: ["c10"], workers: Self.halvesBackwards)
        let generalTwoWay = TodoMerge.generalTwoWay(file: file, copy: copy, doneUIDs: ["c10"])
        #expect(twoWay.rendered() == generalTwoWay.rendered() && twoWay.reports == generalTwoWay.reports)

        let twice = joined(oursLines + ["the same uid again uid:c1"])
        #expect(CompactTwoWay.merge(file: twice, copy: copy, doneUIDs: []) == nil)
        let handedBack = TodoMerge.twoWay(file: TodoMerge.prepareSide(twice, against: copy), copy: TodoMerge.prepareCopy(copy),
                                          doneUIDs: [], workers: Self.halvesBackwards)
        #expect(handedBack.rendered() == TodoMerge.generalTwoWay(file: twice, copy: copy, doneUIDs: []).rendered())
    }

    /// Many keys in a table whose fragments hold only the top bits above 15 entries: the change to
    /// buckets without fragments happens while keys collide, and every key is still found once.
    @Test func bucketsWithoutFragmentsStillFindEveryKey() {
        let lines = (0..<200).map { "task \($0) uid:k\($0)" }
        let base = Array((lines.joined(separator: "\n") + "\n").utf8)
        let ours = Array((lines.reversed().joined(separator: "\n") + "\n").utf8)
        guard let first = CompactFirstScan(base, side: 0, sideCount: 2, keepEntries: true, fragmentMask: Self.narrowFragmentMask) else {
            Issue.record("the compact merge refused plain ASCII uids")
            return
        }
        var scanner = first.scanner
        var input = CompactInput(ours)
        input.lineCount = CompactScanner.lineCount(ours, begin: 0)
        let entries = CompactBuffers.with([base, ours]) { scanner.scan(&input, side: 1, $0, keepEntries: true) }
        // Every line of OURS found BASE's entry for its uid, none a new one.
        #expect(entries.map { Set($0) } == Set(first.entries))
        #expect(scanner.index.entryCount == 200)
    }
}
