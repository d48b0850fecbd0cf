// Extended attributes survive `FileSystem.replace` (issue 12). The attributes are set and read back
// with the attr and acl tools (setfattr, getfattr, setfacl, getfacl) in processes of their own, never
// through the code under test; faults are injected by replacing the attribute calls of the seam.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import Testing
import TodoTestSupport
@testable import TodoFileSystem

@Suite struct AttributeTests {
    // MARK: - real attributes, live calls

    @Test func userAttributeAndPOSIXACLSurviveAReplacement() throws {
        let dir = try AttributeTools.supportedDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "b\na\n", mode: 0o640)
        // A value with a NUL, a byte that is not UTF-8 and a newline: copied byte for byte or not at all.
        try AttributeTools.must(["setfattr", "-n", "user.todo.origin", "-v", "0x00ff0a7461736b73", path])
        // A named user and a mask narrower than that user's entry.
        try AttributeTools.must(["setfacl", "-m", "u:65534:rw,g::r,m::r", path])
        let aclBefore = try #require(AttributeTools.value("system.posix_acl_access", of: path))
        let dumpBefore = AttributeTools.dump(path)
        let inodeBefore = try #require(Posix.stat(path)).st_ino

        let result = try replace(path, with: FileSystem()) { $0 + Array("c\n".utf8) }.get()

