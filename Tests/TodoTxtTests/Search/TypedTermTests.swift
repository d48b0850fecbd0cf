import Testing
import TodoTestSupport
@testable import TodoTxt

/// docs/todo-command.md, "Typed terms": the grammar, every operator of every date key, none/any,
/// priorities, OR, negation, and what stays text.
@Suite struct TypedTermTests {
    /// A Saturday.
    static let today = TodoDate(year: 2025, month: 11, day: 29)!

    /// Line numbers (1-based) of `tasks` that `terms` (as `todo ls` reads them) accept.
    static func listed(_ terms: [String], _ tasks: [String]) -> [Int] {
        let filter = TermFilter(terms, plainText: true, typedTermsOn: today)
        return tasks.enumerated().filter { filter.accepts(Array($0.element.utf8)) }.map { $0.offset + 1 }
    }

    static let dated = [
        "due:2025-11-28 one",            // 1: yesterday
        "due:2025-11-29 two",            // 2: today
        "due:2025-11-30 three",          // 3: tomorrow
        "no date",                       // 4
        "due:tomorow bad value",         // 5: invalid, counts as no date
        "due:2025-12-06 due:2025-11-01", // 6: only the first due: counts (a week ahead)
    ]

    @Test func everyOperatorOfDue() {
        #expect(Self.listed(["due:<today"], Self.dated) == [1])
        #expect(Self.listed(["due:<=today"], Self.dated) == [1, 2])
        #expect(Self.listed(["due:>today"], Self.dated) == [3, 6])
        #expect(Self.listed(["due:>=today"], Self.dated) == [2, 3, 6])
        #expect(Self.listed(["due:=today"], Self.dated) == [2])
        #expect(Self.listed(["due:today"], Self.dated) == [2], "no operator means =")
        #expect(Self.listed(["due:<1w"], Self.dated) == [1, 2, 3])
        #expect(Self.listed(["due:<=1w"], Self.dated) == [1, 2, 3, 6])
        #expect(Self.listed(["due:tm"], Self.dated) == [3])
        #expect(Self.listed(["due:>=-1d"], Self.dated) == [1, 2, 3, 6])
        #expect(Self.listed(["due:sat"], Self.dated) == [6], "a weekday is the next one, never today")
        #expect(Self.listed(["due:<2025-11-29"], Self.dated) == [1])
    }

    @Test func noneAndAnyJudgeAValidDate() {
        #expect(Self.listed(["due:any"], Self.dated) == [1, 2, 3, 6])
        #expect(Self.listed(["due:none"], Self.dated) == [4, 5], "an invalid value counts as no date")
        #expect(Self.listed(["-due:any"], Self.dated) == Self.listed(["due:none"], Self.dated))
        #expect(Self.listed(["due:NONE"], Self.dated) == [4, 5], "keywords in any case")
    }

    @Test func negationIsPlainNot() {
        #expect(Self.listed(["-due:<today"], Self.dated) == [2, 3, 4, 5, 6], "undated tasks are not overdue")
        #expect(Self.listed(["-due:>=today"], Self.dated) == [1, 4, 5])
    }

    static let headers = [
        "(A) 2025-11-01 open A created",                 // 1
        "x 2025-11-28 2025-11-20 done pri:B",            // 2: completed yesterday, kept B
        "x 2025-11-22 done long ago",                    // 3: completion date only
        "(C) plain C t:2025-12-01",                      // 4: threshold in two days
        "open pri:A t:bad",                              // 5: an open task's pri: is no priority
        "x (D) 2025-11-29 2025-11-02 done with header",  // 6: header priority on a completed task
    ]

