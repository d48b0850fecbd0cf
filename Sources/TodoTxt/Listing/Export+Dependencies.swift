/// The export's dependency fields (docs/format.md section 7), after the typed-query fields, the
/// same bytes on the String path and the byte path: `"after"`, the task's `after:` uids in order
/// with repeats and empty values dropped (`TodoItem.afterUIDs`), and `"blocked"`, whether one of
/// them is held by an open task of the file (`DependencyGraph`). `openUIDs` is computed once for
/// the whole file, before the first line (`TodoDocument.exportOpenUIDs`).
extension JSONWriter {
    mutating func writeDependencyFields(_ item: TodoItem, openUIDs: Set<String>) {
        let after = item.afterUIDs
        raw(",\"after\":")
        array(after)
        raw(DependencyGraph.isBlocked(after: after, openUIDs: openUIDs) ? ",\"blocked\":true" : ",\"blocked\":false")
    }
}

extension JSONObjectWriter {
    /// `JSONWriter.writeDependencyFields`'s bytes from the scanned fields of an ASCII line: each
    /// non-empty `after:` value once, in order; a String is made for a value only when the file has
    /// open uids to test it against.
    mutating func dependencyFields(_ base: UnsafePointer<UInt8>, readable: Int, _ fields: UnsafeBufferPointer<BodyFieldRange>,
                                   isTask: Bool, openUIDs: Set<String>) {
        raw(",\"after\":[")
        var written: [Range<Int>] = []
        var blocked = false
        func same(_ left: Range<Int>, _ right: Range<Int>) -> Bool {
            left.count == right.count && (0..<left.count).allSatisfy { base[left.lowerBound + $0] == base[right.lowerBound + $0] }
        }
        if isTask {
            for field in fields where field.kind == .tag && !field.valueRange.isEmpty && field.nameRange.count == 5 {
                let name = field.nameRange.lowerBound
                guard base[name] == 0x61, base[name + 1] == 0x66, base[name + 2] == 0x74, base[name + 3] == 0x65, base[name + 4] == 0x72,
                      !written.contains(where: { same($0, field.valueRange) }) else { continue }
                if !written.isEmpty { byte(0x2C) }
                written.append(field.valueRange)
                string(base, readable: readable, field.valueRange.lowerBound, field.valueRange.upperBound)
                if !blocked, !openUIDs.isEmpty {
                    let value = String(decoding: UnsafeBufferPointer(start: base + field.valueRange.lowerBound, count: field.valueRange.count), as: UTF8.self)
                    blocked = openUIDs.contains(value)
                }
            }
        }
        raw(blocked ? "],\"blocked\":true" : "],\"blocked\":false")
    }
}

extension TodoDocument {
    /// The uids of the file's open tasks, for the export's `blocked`; empty without a scan of
    /// fields when no line holds `after:`.
    ///
    /// `after:` is looked for in the document's two buffers whole (a vector search), not line by
    /// line: a line's content lies within one of them and holds no terminator, so a line holding
    /// `after:` is always found. Bytes of no line (a BOM, terminators, the old content of an edited
    /// line) can only make it look in vain; the set is then the same, read from the lines.
    func exportOpenUIDs() -> Set<String> {
        guard TodoDocument.holdsAfterTag(storage) || TodoDocument.holdsAfterTag(edits) else { return [] }
        return DependencyGraph.openUIDs(of: (0..<lineCount).lazy.map { self.content(at: $0) })
    }

    /// Whether `bytes` hold `after:` anywhere.
    private static func holdsAfterTag(_ bytes: [UInt8]) -> Bool {
        let needle: StaticString = "after:"
        return bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return false }
            let found = ByteSearch.firstIndex(of: UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount),
                                              in: base, from: 0, to: buffer.count)
            return found < buffer.count
        }
    }
}
