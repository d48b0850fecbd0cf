// The `sort` target: `todo sort` and `todo sort --by` on the input.
import TodoTxt

/// Sort target, public entry point: the failures for `bytes` (cut to the sort limits).
public func sortFailures(_ bytes: [UInt8]) -> [InvariantFailure] { FuzzTarget.sort.failures(bytes) }

/// The key lists tried besides the plain sort; one per input, chosen by its seed.
let sortKeyLists: [[SortKey]] = [[.priority], [.due, .text], [.threshold, .created], [.text, .priority]]

/// The plain sort and one keyed sort of `bytes`.
func checkSort(_ bytes: [UInt8], _ log: inout FailureLog) {
    let document = TodoDocument(bytes: bytes)
    guard log.expect(document.rendered() == bytes, "render(parse(b)) != b") else { return }
    checkSort(bytes, document, by: [], &log)
    checkSort(bytes, document, by: sortKeyLists[Int(seed(of: bytes)) % sortKeyLists.count], &log)
}

/// Sort invariants for one key list.
///
/// - `sortedOrder` is a permutation of the line indices, and stable: completed lines keep their
///   relative order; without keys open lines keep theirs too; with keys, lines with identical bytes
///   (equal under every key) keep theirs.
/// - the sorted bytes hold the same lines, completed ones last, and sorting them again changes
///   nothing; bytes already in sorted order come back unchanged;
/// - `sorted(by:)` and `sort(_:by:)` agree; `sortedPieces` exists exactly when the input ends with
///   LF (or is empty), its ranges lie in the input and concatenate to the sorted bytes.
func checkSort(_ bytes: [UInt8], _ document: TodoDocument, by keys: [SortKey], _ log: inout FailureLog) {
    let order = document.sortedOrder(by: keys)
    guard log.expect(order.sorted() == Array(0..<document.lineCount),
                     "sortedOrder \(keys) is not a permutation of the line indices") else { return }
    var lastCompleted = -1, lastOpen = -1
    var lastOfContent: [[UInt8]: Int] = [:]
    for index in order {
        if document.item(at: index).isCompleted {
            log.expect(index > lastCompleted, "sort \(keys) moved completed line \(index) before line \(lastCompleted)")
            lastCompleted = index
        } else if keys.isEmpty {
            log.expect(index > lastOpen, "sort moved open line \(index) before line \(lastOpen)")
            lastOpen = index
        }
        let line = Array(document.content(at: index))
        if let previous = lastOfContent[line] {
            log.expect(index > previous, "sort \(keys) swapped identical lines \(previous) and \(index)")
        }
        lastOfContent[line] = index
    }

    let sorted = TodoDocument.sort(bytes, by: keys)
    let result = TodoDocument(bytes: sorted)
    let gainedBOM = gainedByteOrderMark(document, result)
    log.expect(result.hasByteOrderMark == document.hasByteOrderMark || gainedBOM, "sort \(keys) lost the BOM")
    log.expect(lineMultiset(result, gainedBOM: gainedBOM) == lineMultiset(document),
               "sort \(keys) is not a permutation of the lines")
    log.expect(document.sorted(by: keys).rendered() == sorted, "sorted(by: \(keys)) and sort(_:by:) differ")
    // The plan `todo sort` writes from: present exactly when the input ends with LF (or is empty),
    // pieces within the input, and their concatenation is the sorted file.
    if let pieces = TodoDocument.sortedPieces(bytes, by: keys) {
        log.expect(bytes.isEmpty || bytes.last == 0x0A, "sortedPieces \(keys) for bytes without a final LF")
        if log.expect(pieces.allSatisfy { $0.lowerBound >= 0 && $0.upperBound <= bytes.count },
                      "sortedPieces \(keys): a piece outside the input") {
            log.expect(pieces.flatMap { bytes[$0] } == sorted, "sortedPieces \(keys) differs from sort(_:by:)")
        }
    } else {
        log.expect(!bytes.isEmpty && bytes.last != 0x0A, "no sortedPieces \(keys) for bytes ending with LF")
    }
    if order.elementsEqual(0..<document.lineCount) {
        log.expect(sorted == bytes, "sorting already sorted bytes by \(keys) changed them")
    }
    // A line's own BOM is read past (TodoItem.parseHeader), so a line gaining the file's BOM at the
    // top reads the same: order and idempotence hold with and without that reinterpretation.
    var seenDone = false
    for index in 0..<result.lineCount {
        let done = result.item(at: index).isCompleted
        log.expect(!seenDone || done, "sort \(keys) left open line \(index) after a completed one")
        seenDone = seenDone || done
    }
    log.expect(TodoDocument.sort(sorted, by: keys) == sorted, "sort \(keys) is not idempotent")
}
