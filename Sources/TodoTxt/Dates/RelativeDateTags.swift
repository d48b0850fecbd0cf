/// Why a date tag's value, as typed, cannot be written (`RelativeDateTags.resolving(_:today:keeping:)`).
public struct RelativeDateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the value.
    public enum Problem: Sendable, Equatable {
        /// Neither a `YYYY-MM-DD` date nor a relative expression; `suggestion` is a close keyword.
        case notADate(suggestion: String?)
        /// An expression whose day leaves years 1–9999 (`due:+9999y`).
        case beyondCalendar
    }

    /// The tag's key (`due`, `t`, `until`).
    public let key: String
    /// The value as typed.
    public let value: String
    public let problem: Problem

    /// `due:tomorow is not a date or a relative date (did you mean due:tomorrow?)`.
    public var description: String {
        switch problem {
        case .notADate(let suggestion):
            return "\(key):\(value) is not a date or a relative date"
                + (suggestion.map { " (did you mean \(key):\($0)?)" } ?? "")
        case .beyondCalendar:
            return "\(key):\(value) falls outside the years 1-9999"
        }
    }
}

/// The format rule behind relative dates on input (docs/todo-command.md, "Dates relative to today"):
/// the values of the date tags `due:`, `t:` and `until:` may be typed as a `DateExpression`
/// (`due:tomorrow`, `t:-3d`, `until:fri`), and what is stored is always the absolute day.
///
/// Pure: today is a parameter, so an app's add field writes what `todo add` writes.
///
/// Invariants of `resolving(_:today:keeping:)`:
/// - only the value bytes of those tags change; every other byte of the text (header, spacing,
///   other tags, `uid:`, the tag keys) is kept exactly, in place;
/// - a value that already is a `YYYY-MM-DD` date is kept as written;
/// - every value of those keys is checked, repeated keys included (none is left relative).
public enum RelativeDateTags {
    /// The tag keys whose values are dates (case-sensitive, as todo.txt keys are).
    public static let keys: Set<String> = ["due", "t", "until"]

    /// `text` (a whole line, or the fragment a command adds to one) with each date tag's relative
    /// value replaced by the day it names seen from `today`. A tag whose whole word (`due:friday`)
    /// also stands in `kept` is left as it is: it was already in the line, not typed now (the
    /// edit field of `todo ui` holds the task's old text). Throws for the first value that is not
    /// a date, with a close spelling when there is one.
    ///
    /// ```
    /// RelativeDateTags.resolving(Array("pay rent due:tm uid:k3f9qz".utf8), today: TodoDate("2026-12-02")!)
    /// // "pay rent due:2026-12-03 uid:k3f9qz"
    /// ```
    ///
    /// Complexity: one scan of the text's words; only tag words are looked at further.
    public static func resolving(_ text: [UInt8], today: TodoDate,
                                 keeping kept: [UInt8] = []) throws(RelativeDateError) -> [UInt8] {
        let item = TodoItem(text)
        var replacements: [(range: Range<Int>, date: [UInt8])] = []
        var failure: RelativeDateError?
        let keptWords = kept.isEmpty ? [] : Set(kept.split(whereSeparator: isSeparator).map(Array.init))
        item.scanFields { field in
            guard failure == nil, field.kind == .tag, isDateKey(text[field.nameRange]) else { return }
            let value = text[field.valueRange]
            if TodoDate(bytes: value) != nil { return }
            if !keptWords.isEmpty && keptWords.contains(Array(text[field.range])) { return }
            let key = String(decoding: text[field.nameRange], as: UTF8.self)
            let typed = String(decoding: value, as: UTF8.self)
            guard let expression = DateExpression(typed) else {
                failure = RelativeDateError(key: key, value: typed,
                                            problem: .notADate(suggestion: DateExpression.suggestion(for: typed)))
                return
            }
            guard let date = expression.resolve(today: today) else {
                failure = RelativeDateError(key: key, value: typed, problem: .beyondCalendar)
                return
            }
            replacements.append((field.valueRange, date.bytes))
        }
        if let failure { throw failure }
        guard !replacements.isEmpty else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(text.count + 10 * replacements.count)
        var position = 0
        for replacement in replacements {
            result += text[position..<replacement.range.lowerBound]
            result += replacement.date
            position = replacement.range.upperBound
        }
        result += text[position...]
        return result
    }

    /// Whether `key` is one of `keys`, on bytes.
    static func isDateKey(_ key: ArraySlice<UInt8>) -> Bool {
        switch key.count {
        case 1: return key.first == 0x74
        case 3: return key.elementsEqual("due".utf8)
        case 5: return key.elementsEqual("until".utf8)
        default: return false
        }
    }

    /// The word separators of a line as `TodoItem` splits it, for the kept words (ASCII spacing;
    /// a kept word never spans other whitespace in practice, and a miss only means a check).
    static func isSeparator(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
}
