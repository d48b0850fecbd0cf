import Testing
import TodoTestSupport
@testable import TodoTxt

/// `AppendScan` answers as the whole-file functions do on the same bytes, however the file is cut
/// into pieces of whole lines; and its appended bytes add exactly the new lines.
@Suite struct AppendScanTests {
    /// `bytes` cut after random line feeds (every piece but the last ends with one).
    func randomPieces(_ bytes: [UInt8], _ random: inout SplitMix64) -> [[UInt8]] {
        var pieces: [[UInt8]] = []
        var start = 0
        for index in bytes.indices where bytes[index] == 0x0A && random.next() % 3 == 0 {
            pieces.append(Array(bytes[start...index]))
            start = index + 1
        }
        if start < bytes.count { pieces.append(Array(bytes[start...])) }
        return pieces
    }

    func scan(_ pieces: [[UInt8]], candidates: [String]) -> AppendScan {
        var scan = AppendScan(uidCandidates: candidates)
        for piece in pieces { piece.withUnsafeBufferPointer { scan.consume($0) } }
        return scan
    }

    /// The 1-based line of the first NUL byte, counted as `TodoDocument` counts lines.
    func nulLine(_ bytes: [UInt8]) -> Int? {
        guard let offset = bytes.firstIndex(of: 0) else { return nil }
        return bytes[..<offset].filter { $0 == 0x0A }.count + 1
    }

    /// Seeded property over files made of the pieces that matter (line breaks of both kinds, NUL,
    /// conflict markers, byte order marks, uids), each cut at random.
    @Test func agreesWithTheWholeFileFunctions() {
        let settings = PropertySettings(defaultSeed: 0xA99E_4D5C, defaultCount: 3_000)
        var random = SplitMix64(seed: settings.seed)
        let parts = ["a", " ", "\r", "\n", "\r\n", "\0", "<<<<<<<", ">>>>>>>", "<<<<<<< ours\n", ">>>>>>> theirs\n",
                     "=======\n", "uid:ab12cd", "uid:zz9999 ", "\u{FEFF}", "x 2025-01-02 "]
        let candidates = ["ab12cd", "zz9999", "qq1111"]
        for _ in 0..<settings.count {
            var text = random.next() % 5 == 0 ? "\u{FEFF}" : ""
            for _ in 0..<Int(random.next() % 14) { text += parts[Int(random.next() % UInt64(parts.count))] }
            let bytes = Array(text.utf8)
            let scanned = scan(randomPieces(bytes, &random), candidates: candidates)
            let document = TodoDocument(bytes: bytes)
            let context = "seed \(settings.seed): \(show(bytes))"
            #expect(scanned.lineCount == document.lineCount, "\(context)")
            #expect(scanned.terminator() == document.dominantTerminator, "\(context)")
            #expect(scanned.conflictBlockLine == ConflictMarkers.firstBlockLine(in: bytes), "\(context)")
            #expect(scanned.firstNULLine == nulLine(bytes), "\(context)")
            #expect(scanned.isTaken == candidates.map(document.mentionsUID), "\(context)")
            // Appending: the old lines stay, the new ones follow, each with the file's terminator.
            let added: [[UInt8]] = [Array("new one".utf8), Array("ends in CR\r".utf8), Array("holds\nLF".utf8)]
            let after = TodoDocument(bytes: bytes + scanned.bytesAppending(added.map { $0[...] }))
            #expect(after.lineCount == document.lineCount + 3, "\(context)")
            for index in 0..<document.lineCount {
                #expect(after.content(at: index) == document.content(at: index), "\(context) line \(index + 1)")
            }
            let ending = scanned.terminator()
            #expect(after.content(at: document.lineCount) == added[0][...], "\(context)")
            #expect(after.terminator(at: document.lineCount) == ending, "\(context)")
            #expect(after.content(at: document.lineCount + 1) == added[1][...], "\(context): a final CR stays content")
            #expect(after.content(at: document.lineCount + 2) == Array("holds LF".utf8)[...], "\(context)")
        }
    }

    @Test func anEmptyFileGetsTheNewFilesTerminator() {
        let scanned = scan([], candidates: [])
        #expect(scanned.lineCount == 0)
        #expect(scanned.terminator(newFile: .crlf) == .crlf)
        #expect(scanned.bytesAppending([Array("a".utf8)[...]], newFile: .crlf) == Array("a\r\n".utf8))
        let markOnly = scan([[0xEF, 0xBB, 0xBF]], candidates: [])
        #expect(markOnly.isEmpty)
        #expect(markOnly.lineCount == 0)
    }

    @Test func countsLineFeedsAcrossManyVectorSteps() {
        // More than 255 sixteen-byte steps: the lane counters are folded before they wrap.
        let bytes = Array(String(repeating: "ab\r\ncd\n", count: 2_000).utf8)
        let scanned = scan([bytes], candidates: [])
        #expect(scanned.lineCount == 4_000)
        #expect(scanned.terminator() == .lf)
        let crlf = Array(String(repeating: "abcdef\r\n", count: 2_000).utf8)
        #expect(scan([crlf], candidates: []).terminator() == .crlf)
    }
}
