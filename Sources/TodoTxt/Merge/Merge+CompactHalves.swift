/// Deciding the lines of a compact merge's first input (OURS, or the reconciled file) in two halves
/// that `MergeWorkers` may run at once (docs/notes/speed-commands.md, "Round four").
///
/// A line's decision depends only on its own versions, found through the index, which neither half
/// changes; each half records its units and reports in its own `Piece`, and the pieces are joined in
/// file order. So the result is the one a single pass gives, whatever the workers do.
enum CompactHalves {
    /// Inputs at least this large are decided in two halves (`MergeWorkers.halvingThreshold`): below
    /// it, starting a thread costs more than the half it takes.
    static let threshold = 1 << 20

    /// Decides the lines of `buffer` from `begin` into `decisions` (one per line), by calling
    /// `decide(start, end, firstLine, decisions)` for the lines starting in `start..<end`, line
    /// `firstLine` the first of them: once over everything, or, for a large input
    /// (`MergeWorkers.halvingThreshold`), once per half through `workers`. Returns the pieces in file
    /// order; the second half's unit numbers in `decisions` are moved up by the first piece's
    /// `units` count, as its units follow those.
    ///
    /// `alongside`, when given, is other work that needs none of these decisions: it runs after the
    /// second half on the same worker (after everything, on one piece), and `firstPercent` of the
    /// bytes go to the first half so that the two workers end about together. `checkpoints` are the
    /// input's (`CompactInput.checkpoints`): the cut is then at the nearest one, whose line number
    /// is known.
    static func decide<Piece>(_ buffer: UnsafeBufferPointer<UInt8>, from begin: Int, into decisions: inout [UInt32],
                              checkpoints: [Int] = [], workers: MergeWorkers, units: (Piece) -> Int, firstPercent: Int = 50,
                              alongside: () -> Void = {},
                              _ decide: (Int, Int, Int, UnsafeMutableBufferPointer<UInt32>) -> Piece) -> [Piece] {
        let end = buffer.count
        guard let base = buffer.baseAddress else {
            alongside()
            return []
        }
        let (split, secondLine) = end - begin >= max(1, workers.halvingThreshold)
            ? CompactInput.split(base, near: begin + (end - begin) * firstPercent / 100, from: begin, count: end,
                                 checkpoints: checkpoints) : (end, 0)
        return decisions.withUnsafeMutableBufferPointer { decisions -> [Piece] in
            guard split < end else {
                let whole = decide(begin, end, 0, decisions)
                alongside()
                return [whole]
            }
            var first: Piece?, second: Piece?
            workers.runBoth({ first = decide(begin, split, 0, decisions) },
                            {
                                second = decide(split, end, secondLine, decisions)
                                alongside()
                            })
            guard let first, let second else { preconditionFailure("MergeWorkers: runBoth returned before both halves ran") }
            let shift = UInt32(truncatingIfNeeded: units(first))
            if shift > 0 {
                for line in secondLine..<decisions.count where decisions[line] & ~CompactDecision.onlyFirst >= CompactDecision.extra {
                    decisions[line] += shift
                }
            }
            return [first, second]
        }
    }

    /// Appends a piece's `part` to `joined`, moving its storage while `joined` is still empty (the
    /// first piece's, most of the elements): a copy would retain every element, and the piece's
    /// release then undo each retain, a cost in the merge's single-threaded steps.
    static func join<Element>(_ joined: inout [Element], taking part: inout [Element]) {
        if joined.isEmpty {
            swap(&joined, &part)
        } else {
            joined += part
            part = []
        }
    }
}