        #expect(result == .written(attempts: 1, notes: []))
        #expect(Posix.text(path) == "b\na\nc\n")
        #expect(try #require(Posix.stat(path)).st_ino != inodeBefore, "a real replacement: a new inode")
        #expect(AttributeTools.value("user.todo.origin", of: path) == [0x00, 0xFF, 0x0A, 0x74, 0x61, 0x73, 0x6B, 0x73])
        #expect(AttributeTools.value("system.posix_acl_access", of: path) == aclBefore)
        #expect(AttributeTools.dump(path) == dumpBefore, "every attribute, with the same value")
        #expect(AttributeTools.text(["getfacl", "--omit-header", "--numeric", "--absolute-names", path])?.contains("user:65534:rw-\t#effective:r--") == true)
        #expect(dir.entries() == ["todo.txt"])
    }

    /// The bug of issue 12: without its ACL the file's group class bits (which an ACL uses as the
    /// mask) become plain group bits, and the owning group, denied by `group::---`, gains read access.
    @Test func groupClassBitsAndTheOwningGroupsEntryAreUnchanged() throws {
        let dir = try AttributeTools.supportedDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n", mode: 0o660)
        try AttributeTools.must(["setfacl", "-m", "u:65534:rw,g::-,m::r", path])
        let modeBefore = try #require(Posix.mode(path))
        let aclBefore = try #require(AttributeTools.text(["getfacl", "--omit-header", "--numeric", "--absolute-names", path]))
        #expect(modeBefore & 0o070 == 0o040, "the mask shows as the group class bits")
        #expect(aclBefore.contains("group::---\n"))

        _ = try replace(path, with: FileSystem()) { $0 + Array("b\n".utf8) }.get()

        #expect(Posix.mode(path) == modeBefore)
        #expect(AttributeTools.text(["getfacl", "--omit-header", "--numeric", "--absolute-names", path]) == aclBefore)
    }

    @Test func anEmptyValueIsCopiedAsEmpty() throws {
        let dir = try AttributeTools.supportedDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        try AttributeTools.must(["setfattr", "-n", "user.flag", path])
        #expect(AttributeTools.value("user.flag", of: path) == [])

        _ = try replace(path, with: FileSystem()) { $0 + Array("b\n".utf8) }.get()

        #expect(AttributeTools.value("user.flag", of: path) == [])
    }

    /// Root may set `trusted.*` and `security.*`, so they are copied; others are refused (next tests).
    @Test func trustedAndSecurityAttributesAreCopiedWherePermitted() throws {
        let dir = try AttributeTools.supportedDirectory()
        guard geteuid() == 0 else { try AttributeTools.skip("only root may set trusted.* attributes") }
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        guard AttributeTools.run(["setfattr", "-n", "trusted.todo", "-v", "t", path]).status == 0,
              AttributeTools.run(["setfattr", "-n", "security.todo", "-v", "s", path]).status == 0 else {
            try AttributeTools.skip("the file system or security module refuses trusted.todo or security.todo")
        }
        let dumpBefore = AttributeTools.dump(path)

        _ = try replace(path, with: FileSystem()) { $0 + Array("b\n".utf8) }.get()

        #expect(AttributeTools.value("trusted.todo", of: path) == Array("t".utf8))
        #expect(AttributeTools.value("security.todo", of: path) == Array("s".utf8))
        #expect(AttributeTools.dump(path) == dumpBefore)
    }

    // MARK: - injected faults

    /// Any failure to copy the ACL, reading or setting it, even `EPERM`: throws, names the path and
    /// the attribute in one line, and leaves the original byte for byte, inode, mode and ACL.
    @Test(arguments: [AttributeCall.get, .set], [Errno.ioError, .notPermitted, .unsupported, .noSpace])
    func failedACLCopyThrowsAndLeavesTheOriginalUntouched(call: AttributeCall, errno: Errno) throws {
        let dir = try AttributeTools.supportedDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "b\na\n", mode: 0o640)
        try AttributeTools.must(["setfattr", "-n", "user.todo.origin", "-v", "phone", path])
        try AttributeTools.must(["setfacl", "-m", "u:65534:rw,g::-,m::r", path])
        let before = try #require(Posix.stat(path))
        let dumpBefore = AttributeTools.dump(path)
        var calls = Syscalls.live
        call.inject(into: &calls) { $0 == .posixAccessACL ? errno : nil }

        let error = fileSystemError(replace(path, with: FileSystem(syscalls: calls)) { $0 + Array("c\n".utf8) }.failure)

        guard case .readOnly(let errorPath, let reason) = error else {
            Issue.record("expected readOnly, got \(String(describing: error))")
            return
        }
        #expect(errorPath == path)
        #expect(reason.contains("system.posix_acl_access"))
        #expect(reason.contains(errno.message))
        let message = try #require(error).description
        #expect(message.hasPrefix("cannot write \(path): its extended attribute system.posix_acl_access"))
        #expect(!message.contains("\n"))
        let after = try #require(Posix.stat(path))
        #expect(after.st_ino == before.st_ino)
        #expect(after.st_mode == before.st_mode)
        #expect(Posix.text(path) == "b\na\n")
        #expect(AttributeTools.dump(path) == dumpBefore)
        #expect(dir.entries() == ["todo.txt"], "the temporary file is removed")
    }

    /// A `security.*` or `trusted.*` attribute the kernel will not let this process have is left
    /// behind silently; the replacement goes on, with the rest copied.
    @Test(arguments: [AttributeCall.get, .set], [Errno.notPermitted, .permissionDenied, .unsupported, .notSupported])
    func refusedSecurityAndTrustedAttributesAreSkipped(call: AttributeCall, errno: Errno) throws {
        let dir = try AttributeTools.supportedDirectory()
        guard geteuid() == 0 else { try AttributeTools.skip("only root may set trusted.* attributes") }
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        guard AttributeTools.run(["setfattr", "-n", "trusted.todo", "-v", "t", path]).status == 0,
              AttributeTools.run(["setfattr", "-n", "security.todo", "-v", "s", path]).status == 0 else {
            try AttributeTools.skip("the file system or security module refuses trusted.todo or security.todo")
        }
        try AttributeTools.must(["setfattr", "-n", "user.keep", "-v", "k", path])
        try AttributeTools.must(["setfacl", "-m", "u:65534:r", path])
        let aclBefore = try #require(AttributeTools.value("system.posix_acl_access", of: path))
        var calls = Syscalls.live
        call.inject(into: &calls) { $0.hasPrefix("security.todo") || $0.hasPrefix("trusted.") ? errno : nil }

        let result = try replace(path, with: FileSystem(syscalls: calls)) { $0 + Array("b\n".utf8) }.get()

        #expect(result == .written(attempts: 1, notes: []))
        #expect(Posix.text(path) == "a\nb\n")
        #expect(AttributeTools.value("trusted.todo", of: path) == nil)
        #expect(AttributeTools.value("security.todo", of: path) == nil)
        #expect(AttributeTools.value("user.keep", of: path) == Array("k".utf8))
        #expect(AttributeTools.value("system.posix_acl_access", of: path) == aclBefore)
    }

    /// Any other failure to set a non-ACL attribute (here `ENOSPC` on a `user.*` one) throws rather
    /// than lose it unnoticed, naming the attribute; nothing is renamed.
    @Test func otherFailureToCopyAUserAttributeThrows() throws {
        let dir = try AttributeTools.supportedDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        try AttributeTools.must(["setfattr", "-n", "user.todo.origin", "-v", "phone", path])
        let inode = try #require(Posix.stat(path)).st_ino
        var calls = Syscalls.live
        AttributeCall.set.inject(into: &calls) { $0 == ExtendedAttributeName("user.todo.origin") ? .noSpace : nil }

        let error = fileSystemError(replace(path, with: FileSystem(syscalls: calls)) { $0 + Array("b\n".utf8) }.failure)

        #expect(error?.description == "cannot write \(path): its extended attribute user.todo.origin could not be copied "
                    + "to the new file (No space left on device); nothing was written")
        #expect(try #require(Posix.stat(path)).st_ino == inode)
        #expect(Posix.text(path) == "a\n")
        #expect(dir.entries() == ["todo.txt"])
    }

    /// `ENOTSUP` from `flistxattr`: a file system without extended attributes. Nothing is read or
    /// set, nothing refused.
    @Test(arguments: [Errno.unsupported, .notSupported])
    func fileSystemWithoutAttributesCopiesNothing(errno: Errno) throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n", mode: 0o640)
        let counter = CallCounter()
        var calls = Syscalls.live
        AttributeCall.list.inject(into: &calls) { _ in errno }
        counter.count(&calls)

        let result = try replace(path, with: FileSystem(syscalls: calls)) { $0 + Array("b\n".utf8) }.get()

        #expect(result == .written(attempts: 1, notes: []))
        #expect(Posix.text(path) == "a\nb\n")
        #expect(Posix.mode(path) == 0o640)
        #expect(counter.gets == 0 && counter.sets == 0)
    }

    /// A file without attributes costs one `flistxattr` (asking for the size) and nothing more.
    @Test func aFileWithoutAttributesCostsOneCall() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        let counter = CallCounter()
        var calls = Syscalls.live
        counter.count(&calls)

        _ = try replace(path, with: FileSystem(syscalls: calls)) { $0 + Array("b\n".utf8) }.get()

        // SELinux and Smack label every file; without such a module the list is empty.
        if AttributeTools.dump(path).isEmpty {
            #expect(counter.lists == 1 && counter.gets == 0 && counter.sets == 0)
        }
    }

    /// The list or a value grew between asking its size and reading it (`ERANGE`): asked again.
    @Test(arguments: [AttributeCall.list, .get])
    func aListOrValueThatGrewIsAskedForAgain(call: AttributeCall) throws {
        let dir = try AttributeTools.supportedDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        try AttributeTools.must(["setfattr", "-n", "user.todo.origin", "-v", "phone", path])
        let failedOnce = Locked(false)
        var calls = Syscalls.live
        // Only a read with a buffer fails, once, as if the data grew after its size was asked.
        let failOnceWithABuffer: @Sendable (UnsafeMutableRawBufferPointer) -> Bool = { buffer in
            !buffer.isEmpty && failedOnce.update { failed in
                defer { failed = true }
                return !failed
            }
        }
        if call == .list {
            calls.flistxattr = { fd, buffer in
                failOnceWithABuffer(buffer) ? .failure(.outOfRange) : Syscalls.live.flistxattr(fd, buffer)
            }
        } else {
            calls.fgetxattr = { fd, name, buffer in
                failOnceWithABuffer(buffer) ? .failure(.outOfRange) : Syscalls.live.fgetxattr(fd, name, buffer)
            }
        }

        _ = try replace(path, with: FileSystem(syscalls: calls)) { $0 + Array("b\n".utf8) }.get()

        #expect(failedOnce.value)
        #expect(AttributeTools.value("user.todo.origin", of: path) == Array("phone".utf8))
    }

    /// An attribute removed between the listing and its read (`ENODATA`) is simply not copied.
    @Test func anAttributeRemovedMeanwhileIsNotCopied() throws {
        let dir = try AttributeTools.supportedDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        try AttributeTools.must(["setfattr", "-n", "user.gone", "-v", "x", path])
        try AttributeTools.must(["setfattr", "-n", "user.kept", "-v", "y", path])
        var calls = Syscalls.live
        AttributeCall.get.inject(into: &calls) { $0 == ExtendedAttributeName("user.gone") ? .noSuchAttribute : nil }

        _ = try replace(path, with: FileSystem(syscalls: calls)) { $0 + Array("b\n".utf8) }.get()

        #expect(AttributeTools.value("user.gone", of: path) == nil)
        #expect(AttributeTools.value("user.kept", of: path) == Array("y".utf8))
    }

    /// The ACL is set after `fchown` and `fchmod` (chmod rewrites an ACL's mask) and before the
    /// temporary file's `fsync` (which makes it durable) and the rename.
    @Test func theACLIsSetAfterOwnerAndModeAndBeforeTheSyncAndRename() throws {
        let dir = try AttributeTools.supportedDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n", mode: 0o640)
        try AttributeTools.must(["setfacl", "-m", "u:65534:rw,m::r", path])
        let injector = FaultInjector()
        let seenAtACL = Locked<[SyscallKind]?>(nil)
        var calls = injector.syscalls()
        calls.fsetxattr = { fd, name, value in
            if name == .posixAccessACL { seenAtACL.update { $0 = injector.calls } }
            return Syscalls.live.fsetxattr(fd, name, value)
        }

        _ = try replace(path, with: FileSystem(syscalls: calls)) { $0 + Array("b\n".utf8) }.get()

        let before = try #require(seenAtACL.value)
        #expect(before.contains(.fchown) && before.contains(.fchmod))
        #expect(!before.contains(.fsync) && !before.contains(.renameExchange))
        #expect(injector.calls.contains(.fsync) && injector.calls.contains(.renameExchange))
    }

    // MARK: - helpers

    func replace(
        _ path: String, with fileSystem: FileSystem, _ transform: @escaping ([UInt8]) -> [UInt8]?
    ) -> Result<ReplaceOutcome, ReplaceError<Never>> {
        outcome { () throws(ReplaceError<Never>) in
            try fileSystem.replace(path) { (bytes: [UInt8]) throws(Never) in transform(bytes) }
        }
    }
}

