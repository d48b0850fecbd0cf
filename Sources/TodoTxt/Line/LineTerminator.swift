/// How one line of a todo.txt file ends.
///
/// Only LF (0x0A) ends a line; a CR directly before that LF belongs to the terminator. A bare CR
/// anywhere else is ordinary content (docs/format.md section 1).
public enum LineTerminator: UInt8, Sendable, Hashable {
    /// The last line of a file that does not end with a newline.
    case none = 0
    /// A single LF (0x0A).
    case lf = 1
    /// CR LF (0x0D 0x0A).
    case crlf = 2

    /// The bytes this terminator writes.
    public var bytes: [UInt8] {
        switch self {
        case .none: return []
        case .lf: return [0x0A]
        case .crlf: return [0x0D, 0x0A]
        }
    }

    /// The number of bytes this terminator writes.
    public var byteCount: Int { Int(rawValue) }
}