    @Test func createdCompletedAndThreshold() {
        #expect(Self.listed(["created:<2025-11-02"], Self.headers) == [1])
        #expect(Self.listed(["created:<=2025-11-02"], Self.headers) == [1, 6])
        #expect(Self.listed(["created:>2025-11-01"], Self.headers) == [2, 6])
        #expect(Self.listed(["created:>=2025-11-20"], Self.headers) == [2])
        #expect(Self.listed(["created:=2025-11-20"], Self.headers) == [2])
        #expect(Self.listed(["created:none"], Self.headers) == [3, 4, 5])
        #expect(Self.listed(["completed:>=-7d"], Self.headers) == [2, 3, 6])
        #expect(Self.listed(["completed:>-7d"], Self.headers) == [2, 6])
        #expect(Self.listed(["completed:<today"], Self.headers) == [2, 3])
        #expect(Self.listed(["completed:<=yesterday"], Self.headers) == [2, 3])
        #expect(Self.listed(["completed:=today"], Self.headers) == [6])
        #expect(Self.listed(["completed:any"], Self.headers) == [2, 3, 6])
        #expect(Self.listed(["t:>today"], Self.headers) == [4])
        #expect(Self.listed(["t:<today"], Self.headers) == [])
        #expect(Self.listed(["t:<=2d"], Self.headers) == [4])
        #expect(Self.listed(["t:>=2025-12-01"], Self.headers) == [4])
        #expect(Self.listed(["t:=2025-12-01"], Self.headers) == [4])
        #expect(Self.listed(["t:none"], Self.headers) == [1, 2, 3, 5, 6])
    }

    @Test func priorities() {
        #expect(Self.listed(["pri:A"], Self.headers) == [1], "an open task's pri: tag is not its priority")
        #expect(Self.listed(["pri:b"], Self.headers) == [2], "a completed task keeps pri:B; letters in any case")
        #expect(Self.listed(["pri:A-C"], Self.headers) == [1, 2, 4])
        #expect(Self.listed(["pri:C-A"], Self.headers) == [1, 2, 4], "a reversed range is the same range")
        #expect(Self.listed(["pri:D"], Self.headers) == [6], "a completed task's header priority")
        #expect(Self.listed(["pri:any"], Self.headers) == [1, 2, 4, 6])
        #expect(Self.listed(["pri:none"], Self.headers) == [3, 5])
        #expect(Self.listed(["-pri:A"], Self.headers) == [2, 3, 4, 5, 6])
    }

    @Test func orAndAnd() {
        #expect(Self.listed(["due:<today|due:>today"], Self.dated) == [1, 3, 6])
        #expect(Self.listed(["pri:A|completed:today"], Self.headers) == [1, 6])
        #expect(Self.listed(["pri:any", "completed:any"], Self.headers) == [2, 6], "words still combine with AND")
        #expect(Self.listed(["-pri:A|pri:B"], Self.headers) == [3, 4, 5, 6], "- negates the whole word")
        #expect(Self.listed(["due:<=today", "one"], Self.dated) == [1], "typed and text terms together")
    }

    @Test func whatStaysText() {
        for word in ["due:2025", "pri:high", "due:", "t:", "DUE:<today", "due:<today|one", "pri:A|", "garden",
                     "due:soon", "pri:AB", "pri:A-", "|due:today", "due:<=today||pri:A", "due:<today\\|x", "due:<tomorow.",
                     "pri:[AB]"] {
            #expect(TypedTerm(word) == nil, "\(word) is not typed")
            #expect(TypedTerm.invalidity(of: word) == nil, "\(word) is text, not an error")
        }
        let lines = ["call due:2025 office", "pri:high one", "see due:<today|one"]
        #expect(Self.listed(["due:2025"], lines) == [1])
        #expect(Self.listed(["pri:high"], lines) == [2])
        #expect(Self.listed(["due:<today|one"], lines) == [3])
    }

    @Test func aBareAbsoluteDateAlsoFindsItsText() {
        let lines = ["due:2025-12-06 first", "pay due:2025-12-01 due:2025-12-06", "note DUE:2025-12-06", "created:2025-12-06 as text",
                     "2025-12-06 created that day"]
        #expect(Self.listed(["due:2025-12-06"], lines) == [1, 2, 3], "typed (line 1) and the text (2, 3)")
        #expect(Self.listed(["due:=2025-12-06"], lines) == [1], "with an operator, typed only")
        #expect(Self.listed(["created:2025-12-06"], lines) == [4, 5])
        #expect(Self.listed(["-due:2025-12-06"], lines) == [4, 5])
        #expect(Self.listed(["due:today"], ["due:today literal", "due:2025-11-29"]) == [2], "relative: typed only")
    }

