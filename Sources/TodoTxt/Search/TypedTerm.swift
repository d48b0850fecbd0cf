/// A typed search term of the `todo` name's listings (docs/todo-command.md, "Typed terms"): a test of
/// a task's dates or priority rather than of its text.
///
/// ```
/// due:<=today   due:<1w   completed:>=-7d   t:>today   created:2026-12-01
/// due:none   due:any   pri:A   pri:A-C   pri:none   pri:any
/// due:<=today|pri:A        (either)
/// ```
///
/// The grammar of one alternative: a key (`due:`, `t:`, `created:`, `completed:`, lower case as in
/// the file) followed by `none`, `any`, or an optional comparison (`<`, `<=`, `>`, `>=`, `=`; none
/// means `=`) and a `DateExpression`; or `pri:` followed by `none`, `any`, a letter or a range of
/// letters (`A-C`, any case; `C-A` is the same range). Alternatives joined by `|` in one word match
/// when any of them does. A word that is not exactly this grammar, or holds a regex metacharacter
/// (`TermFilter.metacharacters`), is not a typed term (it keeps its meaning as text or regex);
/// `invalidity(of:)` names the words that look typed but cannot be.
///
/// Rules (each a decision, written down in docs/todo-command.md):
/// - A task without the field, or whose `due:`/`t:` value is not a valid date (`due:tomorow`), never
///   matches a comparison; `any` means a valid date is there, `none` that none is (`due:none` is
///   exactly `-due:any`).
/// - The priority of a task is its `(A)` header; a completed task without one has the priority it
///   kept as `pri:A` when it was done.
/// - `KEY:YYYY-MM-DD` without an operator also matches the lines holding that word as text (as a
///   plain term would), so `due:2026-12-01` still finds the text `due:2026-12-01`.
/// - Relative dates resolve against `today`, a parameter: the library has no clock.
///
/// Matching reads the task's bytes: no `String` is made, and a line that does not hold the key's
/// bytes (`due:`) is decided without parsing it.
public struct TypedTerm: Sendable, Hashable {
    /// The dates a term can compare.
    public enum DateField: String, Sendable, Hashable, CaseIterable {
        /// The first `due:` tag's value.
        case due
        /// The first `t:` tag's value.
        case threshold = "t"
        /// The creation date of the header.
        case created
        /// The completion date of the header.
        case completed
    }

    /// How a field's date is compared with the term's.
    public enum Comparison: String, Sendable, Hashable, CaseIterable {
        case less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">=", equal = "="

        func holds(_ value: TodoDate, _ bound: TodoDate) -> Bool {
            switch self {
            case .less: return value < bound
            case .lessOrEqual: return value <= bound
            case .greater: return value > bound
            case .greaterOrEqual: return value >= bound
            case .equal: return value == bound
            }
        }
    }

    /// One alternative of a term.
    public enum Test: Sendable, Hashable {
        /// The field's date compared with the expression's, resolved against today. `alsoText`:
        /// written without an operator as an absolute date, so the word as plain text matches too.
        case date(DateField, Comparison, DateExpression, alsoText: Bool)
        /// `any` (true) or `none` (false): whether the field holds a valid date.
        case hasDate(DateField, Bool)
        /// `pri:A`, `pri:A-C`: the priority's letter is in the range.
        case priority(ClosedRange<UInt8>)
        /// `pri:any` (true) or `pri:none` (false).
        case hasPriority(Bool)
    }

    /// The alternatives, in the order written; the term matches when one of them does.
    public let alternatives: [Test]
    /// The folded text of each `alsoText` alternative (`due:2026-12-01`), by position.
    let texts: [[UInt8]?]

    /// Parses one word; nil when it is not a typed term (then it is text or a regex).
    ///
    /// `TypedTerm("due:<=today")` is a term; `TypedTerm("due:soon")` and `TypedTerm("garden")` are nil.
    public init?<S: StringProtocol>(_ word: S) {
        guard case .typed(let term) = TypedTerm.parse(Array(word.utf8)) else { return nil }
        self = term
    }

    init(alternatives: [Test], texts: [[UInt8]?]) {
        self.alternatives = alternatives
        self.texts = texts
    }

