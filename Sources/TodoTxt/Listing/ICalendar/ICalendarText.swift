/// The text rules of RFC 5545 the calendar feed needs: TEXT escaping (section 3.3.11), DATE and
/// UTC DATE-TIME values (3.3.4, 3.3.5), and content lines ended by CRLF and folded at 75 octets
/// (3.1).
public enum ICalendarText {
    /// The longest content line, in octets, CRLF excluded; a continuation line's leading space counts.
    public static let lineLimit = 75

    /// `text` as a TEXT value: `\` `;` `,` escaped with a backslash, a line feed written `\n`, every
    /// other control character (tab excepted, which TEXT allows) written as a space, since TEXT
    /// cannot hold one. Invalid UTF-8 has already become U+FFFD in a `String`.
    public static func escaped(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        appendEscaped(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `escaped(text)`'s bytes to `bytes`.
    static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
        for byte in text.utf8 {
            switch byte {
            case 0x5C, 0x3B, 0x2C: bytes.append(0x5C); bytes.append(byte)  // \ ; ,
            case 0x0A: bytes.append(0x5C); bytes.append(0x6E)  // \n
            case 0x09: bytes.append(byte)
            case 0x00...0x1F, 0x7F: bytes.append(0x20)
            default: bytes.append(byte)
            }
        }
    }

    /// `YYYYMMDD`, a DATE value.
    public static func date(_ date: TodoDate) -> String {
        String(decoding: date.bytes.filter { $0 != 0x2D }, as: UTF8.self)
    }

    /// Appends `date(date)`'s bytes to `bytes`.
    static func appendDate(_ date: TodoDate, to bytes: inout [UInt8]) {
        for byte in date.bytes where byte != 0x2D { bytes.append(byte) }
    }

    /// `YYYYMMDDTHHMMSSZ`, a UTC DATE-TIME value, for a moment given in seconds since 1970-01-01
    /// 00:00 UTC; a moment outside years 1–9999 is clamped to the nearer end.
    public static func dateTime(secondsSinceEpoch seconds: Int) -> String {
        let dayLength = 86_400
        let days = seconds >= 0 ? seconds / dayLength : -((-seconds + dayLength - 1) / dayLength)
        let secondOfDay = seconds - days * dayLength
        guard let day = TodoDate(daysSinceEpoch: days) else {
            return days > 0 ? "99991231T235959Z" : "00010101T000000Z"
        }
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return date(day) + "T" + two(secondOfDay / 3600) + two(secondOfDay / 60 % 60) + two(secondOfDay % 60) + "Z"
    }

    /// Appends `line` as a content line: folded so that no physical line exceeds `lineLimit` octets
    /// (each continuation starting with one space), never inside a UTF-8 sequence, each ended by CRLF.
    public static func appendLine(_ line: String, to output: inout [UInt8]) {
        appendLine(bytes: Array(line.utf8), to: &output)
    }

    /// `appendLine` for a line given as its UTF-8 bytes.
    static func appendLine(bytes: [UInt8], to output: inout [UInt8]) {
        var start = 0
        var limit = lineLimit
        while bytes.count - start > limit {
            var cut = start + limit
            // Back up to the first byte of the sequence the cut would split (a continuation byte is
            // 10xxxxxx); a sequence is at most 4 bytes long, so the cut stays past `start`.
            while cut > start + 1, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
            output += bytes[start..<cut]
            output += [0x0D, 0x0A, 0x20]
            start = cut
            limit = lineLimit - 1
        }
        output += bytes[start...]
        output += [0x0D, 0x0A]
    }
}
