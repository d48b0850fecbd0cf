/// A problem found in a document by the diagnostics pass. Parsing itself never fails; this pass
/// says what looks wrong so a command can warn about it.
public struct Diagnostic: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A date-shaped header token that is not a real date (`2026-02-30`); it was read as body.
        case invalidDate(String)
        /// An extension tag whose value does not parse (`due:someday`).
        case invalidExtensionValue(key: String, value: String)
        /// A uid held by several lines; `ownerLine` (1-based) keeps it.
        case duplicateUID(String, ownerLine: Int)
        /// Bytes that are not valid UTF-8 (kept as they are; shown as U+FFFD).
        case invalidUTF8
    }
    /// 1-based line number.
    public let line: Int
    public let kind: Kind

    public var description: String {
        switch kind {
        case .invalidDate(let text): return "line \(line): '\(text)' is not a valid date"
        case .invalidExtensionValue(let key, let value): return "line \(line): invalid \(key): value '\(value)'"
        case .duplicateUID(let uid, let owner): return "line \(line): duplicate uid \(uid) (kept by line \(owner))"
        case .invalidUTF8: return "line \(line): invalid UTF-8"
        }
    }
}

extension TodoDocument {
    /// Runs every check over every line, in line order.
    public func diagnostics() -> [Diagnostic] {
        var found: [Diagnostic] = []
        let uids = UIDIndex(self)
        var duplicateOf: [Int: (String, Int)] = [:]
        for (uid, holders) in uids.duplicates {
            let owner = uids.owners[uid] ?? holders[0]
            for holder in holders where holder != owner { duplicateOf[holder] = (uid, owner + 1) }
        }
        for index in 0..<lineCount {
            let line = index + 1
            let item = item(at: index)
            guard item.isTask else { continue }
            if String(validating: item.content, as: UTF8.self) == nil {
                found.append(Diagnostic(line: line, kind: .invalidUTF8))
            }
            item.content.withUnsafeBufferPointer { bytes in
                let offset = item.bodyOffset
                if TodoDate.looksLikeDate(bytes, at: offset), TodoDate.parse(bytes, at: offset) == nil {
                    found.append(Diagnostic(line: line, kind: .invalidDate(lossyString(bytes[offset..<(offset + 10)]))))
                }
            }
            for tag in item.tags {
                let valid: Bool
                switch tag.key {
                case "due", "t": valid = TodoDate(tag.value) != nil
                case "rec": valid = Recurrence(tag.value) != nil
                case "h": valid = tag.value == "0" || tag.value == "1"
                case "pri": valid = Priority(tag.value) != nil
                default: valid = true
                }
                if !valid { found.append(Diagnostic(line: line, kind: .invalidExtensionValue(key: tag.key, value: tag.value))) }
            }
            if let (uid, owner) = duplicateOf[index] {
                found.append(Diagnostic(line: line, kind: .duplicateUID(uid, ownerLine: owner)))
            }
        }
        return found
    }
}