    /// Why `word` cannot be read although it starts like a typed term with an operator
    /// (`due:<tomorow`: its value is no date), for a usage error; nil when `word` is a typed term or
    /// plain text. The reason names the value and, when one is close, the keyword meant.
    public static func invalidity<S: StringProtocol>(of word: S) -> String? {
        if case .invalid(let reason) = parse(Array(word.utf8)) { return reason }
        return nil
    }

    /// This term with its relative dates resolved against `today` (`due:<1w` → `due:<2026-12-08`),
    /// for a filter that tests many lines on one day; a date beyond the calendar stays as written
    /// (it matches nothing). `matches` gives the same answers for either on that day.
    public func resolved(today: TodoDate) -> TypedTerm {
        TypedTerm(alternatives: alternatives.map { test in
            guard case .date(let field, let comparison, let expression, let alsoText) = test, expression.isRelative,
                  let date = expression.resolve(today: today) else { return test }
            return .date(field, comparison, .absolute(date), alsoText: alsoText)
        }, texts: texts)
    }

    /// Whether the task `content` (one line's bytes, without its terminator) matches on `today`.
    ///
    /// `TypedTerm("due:<=today")!.matches(Array("pay rent due:2026-11-30".utf8)[...], today: d)` is
    /// true when `d` is 2026-11-30 or later.
    public func matches(_ content: ArraySlice<UInt8>, today: TodoDate) -> Bool {
        var fields = QueryFields.Lazy(content)
        for (position, test) in alternatives.enumerated() {
            if fields.passes(test, today: today) { return true }
            if let text = texts[position], TextFolding.contains(TextFolding.folded(content), text) { return true }
        }
        return false
    }

    // MARK: Parsing

    enum Parsed {
        case typed(TypedTerm)
        case text
        case invalid(String)
    }

    static func parse(_ word: [UInt8]) -> Parsed {
        // A regex metacharacter makes the word grep's (`due:<x\|y` is a BRE alternation), never typed.
        if word.contains(where: { TermFilter.metacharacters.contains($0) }) { return .text }
        let parts = word.split(separator: 0x7C, omittingEmptySubsequences: false)
        var tests: [Test] = []
        var texts: [[UInt8]?] = []
        var sawText = false
        for part in parts {
            switch parseAlternative(part) {
            case .invalid(let reason): return .invalid(reason)
            case .text: sawText = true
            case .test(let test):
                tests.append(test)
                if case .date(_, _, _, alsoText: true) = test { texts.append(TextFolding.folded(part)) } else { texts.append(nil) }
            }
        }
        return sawText ? .text : .typed(TypedTerm(alternatives: tests, texts: texts))
    }

    enum Alternative {
        case test(Test)
        case text
        case invalid(String)
    }

    static func parseAlternative(_ part: ArraySlice<UInt8>) -> Alternative {
        guard let colon = part.firstIndex(of: 0x3A) else { return .text }
        let key = String(decoding: part[..<colon], as: UTF8.self)
        let value = part[(colon + 1)...]
        let lowered = value.map(ASCIIKeyword.lowercase)
        if key == "pri" { return parsePriority(lowered) }
        guard let field = DateField(rawValue: key), !value.isEmpty else { return .text }
        if lowered.elementsEqual("any".utf8) { return .test(.hasDate(field, true)) }
        if lowered.elementsEqual("none".utf8) { return .test(.hasDate(field, false)) }
        var comparison = Comparison.equal
        var operand = value
        var explicit = false
        for candidate in [Comparison.lessOrEqual, .greaterOrEqual, .less, .greater, .equal]
            where value.starts(with: candidate.rawValue.utf8) {
            comparison = candidate
            operand = value.dropFirst(candidate.rawValue.utf8.count)
            explicit = true
            break
        }
        let operandText = String(decoding: operand, as: UTF8.self)
        guard let expression = DateExpression(operandText) else {
            guard explicit else { return .text }
            let hint = DateExpression.suggestion(for: operandText).map { " (did you mean '\($0)'?)" } ?? ""
            return .invalid(operand.isEmpty ? "no date after the comparison" : "'\(operandText)' is not a date\(hint)")
        }
        let alsoText = !explicit && !expression.isRelative
        return .test(.date(field, comparison, expression, alsoText: alsoText))
    }

