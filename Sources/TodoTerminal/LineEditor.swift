/// A one-line text editor (adding, editing, filtering in `todo ui`): a cursor in a line of
/// characters, the keys of a shell's line editing.
public struct LineEditor: Equatable, Sendable {
    public private(set) var characters: [Character]
    public private(set) var cursor: Int

    public init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    public var text: String { String(characters) }

    /// Applies `key`; returns whether it was an editing key.
    public mutating func handle(_ key: Key) -> Bool {
        switch key {
        case .character(let character):
            characters.insert(character, at: cursor)
            cursor += 1
        case .backspace:
            guard cursor > 0 else { return true }
            cursor -= 1
            characters.remove(at: cursor)
        case .delete:
            if cursor < characters.count { characters.remove(at: cursor) }
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(characters.count, cursor + 1)
        case .home, .control("a"): cursor = 0
        case .end, .control("e"): cursor = characters.count
        case .control("u"):
            characters.removeSubrange(0..<cursor)
            cursor = 0
        case .control("w"):
            var start = cursor
            while start > 0, characters[start - 1] == " " { start -= 1 }
            while start > 0, characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        default:
            return false
        }
        return true
    }

    /// The columns the text before the cursor takes.
    public var cursorColumn: Int { DisplayWidth.of(String(characters[..<cursor])) }
}
