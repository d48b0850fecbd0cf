#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TodoTestSupport
@testable import TodoFileSystem

/// `FileSystem.readInPieces`: the pieces joined are the file, each piece but the file's last ends
/// with the separator, and a line longer than the buffer is never cut.
@Suite struct ReadInPiecesTests {
    let fs = FileSystem()

    func pieces(_ path: String, pieceSize: Int) throws(FileSystemError) -> [[UInt8]]? {
        var collected: [[UInt8]] = []
        let status = try fs.readInPieces(path, endingAt: 0x0A, pieceSize: pieceSize) { collected.append(Array($0)) }
        return status == nil ? nil : collected
    }

    /// Seeded property: random files (long lines, empty lines, no final newline) read with small
    /// buffers.
    @Test func piecesJoinToTheFileAndEndAtLineFeeds() throws {
        let seed = propertySeed()
        var random = SplitMix64(seed: seed)
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        for round in 0..<300 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(random.next() % 12) {
                bytes += [UInt8](repeating: UInt8(0x61 + random.next() % 3), count: Int(random.next() % 90))
                if random.next() % 4 != 0 { bytes.append(0x0A) }
            }
            Posix.write(path, bytes)
            let pieceSize = 16 + Int(random.next() % 48)
            guard let collected = try pieces(path, pieceSize: pieceSize) else {
                Issue.record("seed \(seed) round \(round): the file was not found")
                continue
            }
            #expect(Array(collected.joined()) == bytes, "seed \(seed) round \(round)")
            #expect(collected.allSatisfy { !$0.isEmpty }, "seed \(seed) round \(round): an empty piece")
            for piece in collected.dropLast() {
                #expect(piece.last == 0x0A, "seed \(seed) round \(round): a piece cut inside a line")
            }
        }
    }

    @Test func aMissingFileIsNilAndADirectoryIsRefused() {
        let dir = TemporaryDirectory()
        #expect((try? pieces(dir.file("todo.txt"), pieceSize: 64)) == .some(nil))
        mkdir(dir.file("sub"), 0o755)
        let error = outcome { () throws(FileSystemError) in try pieces(dir.file("sub"), pieceSize: 64) }.failure
        #expect(error == .isDirectory(path: dir.file("sub")))
    }

    @Test func anEmptyFileHasNoPieces() throws {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("todo.txt"), [])
        #expect(try pieces(dir.file("todo.txt"), pieceSize: 64) == [])
    }

    @Test func aFileOverTheSizeLimitIsRefusedBeforeReading() {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("todo.txt"), "0123456789\n")
        let small = FileSystem(syscalls: .live, sizeLimit: 4)
        var called = false
        let error = outcome { () throws(FileSystemError) in
            try small.readInPieces(dir.file("todo.txt"), endingAt: 0x0A) { _ in called = true }
        }.failure
        #expect(error == .tooLarge(path: dir.file("todo.txt"), size: 11, limit: 4))
        #expect(!called)
    }
}
