/// How many terminal columns text takes: wide characters (CJK, fullwidth forms, emoji shown as
/// pictures) two, combining marks and zero-width joiners none, everything else one. Close to
/// `wcwidth(3)`, which Swift does not offer; a line is always cut by these widths, so columns never
/// break, at worst a rare character is given a column too many.
public enum DisplayWidth {
    public static func of(_ character: Character) -> Int {
        var width = 0
        for scalar in character.unicodeScalars {
            width = max(width, of(scalar))
        }
        return width
    }

    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if value == 0x200D || (0xFE00...0xFE0F).contains(value) { return 0 }
        if scalar.properties.isEmojiPresentation { return 2 }
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    public static func of(_ text: String) -> Int { text.reduce(0) { $0 + of($1) } }

    /// `text` cut to at most `width` columns (an ellipsis marks the cut), then padded with spaces
    /// to exactly `width`.
    public static func fitted(_ text: String, width: Int) -> String {
        guard width > 0 else { return "" }
        var result = ""
        var used = 0
        let total = of(text)
        let limit = total > width ? width - 1 : width
        for character in text {
            let next = of(character)
            if used + next > limit { break }
            result.append(character)
            used += next
        }
        if total > width {
            result.append("…")
            used += 1
        }
        return result + String(repeating: " ", count: max(0, width - used))
    }
}
