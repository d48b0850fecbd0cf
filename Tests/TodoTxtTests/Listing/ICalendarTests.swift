import Testing
@testable import TodoTxt

/// The iCalendar writer of the calendar feed (docs/todo-command.md, "Calendar feed"): folding,
/// escaping, each property, the RRULE and PRIORITY mappings, and the derived UIDs.
@Suite struct ICalendarTests {
    /// 2026-12-02 13:45:30 UTC.
    let stamp = 1_796_219_130

    func lines(_ text: [String]) -> [ArraySlice<UInt8>] { text.map { Array($0.utf8)[...] } }

    /// The feed of `text` as content lines, unfolded (CRLF + space removed), split at CRLF.
    func unfolded(_ text: [String], includes: (Int) -> Bool = { _ in true }) -> [String] {
        let bytes = ICalendarFeed(stamp: stamp).calendar(lines(text), includes: includes)
        let joined = String(decoding: bytes, as: UTF8.self).replacingAll("\r\n ", with: "")
        return joined.components("\r\n")
    }

    func todo(_ line: String) -> ICalendarTodo { ICalendarTodo(TodoItem(line), fallbackUID: "fallback") }

    @Test func shortLineIsNotFolded() {
        var out: [UInt8] = []
        ICalendarText.appendLine("SUMMARY:short", to: &out)
        #expect(out == Array("SUMMARY:short\r\n".utf8))
    }

    @Test func lineOfExactlyTheLimitIsNotFolded() {
        var out: [UInt8] = []
        let line = String(repeating: "a", count: 75)
        ICalendarText.appendLine(line, to: &out)
        #expect(out == Array((line + "\r\n").utf8))
    }

    @Test func longAsciiLineFoldsAt75Octets() {
        var out: [UInt8] = []
        let line = String(repeating: "x", count: 200)
        ICalendarText.appendLine(line, to: &out)
        let physical = String(decoding: out, as: UTF8.self).components("\r\n").dropLast()
        #expect(physical.map(\.utf8.count) == [75, 75, 52])
        #expect(physical.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        #expect(String(decoding: out, as: UTF8.self).replacingAll("\r\n ", with: "") == line + "\r\n")
    }

    /// Multi-byte characters at every possible offset of the fold: no physical line is longer than
    /// 75 octets, every one is valid UTF-8 on its own, and unfolding gives the line back.
    @Test func foldNeverSplitsAUTF8Sequence() {
        for prefix in 0..<4 {
            for character in ["é", "€", "😀"] {
                let line = String(repeating: "a", count: 70 + prefix) + String(repeating: character, count: 40)
                var out: [UInt8] = []
                ICalendarText.appendLine(line, to: &out)
                var pieces: [[UInt8]] = [[]]
                var index = 0
                while index < out.count {
                    if out[index] == 0x0D, index + 1 < out.count, out[index + 1] == 0x0A {
                        pieces.append([]); index += 2; continue
                    }
                    pieces[pieces.count - 1].append(out[index]); index += 1
                }
                pieces.removeLast()
                for piece in pieces {
                    #expect(piece.count <= 75)
                    #expect(String(validating: piece, as: UTF8.self) != nil, "split inside \(character) at \(prefix)")
                }
                #expect(pieces.first?.count ?? 0 >= 72)
                #expect(String(decoding: out, as: UTF8.self).replacingAll("\r\n ", with: "") == line + "\r\n")
            }
        }
    }

    @Test func textEscaping() {
        #expect(ICalendarText.escaped(#"a\b;c,d"#) == #"a\\b\;c\,d"#)
        #expect(ICalendarText.escaped("one\ntwo") == #"one\ntwo"#)
        #expect(ICalendarText.escaped("tab\there\u{1}bell\u{7F}") == "tab\there bell ")
        #expect(ICalendarText.escaped("Grüße: 😀") == "Grüße: 😀")
    }