    @Test func operatorsWithNoDateAreErrorsWithASuggestion() {
        #expect(TypedTerm.invalidity(of: "due:<tomorow") == "'tomorow' is not a date (did you mean 'tomorrow'?)")
        #expect(TypedTerm.invalidity(of: "t:>=") == "no date after the comparison")
        #expect(TypedTerm.invalidity(of: "completed:=xyz") == "'xyz' is not a date")
        #expect(TypedTerm.invalidity(of: "pri:A|due:<frday") == "'frday' is not a date (did you mean 'friday'?)")
        #expect(TypedTerm.invalidity(of: "due:<=today") == nil)
        // The library's filter (no checking) reads such a word as text.
        #expect(Self.listed(["due:<tomorow"], ["x due:<tomorow"]) == [1])
    }

    @Test func withoutTodayEveryTermIsText() {
        let filter = TermFilter(["due:<=today"], plainText: true)
        #expect(!filter.accepts(b("pay due:2025-11-01")))
        #expect(filter.accepts(b("a due:<=today b")))
    }

    @Test func queryFields() {
        let fields = QueryFields(b("x 2025-11-28 2025-11-20 done due:2025-12-01 t:2025-11-30 due:2026-01-01 pri:B pri:C")[...])
        #expect(fields.priority == Priority("B"))
        #expect(fields.due == TodoDate("2025-12-01"))
        #expect(fields.threshold == TodoDate("2025-11-30"))
        #expect(fields.completed == TodoDate("2025-11-28"))
        #expect(fields.created == TodoDate("2025-11-20"))
        #expect(QueryFields(b("(A) open pri:B")[...]).priority == Priority("A"))
        #expect(QueryFields(b("x done pri:b")[...]).priority == nil, "a kept priority is one upper-case letter")
        #expect(QueryFields(b("see 12:30 due:")[...]).due == nil)
    }

    /// The filter's own reading of a line (a vector search for `due:`, `t:`, `pri:`) finds exactly
    /// the tags the body scan finds first, on the lines where words are hard to tell.
    @Test func theQuickReadingAgreesWithTheBodyScan() {
        let lines = ["xdue:2025-11-28 due:2025-11-29", "due: due:://x due:https//x due:2025-11-28",
                     "a\u{00A0}due:2025-11-28", "a\u{3000}due:2025-11-28\u{2009}b", "due:2025-11-28\u{00A0}b",
                     "\u{FEFF}due:2025-11-28", "\u{FEFF}\u{FEFF}t:2025-11-28 x", "x 2025-11-29 done pri:B",
                     "x 2025-11-29 done pri:BB pri:A", "x (A) 2025-11-29 pri:B", "(B) open pri:C", "\tdue:2025-11-28",
                     "at:home t:2025-12-01", "12:30 t:12:30 t:2025-12-02", "due:2025-11-28due:x", "éndue:2025-11-28",
                     "x 2025-11-29 pri:A\u{0085}", "due:tomorow due:2025-11-28", "  ", "", "h:1", "h:0 h:1", "h:12 t:2025-11-29",
                     "ah:1 t:2025-11-30", "h:1\u{00A0}x", "t:2025-12-02 t:2025-11-01", "\u{FEFF}h:1"]
        for line in lines {
            let content = Array(line.utf8)[...]
            var lazy = QueryFields.Lazy(content)
            let fields = QueryFields(content)
            for field in TypedTerm.DateField.allCases {
                #expect(lazy.date(field) == fields.date(field), "\(field) of \(line.debugDescription)")
            }
            #expect(lazy.effectivePriority() == fields.priority, "priority of \(line.debugDescription)")
            for today in [Self.today, TodoDate(year: 2025, month: 12, day: 1)!] {
                #expect(QueryFields.isHidden(content, on: today) == TodoItem(content).isHidden(on: today), "hidden: \(line.debugDescription)")
            }
        }
    }
}
