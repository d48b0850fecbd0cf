import TodoTxt

/// `todo add "paint walls after:k3f"`: the `after:` values of a new task's text are addresses (a
/// line number, a uid, `uid:VALUE` or a unique uid prefix), resolved in the file as read under the
/// writers' lock and written as the target's full uid (docs/todo-command.md, "Dependencies").
///
/// An append never rewrites a line, so a target without a uid cannot be given one here: that, an
/// unknown task and a task only in the done file are refused, with nothing written.
extension AddActions {
    /// Whether `text` has an `after:` tag to resolve.
    static func hasLinks(_ text: [UInt8]) -> Bool {
        DependencyGraph.mayHaveLinks(text) && !TodoItem(text).afterUIDs.isEmpty
    }

    /// `text` with each `after:` value replaced by its target's full uid, found in `document`.
    static func resolvingLinks(_ text: [UInt8], in document: TodoDocument, done: TodoDocument?, path: String,
                               donePath: String) throws(CLIError) -> [UInt8] {
        var bytes = text
        let item = TodoItem(text)
        // From the last tag back, so the earlier ranges stay where they are.
        for tag in item.tags.reversed() where tag.key == "after" && !tag.value.isEmpty {
            let reference: TaskReference
            do {
                reference = try document.resolve(tag.value)
            } catch {
                if case .unknownUID = error, let done, let archived = try? done.resolve(tag.value) {
                    throw .failure("\(path): after:\(tag.value) is archived in \(donePath) (line \(archived.index + 1)); a link to a done task never blocks; nothing added")
                }
                throw .failure("\(path): after:\(tag.value): \(error); nothing added")
            }
            guard let uid = document.item(at: reference.index).uid else {
                throw .failure("\(path): after:\(tag.value): line \(reference.index + 1) has no uid; add the task, then link it with 'todo dep NR after \(reference.index + 1)'")
            }
            bytes.replaceSubrange(tag.valueRange, with: Array(uid.utf8))
        }
        return bytes
    }
}
