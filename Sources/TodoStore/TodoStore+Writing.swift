import Foundation
import TodoFileSystem

/// How every write of a store runs (docs/store.md, "Writes"): planned on the main actor, made by
/// one transaction of the file layer on the store's write queue, installed back on the main actor.
extension TodoStore {
    /// What one write did, as its plan reports it from inside the transaction.
    struct WriteOutcome: Sendable {
        /// The lines it changed, for `undo()`.
        var record = ChangeRecord()
        /// The ids of the lines it edited or added, by their index in the written document.
        var pins: [Int: String] = [:]
        /// The ids of the lines it changed or removed, by their bytes before.
        var before: [[UInt8]: String] = [:]
        /// The line of the task the caller asked for (`add`'s new one).
        var focus: Int?
    }

    /// A write's plan: it gets the file as it is now (and the done file, when the write may need a
    /// fresh uid) and changes it. It may run more than once (the transaction's compare-and-swap);
    /// it depends only on what it is given.
    typealias Plan = @Sendable (_ document: inout TodoDocument, _ done: TodoDocument) throws(LiveEditError) -> WriteOutcome

    /// Whether a write may be given up: set when its task is cancelled, read while it waits for
    /// the lock. Once the lock is held the write goes through whole.
    final class Cancellation: Sendable {
        let isCancelled = LockedValue(false)
    }

    /// Runs `plan` as one transaction off the main actor and installs what it wrote. `undoable`:
    /// the change goes on the undo stack (not for `undo()` itself).
    @discardableResult
    func perform(needsDoneFile: Bool, undoable: Bool = true, retired: [[UInt8]: String] = [:],
                 _ plan: @escaping Plan) async throws(TodoStoreError) -> (outcome: WriteOutcome, document: TodoDocument) {
        let givesUIDs = options.givesEveryTaskAUID && !hasWritten
        let whole: Plan
        if givesUIDs {
            whole = { (document: inout TodoDocument, done: TodoDocument) throws(LiveEditError) -> WriteOutcome in
                var outcome = try plan(&document, done)
                Self.giveUIDs(&document, done: done, &outcome)
                return outcome
            }
        } else {
            whole = plan
        }
        let base = state, filter = filter, showsHidden = showsHidden, timeZone = options.timeZone
        let file = file, path = path, lockTimeout = options.lockTimeout
        let donePath = options.doneFilePath ?? Self.directory(of: path) + "/done.txt"
        let cancellation = Cancellation()
        let result = await withTaskCancellationHandler {
            await Self.offMain(writeQueue) { () -> Result<(WriteOutcome, Prepared), TodoStoreError> in
                let done = needsDoneFile ? Self.readDoneFile(donePath) : TodoDocument()
                let written = Self.transact(file, path: path, lockTimeout: lockTimeout, cancellation: cancellation) {
                    (document: inout TodoDocument) throws(LiveEditError) in try whole(&document, done)
                }
                return written.map { document, outcome in
                    (outcome, Self.prepare(base, document, pins: outcome.pins, retired: retired, filter: filter,
                                           showsHidden: showsHidden, timeZone: timeZone))
                }
            }
        } onCancel: {
            cancellation.isCancelled.withLock { $0 = true }
        }
        switch result {
        case .failure(let error):
            lastError = error
            throw error
        case .success(let (outcome, prepared)):
            hasWritten = true
            lastError = nil
            install(prepared, preparedFrom: base, filter: filter, showsHidden: showsHidden, pins: outcome.pins, retired: retired)
            if undoable, !outcome.record.isEmpty { undoStack.append(UndoEntry(record: outcome.record, ids: outcome.before)) }
            return (outcome, prepared.state.document)
        }
    }

    /// The writers' lock, waited for in short slices so that a cancelled write gives up between
    /// them (nothing written), then the transaction with the lock held.
    nonisolated static func transact(_ file: LiveTodoFile, path: String, lockTimeout: Duration, cancellation: Cancellation,
                                     _ change: (inout TodoDocument) throws(LiveEditError) -> WriteOutcome)
        -> Result<(TodoDocument, WriteOutcome), TodoStoreError> {
        let clock = ContinuousClock()
        let deadline = clock.now + lockTimeout
        while true {
            if cancellation.isCancelled.withLock({ $0 }) { return .failure(.cancelled) }
            let slice = min(max(deadline - clock.now, .zero), .milliseconds(50))
            do {
                let lock = try FileLock(for: path, timeout: slice)
                if cancellation.isCancelled.withLock({ $0 }) {
                    lock.release()
                    return .failure(.cancelled)
                }
                let result: Result<(TodoDocument, WriteOutcome), TodoStoreError>
                do {
                    let written = try file.transact(lockHeldByCaller: true, change)
                    result = .success((written.document, written.value))
                } catch {
                    result = .failure(TodoStoreError(error, path: path))
                }
                lock.release()
                return result
            } catch {
                if case .locked = error, clock.now < deadline { continue }
                if case .locked(_, _, _) = error { return .failure(.lockTimeout(path: path, waited: lockTimeout)) }
                return .failure(TodoStoreError(error, path: path))
            }
        }
    }

    /// The done file, or an empty one when it cannot be read (it only keeps fresh uids from
    /// repeating one of its tasks').
    nonisolated static func readDoneFile(_ path: String) -> TodoDocument {
        (try? FileSystem().read(path).bytes).map { TodoDocument(bytes: $0) } ?? TodoDocument()
    }

    nonisolated static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `givesEveryTaskAUID`: every task without a uid gets a fresh one, in the same write.
    nonisolated static func giveUIDs(_ document: inout TodoDocument, done: TodoDocument, _ outcome: inout WriteOutcome) {
        var random = SystemRandomNumberGenerator()
        for index in 0..<document.lineCount {
            let item = document.item(at: index)
            guard item.isTask, item.uid == nil else { continue }
            let uid = UID.generate(using: &random, unusedIn: document, and: done)
            outcome.record.replace(at: index, with: item.settingTag("uid", to: uid), in: &document)
            if outcome.pins[index] != nil { outcome.pins[index] = "uid:" + uid }
        }
    }

    /// Where the task is now, as the store knows it: its line in the newest state (found by id),
    /// else the line and bytes the caller's value holds.
    func identity(of task: TodoTask) -> TaskIdentity {
        let ids = state.ids.ids
        let guess = task.line - 1
        if ids.indices.contains(guess), ids[guess] == task.id { return TaskIdentity(index: guess, in: state.document) }
        if let index = ids.firstIndex(of: task.id) { return TaskIdentity(index: index, in: state.document) }
        return TaskIdentity(index: guess, content: Array(task.bytes), uid: task.uid)
    }

    /// A fresh `local N` for a line this store is about to add.
    func makeLocalID() -> String {
        state.generation += 1
        return state.ids.makeLocal()
    }
}

extension TodoDocument {
    /// The line of `task` in this version of the file, or `taskGone`.
    func locate(_ task: TaskIdentity, path: String) throws(LiveEditError) -> Int {
        guard let index = task.locate(in: self) else { throw .taskGone(path: path, task: task) }
        return index
    }
}
