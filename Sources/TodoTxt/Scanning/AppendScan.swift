/// What appending tasks to a todo file must know about the file, learnt in one pass over its bytes
/// in pieces of whole lines, so that `todo add` never holds or parses the whole file: how many
/// lines it has (the new task's number), how its lines end (the new line's terminator), whether it
/// holds a NUL byte (a binary file, refused) or an unresolved conflict block (refused), and which of
/// the candidate uids it already mentions.
///
/// Every answer is the one the whole-file functions give on the same bytes: `TodoDocument` for the
/// lines and their terminators, `ConflictMarkers.firstBlockLine` for the conflict block and
/// `TodoDocument.mentionsUID` for the uids.
///
/// Feed it the file's pieces in order with `consume`: each piece must end with LF, except the last
/// piece of the file when the file does not (what `FileSystem.readInPieces` hands out). The first
/// piece may start with a byte order mark.
public struct AppendScan: Sendable {
    /// The `uid:VALUE` byte strings looked for, one per candidate.
    private let needles: [[UInt8]]
    /// For each candidate, whether a line mentions it.
    public private(set) var isTaken: [Bool]
    private var lineFeeds = 0
    private var lineFeedsAfterCR = 0
    private var bytesSeen = 0
    private var lastByte: UInt8?
    private var hasByteOrderMark = false
    /// The 1-based line of the first NUL byte.
    public private(set) var firstNULLine: Int?
    /// The 1-based line of the first conflict start marker, while no end marker has followed it.
    private var pendingConflictLine: Int?
    /// The 1-based line where the first complete conflict block starts.
    public private(set) var conflictBlockLine: Int?

    /// A scan that also looks for each of `uidCandidates` (uid values, without `uid:`).
    public init(uidCandidates: [String] = []) {
        needles = uidCandidates.map { Array("uid:\($0)".utf8) }
        isTaken = Array(repeating: false, count: uidCandidates.count)
    }

    /// Reads the next piece of the file.
    package mutating func consume(_ piece: UnsafeBufferPointer<UInt8>) {
        guard let base = piece.baseAddress, !piece.isEmpty else { return }
        var begin = 0
        if bytesSeen == 0, TodoDocument.startsWithByteOrderMark(piece) {
            hasByteOrderMark = true
            begin = 3
        }
        let linesBefore = lineFeeds
        let counts = AppendScan.countLineFeeds(base, from: begin, to: piece.count)
        lineFeeds += counts.all
        lineFeedsAfterCR += counts.afterCR
        bytesSeen += piece.count
        lastByte = base[piece.count - 1]
        func line(at offset: Int) -> Int {
            linesBefore + AppendScan.survey(base, from: begin, to: offset).lineFeeds + 1
        }
        // The exact searches only where the counting pass saw a NUL or a `<` (rare in task text).
        if firstNULLine == nil, counts.nulOrLessThan {
            let nul = ByteSearch.firstIndex(of: 0, in: base, from: 0, to: piece.count)
            if nul < piece.count { firstNULLine = line(at: nul) }
        }
        if conflictBlockLine == nil {
            var from = begin
            if pendingConflictLine == nil, counts.nulOrLessThan,
               let start = ConflictMarkers.markerLine(of: 0x3C, in: base, from: begin, begin: begin, count: piece.count) {
                pendingConflictLine = line(at: start)
                from = start + 7
            }
            if let pending = pendingConflictLine,
               ConflictMarkers.markerLine(of: 0x3E, in: base, from: from, begin: begin, count: piece.count) != nil {
                conflictBlockLine = pending
            }
        }
        needles.withUnsafeBufferPointer { needles in
            for (index, needle) in needles.enumerated() where !isTaken[index] {
                isTaken[index] = needle.withUnsafeBufferPointer { UID.mentions($0, inLinesOf: piece, from: begin) }
            }
        }
    }

    /// Whether the file holds nothing but (at most) a byte order mark.
    public var isEmpty: Bool { bytesSeen <= (hasByteOrderMark ? 3 : 0) }

    /// Whether the last line has no terminator (the file does not end with LF).
    public var lastLineUnterminated: Bool { !isEmpty && lastByte != 0x0A }

    /// The number of lines, as `TodoDocument.lineCount` counts them.
    public var lineCount: Int { lineFeeds + (lastLineUnterminated ? 1 : 0) }

    /// The terminator of lines added to this file: CRLF only when every line break is CRLF, LF when
    /// some is not, `newFile` while the file has no line break at all.
    public func terminator(newFile: LineTerminator = .lf) -> LineTerminator {
        if lineFeeds == 0 { return newFile }
        return lineFeedsAfterCR == lineFeeds ? .crlf : .lf
    }

