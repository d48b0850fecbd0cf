/// What it takes to take one change of a document back later, on the document as it is then (a
/// file others may have changed meanwhile): each changed line is found again by the bytes the change
/// gave it, never by its index alone, so an undo never touches a line it did not make. The edits are
/// made through the record, which notes the line terminators they disturb, so that an undo on an
/// otherwise unchanged document gives back its bytes exactly. `todo ui`'s `u` keeps one per change;
/// an app's undo would do the same.
public struct ChangeRecord: Sendable {
    /// One line edit: the line at `index` went from `before` to `after` (nil `before`: added, nil
    /// `after`: removed). `terminator`: the line's own terminator before (replaced, removed), or for
    /// an added line the old last line's when the line went after it.
    struct LineChange: Sendable {
        let index: Int
        let before: [UInt8]?
        let after: [UInt8]?
        let terminator: LineTerminator?
    }

    /// A reordering of the whole document: `order[p]` is where the line put at `p` was before, and
    /// `fingerprint` identifies the bytes that came out. Its inverse fits only that document, so it
    /// is kept as 4 bytes a line plus the fingerprint rather than as a copy of the document.
    struct Reordering: Sendable {
        let order: [Int32]
        let fingerprint: UInt64
        /// The terminators a reordering may change (`TodoDocument.reorder`: only at the end of the
        /// file), by line index before it: the old last line's and the new last line's.
        let endTerminators: [(index: Int, terminator: LineTerminator)]
    }

    var lines: [LineChange] = []
    var reordering: Reordering?

    public init() {}

    /// Whether there is nothing to take back.
    public var isEmpty: Bool { lines.isEmpty && reordering == nil }

    /// `document.replaceContent(at:with:)`, recorded.
    public mutating func replace(at index: Int, with content: [UInt8], in document: inout TodoDocument) {
        let before = Array(document.content(at: index)), terminator = document.terminator(at: index)
        document.replaceContent(at: index, with: content)
        lines.append(LineChange(index: index, before: before, after: Array(document.content(at: index)), terminator: terminator))
    }

    /// `document.insertLine(_:at:)`, recorded; returns the new line's index.
    @discardableResult
    public mutating func insert(_ content: [UInt8], at index: Int, in document: inout TodoDocument) -> Int {
        let lastTerminator = index == document.lineCount && index > 0 ? document.terminator(at: index - 1) : nil
        document.insertLine(content, at: index)
        lines.append(LineChange(index: index, before: nil, after: Array(document.content(at: index)), terminator: lastTerminator))
        return index
    }

    /// `document.appendLine(_:)`, recorded; returns the new line's index.
    @discardableResult
    public mutating func append(_ content: [UInt8], in document: inout TodoDocument) -> Int {
        insert(content, at: document.lineCount, in: &document)
    }

    /// `document.removeLine(at:)`, recorded.
    public mutating func remove(at index: Int, in document: inout TodoDocument) {
        lines.append(LineChange(index: index, before: Array(document.content(at: index)), after: nil,
                                terminator: document.terminator(at: index)))
        document.removeLine(at: index)
    }

    /// `document.reorder(_:)`, recorded. A record holds line edits or one reordering, not both.
    ///
    /// Precondition: `order` is a permutation of the line indices.
    public mutating func reorder(_ document: inout TodoDocument, by order: [Int]) {
        let ends = [document.lineCount - 1, order.last].compactMap { $0 }.filter { $0 >= 0 }
        let endTerminators = ends.map { (index: $0, terminator: document.terminator(at: $0)) }
        document.reorder(order)
        reordering = Reordering(order: order.map { Int32(truncatingIfNeeded: $0) }, fingerprint: Self.fingerprint(document),
                                endTerminators: endTerminators)
    }

    /// FNV-1a over the document's bytes: deterministic (the library has no randomness of its own)
    /// and enough to tell "exactly as left" from "changed since".
    static func fingerprint(_ document: TodoDocument) -> UInt64 {
        document.rendered().withUnsafeBufferPointer { bytes in
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            return hash ^ UInt64(bytes.count)
        }
    }
}

/// Why a `ChangeRecord` could not be taken back; the document is then as it was.
public enum UndoError: Error, Sendable, Equatable {
    /// A line the change made is no longer there (or no longer only once): its index in the
    /// changed version and the bytes it had.
    case lineGone(index: Int, content: [UInt8])
    /// The change reordered the document, and the document is no longer exactly as it left it.
    case changedSinceReordering
}

extension TodoDocument {
    /// Takes `record` back: changed lines found again by their new bytes (at the same index, else
    /// the only line holding them) and given their old ones, added lines removed, removed lines put
    /// back where they were (or at the end, when the document has become shorter), a reordering
    /// inverted; terminators as they were where the lines around are as the change left them. All
    /// or nothing: on an error the document is unchanged.
    public mutating func undo(_ record: ChangeRecord) throws(UndoError) {
        var document = self
        if let reordering = record.reordering {
            guard reordering.order.count == document.lineCount, ChangeRecord.fingerprint(document) == reordering.fingerprint else {
                throw .changedSinceReordering
            }
            var before = [Int](repeating: 0, count: reordering.order.count)
            for (position, index) in reordering.order.enumerated() { before[Int(index)] = position }
            document.reorder(before)
            // The last line first: a line that is no longer last must have a terminator to take.
            for end in reordering.endTerminators.sorted(by: { $0.index > $1.index }) {
                document.setTerminator(end.terminator, at: end.index)
            }
        }
        for change in record.lines.reversed() {
            if let after = change.after {
                guard let index = TaskIdentity.relocate(index: change.index, content: after, in: document) else {
                    throw .lineGone(index: change.index, content: after)
                }
                if let before = change.before {
                    document.replaceContent(at: index, with: before)
                    if let terminator = change.terminator { document.setTerminator(terminator, at: index) }
                } else {
                    document.removeLine(at: index)
                    // An added last line gave the old last line a terminator; it had none before.
                    if index == document.lineCount, index > 0, let terminator = change.terminator {
                        document.setTerminator(terminator, at: index - 1)
                    }
                }
            } else if let before = change.before {
                let index = min(change.index, document.lineCount)
                document.insertLine(before, at: index)
                if let terminator = change.terminator { document.setTerminator(terminator, at: index) }
            }
        }
        self = document
    }
}
