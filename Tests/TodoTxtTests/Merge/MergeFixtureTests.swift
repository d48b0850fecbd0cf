import Foundation
import Testing
import TodoTxt

/// Runs every case in Fixtures/merge: `base`, `ours`, `theirs` → `expected` (bytes, exactly) and
/// `expected-exit` (0 when absent).
@Suite struct MergeFixtureTests {
    private static let root = packageRoot.appendingPathComponent("Fixtures/merge")

    private func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    @Test func everyFixtureMergesToItsExpectedBytesAndExitStatus() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.root.path)
            .filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }.sorted()
        // Guards against the directory silently moving or emptying.
        #expect(names.count >= 45)
        for name in names {
            let folder = Self.root.appendingPathComponent(name)
            let base = try bytes(folder.appendingPathComponent("base"))
            let ours = try bytes(folder.appendingPathComponent("ours"))
            let theirs = try bytes(folder.appendingPathComponent("theirs"))
            let expected = try bytes(folder.appendingPathComponent("expected"))
            let exitURL = folder.appendingPathComponent("expected-exit")
            var expectedExit: Int32 = 0
            if FileManager.default.fileExists(atPath: exitURL.path) {
                let text = String(decoding: try bytes(exitURL), as: UTF8.self)
                expectedExit = Int32(text.split(whereSeparator: \.isWhitespace).first ?? "") ?? -1
            }
            // Round trip first.
            for input in [base, ours, theirs, expected] {
                #expect(TodoDocument(bytes: input).rendered() == input, "\(name): round trip")
            }
            let result = TodoMerge.threeWay(base: TodoDocument(bytes: base), ours: TodoDocument(bytes: ours),
                                            theirs: TodoDocument(bytes: theirs))
            #expect(result.bytes == expected,
                    "\(name):\n--- got\n\(String(decoding: result.bytes, as: UTF8.self))--- expected\n\(String(decoding: expected, as: UTF8.self))")
            #expect(result.isClean == (expectedExit == 0), "\(name): clean")
            #expect(result.conflicts.isEmpty == (expectedExit == 0), "\(name): conflicts listed")
        }
    }
}
