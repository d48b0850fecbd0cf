/// A task's links: the first URL written in its body and its note, `note:NAME` naming a file in the
/// `notes/` folder beside the todo file (docs/todo-command.md, "Notes and links").
///
/// Invariants: finding a link never changes the line; adding the note tag changes the line only
/// when the task names no note yet, and then adds exactly one `note:` word, before the uid as
/// `append` adds; a note name is one plain file name (never a path), so a tag can never point a
/// command outside the notes folder.
extension TodoItem {
    /// The tag key that names a task's note.
    public static let noteTagKey = "note"

    /// The file name of the note of the task with `uid`: the uid followed by `.md` (the note of
    /// `uid:k3f9qz` is `notes/` + `k3f9qz` + `.md`; docs/todo-command.md, "Notes and links").
    public static func noteFileName(forUID uid: String) -> String { uid + ".md" }

    /// Whether `name` can name a file in the notes folder: not empty, no `/`, no NUL, not starting
    /// with `.` (so neither `..` nor a hidden file).
    public static func isPlainNoteName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first != UInt8(ascii: ".") else { return false }
        return !name.utf8.contains(UInt8(ascii: "/")) && !name.utf8.contains(0)
    }

    /// The value of the task's first `note:` tag, as written (checked by `isPlainNoteName`, not here).
    public var noteTag: String? { tags.first { $0.key == Self.noteTagKey }?.value }

    /// The line with `note:NAME` added before the uid, or the line unchanged when the task already
    /// has a `note:` tag (of any value): a task names one note, and running `todo note` twice never
    /// adds a second tag.
    public func addingNoteTag(_ name: String) throws(TaskEditError) -> [UInt8] {
        guard noteTag == nil else {
            guard isTask else { throw .notATask }
            return Array(content)
        }
        return try appendingDescription(Array("\(Self.noteTagKey):\(name)".utf8))
    }

    /// The first URL in the body: the first word (words are separated by spaces and tabs) that
    /// starts with a scheme and `://` and has something after it: `https://x.org/a`,
    /// `file:///home/me/plan.pdf`, `obsidian://open?vault=v`. A scheme is a letter, then letters,
    /// digits, `+`, `-` or `.` (RFC 3986). A word that only holds a URL after other characters,
    /// such as `(https://x.org)` or `link:https://x.org`, is not one: the word is opened whole,
    /// so it must be the URL whole.
    public var firstURL: String? {
        var word: [UInt8] = []
        for byte in bodyBytes {
            if byte == 0x20 || byte == 0x09 {
                if Self.isURL(word) { return String(decoding: word, as: UTF8.self) }
                word.removeAll(keepingCapacity: true)
            } else {
                word.append(byte)
            }
        }
        return Self.isURL(word) ? String(decoding: word, as: UTF8.self) : nil
    }

    /// Whether `word` is `scheme://` followed by at least one byte.
    static func isURL(_ word: [UInt8]) -> Bool {
        guard let first = word.first, isASCIILetter(first) else { return false }
        var position = 1
        while position < word.count {
            let byte = word[position]
            if byte == UInt8(ascii: ":") { break }
            guard isASCIILetter(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "+")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") else { return false }
            position += 1
        }
        let separator = Array("://".utf8)
        guard position + separator.count < word.count else { return false }
        return word[position..<(position + separator.count)].elementsEqual(separator)
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
