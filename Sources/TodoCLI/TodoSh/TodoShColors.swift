/// todo.sh's list colouring (docs/todosh.md section 3, step 5): a line colour from done/priority, words wrapped
/// in the number/project/context/date/meta colours, escape codes decoded from the config's
/// `\\033[…m` strings.
struct TodoShColors {
    private let done: [UInt8]
    private let priorities: [UInt8: [UInt8]]
    private let priorityFallback: [UInt8]
    private let reset: [UInt8]
    private let number: [UInt8]
    private let project: [UInt8]
    private let context: [UInt8]
    private let date: [UInt8]
    private let meta: [UInt8]

    init(_ settings: TodoShSettings) {
        func decoded(_ name: String) -> [UInt8] { TodoShColors.decode(settings.color(name)) }
        done = decoded("COLOR_DONE")
        var table: [UInt8: [UInt8]] = [:]
        for letter in UInt8(0x41)...UInt8(0x5A) {
            let value = decoded("PRI_" + String(UnicodeScalar(letter)))
            if !value.isEmpty { table[letter] = value }
        }
        priorities = table
        priorityFallback = decoded("PRI_X")
        reset = decoded("DEFAULT")
        number = decoded("COLOR_NUMBER")
        project = decoded("COLOR_PROJECT")
        context = decoded("COLOR_CONTEXT")
        date = decoded("COLOR_DATE")
        meta = decoded("COLOR_META")
    }

    /// Whether any word colour (number, project, context, date, meta) is set.
    var colorsWords: Bool {
        !(number.isEmpty && project.isEmpty && context.isEmpty && date.isEmpty && meta.isEmpty)
    }

    /// The done line colour.
    var doneColor: [UInt8] { done }
    /// The reset (`DEFAULT`).
    var resetColor: [UInt8] { reset }
    /// The line colour of priority `letter` (A–Z): `PRI_letter` if set, else `PRI_X`.
    func priorityColor(_ letter: UInt8) -> [UInt8] { priorities[letter] ?? priorityFallback }
    /// Whether a line colour or the reset holds an LF (then printed lines are not one per entry).
    var lineColorsHoldNewline: Bool {
        done.contains(0x0A) || reset.contains(0x0A) || priorityFallback.contains(0x0A)
            || priorities.values.contains { $0.contains(0x0A) }
    }

    /// One or more backslashes followed by `033` become ESC; everything else stays.
    static func decode(_ value: String) -> [UInt8] {
        let bytes = Array(value.utf8)
        var result: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x5C {
                var end = index
                while end < bytes.count && bytes[end] == 0x5C { end += 1 }
                if end + 3 <= bytes.count, bytes[end] == 0x30, bytes[end + 1] == 0x33, bytes[end + 2] == 0x33 {
                    result.append(0x1B)
                    index = end + 3
                    continue
                }
                result.append(contentsOf: bytes[index..<end])
                index = end
                continue
            }
            result.append(bytes[index])
            index += 1
        }
        return result
    }

    /// Colours one numbered line `NNN text`; with `hidePriority`, a priority line loses its `(L) `.
    /// The line colour of an overdue task under the name `todo` (bold red).
    static let overdueColor: [UInt8] = [0x1B] + Array("[1;31m".utf8)

    func apply(_ line: [UInt8], hidePriority: Bool, overdue: Bool = false) -> [UInt8] {
        var line = line
        guard let space = line.firstIndex(of: 0x20) else { return line }
        let textStart = space + 1
        var lineColor: [UInt8] = []
        if line.count >= textStart + 2, line[textStart] == UInt8(ascii: "x"), line[textStart + 1] == 0x20 {
            lineColor = done
        } else if line.count >= textStart + 4, line[textStart] == 0x28, line[textStart + 2] == 0x29,
                  line[textStart + 3] == 0x20, line[textStart + 1] >= 0x41, line[textStart + 1] <= 0x5A {
            lineColor = priorities[line[textStart + 1]] ?? priorityFallback
            if hidePriority { line.removeSubrange(textStart..<(textStart + 4)) }
        }
        // Overdue beats priority: the line turns red (only when colours are on at all).
        if overdue && !reset.isEmpty { lineColor = TodoShColors.overdueColor }
        let wordsColored = !(number.isEmpty && project.isEmpty && context.isEmpty && date.isEmpty && meta.isEmpty)
        if lineColor.isEmpty && !wordsColored { return line }
        var result = lineColor
        result.reserveCapacity(line.count + lineColor.count + reset.count * 2)
        if wordsColored {
            var index = 0
            var first = true
            while index < line.count {
                if line[index] == 0x20 || line[index] == 0x09 {
                    result.append(line[index])
                    index += 1
                    continue
                }
                var end = index
                while end < line.count && line[end] != 0x20 && line[end] != 0x09 { end += 1 }
                let word = line[index..<end]
                let color = colorOf(word, first: first)
                if color.isEmpty {
                    result += word
                } else {
                    result += color
                    result += word
                    result += reset
                    result += lineColor
                }
                first = false
                index = end
            }
        } else {
            result += line
        }
        if !lineColor.isEmpty { result += reset }
        return result
    }

    private func colorOf(_ word: ArraySlice<UInt8>, first: Bool) -> [UInt8] {
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        func isAlnum(_ byte: UInt8) -> Bool { isDigit(byte) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) }
        let bytes = Array(word)
        if first && bytes.allSatisfy(isDigit) { return number }
        if bytes.count >= 2, let last = bytes.last, isAlnum(last) || last == 0x5F {
            if bytes[0] == UInt8(ascii: "+") { return project }
            if bytes[0] == UInt8(ascii: "@") { return context }
        }
        if bytes.count == 10, isDate(bytes) { return date }
        if let colon = bytes.firstIndex(of: 0x3A), colon > 0, colon + 1 < bytes.count,
           bytes[..<colon].allSatisfy(isAlnum) {
            return meta
        }
        return []
    }

    /// `(19|20)YY-MM-DD` with month 01–12 and day 01–31.
    private func isDate(_ b: [UInt8]) -> Bool {
        func digit(_ i: Int) -> Int? { b[i] >= 0x30 && b[i] <= 0x39 ? Int(b[i] - 0x30) : nil }
        guard let c0 = digit(0), let c1 = digit(1), digit(2) != nil, digit(3) != nil, b[4] == 0x2D,
              let m0 = digit(5), let m1 = digit(6), b[7] == 0x2D, let d0 = digit(8), let d1 = digit(9) else { return false }
        guard (c0 == 1 && c1 == 9) || (c0 == 2 && c1 == 0) else { return false }
        let month = m0 * 10 + m1, day = d0 * 10 + d1
        return (1...12).contains(month) && (1...31).contains(day)
    }
}
