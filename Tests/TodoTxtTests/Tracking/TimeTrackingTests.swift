import Testing
import TodoTestSupport
@testable import TodoTxt

/// docs/format.md, "Time tracking": `spent:` durations, `tracking:` start times, and the edits
/// that start and stop tracking.
@Suite struct TimeTrackingTests {
    /// 2026-12-02T14:00:00Z.
    let start = 1_796_220_000

    func text(_ bytes: [UInt8]?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    @Test func spentTimeParsesEveryForm() {
        #expect(SpentTime("45m")?.minutes == 45)
        #expect(SpentTime("2h")?.minutes == 120)
        #expect(SpentTime("1h5m")?.minutes == 65)
        #expect(SpentTime("90m")?.minutes == 90)
        #expect(SpentTime("0m")?.minutes == 0)
        for bad in ["", "h", "m", "1", "1x", "-5m", "1m2h", "1h1h", "5m5m", "1h 2m", "12345678m", "1.5h", "1H"] {
            #expect(SpentTime(bad) == nil, "\(bad) is no duration")
        }
    }

    @Test func spentTimeFormatsHoursAndMinutes() {
        #expect(SpentTime(minutes: 80).description == "1h20m")
        #expect(SpentTime(minutes: 120).description == "2h")
        #expect(SpentTime(minutes: 45).description == "45m")
        #expect(SpentTime(minutes: 0).description == "0m")
        #expect(SpentTime(minutes: -3).minutes == 0, "never negative")
    }

    @Test func trackingStampRoundTripsAndRefusesOtherShapes() {
        let stamp = TrackingStamp(secondsSinceEpoch: start + 9)
        #expect(stamp.description == "2026-12-02T14:00:09Z")
        #expect(TrackingStamp("2026-12-02T14:00:09Z") == stamp)
        #expect(TrackingStamp("1970-01-01T00:00:00Z")?.secondsSinceEpoch == 0)
        for bad in ["2026-12-02T14:00:09", "2026-12-02 14:00:09Z", "2026-02-30T14:00:00Z", "2026-12-02T24:00:00Z",
                    "2026-12-02T14:60:00Z", "2026-12-02T14:00:60Z", "1796220000", "2026-12-02T1a:00:00Z"] {
            #expect(TrackingStamp(bad) == nil, "\(bad) is no start time")
        }
        #expect(TrackingStamp(secondsSinceEpoch: -1).description == "1969-12-31T23:59:59Z")
    }

    @Test func startWritesTrackingAndRestartReplacesInPlace() {
        let started = TodoItem("write report +work uid:aaa111").startingTracking(at: start)
        #expect(text(started) == "write report +work uid:aaa111 tracking:2026-12-02T14:00:00Z")
        let again = TodoItem(started).startingTracking(at: start + 60)
        #expect(text(again) == "write report +work uid:aaa111 tracking:2026-12-02T14:01:00Z")
    }

    @Test func stopAddsWholeMinutesToSpentAndRemovesTracking() throws {
        let line = "write spent:1h5m report tracking:2026-12-02T14:00:00Z +work"
        #expect(text(try TodoItem(line).stoppingTracking(at: start + 20 * 60 + 59)) == "write spent:1h25m report +work")
        #expect(text(try TodoItem("a tracking:2026-12-02T14:00:00Z").stoppingTracking(at: start + 2 * 3600)) == "a spent:2h")
        #expect(text(try TodoItem("a tracking:2026-12-02T14:00:00Z").stoppingTracking(at: start - 600)) == "a spent:0m",
                "a clock set back adds nothing")
        #expect(try TodoItem("a spent:3m").stoppingTracking(at: start) == nil, "not tracked")
    }

    @Test func stopRefusesUnreadableValues() {
        #expect(throws: TrackingError.invalidSpent("1.5h")) {
            try TodoItem("a spent:1.5h tracking:2026-12-02T14:00:00Z").stoppingTracking(at: start)
        }
        #expect(throws: TrackingError.invalidTracking("yesterday")) {
            try TodoItem("a tracking:yesterday").stoppingTracking(at: start)
        }
    }

    @Test func nextInstanceOfARecurringTaskHasNeitherTag() throws {
        let item = TodoItem("x 2026-12-02 call bob rec:1w due:2026-12-01 spent:53m tracking:2026-12-02T14:00:00Z uid:bbb222")
        guard case .next(let next, _) = item.recurrence(completedOn: try #require(TodoDate("2026-12-02")), uid: "ccc333") else {
            Issue.record("no next instance")
            return
        }
        #expect(text(next) == "call bob rec:1w due:2026-12-09 uid:ccc333")
    }

    @Test func reportTotalsByProjectAndContext() {
        var report = TimeReport()
        report.add(TodoItem("a +work +home @desk"), spent: SpentTime(minutes: 30))
        report.add(TodoItem("b +work"), spent: SpentTime(minutes: 45))
        report.add(TodoItem("c"), spent: SpentTime(minutes: 0))
        #expect(report.total.minutes == 75)
        #expect(report.projectRows == [TimeReport.Row(name: "work", spent: SpentTime(minutes: 75)),
                                       TimeReport.Row(name: "home", spent: SpentTime(minutes: 30))])
        #expect(report.contextRows == [TimeReport.Row(name: "desk", spent: SpentTime(minutes: 30)),
                                       TimeReport.Row(name: nil, spent: SpentTime(minutes: 45))])
    }

    /// Seeded property: formatting any duration and parsing it back gives the same minutes, and
    /// stopping a task tracked for any span adds exactly its whole minutes to any earlier `spent:`.
    @Test func formatParseRoundTripAndStopAddsElapsedMinutesProperty() throws {
        let settings = PropertySettings(defaultSeed: 0x5EED_7117, defaultCount: 5_000)
        var random = SplitMix64(seed: settings.seed)
        for round in 0..<settings.count {
            let minutes = Int.random(in: 0...(SpentTime.partLimit), using: &random)
            let spent = SpentTime(minutes: minutes)
            #expect(SpentTime(spent.description) == spent, "seed \(settings.seed), round \(round): \(spent)")
            let earlier = SpentTime(minutes: Int.random(in: 0...100_000, using: &random))
            let startSeconds = Int.random(in: 0...4_000_000_000, using: &random)
            let elapsed = Int.random(in: 0...1_000_000, using: &random)
            let stamp = TrackingStamp(secondsSinceEpoch: startSeconds)
            #expect(TrackingStamp(stamp.description) == stamp, "seed \(settings.seed), round \(round): \(stamp)")
            let line = "task spent:\(earlier) tracking:\(stamp) +p"
            let stopped = try #require(try TodoItem(line).stoppingTracking(at: startSeconds + elapsed))
            let after = TodoItem(stopped)
            #expect(after.spentTime.value?.minutes == earlier.minutes + elapsed / 60,
                    "seed \(settings.seed), round \(round): \(line) + \(elapsed)s")
            #expect(!after.isTracking)
        }
    }
}
