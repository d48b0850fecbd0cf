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

extension TodoDocument {
    /// Whether `uid:VALUE` occurs in any line as the end of a word (followed by whitespace or the
    /// line's end) and the start of one (`ByteScanning.startsWord`: the same word starts `TodoItem`
    /// sees). `uuid:VALUE` matches too, as it ends in `uid:VALUE`.
    ///
    /// May over-reject (a line an edit has replaced still counts), never under-reject: the parsed
    /// bytes are searched whole, then every edited line on its own.
    ///
    /// Complexity: O(n) bytes in vector steps (`ByteSearch`), no allocation per line.
    package func mentionsUID(_ value: String) -> Bool {
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
