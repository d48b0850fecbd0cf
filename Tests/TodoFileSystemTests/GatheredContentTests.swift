import Testing
import TodoTestSupport
import TodoTxt
@testable import TodoFileSystem

/// `ReplacementContent.gathered`: a merge's result written as runs of several buffers, straight to
/// `writev`, and compared with the old content without being built.
@Suite struct GatheredContentTests {
    func replace(_ path: String, _ content: @escaping ([UInt8]) -> ReplacementContent?) -> Result<ReplaceOutcome, ReplaceError<Never>> {
        outcome { () throws(ReplaceError<Never>) in
            try FileSystem().replace(path) { (bytes: [UInt8]) throws(Never) in content(bytes) }
        }
    }

    @Test func runsOfSeveralBuffersAreWrittenInTheirOrder() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\nb\n")
        let result = try replace(path) { old in
            .gathered(sources: [old, Array("new\n".utf8)],
                      pieces: [BytePiece(source: 1, start: 0, count: 4), BytePiece(source: 0, start: 2, count: 2),
                               BytePiece(source: 0, start: 0, count: 0), BytePiece(source: 0, start: 0, count: 2)])
        }.get()
        #expect(result == .written(attempts: 1, notes: []))
        #expect(Posix.text(path) == "new\nb\na\n")
        #expect(dir.entries() == ["todo.txt"])
    }

    @Test func runsEqualToTheOldContentWriteNothing() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\nb\n")
        let result = try replace(path) { old in
            .gathered(sources: [Array("a\n".utf8), old], pieces: [BytePiece(source: 0, start: 0, count: 2), BytePiece(source: 1, start: 2, count: 2)])
        }.get()
        #expect(result == .unchanged)
        let shorter = try replace(path) { old in .gathered(sources: [old], pieces: [BytePiece(source: 0, start: 0, count: 2)]) }.get()
        #expect(shorter == .written(attempts: 1, notes: []))
        #expect(Posix.text(path) == "a\n")
    }

    /// Random runs of random buffers, some longer than a write-back stride and more than one `writev`
    /// takes: the file holds exactly their concatenation.
    @Test func randomRunsEqualTheirConcatenation() throws {
        let seed = propertySeed()
        var random = SplitMix64(seed: seed)
        for round in 0..<8 {
            let dir = TemporaryDirectory()
            let path = dir.file("todo.txt")
            Posix.write(path, "old\n")
            let sizes = (0..<3).map { side in round == 0 && side == 0 ? TemporaryFileWriter.writebackStride + 100 : Int(random.next() % 5_000) + 1 }
            let sources = sizes.map { ReplacementContentTests.randomBytes($0, &random) }
            var pieces: [BytePiece] = []
            var expected: [UInt8] = []
            if round == 0 {
                // One run longer than a write-back stride, whatever the draws.
                pieces.append(BytePiece(source: 0, start: 0, count: sizes[0]))
                expected += sources[0]
            }
            for _ in 0..<(round == 0 ? 2_000 : Int(random.next() % 50)) {
                let source = Int(random.next() % 3)
                let start = Int(random.next() % UInt64(sizes[source]))
                // Mostly short runs, now and then one longer than a write-back stride.
                let longest = round == 0 && random.next() % 500 == 0 ? sizes[source] - start : min(sizes[source] - start, 300)
                let count = Int(random.next() % UInt64(longest + 1))
                pieces.append(BytePiece(source: source, start: start, count: count))
                expected += sources[source][start..<(start + count)]
            }
            _ = try replace(path) { _ in .gathered(sources: sources, pieces: pieces) }.get()
            #expect(Posix.read(path) == expected, "seed \(seed), round \(round)")
        }
    }
}
