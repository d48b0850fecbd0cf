import TodoTxt

/// `todo start NR|UID` and `todo stop` (docs/todo-command.md, "Time tracking"): the library's
/// tracking edits (`TodoItem.startingTracking(at:)`, `stoppingTracking(at:)`) on the todo file, in
/// one transaction, at the command's clock. One task is tracked at a time: `start` stops every
/// other tracked task in the same write.
enum TimeTrackingActions {
    static let startSpec = ActionSpec(
        name: "start", arguments: "NR|UID", placement: .leading, argumentCount: 1...1,
        summary: "Start tracking time on a task (stopping the one tracked before).",
        completes: .task, availability: .todoOnly,
        notes: ActionTable.singleAddressDetails + [
            "Writes tracking: with the start time (UTC); another tracked task is stopped first."],
        parsed: { invocation, parsed, _ throws(CLIError) in try start(parsed.positionals[0], &invocation) })

    static let stopSpec = ActionSpec(
        name: "stop", arguments: "", placement: .leading, argumentCount: 0...0,
        summary: "Stop tracking time: the minutes since start are added to spent:.",
        completes: .nothing, availability: .todoOnly,
        notes: ["Adds the whole minutes since tracking: to spent: (1h20m) and removes tracking:."],
        parsed: { invocation, _, _ throws(CLIError) in try stop(&invocation) })

    /// `item` (line `number` of `path`) with its tracking stopped at `seconds`; nil when it is not
    /// tracked. An unreadable `spent:` or `tracking:` is a failure naming the file, line and value.
    static func stopped(_ item: TodoItem, number: Int, path: String, at seconds: Int) throws(CLIError) -> [UInt8]? {
        do throws(TrackingError) {
            return try item.stoppingTracking(at: seconds)
        } catch {
            switch error {
            case .invalidSpent(let raw):
                throw .failure("\(path): line \(number): spent:\(raw) is not a duration (1h20m, 2h, 45m); nothing written")
            case .invalidTracking(let raw):
                throw .failure("\(path): line \(number): tracking:\(raw) is not a start time (2026-12-02T14:05:09Z); nothing written")
            }
        }
    }

    /// One task's tracking ended: its line number, the new line, the minutes added.
    struct Stopped {
        let number: Int
        let line: [UInt8]
        let minutes: Int
    }

    /// Stops every tracked task of `document` except the line `keeping`, at `seconds`.
    static func stopAll(in document: inout TodoDocument, except keeping: Int?, path: String,
                        at seconds: Int) throws(CLIError) -> [Stopped] {
        var stops: [Stopped] = []
        for index in 0..<document.lineCount where index != keeping {
            let item = document.item(at: index)
            guard item.isTracking else { continue }
            let before = item.spentTime.value?.minutes ?? 0
            guard let line = try stopped(item, number: index + 1, path: path, at: seconds) else { continue }
            let after = TodoItem(line).spentTime.value?.minutes ?? before
            document.replaceContent(at: index, with: line)
            stops.append(Stopped(number: index + 1, line: line, minutes: after - before))
        }
        return stops
    }

    /// `todo start NR|UID`.
    static func start(_ address: String, _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        let file = TodoFileEdit(invocation)
        let now = invocation.clock.secondsSinceEpoch
        var pinned: [TaskTarget]?
        let result = try file.transact({ (document: inout TodoDocument, notices: inout [String]) throws(CLIError) -> (stops: [Stopped], number: Int, line: [UInt8]?) in
            let (target, index) = try file.targets([address], pinned: &pinned, in: document, invocation, notices: &notices)[0]
            let item = document.item(at: index)
            if item.isCompleted { throw .failure("\(file.path): task \(target.address) is done; reopen it to track time") }
            if case .invalid(let raw) = item.trackingStart {
                throw .failure("\(file.path): line \(index + 1): tracking:\(raw) is not a start time (2026-12-02T14:05:09Z); nothing written")
            }
            let stops = try stopAll(in: &document, except: index, path: file.path, at: now)
            // Already tracked: its start stays (restarting would lose the minutes so far).
            if item.isTracking { return (stops, index + 1, nil) }
            let line = item.startingTracking(at: now)
            document.replaceContent(at: index, with: line)
            return (stops, index + 1, line)
        }, invocation)
        for stop in result.stops {
            invocation.echoTask(stop.number, stop.line)
            invocation.report("\(invocation.reportPrefix): \(stop.number) stopped (+\(SpentTime(minutes: stop.minutes))); switching to \(result.number).")
        }
        guard let line = result.line else {
            invocation.report("\(invocation.reportPrefix): \(result.number) is already being tracked.")
            return 0
        }
        invocation.echoTask(result.number, line)
        invocation.report("\(invocation.reportPrefix): \(result.number) tracking started.")
        return 0
    }

    /// `todo stop`: stops the tracked task (every one, should a file edited elsewhere hold several).
    static func stop(_ invocation: inout Invocation) throws(CLIError) -> Int32 {
        let file = TodoFileEdit(invocation)
        let now = invocation.clock.secondsSinceEpoch
        let stops = try file.transact({ (document: inout TodoDocument, _: inout [String]) throws(CLIError) -> [Stopped] in
            let stops = try stopAll(in: &document, except: nil, path: file.path, at: now)
            if stops.isEmpty { throw .failure("\(file.path): no task is being tracked") }
            return stops
        }, invocation)
        for stop in stops {
            invocation.echoTask(stop.number, stop.line)
            invocation.report("\(invocation.reportPrefix): \(stop.number) stopped (+\(SpentTime(minutes: stop.minutes))).")
        }
        return 0
    }
}
