import TodoTxt

extension ExportAction {
    /// `todo export --format ics [--output FILE] [TERM...]`: the todo file's tasks chosen by the TERMs
    /// (read as `ls` reads them, typed terms included) as an iCalendar feed made by the library's
    /// `ICalendarFeed`, DTSTAMP from the command's clock. To stdout, or with `--output` into FILE by the
    /// file layer's safe replacement (docs/files.md section 1), so a calendar that subscribes to the
    /// file never reads half a feed (docs/todo-command.md, "Calendar feed").
    static func calendar(_ terms: [String], output: String?, _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        let context = TodoShContext(settings: TodoNameActions.settings(for: invocation), invocation: invocation)
        let path = context.settings.todoFile
        var lines = TodoShListing.Lines(try TodoShListing.read(path, context))
        lines.droppingTerminatorsAndMark()
        TodoShListing.warnOfConflictMarkers(lines.bytes, path: path, context)
        let filters = try TermFilter(checking: terms, context)
        let width = TodoShListing.digits(lines.count)
        let bytes = lines.bytes
        let contents = lines.ranges.map { bytes[$0.start..<($0.start + $0.length)] }
        var scratch: [UInt8] = []
        let calendar = ICalendarFeed(stamp: context.clock.secondsSinceEpoch).calendar(contents) { index in
            guard !filters.isEmpty else { return true }
            let range = lines.ranges[index]
            let entry = TodoShListing.Entry(number: index + 1, filterNumber: index + 1, start: range.start, length: range.length)
            return filters.accepts(entry, bytes, width: width, scratch: &scratch)
        }
        guard let output else {
            context.sayBytes(calendar)
            return 0
        }
        try refuseOverwritingTasks(output, context)
        try invocation.files.update(output, createIfMissing: true, lockTimeout: invocation.lockTimeout,
                                    warn: invocation.warn) { _ throws(CLIError) in calendar }
        return 0
    }

    /// `--output` naming the todo file or the done file (by any path: the same device and inode) is a
    /// usage error before anything is written: the feed would replace the tasks it was made from.
    static func refuseOverwritingTasks(_ output: String, _ context: TodoShContext) throws(CLIError) {
        let fileSystem = context.invocation.files.fileSystem
        guard let target = fileSystem.status(of: output)?.identity else { return }
        for path in [context.settings.todoFile, context.settings.doneFile] where !path.isEmpty {
            if let tasks = fileSystem.status(of: path)?.identity,
               tasks.device == target.device, tasks.inode == target.inode {
                throw .usage("--output \(output) is \(path): the calendar would replace the tasks")
            }
        }
    }
}
