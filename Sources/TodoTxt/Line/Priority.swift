/// A task priority: one ASCII uppercase letter, `A` (most urgent) to `Z`.
public struct Priority: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The ASCII code of the letter, 0x41...0x5A.
    public let letter: UInt8

    /// A priority from an ASCII uppercase letter byte; nil for anything else.
    public init?(letter: UInt8) {
        guard ByteScanning.isUppercaseLetter(letter) else { return nil }
        self.letter = letter
    }

    /// A priority from a one-letter string `A`–`Z`; nil for anything else (lowercase included).
    public init?(_ text: String) {
        let utf8 = Array(text.utf8)
        guard utf8.count == 1 else { return nil }
        self.init(letter: utf8[0])
    }

    /// `A` sorts before `B`: more urgent first.
    public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.letter < rhs.letter }

    /// The letter itself, e.g. `A`.
    public var description: String { String(UnicodeScalar(letter)) }

    /// The header token `(A)` as bytes.
    public var headerBytes: [UInt8] { [0x28, letter, 0x29] }
}