    static func parsePriority(_ lowered: [UInt8]) -> Alternative {
        if lowered.elementsEqual("any".utf8) { return .test(.hasPriority(true)) }
        if lowered.elementsEqual("none".utf8) { return .test(.hasPriority(false)) }
        func letter(_ byte: UInt8) -> UInt8? { byte &- 0x61 < 26 ? byte - 0x20 : nil }
        if lowered.count == 1, let only = letter(lowered[0]) { return .test(.priority(only...only)) }
        if lowered.count == 3, lowered[1] == 0x2D, let low = letter(lowered[0]), let high = letter(lowered[2]) {
            return .test(.priority(min(low, high)...max(low, high)))
        }
        return .text
    }
}

/// The values typed terms test, read from a task's bytes (docs/todo-command.md, "Typed terms"):
/// the header's priority and dates, the first `due:`, `t:` and `pri:` tags.
public struct QueryFields: Sendable, Equatable {
    /// The `(A)` header, else for a completed task the `pri:` tag it kept.
    public var priority: Priority?
    public var created: TodoDate?
    public var completed: TodoDate?
    /// The first `due:` tag's value when it is a valid date.
    public var due: TodoDate?
    /// The first `t:` tag's value when it is a valid date.
    public var threshold: TodoDate?

    /// Reads every field of `content`, one line's bytes.
    public init(_ content: ArraySlice<UInt8>) {
        self.init(TodoItem(content))
    }

    /// Reads every field of `item`.
    public init(_ item: TodoItem) {
        var reader = TagReader(content: item.content)
        item.scanFields { reader.visit($0) }
        self.init(item, reader)
    }

    /// Reads every field of `item` from its body's fields already scanned (`TodoItem.scanFields`,
    /// in order): the export's byte path, which has them at hand.
    init(_ item: TodoItem, scanned fields: [BodyFieldRange]) {
        var reader = TagReader(content: item.content)
        for field in fields { reader.visit(field) }
        self.init(item, reader)
    }

    private init(_ item: TodoItem, _ reader: TagReader) {
        due = reader.due
        threshold = reader.threshold
        created = item.creationDate
        completed = item.completionDate
        priority = item.priority ?? (item.isCompleted ? reader.kept : nil)
    }

    /// The first `due:`, `t:` and `pri:` tags of a body, fed its fields in order.
    private struct TagReader {
        let content: ArraySlice<UInt8>
        var due: TodoDate?, threshold: TodoDate?, kept: Priority?
        var foundDue = false, foundThreshold = false, foundKept = false

        init(content: ArraySlice<UInt8>) { self.content = content }

        mutating func visit(_ field: BodyFieldRange) {
            guard field.kind == .tag else { return }
            let start = content.startIndex
            let name = content[(start + field.nameRange.lowerBound)..<(start + field.nameRange.upperBound)]
            let value = content[(start + field.valueRange.lowerBound)..<(start + field.valueRange.upperBound)]
            if !foundDue, name.elementsEqual(QueryFields.dueKey) {
                foundDue = true
                due = TodoDate(bytes: value)
            } else if !foundThreshold, name.count == 1, name.first == 0x74 {
                foundThreshold = true
                threshold = TodoDate(bytes: value)
            } else if !foundKept, name.elementsEqual(QueryFields.priKey) {
                foundKept = true
                kept = value.count == 1 ? value.first.flatMap(Priority.init(letter:)) : nil
            }
        }
    }

    /// The date of `field`.
    public func date(_ field: TypedTerm.DateField) -> TodoDate? {
        switch field {
        case .due: return due
        case .threshold: return threshold
        case .created: return created
        case .completed: return completed
        }
    }

    /// Whether listings hide the task `content` on `today`: exactly `TodoItem(content).isHidden(on:)`,
    /// read with a vector search for the `h:` and `t:` tags instead of a parse of every field.
    public static func isHidden(_ content: ArraySlice<UInt8>, on today: TodoDate) -> Bool {
        var fields = Lazy(content)
        return fields.isHidden(on: today)
    }

    static let dueKey = Array("due".utf8)
    static let priKey = Array("pri".utf8)

