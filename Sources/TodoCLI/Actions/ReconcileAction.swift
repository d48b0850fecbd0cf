import TodoFileSystem
import TodoTxt

/// `todo reconcile [--keep] [FILE]`: merges sync-conflict copies of the todo file and of its done
/// file (the names `ConflictCopyScheme` lists) into them (docs/sync.md section 2).
///
/// Each copy is merged with the two-way rules, the result written safely (compare-and-swap, so an
/// edit made meanwhile is kept and the merge re-applied on top), and only then is the copy removed,
/// or with `--keep` renamed to `NAME.reconciled` so that no name matches a conflict pattern again;
/// and only once it holds exactly the bytes merged (`retire`: what was written to it after it was
/// read is merged too).
/// A missing todo or done file is created from its copies (the first copy becomes the file).
///
/// One bad copy never stops the others: a name that is not a regular file (a directory, a symlink)
/// is not a copy and is passed over silently; a copy that holds a NUL byte (binary, like the merge
/// driver refuses) or cannot be read is left where it is, named in one line on stderr, and the run
/// exits 1 after merging everything else. A failure to write the todo or done file itself stops the
/// run at once: every later copy would fail the same way.
enum ReconcileAction {
    static let spec = ActionSpec(
        name: "reconcile",
        options: [.flag("--keep", meaning: "keep each merged copy, renamed to NAME.reconciled, instead of removing it.")],
        arguments: "[FILE]",
        summary: "Merge sync-conflict copies (Dropbox, Syncthing, Nextcloud, Seafile, ...) back into the file.",
        completes: .files,
        group: .sync, notes: ["Says nothing when there are no copies, so it can run from cron."],
        parsed: { invocation, parsed, _ throws(CLIError) in
            let todoPath = invocation.todoFilePath(explicit: parsed.positionals.first)
            let outcome = try reconcile(todoPath: todoPath, keep: parsed.flags.contains("--keep"), invocation: invocation)
            // Nothing to do says nothing (cron mails any output); -v says it.
            if outcome.merged == 0 && outcome.leftInPlace == 0 && invocation.verboseCount > 0 {
                invocation.log("\(todoPath): no conflict copies found")
            }
            return outcome.leftInPlace == 0 ? 0 : 1
        })

    /// What one run did.
    struct Outcome: Sendable, Equatable {
        /// Copies merged (and removed, or kept aside with `--keep`).
        var merged = 0
        /// Copies that could not be merged and were left as they were; each was named on stderr.
        var leftInPlace = 0
    }

    /// Reconciles every copy. Used by `todo watch --reconcile` too, which reports the copies left in
    /// place through the same stderr lines and keeps watching.
    static func reconcile(todoPath: String, keep: Bool, invocation: Invocation) throws(CLIError) -> Outcome {
        let fileSystem = invocation.files.fileSystem
        let realTodo: String
        do { realTodo = try fileSystem.realPath(todoPath) } catch { throw .failure(error.description) }
        let realDone: String
        do { realDone = try fileSystem.realPath(invocation.doneFilePath(forTodoFile: todoPath)) } catch { throw .failure(error.description) }
        var outcome = Outcome()
        // The done file first, so that tasks archived on the other machine are known when the todo
        // file's copies are merged and are not resurrected. A target that does not exist is still
        // looked at: its copies then become the file.
        for target in [realDone, realTodo] {
            let directory = FileAccess.directoryName(of: target)
            let name = String(target.split(separator: "/").last ?? "")
            let listing = fileSystem.directoryEntries(directory) ?? []
            for copy in ConflictCopies.copies(of: name, in: listing) {
                let copyPath = directory + "/" + copy.name
                // Sync clients write copies as plain files; anything else only shares the name.
                guard fileSystem.kind(of: copyPath, followingLinks: false) == .regular else { continue }
                guard let copyBytes = readCopy(copyPath, outcome: &outcome, invocation: invocation) else { continue }
                // The copy is indexed on a second core while the done file and the file are read
                // (docs/notes/speed-commands.md); joined by the merge, or here on the way out.
                let preparing = BackgroundJob.start { _ in TodoMerge.prepareCopy(copyBytes) }
                defer { preparing?.wait() }
                let doneUIDs: Set<String>
                if target == realDone {
                    doneUIDs = []
                } else {
                    let done = try invocation.files.readIfExists(realDone) ?? []
                    doneUIDs = UIDIndex(TodoDocument(bytes: done)).allUIDs
                }
                let existed = fileSystem.exists(target)
                var reports = try mergeCopy(copyBytes, preparedBy: preparing, into: target, doneUIDs: doneUIDs, invocation: invocation)
                // The reports are worded on a second core while the copy is retired (which mostly
                // waits: for writers, and for its second look); a merge of what was appended to
                // the copy meanwhile adds its own after them.
                let merged = reports.count
                let terminal = invocation.io.outputIsTerminal
                let wording = BackgroundJob.start { [reports] _ in reportLines(reports, escaping: terminal) }
                defer { wording?.wait() }
                switch try retire(copyPath, merged: copyBytes, into: target, doneUIDs: doneUIDs, keep: keep,
                                  reports: &reports, invocation: invocation) {
                case .retired: break
                case .leftInPlace(let reason):
                    outcome.leftInPlace += 1
                    invocation.warn("merged \(copy.name) into \(name), but \(reason)")
                    say(wording?.takeValue() ?? reportLines(Array(reports[..<merged]), escaping: terminal),
                        then: Array(reports[merged...]), invocation)
                    continue
                }
                outcome.merged += 1
                let shownCopy = invocation.shown(copy.name), shownName = invocation.shown(name)
                let created = !existed && fileSystem.exists(target) ? " (\(shownName) did not exist: created from the copy)" : ""
                invocation.say("merged \(shownCopy) into \(shownName)\(created)\(keep ? " (kept as \(shownCopy).reconciled)" : "")")
                say(wording?.takeValue() ?? reportLines(Array(reports[..<merged]), escaping: terminal),
                    then: Array(reports[merged...]), invocation)
            }
        }
        return outcome
    }

