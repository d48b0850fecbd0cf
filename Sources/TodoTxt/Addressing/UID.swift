/// Stable task identities: the `uid:` tag (docs/format.md section 4).
///
/// Generated values are 6 characters of lowercase Crockford base-32, the first a letter, so a uid is
/// never all digits and can never be mistaken for a line number. Randomness is passed in.
public enum UID {
    /// Crockford base-32, lowercase, without i, l, o, u.
    public static let alphabet: [UInt8] = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)
    /// The letters of the alphabet: a generated uid starts with one.
    public static let letters: [UInt8] = Array("abcdefghjkmnpqrstvwxyz".utf8)
    /// Length of a generated uid.
    public static let generatedLength = 6

    /// A fresh uid for which `isTaken` is false.
    ///
    /// After many collisions (a nearly full space, or a test generator that repeats) the length grows
    /// by one, so generation always ends.
    public static func generate<R: RandomNumberGenerator>(using generator: inout R, isTaken: (String) -> Bool) -> String {
        var length = generatedLength
        var attempts = 0
        while true {
            var bytes: [UInt8] = [letters[Int(generator.next(upperBound: UInt64(letters.count)))]]
            for _ in 1..<length {
                bytes.append(alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))])
            }
            let candidate = String(decoding: bytes, as: UTF8.self)
            if !isTaken(candidate) { return candidate }
            attempts += 1
            if attempts % 16 == 0 { length += 1 }
        }
    }

    /// A fresh uid unused in `document` and in `otherDocument` (the done file), if given.
    ///
    /// A candidate counts as taken when `uid:CANDIDATE` (or `uuid:CANDIDATE`) appears anywhere as a
    /// whole word: a byte scan per candidate instead of parsing every line, so adding a task to a
    /// million-line file stays fast. The check may over-reject (a uid merely quoted in a task's text),
    /// never under-reject.
    public static func generate<R: RandomNumberGenerator>(using generator: inout R, unusedIn document: TodoDocument,
                                                          and otherDocument: TodoDocument? = nil) -> String {
        generate(using: &generator) { candidate in
            document.mentionsUID(candidate) || otherDocument?.mentionsUID(candidate) == true
        }
    }
}

/// Every uid of a document and the lines holding it.
public struct UIDIndex: Sendable {
    /// uid → 0-based line indices holding it, in file order.
    public private(set) var holders: [String: [Int]] = [:]
    /// uid → the index of the line that owns it (docs/format.md section 4's duplicate rule).
    public private(set) var owners: [String: Int] = [:]

    /// Indexes `document`. Complexity: one parse of each task line.
    public init(_ document: TodoDocument) {
        self.init(document, including: { _ in true })
    }

    /// Indexes only the uids equal to `key` or, with `prefixes`, starting with it: what resolving
    /// one address needs, without a string or a dictionary entry for every other uid.
    init(_ document: TodoDocument, matching key: [UInt8], prefixes: Bool) {
        self.init(document) { uid in prefixes ? uid.starts(with: key) : uid.elementsEqual(key) }
    }

    /// Indexes the uids whose bytes `including` accepts.
    private init(_ document: TodoDocument, including: (ArraySlice<UInt8>) -> Bool) {
        var completed: [Int: Bool] = [:]
        for index in 0..<document.lineCount {
            let item = document.item(at: index)
            guard let range = item.uidRange else { continue }
            let start = item.content.startIndex
            let bytes = item.content[(start + range.lowerBound)..<(start + range.upperBound)]
            guard including(bytes) else { continue }
            holders[String(decoding: bytes, as: UTF8.self), default: []].append(index)
            completed[index] = item.isCompleted
        }
        for (uid, lines) in holders {
            let done = lines.filter { completed[$0] == true }
            owners[uid] = done.count == 1 ? done[0] : lines[0]
        }
    }

    /// Every uid in the document.
    public var allUIDs: Set<String> { Set(holders.keys) }

    /// The uids held by more than one line, with their holders.
    public var duplicates: [String: [Int]] { holders.filter { $0.value.count > 1 } }
}