    /// The fields of one line, each read only when a test needs it and then kept: a `due:` or `t:`
    /// comparison finds the tag with a vector search for its bytes (a line without `due:` is decided
    /// there), the header is parsed only for `created:`, `completed:` and `pri:`. The values equal
    /// `QueryFields(content)`'s (the tests compare them).
    struct Lazy {
        let content: ArraySlice<UInt8>
        private var item: TodoItem?
        private var due: TodoDate??
        private var threshold: TodoDate??
        private var priority: Priority??

        init(_ content: ArraySlice<UInt8>) { self.content = content }

        mutating func passes(_ test: TypedTerm.Test, today: TodoDate) -> Bool {
            switch test {
            case .date(let field, let comparison, let expression, _):
                guard let bound = expression.resolve(today: today), let value = date(field) else { return false }
                return comparison.holds(value, bound)
            case .hasDate(let field, let wanted): return (date(field) != nil) == wanted
            case .priority(let range): return effectivePriority().map { range.contains($0.letter) } ?? false
            case .hasPriority(let wanted): return (effectivePriority() != nil) == wanted
            }
        }

        mutating func date(_ field: TypedTerm.DateField) -> TodoDate? {
            switch field {
            case .due:
                if let due { return due }
                let value = Self.firstTagValue(content, Self.dueNeedle).flatMap { TodoDate(bytes: content[$0]) }
                due = .some(value)
                return value
            case .threshold:
                if let threshold { return threshold }
                let value = Self.firstTagValue(content, Self.thresholdNeedle).flatMap { TodoDate(bytes: content[$0]) }
                threshold = .some(value)
                return value
            case .created: return header().creationDate
            case .completed: return header().completionDate
            }
        }

        mutating func effectivePriority() -> Priority? {
            if let priority { return priority }
            let item = header()
            var value = item.priority
            if value == nil, item.isCompleted, let range = Self.firstTagValue(content, Self.priNeedle), range.count == 1 {
                value = Priority(letter: content[range.lowerBound])
            }
            priority = .some(value)
            return value
        }

        mutating func header() -> TodoItem {
            if let item { return item }
            let parsed = TodoItem(content)
            item = parsed
            return parsed
        }

        /// `TodoItem.isHidden(on:)` from the tags' bytes: the first `h:` is `1`, or the first `t:`
        /// is a date after `today`.
        mutating func isHidden(on today: TodoDate) -> Bool {
            if let range = Self.firstTagValue(content, Self.hiddenNeedle), range.count == 1, content[range.lowerBound] == 0x31 {
                return true
            }
            return date(.threshold).map { $0 > today } ?? false
        }

        static let hiddenNeedle = Array("h:".utf8)
        static let dueNeedle = Array("due:".utf8)
        static let thresholdNeedle = Array("t:".utf8)
        static let priNeedle = Array("pri:".utf8)

        /// Where the value of the first tag `needle` names (`due:`) sits in `content` (indices of
        /// `content`), or nil: the tag `scanFields` reports first with that key. An occurrence counts
        /// when a word starts there (`ByteScanning.startsWord`) and its value is a tag's
        /// (`TodoItem.tagColon`: not empty, not starting with `:` or `//`); the header holds no such
        /// word, so no header parse is needed.
        static func firstTagValue(_ content: ArraySlice<UInt8>, _ needle: [UInt8]) -> Range<Int>? {
            content.withUnsafeBufferPointer { line -> Range<Int>? in
                guard let base = line.baseAddress else { return nil }
                return needle.withUnsafeBufferPointer { pattern -> Range<Int>? in
                    let count = line.count
                    let lead = CompletedLine.textStart(base, from: 0, end: count)
                    var from = 0
                    while from < count {
                        let position = ByteSearch.firstIndex(of: pattern, in: base, from: from, to: count)
                        guard position < count else { return nil }
                        from = position + 1
                        guard ByteScanning.startsWord(line, at: position, lead: lead) else { continue }
                        let valueStart = position + pattern.count
                        var end = valueStart
                        while end < count && ByteScanning.whitespaceLength(line, at: end) == 0 { end += 1 }
                        guard end > valueStart, line[valueStart] != 0x3A,
                              !(end - valueStart >= 2 && line[valueStart] == 0x2F && line[valueStart + 1] == 0x2F) else { continue }
                        return (content.startIndex + valueStart)..<(content.startIndex + end)
                    }
                    return nil
                }
            }
        }
    }
}
