import TodoTxt
import TodoFileSystem

/// The pieces of `move` and `addto` that differ from todo.sh under the name `todo`
/// (docs/todo-command.md, "Moving a task"; docs/todosh.md section 8 for the file names).
extension TodoShActions {
    /// The file a DEST or SRC argument of `addto` or `move` names.
    ///
    /// Under `todo`, an absolute path is that file and any other name a file of the todo directory.
    /// Under `todo.sh`, a name is joined to `TODO_DIR` as todo.sh joins it; only when that file does
    /// not exist and the name is an absolute path naming a file is the path used as is (todo.sh's
    /// own `listfile` rule), so every command genuine todo.sh runs names the same file here, and
    /// one it would refuse with `Destination file TODO_DIR//tmp/x.txt does not exist.` works.
    static func fileArgument(_ name: String, _ context: TodoShContext) -> String {
        let joined = context.settings.todoDirectory + "/" + name
        guard name.hasPrefix("/") else { return joined }
        if context.settings.rules.movesEachTaskOnce { return name }
        func isFile(_ path: String) -> Bool {
            let kind = context.files.fileSystem.kind(of: path)
            return kind == .regular || kind == .characterDevice
        }
        return !isFile(joined) && isFile(name) ? name : joined
    }

    /// The `todo` name's confirmation, as `todo del` asks it: `--force` (or `TODOTXT_FORCE=1`), or
    /// one byte from stdin that must be `y` (`echo y | todo move 3 someday.txt` works). The question
    /// shows only when stdin is a terminal, on stderr, and nothing is printed on stdout (todo.sh's
    /// `confirm` prints an empty line there even when it asked nothing).
    static func confirmOnTerminal(_ question: String, _ context: TodoShContext) -> Bool {
        if context.settings.force { return true }
        if ProcessContext.isTerminal(0) {
            context.io.writeError(TerminalText.escapingControls(Array("\(question)? (y/n) ".utf8)))
        }
        return ProcessSpawning.readOneByteFromStandardInput() == UInt8(ascii: "y")
    }

    /// The `todo` name's move of line `index` (`line`, numbered `shown`) from `source` to
    /// `destination`: the destination is written first, then the source, each under its own lock.
    ///
    /// Never appended twice: when the destination already holds the task (the same line; a task with
    /// a uid only ever matches its own text), a move stopped between its two writes and run again
    /// only removes it from the source and says so. A destination line holding the task's uid with
    /// other text is refused, nothing written: one of the copies was edited, and dropping either
    /// would lose that. A failure of the second write says that the task is in both files and that
    /// running the move again finishes it.
    static func moveOnce(index: Int, line: [UInt8], shown: String, from source: String, to destination: String,
                         _ context: TodoShContext) throws(CLIError) -> Int32 {
        let uid = TodoItem(line).uid
        var presence = MovedTaskPresence.absent
        var destinationNumber = 0
        try context.update(destination) { (current: TodoDocument) throws(CLIError) -> TodoDocument? in
            presence = current.presence(ofMovedTask: line)
            switch presence {
            case .present(let at):
                destinationNumber = at + 1
                return nil
            case .conflicting(let at):
                throw .failure("\(destination): line \(at + 1) holds uid \(uid ?? "") with other text than task \(shown) of \(source); "
                               + "nothing moved: keep one of the two, then run the move again")
            case .absent:
                var edited = current
                destinationNumber = edited.appendLine(line) + 1
                return edited
            }
        }
        let outcome: SourceRemoval
        do {
            outcome = try removeMovedTask(at: index, line, from: source, context)
        } catch {
            throw .failure("\(error.text); task \(shown) is in \(destination) and still in \(source): "
                           + "run the move again to finish (nothing is appended twice)")
        }
        if case .changed(let at) = outcome {
            throw .failure("\(source): task \(shown) changed while it was being moved (now line \(at + 1)); "
                           + "\(destination) has it as it was, \(source) as it is now: keep one of the two")
        }
        context.inform("\(shown) \(string(line))")
        context.inform("\(TodoShContext.prefix(of: source)): \(shown) moved to \(destinationNumber) in \(TodoShContext.prefix(of: destination)).")
        if case .present = presence {
            context.warn("\(context.programName): task \(shown) was already in \(destination); removed from \(source)")
        }
        if case .gone = outcome {
            context.warn("\(context.programName): task \(shown) had already left \(source) (another command moved or removed it meanwhile); it is in \(destination)")
        }
        return 0
    }

    /// What the second write of `moveOnce` found in the source.
    enum SourceRemoval {
        /// The line was there and was removed.
        case removed
        /// Nothing holds the task any more: another command finished the move (or removed it).
        case gone
        /// Line `index` holds the task's uid with other text: edited since it was read.
        case changed(index: Int)
    }

    /// Removes the moved task from `source`, found again by its bytes (`TaskIdentity.relocate`, else
    /// the first of several identical copies); writes nothing when it is no longer there.
    static func removeMovedTask(at index: Int, _ line: [UInt8], from source: String,
                                _ context: TodoShContext) throws(CLIError) -> SourceRemoval {
        let preserve = context.settings.preserveLineNumbers
        var outcome = SourceRemoval.removed
        try context.update(source) { (current: TodoDocument) throws(CLIError) -> TodoDocument? in
            // The same line, else the first of its identical copies (any of them is the task).
            var found = TaskIdentity.relocate(index: index, content: line, in: current)
            switch found == nil ? current.presence(ofMovedTask: line) : .absent {
            case .present(let at): found = at
            case .conflicting(let at):
                outcome = .changed(index: at)
                return nil
            default: break
            }
            guard let found else {
                outcome = .gone
                return nil
            }
            outcome = .removed
            // As `todo del`: the line left blank, or with -n removed, and never any other blank line.
            var edited = current
            if preserve { edited.replaceContent(at: found, with: []) } else { edited.removeLine(at: found) }
            return edited
        }
        return outcome
    }
}
