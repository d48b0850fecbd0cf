import Foundation
import Testing
@testable import TodoTxt

/// docs/format.md section 7's dependency fields: `after` (the `after:` uids, repeats dropped) and
/// `blocked` (one of them held by an open task of the file), the same on the ASCII byte path and
/// the String path.
@Suite struct ExportDependencyTests {
    @Test func afterAndBlockedOnBothPaths() throws {
        for suffix in ["", " café"] {
            let text = "paint after:bb1 after:cc1 after:bb1 uid:aa1\(suffix)\nbuy uid:bb1\nx 2026-12-01 sand uid:cc1\nhang after:cc1\n\n"
            let output = TodoDocument(bytes: Array(text.utf8)).exportJSONLines()
            let objects = try output.split(separator: 0x0A).map { try #require(try JSONSerialization.jsonObject(with: Data($0)) as? [String: Any]) }
            #expect(objects[0]["after"] as? [String] == ["bb1", "cc1"])
            #expect(objects[0]["blocked"] as? Bool == true, "bb1 is open")
            #expect(objects[1]["after"] as? [String] == [])
            #expect(objects[3]["blocked"] as? Bool == false, "cc1 is done")
            #expect(objects[4]["blocked"] as? Bool == false)
        }
    }
}
