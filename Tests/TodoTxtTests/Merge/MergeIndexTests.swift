import Testing
@testable import TodoTxt

/// The merge's fast uid scan must read exactly what `TodoItem.uid` reads, for any bytes.
@Suite struct MergeIndexTests {
    private func scanned(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { MergeSide.uid(of: $0) }
    }

    @Test func fastUIDScanAgreesWithTodoItemOnEdgeCases() {
        let lines = [
            "call mom uid:k3f9qz", "uid:a", "x 2026-01-02 (A) uid:abc", "(A) 2026-01-01 uuid:u1 uid:u2",
            "uuid:first uuid:second", "uid: empty", "a uuid:x uid:y", "uuid:x\u{0085}uid:y", "xuid:no uid:yes",
            "abcdefg uid:12345678 more", "long line with many words and a colon: here uid:late", "uid:a:b:c", "uid:: colon", "uid://url", "+uid:project @uid:context",
            "uidx:no ui:no uid", "uid:12:30", "a\u{00A0}uid:nbsp", "a\u{2003}uid:emspace\u{3000}x", "\tuid:tab",
            "uid:\u{FFFD}bad", "", "   ", "x ", "uid:dup uid:other", "UID:upper", "uuid:only", "uuid:", "uid:x:y",
            // A line that starts with byte order marks is read after them, wherever it sits.
            "\u{FEFF}uid:bom", "\u{FEFF}\u{FEFF}uid:two", "\u{FEFF} uid:spaced", "a\u{FEFF}uid:inside",
        ]
        for line in lines {
            #expect(scanned(Array(line.utf8)) == TodoItem(line).uid, "line '\(line)'")
        }
        // Invalid UTF-8 in the value decodes lossily, as the tag reader does.
        let invalid: [UInt8] = Array("uid:".utf8) + [0xFF, 0xC2] + Array(" rest".utf8)
        #expect(scanned(invalid) == TodoItem(invalid).uid)
    }

    @Test func fastUIDScanAgreesWithTodoItemOnRandomLines() {
        var state: UInt64 = 0x5EED_0D1D
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        let pieces: [[UInt8]] = ["uid:", "uuid:", "u", "id", ":", " ", "\t", "x ", "(A) ", "2026-01-02 ", "+p", "@c",
                                 "12:30", "//", "k3", "\u{00A0}", "\u{0085}", "\u{1680}", "\u{2028}", "\u{202F}",
                                 "\u{205F}", "\u{3000}", "\u{2000}", "\u{200A}", "\u{200B}", "uid:abcdefgh", "x:", "\u{FEFF}"]
            .map { Array($0.utf8) } + [[0xC2], [0xE2, 0x80], [0xE2], [0xE3, 0x80], [0xFF], [0x0D], [0x80], [0xA0]]
        for _ in 0..<60_000 {
            var line: [UInt8] = []
            for _ in 0..<Int(next() % 9) { line += pieces[Int(next() % UInt64(pieces.count))] }
            #expect(scanned(line) == TodoItem(line).uid, "bytes \(line)")
        }
    }
}
