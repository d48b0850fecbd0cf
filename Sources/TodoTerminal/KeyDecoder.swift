/// A key as a full-screen program understands it.
public enum Key: Equatable, Sendable {
    case character(Character)
    case enter, escape, backspace, delete, tab
    case up, down, left, right, home, end, pageUp, pageDown
    /// Ctrl plus a letter, as its letter (`u` for Ctrl-U).
    case control(Character)
    /// Text the terminal marked as pasted (bracketed paste, `ESC [ 200 ~` … `ESC [ 201 ~`), as it
    /// came: line breaks and control characters included. It is text, never keys: a line break in
    /// it is not Enter (`LineEditor` turns it into a space).
    case paste(String)
}

/// Turns the bytes a terminal sends into keys: UTF-8 characters (a character split across two
/// reads is kept until it is whole), the escape sequences of the cursor and editing keys (both the
/// `ESC [` and the `ESC O` forms), a bracketed paste as one `Key.paste`, and Escape itself: an ESC
/// followed by something that does not make a sequence, or an ESC still alone when the input pauses
/// (`flush`). An ESC or a sequence cut by the end of a read (`ESC`, `ESC [ 2 0`) is kept until the
/// rest arrives, so a key's or a paste's marker split between two reads is still read whole; a
/// paste is kept until its end marker has arrived (a paste longer than one read spans several).
public struct KeyDecoder: Sendable {
    private var partial: [UInt8] = []
    /// Inside a bracketed paste: its bytes so far.
    private var pasted: [UInt8]?

    /// What a terminal in bracketed-paste mode (`ESC [ ? 2004 h`) sends around a paste.
    static let pasteStart: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x30, 0x7E]
    static let pasteEnd: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]

    public init() {}

    public mutating func keys(from bytes: [UInt8]) -> [Key] {
        let input = partial + bytes
        partial = []
        var keys: [Key] = []
        var index = 0
        while index < input.count {
            if pasted != nil {
                index = takePaste(input, from: index, into: &keys)
                continue
            }
            let byte = input[index]
            if byte == 0x1B {
                switch Self.escapeSequence(input, at: index) {
                case .key(let key, let length):
                    keys.append(key)
                    index += length
                case .ignored(let length):
                    index += length
                case .pasteStart(let length):
                    pasted = []
                    index += length
                case .incomplete:
                    partial = Array(input[index...])
                    return keys
                }
                continue
            }
            switch byte {
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x09: keys.append(.tab)
            case 0x01...0x1A: keys.append(.control(Character(Unicode.Scalar(byte + 0x60))))
            case 0x00...0x1F: break
            default:
                let length = Self.utf8Length(byte)
                guard index + length <= input.count else {
                    partial = Array(input[index...])
                    return keys
                }
                let text = String(decoding: input[index..<(index + length)], as: UTF8.self)
                if let character = text.first { keys.append(.character(character)) }
                index += length
                continue
            }
            index += 1
        }
        return keys
    }

    /// The input paused (no byte for a moment, the caller's read timed out): an ESC still waiting is
    /// Escape, and the bytes of an unfinished sequence after it are keys of their own. A paste is
    /// never cut short: inside one nothing is given until its end marker arrives.
    public mutating func flush() -> [Key] {
        guard pasted == nil, partial.first == 0x1B else { return [] }
        let rest = Array(partial.dropFirst())
        partial = []
        return [.escape] + keys(from: rest)
    }

    /// Inside a paste: takes its bytes from `index` up to the end marker (then the paste is one key)
    /// or to the end of `input`, keeping back a tail that may be the start of the end marker.
    /// Returns where decoding goes on.
    private mutating func takePaste(_ input: [UInt8], from index: Int, into keys: inout [Key]) -> Int {
        let marker = Self.pasteEnd
        var position = index
        while position < input.count {
            if input[position] == 0x1B {
                let available = min(marker.count, input.count - position)
                if input[position..<(position + available)].elementsEqual(marker.prefix(available)) {
                    guard available == marker.count else { break }
                    pasted?.append(contentsOf: input[index..<position])
                    keys.append(.paste(String(decoding: pasted ?? [], as: UTF8.self)))
                    pasted = nil
                    return position + marker.count
                }
            }
            position += 1
        }
        pasted?.append(contentsOf: input[index..<position])
        partial = Array(input[position...])
        return input.count
    }

    /// What an ESC at `index` starts.
    enum Sequence: Equatable {
        /// A key, in this many bytes.
        case key(Key, Int)
        /// A sequence with no key of its own (an unknown one, a stray paste end), in this many bytes.
        case ignored(Int)
        /// The start of a bracketed paste, in this many bytes.
        case pasteStart(Int)
        /// The read ended inside the sequence: wait for the rest.
        case incomplete
    }

    /// The sequence an ESC at `index` starts: `ESC [` or `ESC O`, parameter and intermediate bytes
    /// (0x20–0x3F), a final byte (0x40–0x7E). An ESC followed by anything else is Escape, and what
    /// follows is read as keys of its own; one that the input ends in, or in the middle of, is
    /// incomplete.
    static func escapeSequence(_ input: [UInt8], at index: Int) -> Sequence {
        guard index + 1 < input.count else { return .incomplete }
        guard input[index + 1] == 0x5B || input[index + 1] == 0x4F else { return .key(.escape, 1) }
        var end = index + 2
        while end < input.count, (0x20...0x3F).contains(input[end]) { end += 1 }
        guard end < input.count else { return .incomplete }
        guard (0x40...0x7E).contains(input[end]) else { return .key(.escape, 1) }
        let parameters = String(decoding: input[(index + 2)..<end], as: UTF8.self)
        let length = end - index + 1
        switch (input[end], parameters) {
        case (0x41, _): return .key(.up, length)
        case (0x42, _): return .key(.down, length)
        case (0x43, _): return .key(.right, length)
        case (0x44, _): return .key(.left, length)
        case (0x48, _): return .key(.home, length)
        case (0x46, _): return .key(.end, length)
        case (0x7E, "1"), (0x7E, "7"): return .key(.home, length)
        case (0x7E, "4"), (0x7E, "8"): return .key(.end, length)
        case (0x7E, "3"): return .key(.delete, length)
        case (0x7E, "5"): return .key(.pageUp, length)
        case (0x7E, "6"): return .key(.pageDown, length)
        case (0x7E, "200") where input[index + 1] == 0x5B: return .pasteStart(length)
        case (0x7E, "201"): return .ignored(length)
        default: return .key(.escape, length)
        }
    }

    static func utf8Length(_ lead: UInt8) -> Int {
        switch lead {
        case 0xF0...0xF7: return 4
        case 0xE0...0xEF: return 3
        case 0xC0...0xDF: return 2
        default: return 1
        }
    }
}
