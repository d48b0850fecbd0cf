extension FileSystem {
    /// `TODO_MAX_FILE_SIZE` as a number of bytes: a positive whole number, optionally followed by
    /// `K`, `M` or `G` (powers of 1024, either case; `2G` is 2 GiB); nil for anything else (a
    /// fraction, a negative number, zero, another suffix, a number beyond `Int64`). The CLI refuses
    /// a value this returns nil for, in one line, before any file is read (docs/todo-command.md).
    package static func parseSizeLimit(_ text: String) -> Int64? {
        var digits = Substring(text)
        var multiplier: Int64 = 1
        switch digits.last {
        case "K", "k": multiplier = 1 << 10
        case "M", "m": multiplier = 1 << 20
        case "G", "g": multiplier = 1 << 30
        default: break
        }
        if multiplier != 1 { digits = digits.dropLast() }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int64(digits), value > 0 else {
            return nil
        }
        let (bytes, overflow) = value.multipliedReportingOverflow(by: multiplier)
        return overflow ? nil : bytes
    }
}