    /// Merges `bytes` (a copy, or what was appended to one) into `target` with the two-way rules,
    /// written safely (compare-and-swap under the lock); returns what the merge reports.
    /// The merge's reports, one indented line each (control characters escaped for a terminal, as
    /// `Invocation.shown` does), to be written at once: a large reconcile reports tens of thousands
    /// of lines, and a write per line would cost more than the merge's slowest step.
    static func reportLines(_ reports: [MergeReport], escaping: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        for report in reports {
            let text = Array(report.description.utf8)
            bytes += [0x20, 0x20]
            bytes += escaping ? TerminalText.escapingControls(text) : text
            bytes.append(0x0A)
        }
        return bytes
    }

    /// Writes `lines` (`reportLines`), then the lines of `later`.
    static func say(_ lines: [UInt8], then later: [MergeReport], _ invocation: Invocation) {
        let all = later.isEmpty ? lines : lines + reportLines(later, escaping: invocation.io.outputIsTerminal)
        if !all.isEmpty { invocation.io.writeOutput(all) }
    }

    static func mergeCopy(_ copy: [UInt8], preparedBy job: BackgroundJob<PreparedConflictCopy>? = nil, into target: String,
                          doneUIDs: Set<String>, invocation: Invocation) throws(CLIError) -> [MergeReport] {
        var preparing = job
        var reports: [MergeReport] = []
        // The result goes to the file as runs of the file and the copy (`MergeOutput`), never
        // built whole (docs/notes/speed-commands.md).
        try invocation.files.transactBytes(target, createIfMissing: true, refusesConflictBlocks: false,
                                           lockTimeout: invocation.lockTimeout,
                                           warn: invocation.warn) { (current: [UInt8]) throws(CLIError) -> ReplacementContent? in
            let merged: MergeOutput
            if let unmerged = TodoMerge.unmergedTwoWay(file: current, copy: copy) {
                merged = unmerged
            } else {
                // The file is lined up against the copy while the copy is still being indexed.
                let fileSide = TodoMerge.prepareSide(current, against: copy)
                // Taken, not shared, so the merge extends the index in place; a second attempt of
                // the transaction (the file changed meanwhile) indexes the copy again.
                let prepared = preparing.take()?.takeValue() ?? TodoMerge.prepareCopy(copy)
                merged = TodoMerge.twoWay(file: consume fileSide, copy: prepared, doneUIDs: doneUIDs, workers: .twoThreads)
            }
            reports = merged.reports
            return .gathered(sources: merged.sources, pieces: merged.pieces)
        }
        return reports
    }

    /// The copy's bytes, or nil when it is not to be merged: gone since the listing (another
    /// reconcile or the user took it: nothing to say), unreadable, or holding a NUL byte. The last
    /// two are named in one stderr line and counted as left in place.
    static func readCopy(_ path: String, outcome: inout Outcome, invocation: Invocation) -> [UInt8]? {
        let bytes: [UInt8]
        do {
            bytes = try invocation.files.fileSystem.read(path).bytes
        } catch .notFound {
            return nil
        } catch {
            invocation.warn("\(error.description); not merged, the copy is left in place")
            outcome.leftInPlace += 1
            return nil
        }
        if let offset = FileSystem.firstNUL(in: bytes) {
            let line = FileSystem.lineNumber(ofOffset: offset, in: bytes)
            invocation.warn("\(path): line \(line): NUL byte, this looks like a binary file; not merged, the copy is left in place")
            outcome.leftInPlace += 1
            return nil
        }
        return bytes
    }
}
