// The `merge` target: `todo merge BASE OURS THEIRS` and `todo reconcile` on slices of the input.
import TodoTxt

/// Merge target, public entry point: the failures for `bytes` (cut to the merge limits).
public func mergeFailures(_ bytes: [UInt8]) -> [InvariantFailure] { FuzzTarget.merge.failures(bytes) }

/// The byte that separates BASE, OURS and THEIRS in a merge input. 0xFF never occurs in UTF-8, so a
/// seed file of real lines joined by it splits where its author meant; without two of them the
/// input is cut in thirds.
public let mergeSeparator: UInt8 = 0xFF

/// BASE, OURS and THEIRS cut from `bytes`: at the first two separator bytes (which belong to no
/// version), else in thirds. Invariant: the three slices, with the separators used, make up `bytes`.
public func mergeVersions(_ bytes: [UInt8]) -> (base: [UInt8], ours: [UInt8], theirs: [UInt8]) {
    if let first = bytes.firstIndex(of: mergeSeparator),
       let second = bytes[(first + 1)...].firstIndex(of: mergeSeparator) {
        return (Array(bytes[..<first]), Array(bytes[(first + 1)..<second]), Array(bytes[(second + 1)...]))
    }
    let first = bytes.count / 3, second = 2 * bytes.count / 3
    return (Array(bytes[..<first]), Array(bytes[first..<second]), Array(bytes[second...]))
}

func checkMerge(_ bytes: [UInt8], _ log: inout FailureLog) {
    let versions = mergeVersions(bytes)
    let base = TodoDocument(bytes: versions.base)
    let ours = TodoDocument(bytes: versions.ours)
    let theirs = TodoDocument(bytes: versions.theirs)
    checkThreeWay(base: base, ours: ours, theirs: theirs, &log)
    checkTwoWay(file: ours, copy: theirs, &log)
}

/// Three-way merge invariants (docs/sync.md section 1, docs/notes/merge.md):
///
/// - exit status 0 exactly when there is no conflict; the result reads back as its own bytes;
/// - the whole-file shortcuts: merge(b, x, x) = x, merge(b, b, x) = x, merge(b, x, b) = x;
/// - nothing lost: a line without a uid that all three versions hold is in the result;
/// - no uid on two lines outside conflict blocks, when no version holds a uid twice itself.
func checkThreeWay(base: TodoDocument, ours: TodoDocument, theirs: TodoDocument, _ log: inout FailureLog) {
    let merged = TodoMerge.threeWay(base: base, ours: ours, theirs: theirs)
    let mergedBytes = merged.bytes
    log.expect(TodoDocument(bytes: mergedBytes).rendered() == mergedBytes, "merge result does not round trip")
    log.expect(TodoMerge.threeWay(base: base, ours: ours, theirs: ours).bytes == ours.rendered(), "merge(b, x, x) != x")
    log.expect(TodoMerge.threeWay(base: base, ours: base, theirs: theirs).bytes == theirs.rendered(), "merge(b, b, x) != x")
    log.expect(TodoMerge.threeWay(base: base, ours: ours, theirs: base).bytes == ours.rendered(), "merge(b, x, b) != x")

    let result = merged.document
    let resultLines = Set((0..<result.lineCount).map { Array(result.content(at: $0)) })
    let theirLines = Set((0..<theirs.lineCount).map { Array(theirs.content(at: $0)) })
    let baseLines = Set((0..<base.lineCount).map { Array(base.content(at: $0)) })
    for index in 0..<ours.lineCount where ours.item(at: index).isTask && ours.item(at: index).uid == nil {
        let line = Array(ours.content(at: index))
        if theirLines.contains(line) && baseLines.contains(line) {
            log.expect(resultLines.contains(line), "merge lost line \(index) of OURS that all three hold")
        }
    }

    let versionsHoldDuplicates = [base, ours, theirs].contains { !UIDIndex($0).duplicates.isEmpty }
    if !versionsHoldDuplicates {
        var holder: [String: Int] = [:]
        var inBlock = false
        for index in 0..<result.lineCount {
            let line = result.content(at: index)
            if !inBlock && isMarker(line, 0x3C) { inBlock = true; continue }
            if inBlock {
                if isMarker(line, 0x3E) { inBlock = false }
                continue
            }
            guard let uid = result.item(at: index).uid else { continue }
            if let first = holder[uid] {
                log.expect(false, "merge put uid \(uid) on lines \(first) and \(index) outside a conflict block")
            } else {
                holder[uid] = index
            }
        }
    }
}

/// Whether `line` starts with seven `marker` bytes followed by a space or its end: a conflict
/// block's start (`<`) or end (`>`) line at the default marker size.
func isMarker<Line: Collection<UInt8>>(_ line: Line, _ marker: UInt8) -> Bool {
    var count = 0
    for byte in line {
        if count == 7 { return byte == 0x20 }
        guard byte == marker else { return false }
        count += 1
    }
    return count == 7
}

/// Two-way reconcile invariant (docs/sync.md section 2): every line of the file is kept, as it was or,
/// for a line with a uid, as the merged version that holds the same uid.
func checkTwoWay(file: TodoDocument, copy: TodoDocument, _ log: inout FailureLog) {
    let reconciled = TodoMerge.twoWay(file: file, copy: copy, doneUIDs: []).document
    let lines = Set((0..<reconciled.lineCount).map { Array(reconciled.content(at: $0)) })
    let uids = Set((0..<reconciled.lineCount).compactMap { reconciled.item(at: $0).uid })
    for index in 0..<file.lineCount {
        let item = file.item(at: index)
        if lines.contains(Array(file.content(at: index))) { continue }
        if let uid = item.uid {
            log.expect(uids.contains(uid), "reconcile lost uid \(uid) of line \(index) of the file")
        } else {
            log.expect(false, "reconcile lost line \(index) of the file")
        }
    }
}
