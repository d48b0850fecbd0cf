import Testing
@testable import TodoTxt

/// docs/format.md section 2: a line is completed exactly when, after its own byte order marks, it
/// starts with `x` and a space. `CompletedLine` is the one test; every reader of a line must agree
/// with it: the parser, `classify`, the document's own check, and the vector scans of
/// `sortedPieces` and `completedRuns` (which pick candidates sixteen bytes at a time).
@Suite struct CompletedLineTests {
    private static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Lines and whether each is a completed task.
    private static let cases: [(line: [UInt8], completed: Bool)] = [
        (Array("x done".utf8), true),
        (Array("x ".utf8), true),
        (Array("x 2026-01-02 (A) done".utf8), true),
        (bom + Array("x marked".utf8), true),
        (bom + bom + Array("x twice marked".utf8), true),
        (Array("x".utf8), false),
        (Array("xx no".utf8), false),
        (Array("X upper".utf8), false),
        (Array(" x indented".utf8), false),
        (Array("x\ttab".utf8), false),
        (Array("(A) x open".utf8), false),
        (bom + Array("x".utf8), false),
        (bom, false),
        (Array("open x task".utf8), false),
        ([0xEF, 0xBB] + Array("x half a mark".utf8), false),
    ]

    @Test func theRuleOnEachLine() {
        for (line, completed) in Self.cases {
            #expect(CompletedLine.isCompleted(line[...]) == completed, "\(line)")
            #expect(TodoItem(line).isCompleted == completed, "\(line)")
            #expect(TodoItem.classify(line[...]).isCompleted == completed, "\(line)")
            #expect(TodoDocument(bytes: line + [0x0A]).isCompletedLine(0) == completed, "\(line)")
        }
    }

    /// Each case between long open lines (so the vector path meets it) and as the last line (so the
    /// scalar tail does): the scans sink exactly the completed ones, as the parser reads them.
    @Test func theScansAgreeWithTheParser() throws {
        let filler = Array("an open task long enough for a vector step +p @c".utf8)
        for (line, completed) in Self.cases {
            let placements: [[[UInt8]]] = [[filler, line, filler], [filler, filler, line]]
            for lines in placements {
                let bytes: [UInt8] = lines.flatMap { $0 + [0x0A] }
                let runs = try #require(TodoDocument.completedRuns(bytes))
                let sunk: [UInt8] = runs.completed.flatMap { Array(bytes[$0]) }
                #expect(sunk == (completed ? line + [0x0A] : []), "\(line)")
                let open = completed ? lines.filter { $0 != line } : lines
                let expected: [UInt8] = (open + (completed ? [line] : [])).flatMap { $0 + [0x0A] }
                let pieces = try #require(TodoDocument.sortedPieces(bytes))
                let sorted: [UInt8] = pieces.flatMap { Array(bytes[$0]) }
                #expect(sorted == expected, "\(line)")
            }
        }
    }
}