    @Test func dateAndDateTimeValues() {
        #expect(ICalendarText.date(TodoDate(year: 2026, month: 3, day: 4)!) == "20260304")
        #expect(ICalendarText.dateTime(secondsSinceEpoch: stamp) == "20261202T134530Z")
        #expect(ICalendarText.dateTime(secondsSinceEpoch: 0) == "19700101T000000Z")
        #expect(ICalendarText.dateTime(secondsSinceEpoch: -1) == "19691231T235959Z")
        #expect(ICalendarText.dateTime(secondsSinceEpoch: Int.max / 2) == "99991231T235959Z")
    }

    @Test func everyPropertyOfAnOpenTask() {
        let task = todo("(B) 2026-11-01 water +garden plants @home due:2026-12-05 t:2026-12-01 rec:+2w uid:k3f9 h:0")
        #expect(task.uid == "k3f9")
        #expect(task.summary == "water +garden plants @home h:0")
        #expect(task.due == TodoDate(year: 2026, month: 12, day: 5))
        #expect(task.start == TodoDate(year: 2026, month: 12, day: 1))
        #expect(task.priority == 2)
        #expect(!task.isCompleted)
        #expect(task.completionDate == nil)
        #expect(task.categories == ["+garden", "@home"])
        #expect(task.recurrenceRule == "FREQ=WEEKLY;INTERVAL=2")
    }

    @Test func doneTaskKeepsItsPriorityTagAndGetsCompleted() {
        let task = todo("x 2026-12-01 2026-11-20 file taxes +money pri:A")
        #expect(task.isCompleted)
        #expect(task.completionDate == TodoDate(year: 2026, month: 12, day: 1))
        #expect(task.priority == 1)
        #expect(task.summary == "file taxes +money")
        #expect(task.uid == "fallback")
        let feed = unfolded(["x 2026-12-01 file taxes"])
        #expect(feed.contains("STATUS:COMPLETED"))
        #expect(feed.contains("COMPLETED:20261201T000000Z"))
        #expect(unfolded(["x file taxes"]).filter { $0.hasPrefix("COMPLETED") }.isEmpty)
    }

    /// A tag that no property carries stays in the text, so nothing the line says is lost.
    @Test func tagsNoPropertyCarriesStayInTheSummary() {
        let task = todo("a due:soon t:2026-12-09 due:2026-12-01 rec:1w")
        #expect(task.due == nil)
        #expect(task.start == TodoDate(year: 2026, month: 12, day: 9))
        #expect(task.summary == "a due:soon due:2026-12-01 rec:1w")
        let late = todo("b due:2026-12-01 t:2026-12-09 rec:+1d")
        #expect(late.start == nil)
        #expect(late.summary == "b t:2026-12-09")
        #expect(late.recurrenceRule == "FREQ=DAILY")
        let undated = todo("c rec:+1d")
        #expect(undated.recurrenceRule == nil)
        #expect(undated.summary == "c rec:+1d")
        let done = todo("x 2026-12-01 d due:2026-12-01 rec:+1d")
        #expect(done.recurrenceRule == nil)
        #expect(done.summary == "d rec:+1d")
    }

    @Test func uuidIsTheUIDWhenThereIsNoUid() {
        #expect(todo("a uuid:AB-12").uid == "AB-12")
        #expect(todo("a uuid:AB-12").summary == "a")
        #expect(todo("a uuid:AB-12 uid:k1").uid == "k1")
        #expect(todo("a uuid:AB-12 uid:k1").summary == "a uuid:AB-12")
    }

    @Test func priorityMapping() {
        let expected: [UInt8: Int] = [0x41: 1, 0x42: 2, 0x43: 3, 0x48: 8, 0x49: 9, 0x4A: 9, 0x5A: 9]
        for (letter, value) in expected {
            #expect(ICalendarTodo.priorityValue(Priority(letter: letter)!) == value)
        }
        #expect(todo("no priority").priority == nil)
    }

