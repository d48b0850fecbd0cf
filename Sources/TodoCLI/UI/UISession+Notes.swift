import TodoFileSystem
import TodoTerminal
import TodoTxt

/// `n` and `o` in the list: the selected task's note in the editor, and its first URL (else its
/// note) in the opener, as `todo note` and `todo open` do (docs/todo-command.md, "Notes and
/// links"). The tag is one `change` like every other key's (so `u` takes it back; the note file
/// stays); the editor and the opener run with the screen left and the terminal out of raw mode,
/// and no lock held.
extension UISession {
    func editNote(_ task: TaskIdentity) {
        let done = invocation.files.documentIfReadable(invocation.doneFilePath(forTodoFile: file.path))
        var name: String?
        var refusal: String?
        let tagged = change("note tagged") { (document: inout TodoDocument, record: inout ChangeRecord) throws(LiveEditError) in
            name = nil
            refusal = nil
            let index = try file.locate(task, in: document)
            let item = document.item(at: index)
            let line: [UInt8]
            do throws(TaskEditError) {
                line = try NoteActions.lineWithNote(item) { UID.generate(using: &uids, unusedIn: document, and: done) }
            } catch {
                refusal = "line \(index + 1): \(error)"
                return nil
            }
            name = TodoItem(line).noteTag
            guard !line.elementsEqual(item.content) else { return TaskIdentity(index: index, in: document) }
            record.replace(at: index, with: line, in: &document)
            return TaskIdentity(index: index, in: document)
        }
        guard tagged, let name else {
            if let refusal { message = refusal }
            return
        }
        guard TodoItem.isPlainNoteName(name) else {
            message = "note:\(name) is not a file name in the notes folder"
            return
        }
        do {
            let path = try NoteActions.createNote(name, todoFile: file.path, invocation.files.fileSystem)
            let status = runOutsideTheScreen {
                EditAction.runEditor(EditAction.editorCommand(invocation.environment), [path], environment: invocation.environment)
            }
            message = status == 0 ? "note notes/\(name)" : "the editor exited with status \(status)"
        } catch {
            message = error.text
        }
    }

    func openLink(_ task: TaskIdentity) {
        let target: String
        do {
            let document = try file.reload()
            let index = try file.locate(task, in: document)
            do throws(CLIError) {
                target = try NoteActions.openTarget(document.item(at: index), number: index + 1, todoFile: file.path, invocation)
            } catch {
                message = error.text
                return
            }
        } catch {
            message = "\(error)"
            return
        }
        var failure: CLIError?
        let status = runOutsideTheScreen { () -> Int32 in
            do throws(CLIError) {
                return try NoteActions.runOpener(target, environment: invocation.environment, invocation.files.fileSystem)
            } catch {
                failure = error
                return 1
            }
        }
        if let failure {
            message = failure.text
        } else {
            message = status == 0 ? "opened \(target)" : "the opener exited with status \(status)"
        }
    }

    /// Runs `body` with the main screen back and the terminal in its own mode (an editor needs
    /// both), then takes the screen again and reads the file afresh.
    func runOutsideTheScreen(_ body: () -> Int32) -> Int32 {
        terminal.write(Self.leaveScreen)
        terminal.restore()
        let status = body()
        terminal.enterRawMode()
        terminal.write(Self.enterScreen)
        if let fresh = try? file.reload() { list.replaceDocument(fresh) }
        return status
    }
}
