#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TodoTestSupport
import TodoTxt
@testable import TodoFileSystem

/// `FileSystem.transact`, the one file transaction every writer uses: refusals before the edit,
/// nothing written on no change, the edit re-applied on a file changed meanwhile.
@Suite struct TransactionTests {
    struct Refused: Error, Equatable {}

    /// The transaction's result, or its error, without `try` at the call site.
    func transact<Value>(_ path: String, _ options: TransactionOptions = TransactionOptions(), fileSystem: FileSystem = FileSystem(),
                         _ edit: (inout TodoDocument) throws(Refused) -> Value) -> Result<TransactionOutcome<Value>, TransactionError<Refused>> {
        Result { () throws(TransactionError<Refused>) in try fileSystem.transact(path, options: options, edit: edit) }
    }

    @Test func anEditIsWrittenAndItsValueReturned() throws {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("todo.txt"), "a\nb\n")
        let outcome = try transact(dir.file("todo.txt")) { document throws(Refused) in
            document.replaceContent(at: 1, with: Array("c".utf8))
            return document.lineCount
        }.get()
        #expect(outcome.value == 2)
        #expect(outcome.written)
        #expect(Posix.text(dir.file("todo.txt")) == "a\nc\n")
        #expect(dir.entries() == ["todo.txt"])
    }

    @Test func anEditThatChangesNoByteWritesNothing() throws {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("todo.txt"), "a\n")
        let inode = Posix.stat(dir.file("todo.txt"))?.st_ino
        let outcome = try transact(dir.file("todo.txt")) { document throws(Refused) in
            document.replaceContent(at: 0, with: Array("a".utf8))
        }.get()
        #expect(!outcome.written)
        #expect(Posix.stat(dir.file("todo.txt"))?.st_ino == inode)
    }

    @Test func aConflictBlockIsRefusedBeforeTheEditRunsUnlessAllowed() throws {
        let dir = TemporaryDirectory()
        let text = "a\n<<<<<<< ours\nb\n=======\nc\n>>>>>>> theirs\n"
        Posix.write(dir.file("todo.txt"), text)
        var ran = false
        let refused = transact(dir.file("todo.txt")) { _ throws(Refused) in ran = true }
        guard case .failure(.conflictBlock(let path, let line)) = refused else {
            Issue.record("not refused: \(refused)")
            return
        }
        #expect(path == dir.file("todo.txt") && line == 2 && !ran)
        #expect(Posix.text(dir.file("todo.txt")) == text)
        // The todo.sh name knows no conflict blocks.
        let allowed = try transact(dir.file("todo.txt"), TransactionOptions(refusesConflictBlocks: false)) { document throws(Refused) in
            _ = document.appendLine(Array("d".utf8))
        }.get()
        #expect(allowed.written)
        #expect(Posix.text(dir.file("todo.txt")) == text + "d\n")
    }

    @Test func aNULByteIsRefusedEvenWhenNothingChanges() {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("todo.txt"), [0x61, 0x0A, 0x00, 0x0A])
        let refused = transact(dir.file("todo.txt")) { _ throws(Refused) in }
        guard case .failure(.fileSystem(.holdsNUL(_, let line))) = refused else {
            Issue.record("not refused: \(refused)")
            return
        }
        #expect(line == 2)
    }

    @Test func theEditsErrorWritesNothing() {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("todo.txt"), "a\n")
        let result = transact(dir.file("todo.txt")) { document throws(Refused) in
            _ = document.appendLine(Array("b".utf8))
            throw Refused()
        }
        guard case .failure(.edit(Refused())) = result else {
            Issue.record("\(result)")
            return
        }
        #expect(Posix.text(dir.file("todo.txt")) == "a\n")
    }

    @Test func aMissingFileIsCreatedOnlyWhenAskedAndOnlyWithContent() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        let missing = transact(path) { _ throws(Refused) in }
        guard case .failure(.fileSystem(.notFound)) = missing else {
            Issue.record("a missing file was not refused")
            return
        }
        let options = TransactionOptions(createIfMissing: true)
        #expect(try transact(path, options) { _ throws(Refused) in }.get().written == false)
        #expect(dir.entries() == [])
        #expect(try transact(path, options) { document throws(Refused) in _ = document.appendLine(Array("a".utf8)) }.get().written)
        #expect(Posix.text(path) == "a\n")
    }

    @Test func theLockIsTakenUnlessTheCallerHoldsIt() throws {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("todo.txt"), "a\n")
        let lock = try FileLock(for: dir.file("todo.txt"), timeout: .zero)
        let blocked = transact(dir.file("todo.txt"), TransactionOptions(lockTimeout: .zero)) { _ throws(Refused) in }
        guard case .failure(.fileSystem(.locked)) = blocked else {
            Issue.record("not refused while locked: \(blocked)")
            return
        }
        let held = try transact(dir.file("todo.txt"), TransactionOptions(lockHeldByCaller: true)) { document throws(Refused) in
            _ = document.appendLine(Array("b".utf8))
        }.get()
        lock.release()
        #expect(held.written)
        #expect(Posix.text(dir.file("todo.txt")) == "a\nb\n")
    }

    @Test func anEditorsSaveMeanwhileReappliesTheEditOnTheNewFile() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        // An editor saves (rename over) right as the first attempt creates its temporary file.
        let injector = FaultInjector([Fault(.createExclusive, occurrence: 1, .before { Posix.saveLikeEditor(path, "x\ny\n") })])
        let outcome = try transact(path, fileSystem: FileSystem(syscalls: injector.syscalls())) { document throws(Refused) in
            _ = document.appendLine(Array("b".utf8))
            return document.lineCount
        }.get()
        #expect(outcome.value == 3, "the value comes from the last run of the edit")
        #expect(Posix.text(path) == "x\ny\nb\n")
    }
}
