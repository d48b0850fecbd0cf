import TodoFileSystem
import TodoTxt

/// `todo ui`'s time tracking (docs/todo-command.md, "`todo ui`"): `t` starts tracking the selected
/// task, stopping any other, or stops it when it is the one tracked; `x` of a tracked task stops it
/// first. The same library edits as `todo start`/`stop`, at the clock of the key press.
extension UISession {
    /// Now, as `todo start` would read it (`TODO_TEST_TIME` in tests), at each call: a session
    /// lasts long.
    var nowSeconds: Int { Clock(environment: invocation.environment).secondsSinceEpoch }

    /// `item` with its tracking stopped at `now`, or `item` itself when it is not tracked; an
    /// unreadable `spent:` or `tracking:` refuses the change (line `number`), nothing written.
    func stoppingTracking(_ item: TodoItem, number: Int, at now: Int) throws(LiveEditError) -> TodoItem {
        do throws(TrackingError) {
            guard let line = try item.stoppingTracking(at: now) else { return item }
            return TodoItem(line)
        } catch {
            switch error {
            case .invalidSpent(let raw): throw .refused("line \(number): spent:\(raw) is not a duration; nothing written")
            case .invalidTracking(let raw): throw .refused("line \(number): tracking:\(raw) is not a start time; nothing written")
            }
        }
    }

    /// `t`: starts or stops tracking `task`.
    func toggleTracking(_ task: TaskIdentity) {
        let now = nowSeconds
        var what = ""
        change(what) { (document: inout TodoDocument, record: inout ChangeRecord) throws(LiveEditError) in
            let index = try file.locate(task, in: document)
            let item = document.item(at: index)
            if item.isTracking {
                what = "tracking stopped"
                let stopped = try stoppingTracking(item, number: index + 1, at: now)
                record.replace(at: index, with: Array(stopped.content), in: &document)
                return TaskIdentity(index: index, in: document)
            }
            guard !item.isCompleted else { throw .refused("task \(index + 1) is done; reopen it to track time") }
            what = "tracking started"
            for other in 0..<document.lineCount where other != index && document.item(at: other).isTracking {
                let stopped = try stoppingTracking(document.item(at: other), number: other + 1, at: now)
                record.replace(at: other, with: Array(stopped.content), in: &document)
                what = "tracking switched from task \(other + 1)"
            }
            record.replace(at: index, with: item.startingTracking(at: now), in: &document)
            return TaskIdentity(index: index, in: document)
        }
    }
}