/// Why a task address could not be resolved.
public enum TaskAddressError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A line number past the end of the file, zero, or pointing at a blank line (as typed, so a
    /// number too large for `Int` is still named as given).
    case noTask(lineNumber: String)
    /// No task has this uid or uid prefix.
    case unknownUID(String)
    /// A prefix shared by several uids; candidates are (uid, 1-based line number).
    case ambiguous(prefix: String, candidates: [Candidate])
    /// A prefix shorter than two characters (it would match too much by accident).
    case prefixTooShort(String)
    /// Neither a number nor a possible uid (empty, or holding whitespace).
    case malformed(String)

    /// A task an ambiguous address could mean.
    public struct Candidate: Equatable, Sendable {
        public let uid: String
        public let lineNumber: Int
    }

    public var description: String {
        switch self {
        case .noTask(let number): return "no task \(number)"
        case .unknownUID(let value): return "no task with uid \(value)"
        case .prefixTooShort(let value): return "uid prefix '\(value)' is too short (2 characters at least)"
        case .malformed(let value): return "'\(value)' is neither a line number nor a uid"
        case .ambiguous(let prefix, let candidates):
            let list = candidates.map { "\($0.uid) (line \($0.lineNumber))" }.joined(separator: ", ")
            return "uid prefix '\(prefix)' is ambiguous: \(list)"
        }
    }
}

/// Where an address led: the line, and any other lines holding the same uid.
public struct TaskReference: Equatable, Sendable {
    /// 0-based line index.
    public let index: Int
    /// The uid the address matched, if it was a uid.
    public let uid: String?
    /// Other lines carrying the same uid (a duplicate the caller should report).
    public let duplicateIndices: [Int]
}

extension TodoDocument {
    /// Resolves a line number, a full uid, `uid:VALUE` or a unique uid prefix (≥ 2 characters).
    ///
    /// A number is always a line number (generated uids are never all digits); a uid held by several
    /// lines resolves to its owner (docs/format.md section 4) and lists the others.
    public func resolve(_ address: String, index: UIDIndex? = nil) throws(TaskAddressError) -> TaskReference {
        guard !address.isEmpty, !address.utf8.contains(where: { $0 == 0x20 || $0 == 0x09 }) else {
            throw .malformed(address)
        }
        if address.utf8.allSatisfy(ByteScanning.isDigit) {
            guard let number = Int(address), number >= 1, number <= lineCount, item(at: number - 1).isTask else {
                throw .noTask(lineNumber: address)
            }
            return TaskReference(index: number - 1, uid: nil, duplicateIndices: [])
        }
        var value = Substring(address)
        let explicit = value.hasPrefix("uid:")
        if explicit { value = value.dropFirst(4) }
        let key = String(value)
        guard !key.isEmpty else { throw .malformed(address) }
        // Without an index, only the uids that could match are collected (one scan, no dictionary
        // of every uid): resolving one task in a large file costs a read of its bytes.
        let uids = index ?? UIDIndex(self, matching: Array(key.utf8), prefixes: !explicit)
        if let owner = uids.owners[key] {
            let others = (uids.holders[key] ?? []).filter { $0 != owner }
            return TaskReference(index: owner, uid: key, duplicateIndices: others)
        }
        if explicit { throw .unknownUID(key) }
        guard key.utf8.count >= 2 else { throw .prefixTooShort(key) }
        let matches = uids.owners.keys.filter { $0.hasPrefix(key) }.sorted()
        guard let only = matches.first else { throw .unknownUID(key) }
        guard matches.count == 1 else {
            let candidates = matches.compactMap { uid in
                uids.owners[uid].map { TaskAddressError.Candidate(uid: uid, lineNumber: $0 + 1) }
            }.sorted { $0.lineNumber < $1.lineNumber }
            throw .ambiguous(prefix: key, candidates: candidates)
        }
        let owner = uids.owners[only] ?? 0
        let others = (uids.holders[only] ?? []).filter { $0 != owner }
        return TaskReference(index: owner, uid: only, duplicateIndices: others)
    }

    /// Gives every task without a uid, and every non-owner holder of a duplicate uid, a fresh one.
    /// Returns the 0-based indices changed. The owner of a uid and every other line stay untouched.
    public mutating func assignMissingUIDs<R: RandomNumberGenerator>(using generator: inout R,
                                                                     doneFile: TodoDocument? = nil) -> [Int] {
        let index = UIDIndex(self)
        var taken = index.allUIDs.union(doneFile.map { UIDIndex($0).allUIDs } ?? [])
        var changed: [Int] = []
        var needsFresh: [Int] = []
        for (uid, holders) in index.holders where holders.count > 1 {
            needsFresh += holders.filter { $0 != index.owners[uid] }
        }
        for line in 0..<lineCount {
            let item = item(at: line)
            if item.isTask && item.uid == nil { needsFresh.append(line) }
        }
        for line in needsFresh.sorted() {
            let fresh = UID.generate(using: &generator) { taken.contains($0) }
            taken.insert(fresh)
            let item = item(at: line)
            if let tag = item.tags.first(where: { $0.key == "uid" }) {
                var bytes = Array(item.content)
                bytes.replaceSubrange(tag.valueRange, with: Array(fresh.utf8))
                replaceContent(at: line, with: bytes)
            } else {
                replaceContent(at: line, with: item.settingTag("uid", to: fresh))
            }
            changed.append(line)
        }
        return changed
    }
}

