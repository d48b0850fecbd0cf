/// A merge's result as runs of its inputs' bytes (`MergeOutput`), so that a caller writes it without
/// building it: the file layer hands the runs to `writev` (`ReplacementContent.gathered`).

/// A run of bytes of one of several buffers.
///
/// 16 bytes: a merged file of a million lines is at most a few million runs (usually far fewer:
/// consecutive lines of one input are one run). A run longer than `UInt32.max` is split.
public struct BytePiece: Sendable, Hashable {
    /// The buffer's number in the list of sources.
    public var source: UInt32
    /// How many bytes.
    public var count: UInt32
    /// The offset of the first byte in the buffer.
    public var start: Int

    public init(source: Int, start: Int, count: Int) {
        self.source = UInt32(truncatingIfNeeded: source)
        self.count = UInt32(truncatingIfNeeded: count)
        self.start = start
    }

    /// The bytes of the source it covers.
    public var range: Range<Int> { start..<(start + Int(count)) }
}

/// A merged file as runs of its sources (the inputs, and one buffer of the bytes no input holds:
/// merged lines, conflict markers, terminators), with the conflicts and reports of the merge.
public struct MergeOutput: Sendable {
    /// The buffers the pieces point into.
    public let sources: [[UInt8]]
    /// The merged file: these runs, in order.
    public let pieces: [BytePiece]
    /// Tasks left between conflict markers (three-way only; empty when clean).
    public let conflicts: [MergeConflict]
    /// What the merge did (see `MergeResult.reports`).
    public let reports: [MergeReport]

    /// No conflict markers remain.
    public var isClean: Bool { conflicts.isEmpty }

    /// The merged file's size in bytes.
    public var byteCount: Int { pieces.reduce(0) { $0 + Int($1.count) } }

    /// The merged file's bytes, built (for callers that need them whole; a writer should pass the
    /// pieces on instead).
    public func rendered() -> [UInt8] {
        if pieces.count == 1, let piece = pieces.first, piece.start == 0, Int(piece.count) == sources[Int(piece.source)].count {
            return sources[Int(piece.source)]
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(byteCount)
        for piece in pieces { bytes.append(contentsOf: sources[Int(piece.source)][piece.range]) }
        return bytes
    }

    /// The output of a whole file's bytes.
    init(bytes: [UInt8], conflicts: [MergeConflict], reports: [MergeReport]) {
        var pieces = PieceList()
        pieces.append(source: 0, start: 0, count: bytes.count)
        self.init(sources: [bytes], pieces: pieces.pieces, conflicts: conflicts, reports: reports)
    }

    init(sources: [[UInt8]], pieces: [BytePiece], conflicts: [MergeConflict], reports: [MergeReport]) {
        self.sources = sources
        self.pieces = pieces
        self.conflicts = conflicts
        self.reports = reports
    }

    /// The `MergeResult` of the public document API.
    var result: MergeResult {
        MergeResult(document: TodoDocument(bytes: rendered()), conflicts: conflicts, reports: reports)
    }
}

/// A list of runs that joins a run to the previous one when it continues it.
struct PieceList {
    private(set) var pieces: [BytePiece] = []

    mutating func append(source: Int, start: Int, count: Int) {
        guard count > 0 else { return }
        var start = start, count = count
        if let last = pieces.last, Int(last.source) == source, last.range.upperBound == start,
           Int(last.count) + count <= Int(UInt32.max) {
            pieces[pieces.count - 1].count += UInt32(count)
            return
        }
        while count > Int(UInt32.max) {
            pieces.append(BytePiece(source: source, start: start, count: Int(UInt32.max)))
            start += Int(UInt32.max)
            count -= Int(UInt32.max)
        }
        pieces.append(BytePiece(source: source, start: start, count: count))
    }

    /// Drops the last `count` bytes (at most the last piece's).
    mutating func dropLast(_ count: Int) {
        guard count > 0, let last = pieces.last else { return }
        if Int(last.count) <= count { pieces.removeLast() } else { pieces[pieces.count - 1].count -= UInt32(count) }
    }
}
