extension JSONWriter {
    /// The export's `"spent"` field (docs/format.md section 7, "Time tracking"), after the query
    /// fields: the first `spent:` value as whole minutes (an integer), or null when there is none
    /// or it is not a duration. The byte path writes the same bytes (`JSONObjectWriter.spent`).
    mutating func writeSpent(_ spent: SpentTime?) {
        raw(",\"spent\":")
        raw(spent.map { String($0.minutes) } ?? "null")
    }
}

extension JSONObjectWriter {
    /// `JSONWriter.writeSpent(item.spentTime.value)`'s bytes from the scanned fields: the first tag
    /// whose key is `spent`, as minutes when it is a duration, else null.
    mutating func spent(_ base: UnsafePointer<UInt8>, _ fields: UnsafeBufferPointer<BodyFieldRange>) {
        raw(",\"spent\":")
        for field in fields where field.kind == .tag && field.nameRange.count == 5 {
            let name = UnsafeBufferPointer(start: base + field.nameRange.lowerBound, count: 5)
            guard name.elementsEqual("spent".utf8) else { continue }
            let value = UnsafeBufferPointer(start: base + field.valueRange.lowerBound, count: field.valueRange.count)
            if let spent = SpentTime(bytes: value) { decimal(spent.minutes) } else { raw("null") }
            return
        }
        raw("null")
    }
}
