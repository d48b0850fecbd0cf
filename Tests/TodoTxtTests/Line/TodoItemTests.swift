import Testing
@testable import TodoTxt

/// docs/format.md section 2: the header grammar and the body fields. Every test parses through a document
/// and checks the round trip first.
@Suite struct TodoItemHeaderTests {
    @Test(arguments: ["X 2026-01-01 a", "x", "x\ta", " x a", "xylophone", "x\u{00A0}a", "x\u{3000}a", "(A) x a"])
    func notCompleted(_ line: String) {
        let item = parseLine(line)
        #expect(!item.isCompleted)
        #expect(item.completionDate == nil)
        #expect(item.isTask)
    }

    @Test func xAloneIsBodyText() {
        let item = parseLine("x")
        #expect(item.body == "x")
    }

    @Test func completedWithoutDate() {
        let item = parseLine("x text")
        #expect(item.isCompleted)
        #expect(item.completionDate == nil)
        #expect(item.creationDate == nil)
        #expect(item.body == "text")
    }

    @Test func completedWithEmptyBody() {
        let item = parseLine("x ")
        #expect(item.isCompleted)
        #expect(item.body == "")
    }

    @Test func completedWithCompletionDate() {
        let item = parseLine("x 2026-03-01 text")
        #expect(item.isCompleted)
        #expect(item.completionDate == d("2026-03-01"))
        #expect(item.creationDate == nil)
        #expect(item.body == "text")
    }

    @Test func completedWithBothDates() {
        let item = parseLine("x 2026-03-01 2026-02-01 text")
        #expect(item.completionDate == d("2026-03-01"))
        #expect(item.creationDate == d("2026-02-01"))
        #expect(item.priority == nil)
        #expect(item.body == "text")
    }

    @Test func completedPriorityThenTwoDates() {
        let item = parseLine("x (A) 2026-03-01 2026-02-01 text")
        #expect(item.isCompleted)
        #expect(item.priority == Priority("A"))
        #expect(item.completionDate == d("2026-03-01"))
        #expect(item.creationDate == d("2026-02-01"))
        #expect(item.body == "text")
    }

    @Test func completedPriorityThenOneDateIsCreation() {
        let item = parseLine("x (A) 2026-02-01 text")
        #expect(item.priority == Priority("A"))
        #expect(item.completionDate == nil)
        #expect(item.creationDate == d("2026-02-01"))
        #expect(item.body == "text")
    }

    @Test func completedPriorityWithoutDates() {
        let item = parseLine("x (B) text")
        #expect(item.isCompleted)
        #expect(item.priority == Priority("B"))
        #expect(item.completionDate == nil)
        #expect(item.body == "text")
    }

    @Test func completedDatePriorityDate() {
        let item = parseLine("x 2026-03-01 (A) 2026-02-01 text")
        #expect(item.completionDate == d("2026-03-01"))
        #expect(item.priority == Priority("A"))
        #expect(item.creationDate == d("2026-02-01"))
        #expect(item.body == "text")
    }

    @Test func completedDatePriorityWithoutCreation() {
        let item = parseLine("x 2026-03-01 (A) text")
        #expect(item.completionDate == d("2026-03-01"))
        #expect(item.priority == Priority("A"))
        #expect(item.creationDate == nil)
        #expect(item.body == "text")
    }

    @Test func completedPriorityThenTwoDatesAtLineEndLeavesSecondAsBody() {
        let item = parseLine("x (A) 2026-03-01 2026-02-01")
        #expect(item.creationDate == d("2026-03-01"))
        #expect(item.completionDate == nil)
        #expect(item.body == "2026-02-01")
    }

    @Test func openPriorityAndCreationDate() {
        let item = parseLine("(A) 2026-01-01 call mom")
        #expect(!item.isCompleted)
        #expect(item.priority == Priority("A"))
        #expect(item.creationDate == d("2026-01-01"))
        #expect(item.body == "call mom")
    }

    @Test func openCreationDateOnly() {
        let item = parseLine("2026-01-01 call mom")
        #expect(item.priority == nil)
        #expect(item.creationDate == d("2026-01-01"))
        #expect(item.body == "call mom")
    }