/// One of the three attribute calls of the seam, for injecting a fault into it.
enum AttributeCall: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case list, get, set

    var testDescription: String { rawValue }

    /// Makes the call fail with the errno `fault` returns for an attribute name (`nil`: the live
    /// call). `list` has no name; it fails whenever `fault` gives an errno for an empty name.
    func inject(into calls: inout Syscalls, _ fault: @escaping @Sendable (ExtendedAttributeName) -> Errno?) {
        switch self {
        case .list:
            calls.flistxattr = { fd, buffer in
                fault(ExtendedAttributeName(bytes: [])).map { .failure($0) } ?? Syscalls.live.flistxattr(fd, buffer)
            }
        case .get:
            calls.fgetxattr = { fd, name, buffer in
                fault(name).map { .failure($0) } ?? Syscalls.live.fgetxattr(fd, name, buffer)
            }
        case .set:
            calls.fsetxattr = { fd, name, value in
                fault(name).map { .failure($0) } ?? Syscalls.live.fsetxattr(fd, name, value)
            }
        }
    }
}

/// A value shared by the closures of a `Syscalls` value and the test that reads it afterwards.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    /// The value now.
    var value: Value { mutex.withLock { $0 } }

    /// Changes the value under the lock and returns what `body` returns.
    func update<T: Sendable>(_ body: (inout Value) -> T) -> T { mutex.withLock { body(&$0) } }
}

