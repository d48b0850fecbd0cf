/// Makes task text safe to print on a terminal: a synced file must not be able to drive the
/// terminal (move the cursor, change the title, hide text) through escape sequences (docs/todo-command.md).
///
/// Escaped: C0 controls except tab (shown in caret notation, `ESC` → `^[`), DEL (`^?`), C1 controls
/// U+0080–U+009F (`<U+009B>`), and bytes that are not valid UTF-8 (`\xFF`), since some terminals read
/// a lone 0x9B as CSI. Everything else passes through unchanged. Used only when output is a terminal;
/// pipes get the raw bytes.
enum TerminalText {
    static func escapingControls(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let input = Array(bytes)
        guard input.contains(where: { $0 < 0x20 && $0 != 0x09 || $0 >= 0x7F }) else { return input }
        var out: [UInt8] = []
        out.reserveCapacity(input.count + 8)
        let hex = Array("0123456789ABCDEF".utf8)
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte < 0x20 && byte != 0x09 {
                out += [0x5E, byte + 0x40]
                index += 1
            } else if byte == 0x7F {
                out += [0x5E, 0x3F]
                index += 1
            } else if byte < 0x80 {
                out.append(byte)
                index += 1
            } else {
                let length = validSequenceLength(input, at: index)
                if length == 0 {
                    out += [0x5C, 0x78, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
                    index += 1
                } else if length == 2 && byte == 0xC2 && input[index + 1] < 0xA0 {
                    let scalar = input[index + 1]
                    out += Array("<U+00".utf8) + [hex[Int(scalar >> 4)], hex[Int(scalar & 0xF)], 0x3E]
                    index += 2
                } else {
                    out += input[index..<(index + length)]
                    index += length
                }
            }
        }
        return out
    }

    /// `escapingControls` applied to each line of `bytes`, the line endings between them (LF, CRLF)
    /// kept: for messages of several lines (an error, a report with indented lines under it) and
    /// whole files (`sort --dry-run`). A CR anywhere else is escaped (it would overwrite the line).
    static func escapingControlsKeepingLines(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(where: { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A || $0 >= 0x7F }) else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 8)
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            if index > 0 { out.append(0x0A) }
            let endsWithCR = index < lines.count - 1 && line.last == 0x0D
            out += escapingControls(endsWithCR ? line.dropLast() : line)
            if endsWithCR { out.append(0x0D) }
        }
        return out
    }

    /// The length of a valid UTF-8 sequence starting at `index` (2–4), or 0 if it is invalid there.
    static func validSequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 0
        }
        guard index + length <= bytes.count else { return 0 }
        return String(validating: bytes[index..<(index + length)], as: UTF8.self) == nil ? 0 : length
    }
}