    @Test func dateBeforePriorityLeavesPriorityInBody() {
        let item = parseLine("2026-01-01 (A) call")
        #expect(item.priority == nil)
        #expect(item.creationDate == d("2026-01-01"))
        #expect(item.body == "(A) call")
    }

    @Test(arguments: ["(a) task", "(A)foo", "(AB) task", "(A)\ttask", " (A) task", "(A)\u{00A0}task", "((A) task",
                      "(1) task", "(Ä) task"])
    func notAPriority(_ line: String) {
        let item = parseLine(line)
        #expect(item.priority == nil)
        #expect(item.body == line)
    }

    @Test(arguments: ["(A)", "2026-01-01", "(A) 2026-01-01", "x 2026-01-01", "x (A)"])
    func tokenAtTheEndOfTheLineIsBody(_ line: String) {
        let item = parseLine(line)
        switch line {
        case "(A)":
            #expect(item.priority == nil)
            #expect(item.body == "(A)")
        case "2026-01-01":
            #expect(item.creationDate == nil)
            #expect(item.body == "2026-01-01")
        case "(A) 2026-01-01":
            #expect(item.priority == Priority("A"))
            #expect(item.creationDate == nil)
            #expect(item.body == "2026-01-01")
        case "x 2026-01-01":
            #expect(item.isCompleted)
            #expect(item.completionDate == nil)
            #expect(item.body == "2026-01-01")
        default:
            #expect(item.isCompleted)
            #expect(item.priority == nil)
            #expect(item.body == "(A)")
        }
    }

    @Test func twoSpacesEndTheHeader() {
        let item = parseLine("(A)  2026-01-01 a")
        #expect(item.priority == Priority("A"))
        #expect(item.creationDate == nil)
        #expect(item.body == " 2026-01-01 a")
    }

    @Test func twoSpacesAfterCompletionMark() {
        let item = parseLine("x  2026-01-01 a")
        #expect(item.isCompleted)
        #expect(item.completionDate == nil)
        #expect(item.body == " 2026-01-01 a")
    }

    @Test func twoSpacesAfterCreationDate() {
        let item = parseLine("2026-01-01  a")
        #expect(item.creationDate == d("2026-01-01"))
        #expect(item.body == " a")
    }

    @Test(arguments: ["2026-02-30", "2017-06-31", "0000-01-01", "2026-1-5", "2026-13-01", "2026-00-10", "2026-01-00",
                      "2026-01-32", "2026/01/01", "20260101xx", "２０２６-01-01"])
    func notADate(_ token: String) {
        #expect(TodoDate(token) == nil)
        let item = parseLine("\(token) body")
        #expect(item.creationDate == nil)
        #expect(item.body == "\(token) body")
        let done = parseLine("x \(token) body")
        #expect(done.completionDate == nil)
        #expect(done.body == "\(token) body")
    }

    @Test(arguments: [("2024-02-29", true), ("2000-02-29", true), ("1900-02-29", false), ("2026-02-29", false),
                      ("2100-02-29", false), ("2400-02-29", true), ("0004-02-29", true), ("9999-12-31", true),
                      ("0001-01-01", true)])
    func leapYears(_ token: String, _ valid: Bool) {
        #expect((TodoDate(token) != nil) == valid)
        #expect((parseLine("\(token) a").creationDate != nil) == valid)
    }

    @Test func blankLines() {
        for line in ["", " ", "\t", "  \t ", "\u{00A0}", "\u{3000}", "\r", "\u{0B}\u{0C}", "\u{2028}"] {
            let item = parseLine(line)
            #expect(item.isBlank, "\(show(b(line)))")
            #expect(!item.isTask)
            #expect(!item.isCompleted)
            #expect(item.projects.isEmpty && item.tags.isEmpty && item.uid == nil)
        }
    }

    @Test func lineStartingWithHashIsATask() {
        let item = parseLine("# heading +p")
        #expect(item.isTask)
        #expect(item.projects == ["p"])
    }

