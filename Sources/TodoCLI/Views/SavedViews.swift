/// The saved views of `views.txt` (docs/todo-command.md, "Saved views"): one view a line,
/// `NAME = WORDS`, the words being what `todo ls` takes after its name (terms and options:
/// `week = due:<=7d -@waiting --sort due`). `#` starts a comment line; blank lines are skipped.
///
/// Pure: the parse takes the file's bytes and never reads anything.
///
/// Invariants: a name is one or more ASCII letters, digits, `-`, `_` or `.`, not starting with `-`;
/// names are unique; each view keeps its definition as written (spaces around it trimmed).
struct SavedViews: Sendable, Equatable {
    struct View: Sendable, Equatable {
        let name: String
        /// The definition after `=`, as written.
        let definition: String
        /// The definition split into words: at spaces and tabs, a `'…'` or `"…"` span being one
        /// word (or part of one) without its quotes.
        let words: [String]
        /// The 1-based line of the file.
        let line: Int
    }

    /// A line that is not a view: its 1-based number and what is wrong.
    struct LineError: Error, Sendable, Equatable {
        let line: Int
        let problem: String
    }

    let views: [View]

    /// Parses `bytes`, the file's content (LF or CRLF line breaks; a byte order mark is skipped).
    /// Throws for the first line that is neither a view, a comment nor blank.
    init(parsing bytes: [UInt8]) throws(LineError) {
        let content = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        var views: [View] = []
        // Split on bytes: in a `String`, CR LF is one character, never equal to LF.
        for (offset, raw) in content.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            let line = Substring(String(decoding: raw.last == 0x0D ? raw.dropLast() : raw, as: UTF8.self))
            let trimmed = Self.trimmed(line)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let equals = trimmed.firstIndex(of: "=") else {
                throw LineError(line: number, problem: "not a view (NAME = TERMS)")
            }
            let name = String(Self.trimmed(trimmed[..<equals]))
            guard Self.isName(name) else {
                throw LineError(line: number, problem: name.isEmpty ? "the view has no name (NAME = TERMS)"
                                                                    : "'\(name)' is not a view name (letters, digits, - _ .)")
            }
            if let earlier = views.first(where: { $0.name == name }) {
                throw LineError(line: number, problem: "view '\(name)' is already defined on line \(earlier.line)")
            }
            let definition = String(Self.trimmed(trimmed[trimmed.index(after: equals)...]))
            guard let words = Self.words(definition) else {
                throw LineError(line: number, problem: "a quote is not closed")
            }
            views.append(View(name: name, definition: definition, words: words, line: number))
        }
        self.views = views
    }

    /// The view called `name`.
    func view(named name: String) -> View? { views.first { $0.name == name } }

    /// `text` without spaces and tabs at either end.
    static func trimmed(_ text: Substring) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return text[first...last]
    }

    static func isName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first != UInt8(ascii: "-") else { return false }
        return name.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
    }

    /// The words of a definition; nil when a quote is not closed.
    static func words(_ definition: String) -> [String]? {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        for character in definition {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == " " || character == "\t" {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else {
                current.append(character)
                inWord = true
            }
        }
        guard quote == nil else { return nil }
        if inWord { words.append(current) }
        return words
    }
}
