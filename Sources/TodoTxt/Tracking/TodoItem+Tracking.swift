/// Why a tracking edit cannot be made: a tag the edit must read holds a value it cannot read, so
/// writing anything would lose or misstate time (docs/format.md, "Time tracking").
public enum TrackingError: Error, Sendable, Equatable {
    /// `spent:` holds this value, which is not a duration (`1h20m`, `2h`, `45m`).
    case invalidSpent(String)
    /// `tracking:` holds this value, which is not a moment (`2026-12-02T14:05:09Z`).
    case invalidTracking(String)
}

extension TodoItem {
    /// The `spent:` value: absent, a duration, or present but unreadable.
    public var spentTime: ExtensionValue<SpentTime> {
        guard let raw = firstValue(forTag: "spent") else { return .absent }
        return SpentTime(raw).map(ExtensionValue.valid) ?? .invalid(raw)
    }

    /// The `tracking:` value: absent, the moment tracking started, or present but unreadable.
    public var trackingStart: ExtensionValue<TrackingStamp> {
        guard let raw = firstValue(forTag: "tracking") else { return .absent }
        return TrackingStamp(raw).map(ExtensionValue.valid) ?? .invalid(raw)
    }

    /// Whether the task carries a `tracking:` tag (readable or not).
    public var isTracking: Bool { trackingStart != .absent }

    /// This line with `tracking:` set to the moment `seconds` (replacing an earlier start in place,
    /// else appended); everything else as it was.
    public func startingTracking(at seconds: Int) -> [UInt8] {
        settingTag("tracking", to: TrackingStamp(secondsSinceEpoch: seconds).description)
    }

    /// This line with the time since `tracking:` (whole minutes, rounded down; none when `seconds`
    /// is before the start) added to `spent:` (set in place, or appended when absent) and every
    /// `tracking:` removed; nil when the task is not tracked. A `spent:` or `tracking:` that cannot be
    /// read throws, so nothing is written that would lose the time already recorded.
    public func stoppingTracking(at seconds: Int) throws(TrackingError) -> [UInt8]? {
        let start: TrackingStamp
        switch trackingStart {
        case .absent: return nil
        case .invalid(let raw): throw .invalidTracking(raw)
        case .valid(let stamp): start = stamp
        }
        let spent: SpentTime
        switch spentTime {
        case .absent: spent = SpentTime(minutes: 0)
        case .invalid(let raw): throw .invalidSpent(raw)
        case .valid(let value): spent = value
        }
        let total = spent + SpentTime(minutes: start.elapsedMinutes(until: seconds))
        let withSpent = TodoItem(settingTag("spent", to: total.description)[...])
        return withSpent.removingTag("tracking")
    }

    /// This line without `tracking:` and `spent:`: what a recurring task's next instance starts
    /// from, since time spent on one instance is not time spent on the next.
    func withoutTrackingTags() -> [UInt8] {
        let withoutTracking = TodoItem(removingTag("tracking")[...])
        return withoutTracking.removingTag("spent")
    }
}
