import TodoTxt

/// A task chosen by the user (line number, uid, `uid:VALUE` or unique uid prefix), pinned to the
/// bytes it had when it was chosen.
///
/// A safe write may have to re-apply an edit to content another writer changed meanwhile
/// (compare-and-swap). A uid still finds the same task then; a line number may not, so the target
/// remembers the line's bytes and is found again by them: at the same line if unchanged, else at the
/// one line holding exactly those bytes. If it cannot be found unambiguously the edit fails rather
/// than change the wrong task.
struct TaskTarget {
    /// What the user typed.
    let address: String
    /// Where it was, its bytes, and its uid when the address resolved through one (the library's
    /// rule for finding a task again, `TaskIdentity.locate`).
    let identity: TaskIdentity

    /// The task `reference` found for `address` in `document`.
    init(address: String, reference: TaskReference, in document: TodoDocument) {
        self.address = address
        identity = TaskIdentity(index: reference.index, content: Array(document.content(at: reference.index)),
                                uid: reference.uid)
    }

    /// The line's content when chosen.
    var content: [UInt8] { identity.content }

    /// Where this task is in `document` (the same or a newer version of the file).
    func locate(in document: TodoDocument, path: String) throws(CLIError) -> Int {
        guard let found = identity.locate(in: document) else {
            throw .failure("\(path): task \(address) changed while this command ran; nothing done")
        }
        return found
    }
}
