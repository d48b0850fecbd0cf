/// A further ordering of the open tasks for `todo sort --by` (format.md section 5).
public enum SortKey: String, Sendable, CaseIterable {
    /// `(A)` first, then B…Z, then tasks without a priority.
    case priority
    /// Earliest `due:` first; tasks without a valid due date after.
    case due
    /// Earliest `t:` threshold first; none after.
    case threshold
    /// Oldest creation date first; none after.
    case created
    /// The body, ASCII case-insensitively, bytewise.
    case text

    /// Parses a comma-separated list such as `priority,due`.
    public static func parseList(_ text: String) -> [SortKey]? {
        var keys: [SortKey] = []
        for name in text.split(separator: ",") {
            guard let key = SortKey(rawValue: String(name)) else { return nil }
            keys.append(key)
        }
        return keys.isEmpty ? nil : keys
    }
}

extension TodoDocument {
    /// Whether the line at `index` is a completed task (starts with `x` and a space).
    func isCompletedLine(_ index: Int) -> Bool {
        let record = records[index]
        var start = record.start
        var length = record.length
        // A line of its own starting with a byte order mark reads past it (see TodoItem.parseHeader).
        if length >= 3 && storage[start] == 0xEF && storage[start + 1] == 0xBB && storage[start + 2] == 0xBF {
            start += 3
            length -= 3
        }
        return length >= 2 && storage[start] == 0x78 && storage[start + 1] == 0x20
    }

    /// The new line order: open lines (tasks, blank lines, comments) keep their relative order on top,
    /// completed tasks follow in theirs. With `keys`, open tasks are further ordered by them, stably;
    /// blank lines, which have no keys, then sit at the end of the open group.
    ///
    /// Complexity: O(n) without keys; O(n log n) with keys.
    public func sortedOrder(by keys: [SortKey] = []) -> [Int] {
        var open: [Int] = []
        var done: [Int] = []
        open.reserveCapacity(lineCount)
        for index in 0..<lineCount {
            if isCompletedLine(index) { done.append(index) } else { open.append(index) }
        }
        if !keys.isEmpty {
            let sortable = open.map { (index: $0, item: item(at: $0)) }
            let ordered = sortable.enumerated().sorted { lhs, rhs in
                let order = TodoDocument.compare(lhs.element.item, rhs.element.item, by: keys)
                return order != 0 ? order < 0 : lhs.offset < rhs.offset
            }
            open = ordered.map(\.element.index)
        }
        return open + done
    }

    /// Three-way comparison of two open lines by `keys`; blank lines after every task.
    static func compare(_ lhs: TodoItem, _ rhs: TodoItem, by keys: [SortKey]) -> Int {
        if lhs.isBlank != rhs.isBlank { return lhs.isBlank ? 1 : -1 }
        if lhs.isBlank { return 0 }
        func optional<T: Comparable>(_ a: T?, _ b: T?) -> Int {
            switch (a, b) {
            case let (a?, b?): return a < b ? -1 : (b < a ? 1 : 0)
            case (nil, nil): return 0
            case (nil, _): return 1
            case (_, nil): return -1
            }
        }
        for key in keys {
            let order: Int
            switch key {
            case .priority: order = optional(lhs.priority, rhs.priority)
            case .due: order = optional(lhs.due.value, rhs.due.value)
            case .threshold: order = optional(lhs.threshold.value, rhs.threshold.value)
            case .created: order = optional(lhs.creationDate, rhs.creationDate)
            case .text:
                let a = lhs.bodyBytes.lazy.map(asciiUppercased), b = rhs.bodyBytes.lazy.map(asciiUppercased)
                order = a.lexicographicallyPrecedes(b) ? -1 : (b.lexicographicallyPrecedes(a) ? 1 : 0)
            }
            if order != 0 { return order }
        }
        return 0
    }

    /// The document sorted (format.md section 5): a permutation of its lines, idempotent.
    public func sorted(by keys: [SortKey] = []) -> TodoDocument {
        var copy = self
        let order = sortedOrder(by: keys)
        if order.elementsEqual(0..<lineCount) { return copy }
        copy.reorder(order)
        return copy
    }

    /// Sorts file bytes: completed tasks sink, stably. Equal to the input when already sorted.
    public static func sort(_ bytes: [UInt8], by keys: [SortKey] = []) -> [UInt8] {
        let document = TodoDocument(bytes: bytes)
        let order = document.sortedOrder(by: keys)
        if order.elementsEqual(0..<document.lineCount) { return bytes }
        var sorted = document
        sorted.reorder(order)
        return sorted.rendered()
    }
}

@inline(__always)
func asciiUppercased(_ byte: UInt8) -> UInt8 { byte &- 0x61 < 26 ? byte - 0x20 : byte }
