/// A key as a full-screen program understands it.
public enum Key: Equatable, Sendable {
    case character(Character)
    case enter, escape, backspace, delete, tab
    case up, down, left, right, home, end, pageUp, pageDown
    /// Ctrl plus a letter, as its letter (`u` for Ctrl-U).
    case control(Character)
}

/// Turns the bytes a terminal sends into keys: UTF-8 characters (a character split across two
/// reads is kept until it is whole), the escape sequences of the cursor and editing keys (both the
/// `ESC [` and the `ESC O` forms), and Escape itself: an ESC that ends a read with nothing after it.
public struct KeyDecoder: Sendable {
    private var partial: [UInt8] = []

    public init() {}

    public mutating func keys(from bytes: [UInt8]) -> [Key] {
        let input = partial + bytes
        partial = []
        var keys: [Key] = []
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte == 0x1B {
                let (key, length) = Self.escapeSequence(input, at: index)
                keys.append(key)
                index += length
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

    /// The key an ESC at `index` starts, and how many bytes it takes.
    static func escapeSequence(_ input: [UInt8], at index: Int) -> (Key, Int) {
        guard index + 1 < input.count, input[index + 1] == 0x5B || input[index + 1] == 0x4F else { return (.escape, 1) }
        var end = index + 2
        while end < input.count, !(0x40...0x7E).contains(input[end]) { end += 1 }
        guard end < input.count else { return (.escape, input.count - index) }
        let parameters = String(decoding: input[(index + 2)..<end], as: UTF8.self)
        let length = end - index + 1
        switch (input[end], parameters) {
        case (0x41, _): return (.up, length)
        case (0x42, _): return (.down, length)
        case (0x43, _): return (.right, length)
        case (0x44, _): return (.left, length)
        case (0x48, _): return (.home, length)
        case (0x46, _): return (.end, length)
        case (0x7E, "1"), (0x7E, "7"): return (.home, length)
        case (0x7E, "4"), (0x7E, "8"): return (.end, length)
        case (0x7E, "3"): return (.delete, length)
        case (0x7E, "5"): return (.pageUp, length)
        case (0x7E, "6"): return (.pageDown, length)
        default: return (.escape, length)
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
