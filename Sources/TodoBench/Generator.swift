import TodoTestSupport

/// Seeded, realistic todo.txt content for the benchmarks.
///
/// Lines look like a busy person's list: about 30% completed (scattered, not grouped), priorities,
/// creation and completion dates, projects, contexts, `due:`/`t:`/`rec:`/`pri:` tags and `uid:` on most
/// lines, LF endings, 40–90 bytes of content each, a rare blank line. The same seed gives the same bytes.
struct TodoFileGenerator {

    var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    static let words: [[UInt8]] = [
        "call", "email", "review", "write", "fix", "plan", "buy", "book", "send", "check", "update", "read",
        "draft", "clean", "pay", "renew", "ask", "about", "the", "for", "with", "new", "old", "quarterly",
        "report", "invoice", "slides", "garden", "tickets", "dentist", "insurance", "budget", "proposal",
        "meeting", "notes", "car", "groceries", "backup", "server", "release", "tests", "bug", "mom", "Anna",
        "landlord", "taxes", "passport", "café", "Grüße", "naïve", "résumé", "数据", "before", "after", "friday",
    ].map { Array($0.utf8) }
    static let projects: [[UInt8]] = ["+home", "+work", "+garden", "+taxes2026", "+Release-3.1", "+family",
                                      "+house.move", "+blog"].map { Array($0.utf8) }
    static let contexts: [[UInt8]] = ["@phone", "@computer", "@errands", "@office", "@home", "@waiting",
                                      "@anywhere"].map { Array($0.utf8) }
    static let uidAlphabet: [UInt8] = Array("0123456789abcdefghjkmnpqrstvwxyz".utf8)

    mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
    mutating func pick<T>(_ from: [T]) -> T { from[Int(random.next() % UInt64(from.count))] }
    mutating func number(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(random.next() % UInt64(range.count))
    }

    mutating func date() -> [UInt8] {
        let year = number(2024...2026), month = number(1...12), day = number(1...28)
        func two(_ value: Int) -> [UInt8] { [UInt8(0x30 + value / 10), UInt8(0x30 + value % 10)] }
        return Array(String(year).utf8) + [0x2D] + two(month) + [0x2D] + two(day)
    }

    /// One line's content, 40–90 bytes (a little under 40 only for the rare very short task).
    mutating func line() -> [UInt8] {
        if chance(1) && random.next() % 2 == 0 { return [] }
        let target = number(40...90)
        var header: [UInt8] = []
        var tail: [[UInt8]] = []
        let completed = chance(30)
        let priority = UInt8(0x41 + number(0...4))
        if completed {
            header += [0x78, 0x20] + date() + [0x20]
            if chance(20) { tail.append(Array("pri:".utf8) + [priority]) }
        } else if chance(40) {
            header += [0x28, priority, 0x29, 0x20]
        }
        if chance(60) { header += date() + [0x20] }
        for _ in 0..<number(0...2) { tail.insert(pick(Self.projects), at: 0) }
        for _ in 0..<number(0...1) { tail.insert(pick(Self.contexts), at: tail.count / 2) }
        if chance(30) { tail.append(Array("due:".utf8) + date()) }
        if chance(10) { tail.append(Array("t:".utf8) + date()) }
        if chance(5) { tail.append(Array("rec:".utf8) + pick([Array("1w".utf8), Array("+1m".utf8), Array("3d".utf8)])) }
        if chance(80) {
            var uid: [UInt8] = Array("uid:".utf8)
            uid.append(Self.uidAlphabet[10 + number(0...21)])
            for _ in 0..<5 { uid.append(pick(Self.uidAlphabet)) }
            tail.append(uid)
        }
        let tailLength = tail.reduce(0) { $0 + $1.count + 1 }
        var body: [UInt8] = []
        repeat {
            if !body.isEmpty { body.append(0x20) }
            body += pick(Self.words)
        } while header.count + body.count + tailLength + 6 < target
        while header.count + body.count + tailLength > 90, let space = body.lastIndex(of: 0x20) {
            body.removeSubrange(space...)  // rare: drop trailing words
        }
        var out = header + body
        for token in tail { out.append(0x20); out += token }
        return out
    }

    /// `count` lines, each ended by LF.
    mutating func file(lines count: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count * 70)
        for _ in 0..<count {
            out += line()
            out.append(0x0A)
        }
        return out
    }
}

