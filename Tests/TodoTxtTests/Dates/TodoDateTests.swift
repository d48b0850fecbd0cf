import Testing
@testable import TodoTxt

@Suite struct TodoDateTests {
    @Test func parsesAndPrints() throws {
        let date = try #require(TodoDate("0042-07-09"))
        #expect(date.year == 42 && date.month == 7 && date.day == 9)
        #expect(date.description == "0042-07-09")
        #expect(date.bytes == b("0042-07-09"))
    }

    @Test(arguments: ["", "2026-01-0", "2026-01-011", " 2026-01-01", "2026-01-01 ", "2026_01_01", "+026-01-01",
                      "-001-01-01", "2026-0a-01"])
    func rejects(_ text: String) {
        #expect(TodoDate(text) == nil)
    }

    @Test func componentsAreValidated() {
        #expect(TodoDate(year: 0, month: 1, day: 1) == nil)
        #expect(TodoDate(year: 10_000, month: 1, day: 1) == nil)
        #expect(TodoDate(year: 2026, month: 2, day: 29) == nil)
        #expect(TodoDate(year: 2024, month: 2, day: 29) != nil)
        #expect(TodoDate(year: 2026, month: 4, day: 31) == nil)
    }

    @Test func ordering() {
        #expect(d("2025-12-31") < d("2026-01-01"))
        #expect(d("2026-01-31") < d("2026-02-01"))
        #expect(!(d("2026-01-01") < d("2026-01-01")))
    }

    @Test func epochDays() {
        #expect(d("1970-01-01").daysSinceEpoch == 0)
        #expect(d("2000-03-01").daysSinceEpoch == 11_017)
        #expect(d("1969-12-31").daysSinceEpoch == -1)
        #expect(d("0001-01-01").daysSinceEpoch == -719_162)
        #expect(TodoDate(daysSinceEpoch: -719_163) == nil)
        #expect(TodoDate(daysSinceEpoch: d("9999-12-31").daysSinceEpoch + 1) == nil)
    }

    @Test func everyDayRoundTripsThroughEpochDays() {
        var previous = d("0001-01-01").daysSinceEpoch - 1
        for year in [1, 4, 100, 1600, 1899, 1900, 1970, 2000, 2024, 2026, 2100, 9999] {
            for month in 1...12 {
                for day in 1...TodoDate.daysIn(month: month, year: year) {
                    let date = TodoDate(year: year, month: month, day: day)!
                    let days = date.daysSinceEpoch
                    #expect(days > previous)
                    previous = days
                    #expect(TodoDate(daysSinceEpoch: days) == date)
                    #expect(date.adding(days: 1).map { $0.daysSinceEpoch } == (year == 9999 && month == 12 && day == 31 ? nil : days + 1))
                }
            }
        }
    }

    @Test func weekdays() {
        #expect(d("1970-01-01").isoWeekday == 4)
        #expect(d("2026-03-09").isoWeekday == 1)
        #expect(d("2026-03-08").isoWeekday == 7)
        #expect(d("0001-01-01").isoWeekday == 1)
        #expect(d("1969-12-28").isoWeekday == 7)
    }

    @Test func addingMonthsClamps() {
        #expect(d("2026-01-31").adding(months: 1) == d("2026-02-28"))
        #expect(d("2026-03-31").adding(months: -1) == d("2026-02-28"))
        #expect(d("2026-05-31").adding(months: -12) == d("2025-05-31"))
        #expect(d("2026-01-15").adding(months: -13) == d("2024-12-15"))
        #expect(d("0001-01-01").adding(months: -1) == nil)
        #expect(d("9999-12-01").adding(months: 1) == nil)
    }

    @Test func addingBusinessDays() {
        #expect(d("2026-03-06").adding(businessDays: 0) == d("2026-03-06"))
        #expect(d("2026-03-09").adding(businessDays: -1) == d("2026-03-06"))
        #expect(d("2026-03-06").adding(businessDays: 10) == d("2026-03-20"))
    }
}