    @Test func nulIsContentNotWhitespace() {
        let item = parseLine([0x00])
        #expect(item.isTask)
        #expect(item.body == "\0")
    }

    @Test func byteOrderMarkOnLineOneDoesNotHideThePriority() {
        let document = parseRoundTrip([0xEF, 0xBB, 0xBF] + b("(A) 2026-01-01 first\r\nx 2026-01-02 second\r\n"))
        #expect(document.item(at: 0).priority == Priority("A"))
        #expect(document.item(at: 0).creationDate == d("2026-01-01"))
        #expect(document.item(at: 1).isCompleted)
    }

    @Test func invalidUTF8LineStillParses() {
        let item = parseLine(b("(B) 2026-01-01 caf") + [0xE9] + b(" +pr") + [0xFF] + b(" @c k:v") + [0xC0])
        #expect(item.priority == Priority("B"))
        #expect(item.creationDate == d("2026-01-01"))
        #expect(item.projects == ["pr\u{FFFD}"])
        #expect(item.contexts == ["c"])
        #expect(item.tags.map(\.value) == ["v\u{FFFD}"])
        #expect(item.body == "caf\u{FFFD} +pr\u{FFFD} @c k:v\u{FFFD}")
    }

    @Test func invalidUTF8InHeaderPositionIsBody() {
        let item = parseLine([0x78, 0xFF, 0x20, 0x61])
        #expect(!item.isCompleted)
    }
}

@Suite struct TodoItemBodyFieldTests {
    @Test(arguments: [
        ("+proj.", "proj."), ("+a+b", "a+b"), ("+p:x", "p:x"), ("+日本", "日本"), ("+(x)", "(x)"),
    ])
    func projectNames(_ word: String, _ name: String) {
        let item = parseLine("task \(word) end")
        #expect(item.projects == [name])
        #expect(item.tags.isEmpty)
    }

    @Test(arguments: [("@home)", "home)"), ("@a@b", "a@b"), ("@c:x", "c:x")])
    func contextNames(_ word: String, _ name: String) {
        let item = parseLine("task \(word)")
        #expect(item.contexts == [name])
        #expect(item.tags.isEmpty)
    }

    @Test(arguments: ["a+b", "me@example.com", "2+2", "+", "@", "foo+", "x@"])
    func neitherProjectNorContext(_ word: String) {
        let item = parseLine("task \(word) end")
        #expect(item.projects.isEmpty)
        #expect(item.contexts.isEmpty)
    }

    @Test func projectAtStartOfBody() {
        #expect(parseLine("+p first").projects == ["p"])
        #expect(parseLine("(A) +p first").projects == ["p"])
        #expect(parseLine("x 2026-01-01 @c").contexts == ["c"])
    }

    @Test func headerTokensAreNotFields() {
        let item = parseLine("(A) 2026-01-01 body")
        #expect(item.tags.isEmpty)
    }

    @Test func dedupInFirstOccurrenceOrder() {
        let item = parseLine("+b +a +b @y @x @y @x +c")
        #expect(item.projects == ["b", "a", "c"])
        #expect(item.contexts == ["y", "x"])
    }

    @Test func tagSplitAtFirstColon() {
        let item = parseLine("a:b:c")
        #expect(item.tags.map(\.key) == ["a"])
        #expect(item.tags.map(\.value) == ["b:c"])
    }

    @Test func tagRangesPointAtTheBytes() {
        let line = "(A) call due:2026-01-05 x"
        let item = parseLine(line)
        let tag = try! #require(item.tags.first)
        #expect(Array(b(line)[tag.range]) == b("due:2026-01-05"))
        #expect(Array(b(line)[tag.valueRange]) == b("2026-01-05"))
    }

    @Test(arguments: ["a::b", "key:", ":v", "https://x", "http://example.com/a:b", "12:30", "9:05:59", "23:59",
                      "+p:x", "@c:x", ":"])
    func notATag(_ word: String) {
        let item = parseLine("task \(word) end")
        #expect(item.tags.isEmpty, "\(word)")
    }

