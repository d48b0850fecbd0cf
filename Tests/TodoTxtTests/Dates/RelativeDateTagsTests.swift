import Testing
import TodoTestSupport
@testable import TodoTxt

@Suite struct RelativeDateTagsTests {
    /// 2026-12-02 is a Wednesday.
    let today = d("2026-12-02")

    func resolved(_ text: String, keeping kept: String = "") throws(RelativeDateError) -> String {
        String(decoding: try RelativeDateTags.resolving(Array(text.utf8), today: today, keeping: Array(kept.utf8)), as: UTF8.self)
    }

    @Test func resolvesEachDateKeyInPlace() throws {
        #expect(try resolved("pay rent due:tm uid:k3f9qz") == "pay rent due:2026-12-03 uid:k3f9qz")
        #expect(try resolved("(A) 2026-11-01 call  t:-1d\tuntil:fri due:wed +home")
                == "(A) 2026-11-01 call  t:2026-12-01\tuntil:2026-12-04 due:2026-12-09 +home")
        #expect(try resolved("x 2026-12-01 done due:today") == "x 2026-12-01 done due:2026-12-02")
    }

    @Test func leavesEverythingElse() throws {
        for text in ["plain text", "due:2026-12-24 already", "Due:tm other key", "tm: not a tag", "rec:1w h:1",
                     "uid:today stays", "at 12:30 today", "due: alone", "url http://due:x"] {
            #expect(try resolved(text) == text)
        }
    }

    @Test func repeatedKeysAreEachResolved() throws {
        #expect(try resolved("a due:tm b due:1w") == "a due:2026-12-03 b due:2026-12-09")
    }

    @Test func refusesAValueThatIsNoDate() {
        #expect(throws: RelativeDateError(key: "due", value: "tomorow", problem: .notADate(suggestion: "tomorrow"))) {
            try resolved("pay rent due:tomorow")
        }
        #expect(throws: RelativeDateError(key: "t", value: "soon", problem: .notADate(suggestion: nil))) {
            try resolved("x t:soon")
        }
        #expect(throws: RelativeDateError(key: "due", value: "2026-02-30", problem: .notADate(suggestion: nil))) {
            try resolved("x due:2026-02-30")
        }
        #expect(throws: RelativeDateError(key: "until", value: "99999y", problem: .beyondCalendar)) {
            try resolved("x until:99999y")
        }
        let message = RelativeDateError(key: "due", value: "tomorow", problem: .notADate(suggestion: "tomorrow")).description
        #expect(message == "due:tomorow is not a date or a relative date (did you mean due:tomorrow?)")
    }

    @Test func keptWordsAreNotTypedNow() throws {
        // An edit field holding the task's old, invalid value: only the newly typed date counts.
        #expect(try resolved("call due:soon t:tm", keeping: "2026-11-01 call due:soon uid:k3") == "call due:soon t:2026-12-03")
        #expect(throws: RelativeDateError.self) { try resolved("call due:soonish", keeping: "call due:soon") }
    }

    @Test func everyFormResolvesAsTheExpressionDoes() throws {
        // Month ends, leap years, the weekday that is today, business days across a weekend.
        #expect(try RelativeDateTags.resolving(Array("a due:1m".utf8), today: d("2026-01-31")) == Array("a due:2026-02-28".utf8))
        #expect(try RelativeDateTags.resolving(Array("a due:1m".utf8), today: d("2028-01-31")) == Array("a due:2028-02-29".utf8))
        #expect(try RelativeDateTags.resolving(Array("a due:1y".utf8), today: d("2028-02-29")) == Array("a due:2029-02-28".utf8))
        #expect(try resolved("a due:wednesday") == "a due:2026-12-09")
        #expect(try RelativeDateTags.resolving(Array("a due:1b".utf8), today: d("2026-12-04")) == Array("a due:2026-12-07".utf8))
    }

    /// Random lines of words (tags of every key, relative and absolute values, uids, odd spacing):
    /// the rewrite changes exactly the date tags' relative values, each to what `DateExpression`
    /// resolves, and every other byte is kept.
    @Test func rewritingTouchesOnlyDateValues() throws {
        let settings = PropertySettings(defaultSeed: 0x25DA7E, defaultCount: 3000)
        var rng = SplitMix64(seed: settings.seed)
        let values = ["tm", "today", "yesterday", "fri", "Monday", "3d", "-2w", "+1m", "1y", "5b", "2026-12-24"]
        let words = ["buy", "milk", "@home", "+proj", "rec:1w", "uid:k3f9qz", "Due:tm", "tm", "12:30", "x", "(A)", "2026-01-01", "café"]
        let keys = ["due", "t", "until"]
        for iteration in 0..<settings.count {
            var line: [UInt8] = []
            var expected: [UInt8] = []
            let today = TodoDate(daysSinceEpoch: Int(rng.next() % 20_000))!
            for position in 0..<Int(rng.next() % 8 + 1) {
                if position > 0 {
                    let space: [UInt8] = [[0x20], [0x20, 0x20], [0x09]][Int(rng.next() % 3)]
                    line += space
                    expected += space
                }
                if rng.next() % 3 == 0 {
                    let key = keys[Int(rng.next() % 3)], value = values[Int(rng.next() % UInt64(values.count))]
                    let resolved = try #require(DateExpression(value)?.resolve(today: today))
                    line += Array("\(key):\(value)".utf8)
                    expected += Array("\(key):\(resolved)".utf8)
                } else {
                    let word = words[Int(rng.next() % UInt64(words.count))]
                    line += Array(word.utf8)
                    expected += Array(word.utf8)
                }
            }
            let result = try RelativeDateTags.resolving(line, today: today)
            #expect(result == expected, "seed \(settings.seed) iteration \(iteration): \(String(decoding: line, as: UTF8.self))")
            #expect(TodoItem(result).uid == TodoItem(line).uid)
            if result != expected { break }
        }
    }
}