/// Counts the attribute calls that pass through a `Syscalls` value (`FaultInjector` does not).
final class CallCounter: Sendable {
    private let counts = Mutex((lists: 0, gets: 0, sets: 0))

    var lists: Int { counts.withLock { $0.lists } }
    var gets: Int { counts.withLock { $0.gets } }
    var sets: Int { counts.withLock { $0.sets } }

    /// Wraps the three attribute calls of `calls`, whatever they are, with counting.
    func count(_ calls: inout Syscalls) {
        let (list, get, set) = (calls.flistxattr, calls.fgetxattr, calls.fsetxattr)
        calls.flistxattr = { fd, buffer in
            self.counts.withLock { $0.lists += 1 }
            return list(fd, buffer)
        }
        calls.fgetxattr = { fd, name, buffer in
            self.counts.withLock { $0.gets += 1 }
            return get(fd, name, buffer)
        }
        calls.fsetxattr = { fd, name, value in
            self.counts.withLock { $0.sets += 1 }
            return set(fd, name, value)
        }
    }
}

/// The attr and acl tools, run as processes of their own (`Subprocess.run`).
enum AttributeTools {
    /// Why attribute tests cannot run here, or `nil` when they can: the tools are installed and the
    /// file system of /tmp takes `user.*` attributes and POSIX ACLs. Probed once.
    static let unavailable: String? = {
        let missing = ["setfattr", "getfattr", "setfacl", "getfacl"].filter { !onPath($0) }
        if !missing.isEmpty {
            return "\(missing.joined(separator: ", ")) not installed (Debian packages attr and acl)"
        }
        let dir = TemporaryDirectory()
        let probe = dir.file("probe")
        Posix.write(probe, "")
        if run(["setfattr", "-n", "user.probe", "-v", "1", probe]).status != 0 {
            return "the file system of /tmp has no user.* extended attributes"
        }
        if run(["setfacl", "-m", "u:65534:r", probe]).status != 0 {
            return "the file system of /tmp has no POSIX ACLs"
        }
        return nil
    }()

