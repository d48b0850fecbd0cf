import TodoTxt

extension AgendaAction {
    /// The agenda's text: each heading (unless `headings` is false, a blank line between sections),
    /// then each task as `<number padded to width> <line>[  (<distance>)][  [blocked]]`, LF-ended
    /// (the marker on the lines of `blocked`, shown by `--blocked`).
    ///
    /// Written through one buffer sized from above before the first byte (no growth, no
    /// per-append checks): the task lines are disjoint ranges of `bytes`, so their lengths sum to
    /// at most `bytes.count`; each task adds at most `entryOverhead` bytes besides; each heading
    /// is counted at its length. Escaped control characters (`escapes`) can lengthen a line, so
    /// that case appends to a growing array instead.
    static func render(_ groups: [Agenda.Group], of agenda: Agenda, bytes: [UInt8], ranges: [(start: Int, length: Int)],
                       width: Int, headings: Bool, escapes: Bool, blocked: Set<Int> = []) -> [UInt8] {
        let headingBytes = headings ? groups.map { Array(agenda.heading($0.section).utf8) } : []
        let entryCount = groups.reduce(0) { $0 + $1.entries.count }
        // A number of at most `max(width, 20)` digits, a space, `  (` + 20 digits + `d overdue)`,
        // the blocked marker, LF.
        let entryOverhead = max(width, 20) + 1 + 40 + blockedMarker.count + 1
        var suffixDays: Int?
        var suffix: [UInt8] = []
        func suffixBytes(_ entry: Agenda.Entry, _ days: Int) -> [UInt8] {
            if days != suffixDays {
                suffix = Array("  (\(Agenda.distance(entry) ?? ""))".utf8)
                suffixDays = days
            }
            return suffix
        }
        if escapes {
            var output: [UInt8] = []
            for (position, group) in groups.enumerated() {
                if headings {
                    if position > 0 { output.append(0x0A) }
                    output += headingBytes[position]
                    output.append(0x0A)
                }
                for entry in group.entries {
                    TodoShListing.appendNumber(entry.index + 1, width: width, to: &output)
                    output.append(0x20)
                    let range = ranges[entry.index]
                    output += TerminalText.escapingControls(bytes[range.start..<(range.start + range.length)])
                    if let days = entry.daysFromToday { output += suffixBytes(entry, days) }
                    if blocked.contains(entry.index) { output += blockedMarker }
                    output.append(0x0A)
                }
            }
            return output
        }
        let capacity = bytes.count + entryCount * entryOverhead + headingBytes.reduce(0) { $0 + $1.count + 2 }
        return bytes.withUnsafeBufferPointer { source in
            [UInt8](unsafeUninitializedCapacity: capacity) { output, count in
                guard let target = output.baseAddress, let from = source.baseAddress else { count = 0; return }
                var at = 0
                func put(_ part: [UInt8]) {
                    part.withUnsafeBufferPointer { piece in
                        guard let start = piece.baseAddress else { return }
                        (target + at).update(from: start, count: piece.count)
                        at += piece.count
                    }
                }
                for (position, group) in groups.enumerated() {
                    if headings {
                        if position > 0 { target[at] = 0x0A; at += 1 }
                        put(headingBytes[position])
                        target[at] = 0x0A
                        at += 1
                    }
                    for entry in group.entries {
                        at = TodoShListing.writePaddedNumber(entry.index + 1, width: width, into: target, at: at)
                        target[at] = 0x20
                        at += 1
                        let range = ranges[entry.index]
                        (target + at).update(from: from + range.start, count: range.length)
                        at += range.length
                        if let days = entry.daysFromToday { put(suffixBytes(entry, days)) }
                        if !blocked.isEmpty, blocked.contains(entry.index) { put(blockedMarker) }
                        target[at] = 0x0A
                        at += 1
                    }
                }
                count = at
            }
        }
    }

    /// What `--blocked` appends to a blocked task's line.
    static let blockedMarker: [UInt8] = Array("  [blocked]".utf8)
}
