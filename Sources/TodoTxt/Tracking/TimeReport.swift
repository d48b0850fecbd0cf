/// The totals of `todo report --time` (docs/todo-command.md, "Time tracking"): the `spent:` of the
/// tasks added, summed per project and per context.
///
/// A task with two projects counts in each, so the per-project sums may exceed `total`, which counts
/// every task once; a task without a project counts under `nil` (and likewise for contexts).
public struct TimeReport: Sendable, Equatable {
    /// One row: a project or context name (nil: tasks without one) and its time.
    public struct Row: Sendable, Equatable {
        public let name: String?
        public let spent: SpentTime
    }

    private var projects: [String?: Int] = [:]
    private var contexts: [String?: Int] = [:]
    /// The time of every task added, each counted once.
    public private(set) var total = SpentTime(minutes: 0)

    public init() {}

    /// Adds `spent` of `item` under each of its projects and contexts. Nothing is added for zero.
    public mutating func add(_ item: TodoItem, spent: SpentTime) {
        guard spent.minutes > 0 else { return }
        let fields = item.fields
        let projectNames = Set(fields.projects)
        let contextNames = Set(fields.contexts)
        for name in projectNames.isEmpty ? [nil] : projectNames.map(Optional.some) { projects[name, default: 0] += spent.minutes }
        for name in contextNames.isEmpty ? [nil] : contextNames.map(Optional.some) { contexts[name, default: 0] += spent.minutes }
        total = total + spent
    }

    /// The projects, most time first, then by name; the row without a project last.
    public var projectRows: [Row] { TimeReport.rows(projects) }
    /// The contexts, most time first, then by name; the row without a context last.
    public var contextRows: [Row] { TimeReport.rows(contexts) }

    private static func rows(_ sums: [String?: Int]) -> [Row] {
        let named = sums.compactMap { entry in entry.key.map { Row(name: $0, spent: SpentTime(minutes: entry.value)) } }
            .sorted { ($0.spent.minutes, $1.name ?? "") > ($1.spent.minutes, $0.name ?? "") }
        let unnamed = sums[nil].map { [Row(name: nil, spent: SpentTime(minutes: $0))] } ?? []
        return named + unnamed
    }
}
