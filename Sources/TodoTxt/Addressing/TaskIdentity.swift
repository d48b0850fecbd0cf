/// A task as someone saw it: where it was, its bytes, its uid. Finds the same task again in a newer
/// version of the file (docs/format.md section 4), so an edit made against one version can be
/// re-applied to the next without ever touching a different task.
///
/// A uid finds its task wherever it moved. Without one (or when the uid is gone), the task is the
/// line at the same index if it still holds exactly the same bytes, else the only line holding
/// them. Two lines holding them, or none, and the task is not found: better no edit than the wrong
/// one.
public struct TaskIdentity: Sendable, Hashable {
    /// 0-based line index in the version it was taken from.
    public let index: Int
    /// The line's content (no terminator) in that version.
    public let content: [UInt8]
    /// The task's uid, if it has one.
    public let uid: String?

    /// A task described by hand: where it was, its bytes, its uid.
    public init(index: Int, content: [UInt8], uid: String?) {
        self.index = index
        self.content = content
        self.uid = uid
    }

    /// The task at `index` of `document`.
    public init(index: Int, in document: TodoDocument) {
        self.index = index
        content = Array(document.content(at: index))
        uid = document.item(at: index).uid
    }

    /// Where this task is in `document` (the same or a newer version of the file), or nil.
    public func locate(in document: TodoDocument) -> Int? {
        if index < document.lineCount, document.content(at: index).elementsEqual(content) { return index }
        if let uid, let owner = try? document.resolve("uid:" + uid) { return owner.index }
        return TaskIdentity.relocate(index: index, content: content, in: document)
    }

    /// The line that held `content` at `index`, found again in `document`: the same index if it
    /// still holds those bytes, else the only line holding them; nil when it is gone or ambiguous.
    package static func relocate(index: Int, content: some Collection<UInt8>, in document: TodoDocument) -> Int? {
        if index < document.lineCount, document.content(at: index).elementsEqual(content) { return index }
        var found: Int?
        for candidate in 0..<document.lineCount where document.content(at: candidate).elementsEqual(content) {
            if found != nil { return nil }
            found = candidate
        }
        return found
    }
}
