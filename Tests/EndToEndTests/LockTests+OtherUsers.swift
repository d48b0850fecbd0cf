import Foundation
import TodoTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Issue 24 item 9: another user who can only read the todo file and its directory cannot stop its
/// writers. The holder runs as `nobody` (`setpriv`, util-linux), so the tests need root; elsewhere
/// they are skipped.
extension LockTests {
    /// A directory and todo file that `nobody` can read but not write (root's, 755 and 644).
    private func sharedFile(_ label: String, mode: mode_t = 0o644) -> (directory: String, path: String) {
        let directory = Spawn.makeTemporaryDirectory(label)
        chmod(directory, 0o755)
        let path = directory + "/todo.txt"
        Files.write(path, "x done\nopen\n")
        chmod(path, mode)
        return (directory, path)
    }

    /// Starts `command` as `nobody` and waits until it prints `ready` (its lock is held then); it
    /// holds the lock until its standard input is closed (`stop`). Skips the test where that cannot
    /// be done.
    private func asNobody(_ command: [String]) throws -> (Process, Pipe) {
        guard getuid() == 0 else { throw XCTSkip("needs root to run a process as another user") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { throw XCTSkip("no setpriv (util-linux)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=nobody", "--regid=nogroup", "--clear-groups"] + command
        let output = Pipe(), input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        let ready = output.fileHandleForReading.availableData
        XCTAssertEqual(String(decoding: ready, as: UTF8.self), "ready\n", "the holder did not start")
        return (process, input)
    }

    /// Perl, the one scripting language at /usr/bin on every test machine, takes a classic `fcntl`
    /// lock of `type` (`F_RDLCK` on a file opened for reading, `F_WRLCK` for appending) and holds it.
    private static func perlLock(_ type: String, _ path: String) -> [String] {
        let mode = type == "F_RDLCK" ? "<" : ">>"
        return ["/usr/bin/perl", "-e", """
            use Fcntl; use IO::Handle;
            open(my $f, "\(mode)", $ARGV[0]) or die "open: $!";
            my $request = pack("s s x4 q q i x4", \(type), 0, 0, 0, 0);
            fcntl($f, F_SETLK, $request) or die "lock: $!";
            print "ready\\n"; STDOUT->flush; my $end = <STDIN>;
            """, path]
    }

    private func stop(_ holder: (Process, Pipe)) {
        try? holder.1.fileHandleForWriting.close()
        holder.0.waitUntilExit()
    }

    /// `flock` on the directory (the lock of earlier versions) and on the file, both held by a user
    /// who can only read them: `add` and `sort` go through at once.
    func testAReadersFlocksDoNotBlockWriters() throws {
        let (directory, path) = sharedFile("lock-reader-flock")
        let holder = try asNobody(["/usr/bin/flock", directory, "/usr/bin/flock", "-s", path, "/bin/sh", "-c", "echo ready; read end"])
        defer { stop(holder) }
        let started = Date()
        let added = Spawn.todo(["-f", path, "add", "new task"], environment: ["TODO_LOCK_TIMEOUT": "3"])
        let sorted = Spawn.todo(["sort", path], environment: ["TODO_LOCK_TIMEOUT": "3"])
        let took = Date().timeIntervalSince(started)
        XCTAssertEqual(added.status, 0, added.err)
        XCTAssertEqual(sorted.status, 0, sorted.err)
        XCTAssertLessThan(took, 3, "a reader's flock made the writers wait")
        XCTAssertEqual(Files.text(path).split(separator: "\n").last, "x done")
        XCTAssertTrue(Files.text(path).contains("new task"))
    }

    /// A read lock (`fcntl`) conflicts with every write lock, so it does hold writers up; the message
    /// says it is a read lock that any reader can take, not another todo process.
    func testAReadersReadLockIsNamedTruthfully() throws {
        let (_, path) = sharedFile("lock-reader-fcntl")
        let holder = try asNobody(Self.perlLock("F_RDLCK", path))
        defer { stop(holder) }
        for command in [["-f", path, "add", "new task"], ["sort", path]] {
            let result = Spawn.todo(command, environment: ["TODO_LOCK_TIMEOUT": "0.3"])
            XCTAssertEqual(result.status, 1, "\(command): \(result.err)")
            XCTAssertTrue(result.err.contains("\(path) is read-locked by another process (an fcntl read lock, which any process that can read the file can take)"),
                          "\(command): \(result.err)")
            XCTAssertEqual(result.err.filter { $0 == "\n" }.count, 1, result.err)
        }
        XCTAssertEqual(Files.text(path), "x done\nopen\n")
    }

    /// Another user who can write the file holds its writers' lock: `add` and `sort` wait the
    /// timeout and say a writer holds it.
    func testAnotherWriterStillBlocksWithATruthfulMessage() throws {
        let (_, path) = sharedFile("lock-other-writer", mode: 0o666)
        let holder = try asNobody(Self.perlLock("F_WRLCK", path))
        defer { stop(holder) }
        for command in [["-f", path, "add", "new task"], ["sort", path]] {
            let started = Date()
            let result = Spawn.todo(command, environment: ["TODO_LOCK_TIMEOUT": "0.3"])
            XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.3)
            XCTAssertEqual(result.status, 1, "\(command): \(result.err)")
            XCTAssertTrue(result.err.contains("\(path) is locked by another process that can write it (waited"), "\(command): \(result.err)")
        }
        XCTAssertEqual(Files.text(path), "x done\nopen\n")
    }
}
