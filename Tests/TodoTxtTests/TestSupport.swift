import Foundation
import Testing
import TodoTestSupport
@testable import TodoTxt

/// The UTF-8 bytes of a string literal.
func b(_ text: String) -> [UInt8] { Array(text.utf8) }

/// Shows bytes readably in failure messages: printable ASCII as is, the rest as \xNN.
func show(_ bytes: some Collection<UInt8>) -> String {
    var out = ""
    for byte in bytes {
        switch byte {
        case 0x0A: out += "\\n"
        case 0x0D: out += "\\r"
        case 0x09: out += "\\t"
        case 0x5C: out += "\\\\"
        case 0x20...0x7E: out.unicodeScalars.append(Unicode.Scalar(byte))
        default: out += String(format: "\\x%02X", byte)
        }
    }
    return out
}

/// Parses `bytes` and checks the round trip before anything else (STYLE.md habit 1).
@discardableResult
func parseRoundTrip(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> TodoDocument {
    let document = TodoDocument(bytes: bytes)
    #expect(document.rendered() == bytes, "round trip failed for \(show(bytes))", sourceLocation: sourceLocation)
    return document
}

/// Parses one line (no terminator), checking that a document holding it renders it back, and returns
/// the item.
func parseLine(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> TodoItem {
    parseLine(b(text), sourceLocation: sourceLocation)
}

func parseLine(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> TodoItem {
    let document = parseRoundTrip(bytes, sourceLocation: sourceLocation)
    #expect(document.lineCount <= 1, sourceLocation: sourceLocation)
    return document.lineCount == 1 ? document.item(at: 0) : TodoItem(bytes)
}

/// A date from a literal known to be valid.
func d(_ text: String) -> TodoDate {
    guard let date = TodoDate(text) else { fatalError("test date \(text) is invalid") }
    return date
}

/// The package root, found from this file's path (Tests/TodoTxtTests/TestSupport.swift).
let packageRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A file under Fixtures/, as bytes.
func fixtureBytes(_ relativePath: String) throws -> [UInt8] {
    let url = packageRoot.appendingPathComponent("Fixtures").appendingPathComponent(relativePath)
    return [UInt8](try Data(contentsOf: url))
}

/// Names of the entries of a Fixtures/ directory, sorted.
func fixtureEntries(_ relativeDirectory: String) -> [String] {
    let url = packageRoot.appendingPathComponent("Fixtures").appendingPathComponent(relativeDirectory)
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    return names.filter { !$0.hasPrefix(".") }.sorted()
}

/// A generator that replays fixed values (for deterministic uid tests), cycling when exhausted.
struct ReplayGenerator: RandomNumberGenerator {
    var values: [UInt64]
    var position = 0
    init(_ values: [UInt64]) { self.values = values }
    mutating func next() -> UInt64 {
        defer { position = (position + 1) % values.count }
        return values[position]
    }
}

/// Random task-like lines and files: the building blocks of the property tests.
struct TodoTextGenerator {
    var rng: SplitMix64

    /// A number in 0..<upperBound (modulo bias is irrelevant here, and this is fast in debug builds).
    mutating func int(_ upperBound: Int) -> Int { Int(rng.next() % UInt64(upperBound)) }
    mutating func chance(_ percent: Int) -> Bool { int(100) < percent }
    mutating func pick<T>(_ values: [T]) -> T { values[int(values.count)] }

    static let words: [[UInt8]] = [
        "call", "mom", "buy", "milk", "fix", "the", "bike", "xylophone", "x", "X", "(A)", "(b)", "(AB)",
        "2026-01-05", "2026-02-30", "2024-02-29", "0000-01-01", "2026-1-5", "+proj", "+a+b", "+", "@", "@home",
        "@home)", "me@example.com", "2+2", "due:2026-03-01", "due:someday", "t:2026-02-20", "rec:1w", "rec:+2m",
        "rec:3b", "h:1", "uid:k3f9qz", "uid:ab", "uuid:1234-abcd", "a:b:c", "a::b", "key:", ":v", "https://x",
        "12:30", "9:05:59", "#", "\u{00A0}", "\u{3000}", "\t", "ü", "日本", "🙂", "+p:x", "x:", "pri:B",
    ].map { Array($0.utf8) }
    static let headers: [[UInt8]] = [
        "", "", "x ", "x 2026-01-02 ", "(A) ", "(Z) 2026-01-01 ", "x (A) 2026-01-02 2026-01-01 ",
        "x 2026-01-02 (B) 2026-01-01 ", "2026-01-01 ", "x (C) ", "(A)  ", " x ", "X ", "x\t",
        "\u{FEFF}x ", "\u{FEFF}", "x", "xx ",
    ].map { Array($0.utf8) }
    static let separators: [[UInt8]] = [" ", "  ", "\t", "\u{3000}"].map { Array($0.utf8) }
    static let oddBytes: [[UInt8]] = [[0x0D], [0x00], [0xEF, 0xBB, 0xBF], [0xFF], [0xC3], [0xE2, 0x80],
                                      [0xED, 0xA0, 0x80], [0x0B], [0x0C], [0xC2, 0x85]]
    static let blankLines: [[UInt8]] = [[], [], [0x20], [0x09], [0x20, 0x20, 0xC2, 0xA0]]
    static let terminators: [[UInt8]] = [[0x0A], [0x0A], [0x0D, 0x0A], [0x0D]]
    static let interesting: [UInt8] = [0x0A, 0x0D, 0x20, 0x78, 0x28, 0x29, 0x41, 0x2B, 0x40, 0x3A, 0x00, 0xEF, 0xBB,
                                       0xBF, 0xC2, 0xA0, 0xE3, 0x80, 0xFF, 0x32, 0x30, 0x2D, 0x09]

    /// One task-like line without terminator, possibly holding CR, NUL, BOM bytes or invalid UTF-8,
    /// and rarely (1 in 200) a long run of 1–13 KB.
    mutating func line(allowControl: Bool = true) -> [UInt8] {
        var out = pick(TodoTextGenerator.headers)
        let count = int(8)
        for index in 0..<count {
            if index > 0 || chance(10) { out += chance(90) ? [0x20] : pick(TodoTextGenerator.separators) }
            out += pick(TodoTextGenerator.words)
            if allowControl && chance(4) { out += pick(TodoTextGenerator.oddBytes) }
        }
        if int(200) == 0 { out += [UInt8](repeating: pick([0x61, 0x20, 0x0D]), count: 1_000 + int(12_000)) }
        return out
    }

    /// A whole file: lines with random terminators, maybe a BOM, maybe no final newline; up to
    /// `maxLines - 1` lines.
    mutating func file(maxLines: Int = 8) -> [UInt8] {
        var out: [UInt8] = chance(10) ? [0xEF, 0xBB, 0xBF] : []
        let lines = int(maxLines)
        for index in 0..<lines {
            out += chance(10) ? pick(TodoTextGenerator.blankLines) : line()
            if index < lines - 1 || chance(60) { out += pick(TodoTextGenerator.terminators) }
        }
        return out
    }

    /// Arbitrary bytes, biased towards the interesting ones.
    mutating func rawBytes() -> [UInt8] {
        var out: [UInt8] = []
        for _ in 0..<int(40) {
            out.append(chance(70) ? pick(TodoTextGenerator.interesting) : UInt8(truncatingIfNeeded: rng.next()))
        }
        return out
    }
}

/// Contents of every line of a document (terminators excluded), for multiset comparisons.
func lineContents(_ document: TodoDocument) -> [[UInt8]] {
    (0..<document.lineCount).map { Array(document.content(at: $0)) }
}

/// Raw generator values that make `UID.generate` draw exactly `uid` (its first character from the 22
/// letters, the rest from the 32-character alphabet): each value sits in the middle of its bucket of
/// `next(upperBound:)`, so no rejection happens.
func uidDraws(_ uid: String) -> [UInt64] {
    let letters = Array("abcdefghjkmnpqrstvwxyz".utf8), alphabet = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)
    return Array(uid.utf8).enumerated().map { position, byte in
        let table = position == 0 ? letters : alphabet
        let index = table.firstIndex(of: byte)!
        return UInt64((Double(index) + 0.5) / Double(table.count) * 18_446_744_073_709_551_616.0)
    }
}
