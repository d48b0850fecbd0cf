// Text forms of the edits, for callers that hold text as a `String`: each is the byte form applied
// to the text's UTF-8, so the two can never disagree (docs/format.md). The task edits are public
// (an app edits a task with the text a user typed); the document forms are `package` (the tests).

extension TodoItem {
    /// `appendingDescription(_:joinDirectlyBefore:)` for text.
    public func appendingDescription(_ text: String, joinDirectlyBefore delimiters: String = "") throws(TaskEditError) -> [UInt8] {
        try appendingDescription(Array(text.utf8), joinDirectlyBefore: Array(delimiters.utf8))
    }

    /// `prependingDescription(_:)` for text.
    public func prependingDescription(_ text: String) throws(TaskEditError) -> [UInt8] {
        try prependingDescription(Array(text.utf8))
    }

    /// `replacingDescription(with:)` for text.
    public func replacingDescription(with text: String) throws(TaskEditError) -> [UInt8] {
        try replacingDescription(with: Array(text.utf8))
    }
}

extension TodoDocument {
    /// `appendText(_:at:joinDirectlyBefore:)` for text.
    @discardableResult
    package mutating func appendText(_ text: String, at index: Int, joinDirectlyBefore delimiters: String = "") throws(TaskEditError) -> Bool {
        try appendText(Array(text.utf8), at: index, joinDirectlyBefore: Array(delimiters.utf8))
    }

    /// `prependText(_:at:)` for text.
    @discardableResult
    package mutating func prependText(_ text: String, at index: Int) throws(TaskEditError) -> Bool {
        try prependText(Array(text.utf8), at: index)
    }

    /// `replaceText(_:at:)` for text.
    @discardableResult
    package mutating func replaceText(_ text: String, at index: Int) throws(TaskEditError) -> Bool {
        try replaceText(Array(text.utf8), at: index)
    }

    /// `addTask(_:creationDate:uid:)` for text.
    @discardableResult
    package mutating func addTask(_ text: String, creationDate: TodoDate?, uid: String?) -> Int {
        addTask(Array(text.utf8), creationDate: creationDate, uid: uid)
    }
}
