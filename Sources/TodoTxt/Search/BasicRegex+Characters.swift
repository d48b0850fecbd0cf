// Characters as grep reads them in a UTF-8 locale: decoding, case variants, classes.
extension BasicRegex {
    /// The scalars `scalar` matches when case is ignored, itself first: its simple uppercase form,
    /// and the lowercase form of that when it maps back to it, as GNU grep's `-i` reads a character
    /// in a UTF-8 locale (`é` and `É`; `ß` has no single-character uppercase and matches itself). An
    /// invalid byte (see `scalar(in:at:)`) has no variants.
    static func caseVariants(_ scalar: UInt32) -> [UInt32] {
        if scalar < 0x80 {
            if scalar >= 0x41 && scalar <= 0x5A { return [scalar, scalar + 0x20] }
            if scalar >= 0x61 && scalar <= 0x7A { return [scalar, scalar - 0x20] }
            return [scalar]
        }
        guard let character = Unicode.Scalar(scalar) else { return [scalar] }
        func single(_ mapping: String) -> Unicode.Scalar? {
            var scalars = mapping.unicodeScalars.makeIterator()
            guard let first = scalars.next(), scalars.next() == nil else { return nil }
            return first
        }
        let upper = single(character.properties.uppercaseMapping) ?? character
        var variants = [scalar]
        if upper != character { variants.append(upper.value) }
        if let lower = single(upper.properties.lowercaseMapping), lower != upper, lower != character,
           (single(lower.properties.uppercaseMapping) ?? lower) == upper {
            variants.append(lower.value)
        }
        return variants
    }

    /// A word character of `\w`, `\<`, `\>` and `\b`: a letter, a digit or `_` (grep's `[_[:alnum:]]`).
    /// The simple uppercase form of `scalar` (itself when it has none of one character).
    static func uppercased(_ scalar: UInt32) -> UInt32 {
        if scalar < 0x80 { return scalar >= 0x61 && scalar <= 0x7A ? scalar - 0x20 : scalar }
        guard let character = Unicode.Scalar(scalar) else { return scalar }
        var mapped = character.properties.uppercaseMapping.unicodeScalars.makeIterator()
        guard let first = mapped.next(), mapped.next() == nil else { return scalar }
        return first.value
    }

    static func isWordScalar(_ scalar: UInt32) -> Bool { scalar == 0x5F || inClass("alnum", scalar) }


    /// The UTF-8 scalar at `position` and its length; an invalid byte is its own "scalar" (0xDC00 + b,
    /// a surrogate, so it can never equal a real scalar).
    package static func scalar(in text: [UInt8], at position: Int) -> (UInt32, Int) {
        scalar(in: text[...], at: position)
    }

    /// Whether `scalar` stands for a byte that is not valid UTF-8 (see `scalar(in:at:)`).
    static func isEncodingError(_ scalar: UInt32) -> Bool { scalar >= 0xDC80 && scalar <= 0xDCFF }

    /// The scalar that ends just before `position`, or nil at the start or after an encoding error.
    static func scalar(endingAt position: Int, in text: [UInt8]) -> UInt32? {
        var start = position - 1
        while start >= 0, start > position - 4, text[start] & 0xC0 == 0x80 { start -= 1 }
        guard start >= 0 else { return nil }
        let (value, length) = scalar(in: text, at: start)
        return start + length == position && !isEncodingError(value) ? value : nil
    }

    static func scalar(in text: ArraySlice<UInt8>, at position: Int) -> (UInt32, Int) {
        let lead = text[position]
        if lead < 0x80 { return (UInt32(lead), 1) }
        let length: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; value = UInt32(lead & 0x07)
        default: return (0xDC00 + UInt32(lead), 1)
        }
        guard position + length <= text.count else { return (0xDC00 + UInt32(lead), 1) }
        // The second byte's range rules out overlong forms, surrogates and values past U+10FFFF.
        let second = text[position + 1]
        let secondRange: ClosedRange<UInt8> = switch lead {
        case 0xE0: 0xA0...0xBF
        case 0xED: 0x80...0x9F
        case 0xF0: 0x90...0xBF
        case 0xF4: 0x80...0x8F
        default: 0x80...0xBF
        }
        guard secondRange.contains(second) else { return (0xDC00 + UInt32(lead), 1) }
        for offset in 1..<length {
            let byte = text[position + offset]
            guard byte & 0xC0 == 0x80 else { return (0xDC00 + UInt32(lead), 1) }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        return (value, length)
    }

    /// Whether `scalar` is in the POSIX class `name`, as the C.UTF-8 locale's character classes say:
    /// `digit` and `xdigit` are ASCII only (POSIX requires it), every other class takes in the rest of
    /// Unicode by its general category. An encoding error is in no class.
    package static func inClass(_ name: String, _ scalar: UInt32) -> Bool {
        if name == "_word" { return isWordScalar(scalar) }
        if scalar < 0x80 {
            let isUpper = scalar >= 0x41 && scalar <= 0x5A
            let isLower = scalar >= 0x61 && scalar <= 0x7A
            let isDigit = scalar >= 0x30 && scalar <= 0x39
            switch name {
            case "alpha": return isUpper || isLower
            case "upper": return isUpper
            case "lower": return isLower
            case "digit": return isDigit
            case "alnum": return isUpper || isLower || isDigit
            case "space": return scalar == 0x20 || (scalar >= 0x09 && scalar <= 0x0D)
            case "blank": return scalar == 0x20 || scalar == 0x09
            case "punct": return scalar > 0x20 && scalar < 0x7F && !(isUpper || isLower || isDigit)
            case "print": return scalar >= 0x20 && scalar != 0x7F
            case "graph": return scalar > 0x20 && scalar != 0x7F
            case "cntrl": return scalar < 0x20 || scalar == 0x7F
            case "xdigit": return isDigit || (scalar >= 0x41 && scalar <= 0x46) || (scalar >= 0x61 && scalar <= 0x66)
            default: return false
            }
        }
        guard let character = Unicode.Scalar(scalar) else { return false }
        let properties = character.properties
        let category = properties.generalCategory
        // No-break spaces separate nothing, so they are not `space`.
        let isSpace = [.spaceSeparator, .lineSeparator, .paragraphSeparator].contains(category)
            && ![0x00A0, 0x2007, 0x202F].contains(scalar)
        let isAlpha = properties.isAlphabetic || category == .decimalNumber
        let isPrint = ![.control, .unassigned, .surrogate, .lineSeparator, .paragraphSeparator].contains(category)
        switch name {
        case "alpha", "alnum": return isAlpha
        case "upper": return caseVariants(scalar).count > 1 && properties.lowercaseMapping != String(character)
        case "lower": return caseVariants(scalar).count > 1 && properties.uppercaseMapping != String(character)
        case "space": return isSpace
        case "blank": return isSpace && category == .spaceSeparator
        case "punct": return isPrint && !isSpace && !isAlpha
        case "print": return isPrint
        case "graph": return isPrint && !isSpace
        case "cntrl": return category == .control || category == .lineSeparator || category == .paragraphSeparator
        default: return false
        }
    }
}
