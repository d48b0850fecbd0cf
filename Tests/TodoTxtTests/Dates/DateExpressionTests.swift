import Testing
import TodoTestSupport
@testable import TodoTxt

@Suite struct DateExpressionTests {
    /// 2026-12-02 is a Wednesday.
    let wednesday = d("2026-12-02")

    @Test(arguments: [
        ("today", "2026-12-02"), ("TODAY", "2026-12-02"), ("tomorrow", "2026-12-03"), ("tm", "2026-12-03"),
        ("yesterday", "2026-12-01"), ("0d", "2026-12-02"), ("3d", "2026-12-05"), ("+3d", "2026-12-05"),
        ("-3d", "2026-11-29"), ("2w", "2026-12-16"), ("-1w", "2026-11-25"), ("1m", "2027-01-02"),
        ("1y", "2027-12-02"), ("2026-12-24", "2026-12-24"), ("1B", "2026-12-03"), ("3b", "2026-12-07"),
        ("-3b", "2026-11-27"),
        ("wed", "2026-12-09"), ("Wednesday", "2026-12-09"), ("thu", "2026-12-03"), ("tue", "2026-12-08"),
        ("sun", "2026-12-06"), ("MON", "2026-12-07"),
    ])
    func resolvesFromAWednesday(_ text: String, _ expected: String) throws {
        let expression = try #require(DateExpression(text))
        #expect(expression.resolve(today: wednesday) == d(expected))
    }

    @Test func monthStepsClampToTheMonthsEnd() throws {
        #expect(DateExpression("1m")?.resolve(today: d("2026-01-31")) == d("2026-02-28"))
        #expect(DateExpression("1m")?.resolve(today: d("2028-01-31")) == d("2028-02-29"))
        #expect(DateExpression("1y")?.resolve(today: d("2028-02-29")) == d("2029-02-28"))
        #expect(DateExpression("-1m")?.resolve(today: d("2026-03-31")) == d("2026-02-28"))
    }

    @Test func businessDaysCrossTheWeekend() {
        #expect(DateExpression("1b")?.resolve(today: d("2026-12-04")) == d("2026-12-07"))  // Fri → Mon
        #expect(DateExpression("1b")?.resolve(today: d("2026-12-05")) == d("2026-12-07"))  // Sat → Mon
        #expect(DateExpression("-1b")?.resolve(today: d("2026-12-07")) == d("2026-12-04")) // Mon → Fri
        #expect(DateExpression("0b")?.resolve(today: d("2026-12-05")) == d("2026-12-05"))
    }

    @Test func outOfRangeResolvesToNil() {
        #expect(DateExpression("1d")?.resolve(today: d("9999-12-31")) == nil)
        #expect(DateExpression("99999y")?.resolve(today: wednesday) == nil)
    }

    @Test(arguments: ["", "d", "3", "+d", "3x", "3dd", "123456d", "tomorow", "mo", "2026-02-30", " today", "1.5d", "--1d"])
    func rejects(_ text: String) {
        #expect(DateExpression(text) == nil)
    }

    @Test func periodsAreOffsetsOnly() {
        #expect(DateOffset("1w") != nil)
        #expect(DateOffset("-2B")?.description == "-2b")
        #expect(DateOffset("mon") == nil)
        #expect(DateOffset("today") == nil)
        #expect(DateOffset("2026-12-02") == nil)
    }

    @Test func suggestsCloseKeywords() {
        #expect(DateExpression.suggestion(for: "tomorow") == "tomorrow")
        #expect(DateExpression.suggestion(for: "tody") == "today")
        #expect(DateExpression.suggestion(for: "wendesday") == "wednesday")
        #expect(DateExpression.suggestion(for: "Frdiay") == "friday")
        #expect(DateExpression.suggestion(for: "banana") == nil)
        #expect(DateExpression.suggestion(for: "x") == nil)
    }

    @Test func descriptionParsesBackToTheSameExpression() throws {
        for text in ["today", "tm", "-3d", "2w", "1m", "4y", "2b", "fri", "sunday", "2026-12-24"] {
            let expression = try #require(DateExpression(text))
            #expect(DateExpression(expression.description) == expression)
        }
    }

    /// Property: an offset resolved from today equals the direct arithmetic on the day count, for
    /// days and weeks; a weekday lands 1...7 days ahead on that weekday.
    @Test func resolutionAgreesWithDirectArithmetic() {
        let settings = PropertySettings(defaultCount: 2_000)
        var random = SplitMix64(seed: settings.seed)
        for _ in 0..<settings.count {
            let today = TodoDate(daysSinceEpoch: Int.random(in: -700_000...2_900_000, using: &random)) ?? wednesday
            let count = Int.random(in: -400...400, using: &random)
            if let resolved = DateExpression("\(count)d")?.resolve(today: today) {
                #expect(resolved.daysSinceEpoch - today.daysSinceEpoch == count, "seed \(settings.seed)")
            }
            if let resolved = DateExpression("\(count)w")?.resolve(today: today) {
                #expect(resolved.daysSinceEpoch - today.daysSinceEpoch == 7 * count, "seed \(settings.seed)")
            }
            if let resolved = DateExpression("\(count)b")?.resolve(today: today), count != 0 {
                #expect(resolved.isoWeekday <= 5, "seed \(settings.seed)")
            }
            let weekday = Int.random(in: 1...7, using: &random)
            if let resolved = DateExpression(ASCIIKeyword.weekdayNames[weekday - 1])?.resolve(today: today) {
                let ahead = resolved.daysSinceEpoch - today.daysSinceEpoch
                #expect((1...7).contains(ahead) && resolved.isoWeekday == weekday, "seed \(settings.seed)")
            }
        }
    }
}
