/// A `key:value` tag in a task's body.
public struct Tag: Sendable, Hashable {
    /// The part before the first colon.
    public let key: String
    /// The part after the first colon (may itself hold colons).
    public let value: String
    /// Where the whole word `key:value` sits, relative to the line's start.
    public let range: Range<Int>
    /// Where the value sits, relative to the line's start.
    public let valueRange: Range<Int>
}

/// What one scan of a task body finds (docs/format.md section 2).
public struct BodyFields: Sendable {
    /// Project names (`+name` without the sigil), first occurrence order, no duplicates.
    public var projects: [String] = []
    /// Context names (`@name` without the sigil), first occurrence order, no duplicates.
    public var contexts: [String] = []
    /// Every tag in order; repeated keys kept.
    public var tags: [Tag] = []
}

/// Where one field of a task's body sits, as byte ranges relative to the line's start: no `String`
/// is made. `TodoItem.scanFields(_:)` reports every field, repeated projects and contexts included.
public struct BodyFieldRange: Sendable, Hashable {
    /// What the word is.
    public enum Kind: Sendable, Hashable {
        /// `+name`.
        case project
        /// `@name`.
        case context
        /// `key:value`.
        case tag
    }

    /// Project, context or tag.
    public let kind: Kind
    /// The whole word: sigil included for projects and contexts, `key:value` for tags.
    public let range: Range<Int>
    /// The name (project, context: after the sigil) or the tag's key (before the first colon).
    public let nameRange: Range<Int>
    /// The tag's value (after the first colon); empty, at the word's end, for projects and contexts.
    public let valueRange: Range<Int>
}

/// The keys of which only the first value counts (docs/format.md section 2).
public let singleValuedTagKeys: Set<String> = ["due", "t", "rec", "h", "pri", "uid"]

extension TodoItem {
    /// Scans the body once for projects, contexts and tags.
    ///
    /// Built on `scanFields(_:)`. Complexity: O(body length), on bytes; strings are made only for the
    /// fields found.
    public var fields: BodyFields {
        var fields = BodyFields()
        guard !isBlank else { return fields }
        content.withUnsafeBufferPointer { line in
            TodoItem.scanFields(in: line, from: bodyOffset) { field in
                switch field.kind {
                case .project:
                    let name = lossyString(UnsafeBufferPointer(rebasing: line[field.nameRange]))
                    if !fields.projects.contains(name) { fields.projects.append(name) }
                case .context:
                    let name = lossyString(UnsafeBufferPointer(rebasing: line[field.nameRange]))
                    if !fields.contexts.contains(name) { fields.contexts.append(name) }
                case .tag:
                    fields.tags.append(Tag(
                        key: lossyString(UnsafeBufferPointer(rebasing: line[field.nameRange])),
                        value: lossyString(UnsafeBufferPointer(rebasing: line[field.valueRange])),
                        range: field.range,
                        valueRange: field.valueRange))
                }
            }
        }
        return fields
    }

    /// Calls `visit` with every project, context and tag of the body, in order, as byte ranges
    /// relative to the line's start (index them into `content` after adding `content.startIndex`).
    ///
    /// Unlike `fields`, repeated projects and contexts are reported each time they occur. Nothing is
    /// allocated: the allocation-free form of `fields`, for scans over many lines.
    ///
    /// Complexity: O(body length), one pass over the bytes.
    public func scanFields(_ visit: (BodyFieldRange) -> Void) {
        guard !isBlank else { return }
        content.withUnsafeBufferPointer { line in
            TodoItem.scanFields(in: line, from: bodyOffset, visit)
        }
    }

    /// The body scan behind `fields` and `scanFields(_:)`.
    @inline(__always)
    static func scanFields(in line: UnsafeBufferPointer<UInt8>, from offset: Int, _ visit: (BodyFieldRange) -> Void) {
        forEachWord(in: line, from: offset) { start, end in
            let first = line[start]
            if first == 0x2B || first == 0x40 {  // + or @
                guard end - start > 1 else { return }
                visit(BodyFieldRange(kind: first == 0x2B ? .project : .context, range: start..<end,
                                     nameRange: (start + 1)..<end, valueRange: end..<end))
                return
            }
            guard let colon = tagColon(line, start, end) else { return }
            visit(BodyFieldRange(kind: .tag, range: start..<end, nameRange: start..<colon, valueRange: (colon + 1)..<end))
        }
    }

    /// Project names, first occurrence order, without duplicates.
    public var projects: [String] { fields.projects }
    /// Context names, first occurrence order, without duplicates.
    public var contexts: [String] { fields.contexts }
    /// Every tag in order, repeated keys kept.
    public var tags: [Tag] { fields.tags }

