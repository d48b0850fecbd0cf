import TodoFileSystem
import TodoTxt

/// What the watcher hands over to the screen's thread.
final class UIInbox: Sendable {
    let document = LockedValue<TodoDocument?>(nil)
    let problem = LockedValue<String?>(nil)

    /// The newest document handed over since the last call, if any.
    func takeDocument() -> TodoDocument? { document.withLock { value in defer { value = nil }; return value } }
    /// The newest problem reported since the last call, if any.
    func takeProblem() -> String? { problem.withLock { value in defer { value = nil }; return value } }
}
