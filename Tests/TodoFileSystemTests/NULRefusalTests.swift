#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TodoTestSupport
@testable import TodoFileSystem

/// `ReplaceOptions.refusesNULBytes`: a file holding a NUL byte is never rewritten, whether the
/// comparison runs inline (small files) or on a second thread (large ones), and even when the
/// closure changes nothing.
@Suite struct NULRefusalTests {
    static let options = ReplaceOptions(refusesNULBytes: true)

    @Test func firstNULIsFoundAtEveryAlignment() {
        for length in 0..<40 {
            let clean = [UInt8](repeating: 0x61, count: length)
            #expect(FileSystem.firstNUL(in: clean) == nil)
            for position in 0..<length {
                var bytes = clean
                bytes[position] = 0
                #expect(FileSystem.firstNUL(in: bytes) == position, "length \(length), NUL at \(position)")
            }
        }
    }

    @Test func lineNumbersCountFromOne() {
        let bytes = Array("a\nb\n\0c".utf8)
        #expect(FileSystem.lineNumber(ofOffset: 0, in: bytes) == 1)
        #expect(FileSystem.lineNumber(ofOffset: 4, in: bytes) == 3)
    }

    /// Lines, one of which (`nulLine`, 1-based) holds a NUL; about `size` bytes.
    static func file(size: Int, nulLine: Int?) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(size + 64)
        var line = 1
        while bytes.count < size {
            bytes.append(contentsOf: Array("x done \(line)\n".utf8))
            if line == nulLine { bytes.insert(0, at: bytes.count - 1) }
            line += 1
        }
        return bytes
    }

    @Test(arguments: [100, FileSystem.earlyCheckThreshold + 1])
    func fileWithANULIsNotRewritten(size: Int) throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        let original = Self.file(size: size, nulLine: 3)
        Posix.write(path, original)
        let result = outcome { () throws(ReplaceError<Never>) in
            try FileSystem().replace(path, options: Self.options) { (old: [UInt8]) throws(Never) -> [UInt8]? in Array(old.reversed()) }
        }
        guard case .fileSystem(let error)? = result.failure else {
            Issue.record("expected a refusal, got \(result)")
            return
        }
        #expect(error == .holdsNUL(path: path, line: 3))
        #expect(error.description == "\(path): line 3: NUL byte, this looks like a binary file; not rewriting it")
        #expect(Posix.read(path) == original)
        #expect(dir.entries() == ["todo.txt"])
    }

    @Test func unchangedFileWithANULIsStillRefused() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, Self.file(size: 100, nulLine: 2))
        let result = outcome { () throws(ReplaceError<Never>) in
            try FileSystem().replace(path, options: Self.options) { (_: [UInt8]) throws(Never) -> [UInt8]? in nil }
        }
        #expect(fileSystemError(result.failure) == .holdsNUL(path: path, line: 2))
    }

    @Test(arguments: [100, FileSystem.earlyCheckThreshold + 1])
    func cleanFileIsRewritten(size: Int) throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        let original = Self.file(size: size, nulLine: nil)
        Posix.write(path, original)
        let result = try FileSystem().replace(path, options: Self.options) { (old: [UInt8]) throws(Never) -> [UInt8]? in old + Array("new\n".utf8) }
        #expect(result == .written(attempts: 1, notes: []))
        #expect(Posix.read(path) == original + Array("new\n".utf8))
    }

    @Test func withoutTheOptionNULBytesAreOrdinaryContent() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, Array("a\0\n".utf8))
        _ = try FileSystem().replace(path) { (old: [UInt8]) throws(Never) -> [UInt8]? in old + Array("b\n".utf8) }
        #expect(Posix.read(path) == Array("a\0\nb\n".utf8))
    }
}