    @Test func recurrenceMapping() {
        let cases: [(String, String?)] = [
            ("+1d", "FREQ=DAILY"), ("+3d", "FREQ=DAILY;INTERVAL=3"), ("+1w", "FREQ=WEEKLY"),
            ("+2m", "FREQ=MONTHLY;INTERVAL=2"), ("+1y", "FREQ=YEARLY"), ("+10y", "FREQ=YEARLY;INTERVAL=10"),
            ("+1b", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"), ("+2b", nil),
            ("1d", nil), ("1w", nil), ("1b", nil),
        ]
        for (text, rule) in cases {
            #expect(ICalendarTodo.recurrenceRule(for: Recurrence(text)!) == rule, "rec:\(text)")
        }
    }

    @Test func feedShapeAndWhichLines() {
        let feed = unfolded(["(A) one +p @c", "", "hidden h:1", "x 2026-12-01 two", "three"], includes: { $0 != 4 })
        #expect(feed.first == "BEGIN:VCALENDAR")
        #expect(feed.contains("VERSION:2.0"))
        #expect(feed.contains { $0.hasPrefix("PRODID:") })
        #expect(feed.filter { $0 == "BEGIN:VTODO" }.count == 2)
        #expect(feed.filter { $0 == "DTSTAMP:20261202T134530Z" }.count == 2)
        #expect(feed.contains("SUMMARY:one +p @c"))
        #expect(feed.contains("CATEGORIES:+p,@c"))
        #expect(feed.contains("PRIORITY:1"))
        #expect(feed.contains("STATUS:NEEDS-ACTION"))
        #expect(feed.contains("SUMMARY:two"))
        #expect(!feed.contains("SUMMARY:three"))
        #expect(!feed.contains { $0.contains("hidden") })
        #expect(feed.suffix(2) == ["END:VCALENDAR", ""])
    }

    @Test func escapedSummaryAndCategories() {
        let feed = unfolded([#"call; then\write, +a,b @x;y"#])
        #expect(feed.contains(#"SUMMARY:call\; then\\write\, +a\,b @x\;y"#))
        #expect(feed.contains(#"CATEGORIES:+a\,b,@x\;y"#))
    }

    /// Derived UIDs: the same for the same words on every run, whatever the header says; equal lines
    /// differ by their occurrence; a filter does not change them; a repeated `uid:` gets a suffix.
    @Test func derivedUIDs() {
        func uids(_ text: [String], includes: (Int) -> Bool = { _ in true }) -> [String] {
            unfolded(text, includes: includes).filter { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) }
        }
        let first = uids(["buy milk", "other", "buy milk"])
        #expect(first.count == 3)
        #expect(first == uids(["buy milk", "other", "buy milk"]))
        #expect(Set(first).count == 3)
        #expect(first[0].hasSuffix("-0") && first[2].hasSuffix("-1"))
        #expect(first[0].dropLast(2) == first[2].dropLast(2))
        #expect(uids(["(A) 2026-11-01 buy milk"]) == [first[0]])
        #expect(uids(["x 2026-12-01 2026-11-01 buy milk pri:A"]) == [first[0]])
        #expect(uids(["buy  milk "]) == [first[0]])
        #expect(uids(["buy milk due:2026-12-01"]) != [first[0]])
        #expect(uids(["buy milk", "other", "buy milk"], includes: { $0 == 2 }) == [first[2]])
        #expect(uids(["a uid:k1", "b uid:k1", "c uid:k1"]) == ["k1", "k1-2", "k1-3"])
        #expect(ICalendarFeed.derivedUID(key: [], occurrence: 0) == "todo-cbf29ce484222325-0")
    }
}

private extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        components(target).joined(separator: replacement)
    }

    func components(_ separator: String) -> [String] {
        var result: [String] = []
        var rest = Substring(self)
        while let range = rest.firstRange(of: separator) {
            result.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        result.append(String(rest))
        return result
    }
}
