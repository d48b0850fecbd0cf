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
    /// The uid, when the address resolved through one.
    let uid: String?
    /// 0-based line index in the snapshot.
    let index: Int
    /// The line's content when chosen.
    let content: [UInt8]

    /// The task `reference` found for `address` in `document`.
    init(address: String, reference: TaskReference, in document: TodoDocument) {
        self.address = address
        uid = reference.uid
        index = reference.index
        content = Array(document.content(at: reference.index))
    }

    /// Where this task is in `document` (the same or a newer version of the file).
    func locate(in document: TodoDocument, path: String) throws(CLIError) -> Int {
        if let uid, index >= document.lineCount || !document.content(at: index).elementsEqual(content),
           let owner = try? document.resolve("uid:" + uid) {
            return owner.index
        }
        guard let found = TaskIdentity.relocate(index: index, content: content, in: document) else {
            throw .failure("\(path): task \(address) changed while this command ran; nothing done")
        }
        return found
    }
}