    /// A fresh directory for a test that needs the tools and attribute support; otherwise the test
    /// is skipped (cancelled) with the reason, which is also printed.
    static func supportedDirectory() throws -> TemporaryDirectory {
        if let reason = unavailable { try skip(reason) }
        return TemporaryDirectory()
    }

    /// Skips the running test with a printed reason.
    static func skip(_ reason: String) throws -> Never {
        print("skipped: \(reason)")
        try Test.cancel(Comment(rawValue: reason))
    }

    /// Runs a tool that must succeed (setting up a test); records an issue and throws otherwise.
    static func must(_ argv: [String]) throws {
        let result = run(argv)
        try #require(result.status == 0, "\(argv.joined(separator: " ")) failed with status \(result.status)")
    }

    /// The raw value of one attribute (`getfattr --only-values`), `nil` if it has none.
    static func value(_ name: String, of path: String) -> [UInt8]? {
        let result = run(["getfattr", "--only-values", "--absolute-names", "-n", name, path])
        return result.status == 0 ? result.output : nil
    }

    /// Every attribute with its value in hex (`getfattr -d -m -`), system.* included.
    static func dump(_ path: String) -> String {
        let result = run(["getfattr", "--dump", "--match=-", "--encoding=hex", "--absolute-names", path])
        return String(decoding: result.output, as: UTF8.self)
    }

    /// A tool's standard output as text, `nil` if it failed.
    static func text(_ argv: [String]) -> String? {
        let result = run(argv)
        return result.status == 0 ? String(decoding: result.output, as: UTF8.self) : nil
    }

    /// Runs `argv` (argv[0] looked up on PATH), standard error discarded; its status and output.
    static func run(_ argv: [String]) -> (status: Int32, output: [UInt8]) {
        let result = Subprocess.run(argv)
        return (result.status, result.stdout)
    }

    /// Whether an executable named `tool` is in a directory of PATH.
    static func onPath(_ tool: String) -> Bool {
        guard let path = getenv("PATH") else { return false }
        return String(cString: path).split(separator: ":").contains { access("\($0)/\(tool)", X_OK) == 0 }
    }
}