    @Test(arguments: [("a:/b", "a", "/b"), ("123:45", "123", "45"), ("12:3", "12", "3"), ("9:05:5", "9", "05:5"),
                      ("ab:12:30", "ab", "12:30"), ("due:2026-01-01", "due", "2026-01-01"), ("k:v:", "k", "v:")])
    func isATag(_ word: String, _ key: String, _ value: String) {
        let item = parseLine("task \(word)")
        #expect(item.tags.map(\.key) == [key])
        #expect(item.tags.map(\.value) == [value])
    }

    @Test func repeatedKeysKeepEveryValue() {
        let item = parseLine("a k:1 b k:2 k:3")
        #expect(item.values(forTag: "k") == ["1", "2", "3"])
        #expect(item.firstValue(forTag: "k") == "1")
        #expect(item.firstValue(forTag: "missing") == nil)
    }

    @Test(arguments: ["due", "t", "rec", "h", "pri", "uid"])
    func singleValuedKeysUseTheFirst(_ key: String) {
        #expect(singleValuedTagKeys.contains(key))
        let item = parseLine("task \(key):first \(key):second")
        #expect(item.firstValue(forTag: key) == "first")
    }

    @Test func singleValuedDueUsesTheFirst() {
        let item = parseLine("task due:2026-01-05 due:2026-01-01")
        #expect(item.due == .valid(d("2026-01-05")))
        #expect(item.uid == nil)
        #expect(parseLine("task uid:aaa uid:bbb").uid == "aaa")
    }

    @Test func tagsStayInTheBody() {
        let item = parseLine("(A) call due:2026-01-05 mom")
        #expect(item.body == "call due:2026-01-05 mom")
    }

    @Test(arguments: ["\t", "\u{00A0}", "\u{3000}", "\u{2003}", "\u{1680}", "\u{205F}", "\u{0085}"])
    func unicodeWhitespaceSeparatesBodyWords(_ space: String) {
        let item = parseLine("task +p\(space)@c\(space)k:v\(space)+q")
        #expect(item.projects == ["p", "q"])
        #expect(item.contexts == ["c"])
        #expect(item.tags.map(\.value) == ["v"])
    }

    @Test(arguments: ["\t", "\u{00A0}", "\u{3000}"])
    func unicodeWhitespaceNeverSeparatesTheHeader(_ space: String) {
        let item = parseLine("(A)\(space)2026-01-01\(space)a")
        #expect(item.priority == nil)
        #expect(item.creationDate == nil)
        let done = parseLine("x\(space)2026-01-01 a")
        #expect(!done.isCompleted)
        let created = parseLine("2026-01-01\(space)a")
        #expect(created.creationDate == nil)
    }

    @Test func uidAndSimpletaskUUID() {
        #expect(parseLine("a uid:k3f9qz").uid == "k3f9qz")
        #expect(parseLine("a uuid:1234-5678").uid == "1234-5678")
        #expect(parseLine("a uuid:1234 uid:k3f9qz").uid == "k3f9qz")
        #expect(parseLine("a uuid:first uuid:second").uid == "first")
        #expect(parseLine("a +uid:x").uid == nil)
        #expect(parseLine("a").uid == nil)
    }

    @Test func fieldsOfABlankLineAreEmpty() {
        let item = parseLine("   ")
        #expect(item.fields.projects.isEmpty)
        #expect(item.fields.tags.isEmpty)
    }
}

/// `TodoItem.classify` reads only a line's first bytes and must agree with the full parse.
struct TodoItemClassifyTests {
    @Test(arguments: ["", " ", "\t \t", "x ", "x", "xx done", "x 2026-01-01 paid", "\u{FEFF}x paid", "\u{FEFF}\u{FEFF} ",
                      "(A) call", " x not done", "X done?", "x\tpaid", "\u{FEFF}", "text"])
    func classifyAgreesWithTheFullParse(line: String) {
        let item = TodoItem(line)
        let kind = TodoItem.classify(Array(line.utf8)[...])
        #expect(kind.isBlank == item.isBlank, "\(line.debugDescription)")
        #expect(kind.isCompleted == item.isCompleted, "\(line.debugDescription)")
    }
}
