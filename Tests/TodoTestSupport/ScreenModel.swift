/// A terminal screen for tests of `todo ui`: applies the bytes the program writes (printable text,
/// `\r`, `\n`, and the escape sequences it uses: cursor position `CSI row;col H`, erase to end of
/// line `CSI K`, erase screen `CSI 2J`, colours `CSI … m`, cursor visibility `CSI ?25 h/l`, the
/// alternate screen `CSI ?1049 h/l`, bracketed paste `CSI ?2004 h/l`) to a grid of characters, so a test can read what is shown.
public struct ScreenModel {
    public let columns: Int
    public let rows: Int
    public private(set) var grid: [[Character]]
    public private(set) var row = 0
    public private(set) var column = 0
    /// Whether the alternate screen is on (`CSI ?1049h` … `CSI ?1049l`).
    public private(set) var alternateScreen = false
    /// Whether the cursor is shown.
    public private(set) var cursorVisible = true
    /// Whether bracketed paste is on (`CSI ?2004h` … `CSI ?2004l`).
    public private(set) var bracketedPaste = false
    private var pending: [UInt8] = []

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        grid = Array(repeating: Array(repeating: " ", count: columns), count: rows)
    }

    /// The screen's lines, trailing spaces removed.
    public var lines: [String] {
        grid.map { String(String($0).reversed().drop { $0 == " " }.reversed()) }
    }

    /// The whole screen as text, one line per row.
    public var text: String { lines.joined(separator: "\n") }

    public mutating func apply(_ bytes: [UInt8]) {
        let input = pending + bytes
        pending = []
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte == 0x1B {
                guard let length = escapeLength(input, from: index) else {
                    pending = Array(input[index...])
                    return
                }
                applyEscape(Array(input[index..<(index + length)]))
                index += length
                continue
            }
            switch byte {
            case 0x0D: column = 0
            case 0x0A: row = min(rows - 1, row + 1)
            case 0x08: column = max(0, column - 1)
            case 0x00...0x1F: break
            default:
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
                guard index + length <= input.count else {
                    pending = Array(input[index...])
                    return
                }
                for character in String(decoding: input[index..<(index + length)], as: UTF8.self) { put(character) }
                index += length
                continue
            }
            index += 1
        }
    }

    private mutating func put(_ character: Character) {
        guard row < rows else { return }
        if column >= columns { return }
        grid[row][column] = character
        column += 1
    }

    /// The length of the escape sequence at `index`, or nil when it is not complete yet.
    private func escapeLength(_ input: [UInt8], from index: Int) -> Int? {
        guard index + 1 < input.count else { return nil }
        guard input[index + 1] == 0x5B else { return 2 }
        var end = index + 2
        while end < input.count, !(0x40...0x7E).contains(input[end]) { end += 1 }
        return end < input.count ? end - index + 1 : nil
    }

    private mutating func applyEscape(_ sequence: [UInt8]) {
        guard sequence.count >= 3, sequence[1] == 0x5B, let final = sequence.last else { return }
        let parameters = String(decoding: sequence[2..<(sequence.count - 1)], as: UTF8.self)
        switch final {
        case UInt8(ascii: "H"):
            let numbers = parameters.split(separator: ";").map { Int($0) ?? 1 }
            row = min(rows - 1, max(0, (numbers.first ?? 1) - 1))
            column = min(columns - 1, max(0, (numbers.count > 1 ? numbers[1] : 1) - 1))
        case UInt8(ascii: "K"):
            if row < rows { for position in column..<columns { grid[row][position] = " " } }
        case UInt8(ascii: "J"):
            if parameters == "2" { grid = Array(repeating: Array(repeating: " ", count: columns), count: rows) }
        case UInt8(ascii: "h"), UInt8(ascii: "l"):
            let on = final == UInt8(ascii: "h")
            if parameters == "?1049" {
                alternateScreen = on
                grid = Array(repeating: Array(repeating: " ", count: columns), count: rows)
            }
            if parameters == "?25" { cursorVisible = on }
            if parameters == "?2004" { bracketedPaste = on }
        default:
            break
        }
    }
}
