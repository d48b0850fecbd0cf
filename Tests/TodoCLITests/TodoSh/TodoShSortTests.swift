import Testing
@testable import TodoCLI
import TodoTxt

/// The radix sort behind `ls` against a plain comparison sort with the same definition of the order
/// (`sort -f -k2` under C collation, ties by number, then raw bytes), on random lines chosen to collide:
/// shared 8- and 16-byte prefixes, case variants, NUL bytes, prefixes of each other, duplicates.
@Suite struct TodoShSortTests {
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    static func reference(_ entries: [TodoShListing.Entry], _ bytes: [UInt8]) -> [Int] {
        func fold(_ byte: UInt8) -> UInt8 { byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte }
        return entries.indices.sorted { left, right in
            let a = entries[left], b = entries[right]
            let x = bytes[a.start..<(a.start + a.length)], y = bytes[b.start..<(b.start + b.length)]
            for (p, q) in zip(x, y) where fold(p) != fold(q) { return fold(p) < fold(q) }
            if a.length != b.length { return a.length < b.length }
            if a.number != b.number { return a.number < b.number }
            for (p, q) in zip(x, y) where p != q { return p < q }
            return left < right
        }
    }

    @Test(arguments: [1, 2, 3, 30, 700, 5000])
    func radixSortMatchesComparisonSort(count: Int) {
        var random = Generator(state: UInt64(count) &* 7919)
        let stems = ["X 2022-03-13 ", "x 2022-03-13 ", "(A) 2024-01-01 ", "2024-01-0", "abcdefgh", "ABCDEFGH", "", "  "]
        let alphabet: [UInt8] = [0x00, 0x20, 0x28, 0x41, 0x61, 0x5A, 0x7A, 0x5F, 0x7B, 0x78, 0x58, 0xC3]
        var buffer: [UInt8] = []
        var entries: [TodoShListing.Entry] = []
        for index in 0..<count {
            var line = Array(stems[random.next(stems.count)].utf8)
            for _ in 0..<random.next(20) { line.append(alphabet[random.next(alphabet.count)]) }
            if random.next(5) == 0, let previous = entries.last {
                line = Array(buffer[previous.start..<(previous.start + previous.length)])  // a duplicate
            }
            let number = random.next(4) == 0 ? 0 : index + 1
            entries.append(.init(number: number, filterNumber: index + 1, start: buffer.count, length: line.count))
            buffer += line
        }
        #expect(TodoShListing.sortedDefault(entries, buffer) == Self.reference(entries, buffer))
    }
}