extension TodoDocument {
    /// Whether `uid:VALUE` occurs in any line as the end of a word (followed by whitespace or the
    /// line's end) and the start of one (`ByteScanning.startsWord`: the same word starts `TodoItem`
    /// sees). `uuid:VALUE` matches too, as it ends in `uid:VALUE`.
    ///
    /// May over-reject (a line an edit has replaced still counts), never under-reject: the parsed
    /// bytes are searched whole, then every edited line on its own.
    ///
    /// Complexity: O(n) bytes in vector steps (`ByteSearch`), no allocation per line.
    public func mentionsUID(_ value: String) -> Bool {
        let needle = Array("uid:\(value)".utf8)
        let begin = hasByteOrderMark ? 3 : 0
        if UID.mentions(needle, inLinesOf: storage, from: begin) { return true }
        guard !edits.isEmpty else { return false }
        return edits.withUnsafeBufferPointer { edited in
            needle.withUnsafeBufferPointer { needleBuffer in
                records.contains { record in
                    guard record.start < 0 else { return false }
                    let start = -1 - record.start
                    let line = UnsafeBufferPointer(rebasing: edited[start..<(start + record.length)])
                    return UID.mentions(needleBuffer, inLine: line)
                }
            }
        }
    }
}

extension UID {
    /// Whether `needle` (`uid:VALUE`) occurs in a line of `bytes[begin...]` as `mentionsUID` counts
    /// it. Lines are split as `TodoDocument` splits them (LF, a CR before it not content), so
    /// this answers for a file's bytes without parsing them; `begin` skips a byte order mark.
    package static func mentions(_ needle: [UInt8], inLinesOf bytes: [UInt8], from begin: Int = 0) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            needle.withUnsafeBufferPointer { mentions($0, inLinesOf: buffer, from: begin) }
        }
    }

    /// `mentions(_:inLinesOf:from:)` on buffers; `buffer[begin...]` starts a line.
    static func mentions(_ needle: UnsafeBufferPointer<UInt8>, inLinesOf buffer: UnsafeBufferPointer<UInt8>,
                         from begin: Int) -> Bool {
        guard let base = buffer.baseAddress, begin < buffer.count else { return false }
        let count = buffer.count
        var index = begin
        while true {
            index = ByteSearch.firstIndex(of: needle, in: base, from: index, to: count)
            guard index < count else { return false }
            // The line around the candidate, exactly as `TodoDocument.splitLines` cuts it.
            var lineStart = index
            while lineStart > begin && base[lineStart - 1] != 0x0A { lineStart -= 1 }
            let lineFeed = ByteSearch.firstIndex(of: 0x0A, in: base, from: index, to: count)
            let lineEnd = lineFeed < count && lineFeed > lineStart && base[lineFeed - 1] == 0x0D ? lineFeed - 1 : lineFeed
            let line = UnsafeBufferPointer(rebasing: buffer[lineStart..<lineEnd])
            if mentions(needle, inLine: line, at: index - lineStart) { return true }
            index += 1
        }
    }

    /// Whether `needle` occurs in `line` as a whole word (see `TodoDocument.mentionsUID`).
    static func mentions(_ needle: UnsafeBufferPointer<UInt8>, inLine line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = line.baseAddress else { return false }
        var index = 0
        while true {
            index = ByteSearch.firstIndex(of: needle, in: base, from: index, to: line.count)
            guard index < line.count else { return false }
            if mentions(needle, inLine: line, at: index) { return true }
            index += 1
        }
    }

    /// Whether the occurrence of `needle` at `index` of `line` is a whole word: followed by
    /// whitespace or the line's end, and starting a word, or preceded by `u` (`uuid:`).
    @inline(__always)
    static func mentions(_ needle: UnsafeBufferPointer<UInt8>, inLine line: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let end = index + needle.count
        guard end <= line.count else { return false }
        guard end == line.count || ByteScanning.whitespaceLength(line, at: end) > 0 else { return false }
        let lead = TodoItem.leadingMarkLength(line)
        return ByteScanning.startsWord(line, at: index, lead: lead) || (index > 0 && line[index - 1] == 0x75)
    }
}