    /// The first value of tag `key`, or nil.
    public func firstValue(forTag key: String) -> String? {
        tags.first { $0.key == key }?.value
    }

    /// Every value of tag `key`, in order.
    public func values(forTag key: String) -> [String] {
        tags.filter { $0.key == key }.map(\.value)
    }

    /// The task's stable identity: its first `uid:` value, else Simpletask's `uuid:` (docs/format.md
    /// section 4). Nil for blank lines and tasks without one.
    ///
    /// Complexity: one byte scan of the body; a string is made only for the value returned (the same
    /// result as searching `tags`, without building every field).
    public var uid: String? {
        guard let range = uidRange else { return nil }
        let start = content.startIndex
        return lossyString(content[(start + range.lowerBound)..<(start + range.upperBound)])
    }

    /// Where `uid`'s value sits, relative to the line's start; nil when `uid` is nil. No `String` made.
    ///
    /// Complexity: one byte scan of the body.
    public var uidRange: Range<Int>? {
        guard !isBlank else { return nil }
        return content.withUnsafeBufferPointer { line -> Range<Int>? in
            var uid: Range<Int>?
            var uuid: Range<Int>?
            TodoItem.forEachWord(in: line, from: bodyOffset) { start, end in
                guard uid == nil, end - start > 4, line[start] == 0x75 else { return }  // u
                let keyLength: Int
                if line[start + 1] == 0x69 && line[start + 2] == 0x64 && line[start + 3] == 0x3A {  // uid:
                    keyLength = 3
                } else if uuid == nil, end - start > 5, line[start + 1] == 0x75, line[start + 2] == 0x69,
                          line[start + 3] == 0x64, line[start + 4] == 0x3A {  // uuid:
                    keyLength = 4
                } else {
                    return
                }
                guard TodoItem.tagColon(line, start, end) == start + keyLength else { return }
                if keyLength == 3 { uid = (start + 4)..<end } else { uuid = (start + 5)..<end }
            }
            return uid ?? uuid
        }
    }

    /// Calls `body(start, end)` for each maximal run of non-whitespace bytes from `offset`.
    ///
    /// Inside a word, eight bytes are tested at a time for the first one outside 0x21...0x7F
    /// (printable ASCII and DEL, never whitespace); only such a byte gets the Unicode whitespace test.
    @inline(__always)
    static func forEachWord(in line: UnsafeBufferPointer<UInt8>, from offset: Int, _ body: (Int, Int) -> Void) {
        guard let base = line.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        var index = offset
        let end = line.count
        while index < end {
            let space = ByteScanning.whitespaceLength(line, at: index)
            if space > 0 { index += space; continue }
            let start = index
            index += 1
            while index < end {
                if index + 8 <= end {
                    let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                    let special = ByteScanning.bytesOutsidePrintable(word)
                    if special == 0 { index += 8; continue }
                    index += special.trailingZeroBitCount >> 3
                } else if line[index] &- 0x21 < 0x5F {
                    index += 1
                    continue
                }
                if ByteScanning.whitespaceLength(line, at: index) > 0 { break }
                index += 1
            }
            body(start, index)
        }
    }

    /// The colon that splits the word `start..<end` into a tag, or nil if the word is not a tag:
    /// empty key or value, a value starting with `:` or `//`, or a clock time such as `12:30`.
    static func tagColon(_ line: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        var colon = start
        while colon < end && line[colon] != 0x3A { colon += 1 }
        guard colon < end, colon > start, colon + 1 < end else { return nil }
        let valueStart = colon + 1
        if line[valueStart] == 0x3A { return nil }
        if end - valueStart >= 2 && line[valueStart] == 0x2F && line[valueStart + 1] == 0x2F { return nil }
        if isClockTime(line, start, end) { return nil }
        return colon
    }

    /// `H:MM`, `HH:MM`, `H:MM:SS` or `HH:MM:SS` (digits only; the ranges are not checked).
    static func isClockTime(_ line: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        var index = start
        var hourDigits = 0
        while index < end && ByteScanning.isDigit(line[index]) { index += 1; hourDigits += 1 }
        guard hourDigits == 1 || hourDigits == 2 else { return false }
        var groups = 0
        while index < end {
            guard line[index] == 0x3A, index + 3 <= end,
                  ByteScanning.isDigit(line[index + 1]), ByteScanning.isDigit(line[index + 2]) else { return false }
            index += 3
            groups += 1
        }
        return groups == 1 || groups == 2
    }
}
