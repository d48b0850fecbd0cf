import Testing
@testable import TodoFileSystem

@Suite struct ErrorTests {
    @Test func errnoHasNameAndMessage() {
        #expect(Errno.noSpace.name == "ENOSPC")
        #expect(Errno.noSpace.message == "No space left on device")
        #expect(Errno.ioError.name == "EIO")
        #expect(Errno.interrupted.name == "EINTR")
        #expect(Errno(rawValue: 9999).name == "errno 9999")
        #expect(Errno(rawValue: 9999).message.contains("9999"))
        #expect("\(Errno.permissionDenied)" == "Permission denied")
    }

    @Test func descriptionsAreOneLineNamingOperationPathAndReason() {
        let cases: [(FileSystemError, String)] = [
            (.failed(.write, path: "/x/todo.txt", .noSpace), "cannot write /x/todo.txt: No space left on device"),
            (.renameFailed(from: "/x/.todo.txt.k3f9qz.tmp", to: "/x/todo.txt", .ioError),
             "rename .todo.txt.k3f9qz.tmp → /x/todo.txt: Input/output error"),
            (.isDirectory(path: "/x/todo.txt"), "/x/todo.txt: is a directory"),
            (.notFound(path: "/x/todo.txt"), "/x/todo.txt: no such file"),
            (.notRegularFile(path: "/x/todo.txt"), "/x/todo.txt: not a regular file"),
            (.locked(path: "todo.txt", waited: .seconds(5), holder: .writer), "todo.txt is locked by another process that can write it (waited 5 s)"),
            (.locked(path: "todo.txt", waited: .milliseconds(1520), holder: .writer), "todo.txt is locked by another process that can write it (waited 1.5 s)"),
            (.locked(path: "todo.txt", waited: .milliseconds(200), holder: .sidecar(".todo.txt.lock")), "todo.txt is locked by another process holding .todo.txt.lock (waited 200 ms)"),
            (.locked(path: "todo.txt", waited: .seconds(5), holder: .reader), "todo.txt is read-locked by another process (an fcntl read lock, which any process that can read the file can take); not writing it while that lock is held (waited 5 s)"),
            (.locked(path: "/d/todo.txt", waited: .seconds(5), holder: .directory("/d")), "/d/todo.txt is locked: another process holds the lock on its directory /d, which writers take while the file does not exist or cannot be opened for writing, and which any process that can read the directory can take (waited 5 s)"),
            (.failed(.createTemporaryFile, path: "/x/todo.txt", .quotaExceeded), "cannot create a temporary file beside /x/todo.txt: Disk quota exceeded"),
        ]
        for (error, expected) in cases {
            #expect(error.description == expected)
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func replaceErrorForwardsTheDescription() {
        let error: ReplaceError<Never> = .fileSystem(.notFound(path: "/x/todo.txt"))
        #expect(error.description == "/x/todo.txt: no such file")
    }
}
