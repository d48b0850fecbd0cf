import Foundation
import Testing
@testable import TodoTxt

/// docs/format.md section 7: JSON Lines, one object per line of the file.
@Suite struct ExportTests {
    func objects(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
        let document = parseRoundTrip(bytes, sourceLocation: sourceLocation)
        let output = document.exportJSONLines()
        #expect(output.last == 0x0A || output.isEmpty, sourceLocation: sourceLocation)
        let lines = output.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == document.lineCount, sourceLocation: sourceLocation)
        return try lines.map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line))
            return try #require(object as? [String: Any], sourceLocation: sourceLocation)
        }
    }

    static let allFields: Set<String> = ["line", "text", "is_task", "completed", "priority", "completion_date",
                                         "creation_date", "body", "projects", "contexts", "tags", "uid",
                                         "due", "threshold", "effective_priority", "after", "blocked", "spent"]

    @Test func taskLine() throws {
        let object = try #require(try objects(b("x (A) 2026-03-01 2026-02-01 call +mom @phone due:2026-03-05 k:1 k:2 uid:k3f9qz\n")).first)
        #expect(Set(object.keys) == Self.allFields)
        #expect(object["line"] as? Int == 1)
        #expect(object["text"] as? String == "x (A) 2026-03-01 2026-02-01 call +mom @phone due:2026-03-05 k:1 k:2 uid:k3f9qz")
        #expect(object["is_task"] as? Bool == true)
        #expect(object["completed"] as? Bool == true)
        #expect(object["priority"] as? String == "A")
        #expect(object["completion_date"] as? String == "2026-03-01")
        #expect(object["creation_date"] as? String == "2026-02-01")
        #expect(object["body"] as? String == "call +mom @phone due:2026-03-05 k:1 k:2 uid:k3f9qz")
        #expect(object["projects"] as? [String] == ["mom"])
        #expect(object["contexts"] as? [String] == ["phone"])
        let tags = try #require(object["tags"] as? [String: [String]])
        #expect(tags == ["due": ["2026-03-05"], "k": ["1", "2"], "uid": ["k3f9qz"]])
        #expect(object["uid"] as? String == "k3f9qz")
        #expect(object["due"] as? String == "2026-03-05")
        #expect(object["threshold"] is NSNull)
        #expect(object["effective_priority"] as? String == "A")
    }

    /// The fields typed queries read: the first valid `due:`/`t:`, and a completed task's kept
    /// `pri:` as its effective priority; an invalid date is null. Both paths (ASCII bytes, Strings).
    @Test func queryFields() throws {
        for suffix in ["", " café"] {
            let all = try objects(b("x 2026-03-01 done pri:B due:2026-03-05 due:2026-04-01 t:2026-02-28\(suffix)\nopen due:tomorow t:2026-02-30 pri:A\n"))
            #expect(all[0]["priority"] is NSNull, "the header's priority is unchanged")
            #expect(all[0]["effective_priority"] as? String == "B")
            #expect(all[0]["due"] as? String == "2026-03-05")
            #expect(all[0]["threshold"] as? String == "2026-02-28")
            #expect(all[1]["due"] is NSNull)
            #expect(all[1]["threshold"] is NSNull)
            #expect(all[1]["effective_priority"] is NSNull, "an open task's pri: is no priority")
        }
        let line = String(decoding: parseRoundTrip(b("(C) a due:2026-01-02 uid:abc")).exportJSONLines(), as: UTF8.self)
        #expect(line.hasSuffix(",\"uid\":\"abc\",\"due\":\"2026-01-02\",\"threshold\":null,\"effective_priority\":\"C\",\"after\":[],\"blocked\":false,\"spent\":null}\n"))
    }

    @Test func tagKeysInFirstOccurrenceOrder() throws {
        let output = String(decoding: parseRoundTrip(b("a z:1 b:2 z:3")).exportJSONLines(), as: UTF8.self)
        #expect(output.contains("\"tags\":{\"z\":[\"1\",\"3\"],\"b\":[\"2\"]}"))
    }

    @Test func blankLine() throws {
        let all = try objects(b("a\n  \n"))
        #expect(all.count == 2)
        let object = all[1]
        #expect(Set(object.keys) == Self.allFields)
        #expect(object["line"] as? Int == 2)
        #expect(object["text"] as? String == "  ")
        #expect(object["is_task"] as? Bool == false)
        #expect(object["completed"] as? Bool == false)
        #expect(object["priority"] is NSNull)
        #expect(object["completion_date"] is NSNull)
        #expect(object["creation_date"] is NSNull)
        #expect(object["body"] as? String == "")
        #expect((object["projects"] as? [Any])?.isEmpty == true)
        #expect((object["contexts"] as? [Any])?.isEmpty == true)
        #expect((object["tags"] as? [String: Any])?.isEmpty == true)
        #expect(object["uid"] is NSNull)
    }

    @Test func openTaskNulls() throws {
        let object = try #require(try objects(b("plain")).first)
        #expect(object["completed"] as? Bool == false)
        #expect(object["priority"] is NSNull)
        #expect(object["uid"] is NSNull)
    }

    @Test func controlCharactersAndInvalidUTF8StayValidJSON() throws {
        var line: [UInt8] = b("q\"uote\\ back +p\u{1}")
        for control in UInt8(0)..<0x20 where control != 0x0A { line.append(control) }
        line += [0x7F, 0xFF, 0xC3, 0x20] + b("\u{2028}\u{2029}🙂 k:\"v\"")
        let object = try #require(try objects(line + [0x0D, 0x0A]).first)
        let text = try #require(object["text"] as? String)
        #expect(text == String(decoding: line, as: UTF8.self))
        #expect(text.contains("\u{FFFD}"))
        #expect(object["projects"] as? [String] == ["p\u{1}\0\u{1}\u{2}\u{3}\u{4}\u{5}\u{6}\u{7}\u{8}"])
        #expect((object["tags"] as? [String: [String]])?["k"] == ["\"v\""])
    }

    /// The UTF-8 encoding of every C1 control, U+0080–U+009F: C2 80 … C2 9F.
    static let c1Controls: [[UInt8]] = (UInt8(0x80)...0x9F).map { [0xC2, $0] }

    /// Whether `bytes` holds `part` as a contiguous run.
    static func contains(_ bytes: [UInt8], _ part: [UInt8]) -> Bool {
        guard part.count <= bytes.count else { return false }
        return (0...(bytes.count - part.count)).contains { bytes[$0..<($0 + part.count)].elementsEqual(part) }
    }

    @Test func c1ControlsAreEscapedAsLowercaseHex() throws {
        let line = b("c1 ") + Self.c1Controls.flatMap { $0 } + b(" end")
        let output = parseRoundTrip(line).exportJSONLines()
        for control in Self.c1Controls {
            #expect(!Self.contains(output, control), "raw C1 control \(show(control)) in \(show(output))")
        }
        // Lowercase hex, as the C0 escapes are written.
        let escaped = (0x80...0x9F).map { "\\u00" + String($0, radix: 16) }.joined()
        #expect(Self.contains(output, b("\"text\":\"c1 \(escaped) end\"")), "\(show(output))")
        #expect(Self.contains(output, b("\\u009f")) && !Self.contains(output, b("\\u009F")))
        // The escapes decode back to the original text.
        let object = try #require(try objects(line).first)
        #expect(object["text"] as? String == String(decoding: line, as: UTF8.self))
    }

    @Test func c1ControlsAreEscapedInEveryStringField() throws {
        // A C1 control inside a project, a context, a tag key, a tag value and the uid (U+0085 is
        // whitespace to the parser, so it would end the word: not used here).
        let line = b("x 2026-03-01 do +p\u{86} @c\u{9B} k\u{80}:v\u{9F} uid:u\u{90}")
        let output = parseRoundTrip(line).exportJSONLines()
        for control in Self.c1Controls { #expect(!Self.contains(output, control)) }
        for field in ["\"projects\":[\"p\\u0086\"]", "\"contexts\":[\"c\\u009b\"]",
                      "\"k\\u0080\":[\"v\\u009f\"]", "\"uid\":\"u\\u0090\""] {
            #expect(Self.contains(output, b(field)), "\(field) missing from \(show(output))")
        }
        let object = try #require(try objects(line).first)
        #expect(object["projects"] as? [String] == ["p\u{86}"])
        #expect((object["tags"] as? [String: [String]])?["k\u{80}"] == ["v\u{9F}"])
    }

    @Test func charactersNextToTheC1RangeStayRaw() throws {
        // U+007F (DEL) and U+00A0 (no-break space, C2 A0) border the C1 range; U+00E9 shares no lead
        // byte with it; U+0100 and U+2028 are further on. None is a C1 control, so all stay raw.
        let line = b("a\u{7F}b\u{A0}c\u{E9}d\u{100}e\u{2028}f")
        let output = parseRoundTrip(line).exportJSONLines()
        #expect(Self.contains(output, b("\"text\":\"") + line + b("\"")), "\(show(output))")
        // A lone continuation byte 9B is invalid UTF-8, not U+009B: it is read as U+FFFD, kept raw.
        let invalid = parseRoundTrip([0x61, 0x9B, 0x62]).exportJSONLines()
        #expect(Self.contains(invalid, b("\"text\":\"a\u{FFFD}b\"")), "\(show(invalid))")
    }

    @Test func emptyFileExportsNothing() {
        #expect(parseRoundTrip([]).exportJSONLines().isEmpty)
    }
}
