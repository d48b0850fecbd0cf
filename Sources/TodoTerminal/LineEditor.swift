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
        case .paste(let text):
            let inserted = Self.pastable(text)
            characters.insert(contentsOf: inserted, at: cursor)
            cursor += inserted.count
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

    /// A paste as a line's characters: line breaks at its end dropped, every other line break (LF,
    /// CR, CRLF) and tab a space, other control characters dropped. So a pasted text is only ever
    /// text in the line: several pasted lines become one line, never an Enter.
    static func pastable(_ text: String) -> [Character] {
        var characters = Array(text)
        while let last = characters.last, last.isNewline { characters.removeLast() }
        return characters.compactMap { character in
            if character.isNewline || character == "\t" { return " " }
            let isControl = character.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
            return isControl ? nil : character
        }
    }

    /// The columns the text before the cursor takes.
    public var cursorColumn: Int { DisplayWidth.of(String(characters[..<cursor])) }
}