    /// The bytes that append `lines` to the scanned file: a last line without a terminator first
    /// gets one; each line ends with `terminator(newFile:)`; a line ending in CR gets CR LF, so the
    /// CR stays its content; an LF inside a line becomes a space (a line can never hold one).
    public func bytesAppending(_ lines: [ArraySlice<UInt8>], newFile: LineTerminator = .lf) -> [UInt8] {
        let ending = terminator(newFile: newFile).bytes
        var bytes: [UInt8] = []
        bytes.reserveCapacity(lines.reduce(0) { $0 + $1.count + 2 } + 2)
        if lastLineUnterminated { bytes += lastByte == 0x0D ? [0x0D, 0x0A] : ending }
        for line in lines {
            let cleaned = line.contains(0x0A) ? line.map { $0 == 0x0A ? 0x20 : $0 }[...] : line
            bytes += cleaned
            bytes += cleaned.last == 0x0D ? [0x0D, 0x0A] : ending
        }
        return bytes
    }

    /// The number of LF bytes in `bytes` (vector steps, as the scan counts them).
    package static func lineFeeds(in bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return 0 }
            return survey(base, from: 0, to: buffer.count).lineFeeds
        }
    }

    /// The scan of `bytes` read as one piece (a whole file already in memory).
    public init(wholeFile bytes: [UInt8], uidCandidates: [String] = []) {
        self.init(uidCandidates: uidCandidates)
        bytes.withUnsafeBufferPointer { consume($0) }
    }

    /// The LF bytes in `base[from..<end]`, how many of them follow a CR in that range, and whether
    /// the range holds a NUL or a `<` byte (what the exact searches for a binary file and a
    /// conflict block look for): one pass instead of three, and a second one for the CR LF pairs
    /// only when the range holds a CR at all (most files have none).
    static func countLineFeeds(_ base: UnsafePointer<UInt8>, from: Int, to end: Int)
        -> (all: Int, afterCR: Int, nulOrLessThan: Bool) {
        let survey = self.survey(base, from: from, to: end)
        let afterCR = survey.holdsCR ? countLineFeedsAfterCR(base, from: from, to: end) : 0
        return (survey.lineFeeds, afterCR, survey.nulOrLessThan)
    }

    /// The LF bytes in `base[from..<end]`, and whether it holds a CR, and a NUL or a `<`.
    ///
    /// Sixteen bytes a step: the compare results are summed lane by lane (a true lane is 0xFF, so
    /// subtracting it adds one) and folded into the total before a lane can wrap; the other bytes
    /// looked for are ORed into two vectors tested once at the end.
    static func survey(_ base: UnsafePointer<UInt8>, from: Int, to end: Int)
        -> (lineFeeds: Int, holdsCR: Bool, nulOrLessThan: Bool) {
        let raw = UnsafeRawPointer(base)
        let lineFeed = SIMD16<UInt8>(repeating: 0x0A), carriageReturn = SIMD16<UInt8>(repeating: 0x0D)
        let nul = SIMD16<UInt8>(repeating: 0), lessThan = SIMD16<UInt8>(repeating: 0x3C)
        let zero = SIMD16<UInt8>(repeating: 0)
        var crSeen = zero, specialSeen = zero
        var all = 0
        var index = from
        while index + 16 <= end {
            var lanesAll = zero
            var steps = 0
            while steps < 255 && index + 16 <= end {
                let bytes = raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
                lanesAll &-= unsafeBitCast(bytes .== lineFeed, to: SIMD16<UInt8>.self)
                crSeen |= unsafeBitCast(bytes .== carriageReturn, to: SIMD16<UInt8>.self)
                specialSeen |= unsafeBitCast((bytes .== nul) .| (bytes .== lessThan), to: SIMD16<UInt8>.self)
                index += 16
                steps += 1
            }
            all += lanes(lanesAll)
        }
        var holdsCR = crSeen != zero, special = specialSeen != zero
        while index < end {
            switch base[index] {
            case 0x0A: all += 1
            case 0x0D: holdsCR = true
            case 0, 0x3C: special = true
            default: break
            }
            index += 1
        }
        return (all, holdsCR, special)
    }

    /// The LF bytes in `base[from..<end]` that follow a CR in that range.
    static func countLineFeedsAfterCR(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int {
        guard from < end else { return 0 }
        var afterCR = 0
        let raw = UnsafeRawPointer(base)
        let lineFeed = SIMD16<UInt8>(repeating: 0x0A), carriageReturn = SIMD16<UInt8>(repeating: 0x0D)
        // Each step looks at 16 bytes from `index` and the 16 before them shifted by one.
        var index = from + 1
        while index + 16 <= end {
            var lanesAfterCR = SIMD16<UInt8>(repeating: 0)
            var steps = 0
            while steps < 255 && index + 16 <= end {
                let isLineFeed = raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self) .== lineFeed
                let follows = raw.loadUnaligned(fromByteOffset: index - 1, as: SIMD16<UInt8>.self) .== carriageReturn
                lanesAfterCR &-= unsafeBitCast(isLineFeed .& follows, to: SIMD16<UInt8>.self)
                index += 16
                steps += 1
            }
            afterCR += lanes(lanesAfterCR)
        }
        while index < end {
            if base[index] == 0x0A && base[index - 1] == 0x0D { afterCR += 1 }
            index += 1
        }
        return afterCR
    }

    /// The sum of sixteen lane counts, each at most 255.
    @inline(__always)
    private static func lanes(_ counts: SIMD16<UInt8>) -> Int {
        var total = 0
        for lane in 0..<16 { total += Int(counts[lane]) }
        return total
    }
}
