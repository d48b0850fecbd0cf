import Foundation
import TodoTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The built `todo` keeps a file's POSIX ACL and `user.*` attributes when it rewrites the file
/// (issue 12). Attributes are set and read with the attr and acl tools; the test is skipped, with
/// the reason printed, where they are missing or /tmp's file system has no extended attributes.
final class AttributeEndToEndTests: XCTestCase {
    /// `sort` writes the reordering as pieces of the old file, `do` writes new bytes: both go
    /// through the safe replacement, which must carry the attributes over to the new inode.
    func testSortKeepsTheACLAndUserAttributes() throws {
        try checkRewritingCommandKeepsTheACLAndUserAttributes(action: ["sort"])
    }

    func testDoKeepsTheACLAndUserAttributes() throws {
        try checkRewritingCommandKeepsTheACLAndUserAttributes(action: ["do", "1"])
    }

    private func checkRewritingCommandKeepsTheACLAndUserAttributes(action: [String]) throws {
        let directory = Spawn.makeTemporaryDirectory("todo-attr")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        // `sort` moves the completed task below the last open one; `do 1` completes the first.
        Files.write(path, "water plants\nx 2026-01-02 paid rent\nbuy milk\n")
        chmod(path, 0o640)
        if let reason = Self.unsupported(probing: directory) {
            print("skipped: \(reason)")
            throw XCTSkip(reason)
        }
        try Self.must(["setfattr", "-n", "user.todo.origin", "-v", "0x70686f6e6500", path])
        try Self.must(["setfacl", "-m", "u:65534:rw,g::-,m::r", path])
        let attributesBefore = Self.dump(path)
        let aclBefore = Spawn.run(["getfacl", "--omit-header", "--numeric", "--absolute-names", path]).out
        XCTAssertTrue(attributesBefore.contains("user.todo.origin=0x70686f6e6500"))
        XCTAssertTrue(attributesBefore.contains("system.posix_acl_access="))
        var before = stat()
        XCTAssertEqual(stat(path, &before), 0)

        let home = Spawn.makeTemporaryDirectory("todo-attr-home")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let result = Spawn.todo(["-f", path] + action, environment: [
            "HOME": home, "TODO_TEST_TIME": "1764410000", "TZ": "UTC", "NO_COLOR": "",
            "TODO_FILE": "", "TODO_DIR": "", "DONE_FILE": "", "TODOTXT_CFG_FILE": "",
        ])

        XCTAssertEqual(result.status, 0, "\(result.err)")
        var after = stat()
        XCTAssertEqual(stat(path, &after), 0)
        XCTAssertNotEqual(after.st_ino, before.st_ino, "the command replaced the file: \(Files.text(path))")
        XCTAssertEqual(after.st_mode & 0o7777, before.st_mode & 0o7777)
        XCTAssertEqual(Self.dump(path), attributesBefore)
        XCTAssertEqual(Spawn.run(["getfacl", "--omit-header", "--numeric", "--absolute-names", path]).out, aclBefore)
        XCTAssertEqual(Spawn.run(["getfattr", "--only-values", "--absolute-names", "-n", "user.todo.origin", path]).stdout,
                       [0x70, 0x68, 0x6F, 0x6E, 0x65, 0x00])
    }

    /// Why the test cannot run here, or `nil`: the tools are installed and a file in `directory`
    /// takes a `user.*` attribute and a POSIX ACL.
    static func unsupported(probing directory: String) -> String? {
        let missing = ["setfattr", "getfattr", "setfacl", "getfacl"].filter { tool in
            (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").allSatisfy {
                !FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
            }
        }
        if !missing.isEmpty { return "\(missing.joined(separator: ", ")) not installed (Debian packages attr and acl)" }
        let probe = directory + "/.probe"
        Files.write(probe, "")
        defer { unlink(probe) }
        if Spawn.run(["setfattr", "-n", "user.probe", "-v", "1", probe]).status != 0 {
            return "the file system of \(directory) has no user.* extended attributes"
        }
        if Spawn.run(["setfacl", "-m", "u:65534:r", probe]).status != 0 {
            return "the file system of \(directory) has no POSIX ACLs"
        }
        return nil
    }

    /// Runs a setup tool that must succeed: otherwise the test fails and stops here.
    static func must(_ argv: [String]) throws {
        let result = Spawn.run(argv)
        // XCTUnwrap of nil records the failure (with the message) and ends the test.
        _ = try XCTUnwrap(result.status == 0 ? result : nil, "\(argv.joined(separator: " ")): \(result.err)")
    }

    /// Every attribute and its value in hex, system.* included.
    static func dump(_ path: String) -> String {
        Spawn.run(["getfattr", "--dump", "--match=-", "--encoding=hex", "--absolute-names", path]).out
    }
}
