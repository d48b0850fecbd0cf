/// Dependencies between tasks by uid (docs/format.md section 4, "Dependencies"): a task with
/// `after:UID` waits for the task holding `uid:UID`; several `after:` tags wait for all of them.
///
/// Blocking is direct, by one rule: a task is *blocked* when some `after:` target is an open task
/// (a task of the todo file that is not done). It follows that waiting is transitive without a
/// walk: a task waiting for a task that is itself blocked waits anyway, because that target is
/// open. Nothing here walks the links to decide blocking, so a cycle can never make it loop; cycles
/// are found on their own (`cycles`), by an iterative walk that visits each task once.
///
/// Invariants: node indices are the todo file's line indices, then the done file's lines after
/// them (`doneOffset`); a uid held by several lines is held by all of them (any open holder
/// blocks).
public struct DependencyGraph: Sendable {
    /// One line as the graph sees it.
    public struct Node: Sendable, Equatable {
        /// Its uid, if it has one.
        public var uid: String?
        /// Whether it is a task that is not done and still in the todo file.
        public var isOpen: Bool
        /// The uids of its `after:` tags, in order, repeats dropped.
        public var after: [String]

        public init(uid: String?, isOpen: Bool, after: [String]) {
            self.uid = uid
            self.isOpen = isOpen
            self.after = after
        }
    }

    /// A link from a task to a uid no line holds.
    public struct MissingLink: Sendable, Equatable {
        public let node: Int
        public let uid: String
    }

    /// Every node: the todo file's lines, then the done file's.
    public let nodes: [Node]
    /// Where the done file's lines start in `nodes`.
    public let doneOffset: Int
    /// uid → the nodes holding it, in order.
    public let holders: [String: [Int]]
    /// The uids held by an open task: what blocks.
    public let openUIDs: Set<String>

    /// The graph of `nodes`, the first `doneOffset` of them from the todo file.
    public init(nodes: [Node], doneOffset: Int? = nil) {
        self.nodes = nodes
        self.doneOffset = doneOffset ?? nodes.count
        var holders: [String: [Int]] = [:]
        var open: Set<String> = []
        for (index, node) in nodes.enumerated() {
            guard let uid = node.uid else { continue }
            holders[uid, default: []].append(index)
            if node.isOpen { open.insert(uid) }
        }
        self.holders = holders
        openUIDs = open
    }

    /// The graph of a todo file and, if given, its done file (every line of which counts as done).
    public init(todo: TodoDocument, done: TodoDocument? = nil) {
        var nodes: [Node] = []
        nodes.reserveCapacity(todo.lineCount + (done?.lineCount ?? 0))
        for index in 0..<todo.lineCount { nodes.append(Node(todo.item(at: index), archived: false)) }
        if let done {
            for index in 0..<done.lineCount { nodes.append(Node(done.item(at: index), archived: true)) }
        }
        self.init(nodes: nodes, doneOffset: todo.lineCount)
    }

    /// Whether the node waits for an open task.
    public func isBlocked(_ node: Int) -> Bool {
        nodes[node].after.contains { openUIDs.contains($0) }
    }

    /// Whether a task with these `after:` uids is blocked by `openUIDs` (what a listing asks per
    /// line, with the set computed once for the file).
    public static func isBlocked(after: [String], openUIDs: Set<String>) -> Bool {
        after.contains { openUIDs.contains($0) }
    }

    /// The nodes `node` waits for, per `after:` uid in order: the holders (empty when none).
    public func targets(of node: Int) -> [(uid: String, holders: [Int])] {
        nodes[node].after.map { ($0, holders[$0] ?? []) }
    }

    /// The nodes that wait for `node` (that name its uid in an `after:`), in order.
    public func waiting(for node: Int) -> [Int] {
        guard let uid = nodes[node].uid else { return [] }
        return nodes.indices.filter { nodes[$0].after.contains(uid) }
    }

    /// The tasks completing `node` would set free: the open tasks waiting for it that wait for no
    /// other open task once it is done (its uid counts as closed unless another open line holds it).
    public func freed(byCompleting node: Int) -> [Int] {
        guard let uid = nodes[node].uid else { return [] }
        let stillOpen = holders[uid, default: []].contains { $0 != node && nodes[$0].isOpen }
        var open = openUIDs
        if !stillOpen { open.remove(uid) }
        return waiting(for: node).filter { nodes[$0].isOpen && isBlocked($0) && !Self.isBlocked(after: nodes[$0].after, openUIDs: open) }
    }

    /// Every link to a uid that no line holds, in node order.
    public var missingLinks: [MissingLink] {
        var missing: [MissingLink] = []
        for (index, node) in nodes.enumerated() {
            for uid in node.after where holders[uid] == nil { missing.append(MissingLink(node: index, uid: uid)) }
        }
        return missing
    }

    /// Whether a path of links leads from `start` to `goal` (`start` itself included): what a new
    /// link `goal after start` would close into a cycle. Visits each node at most once.
    public func reaches(from start: Int, to goal: Int) -> Bool {
        var seen: Set<Int> = [start]
        var stack = [start]
        while let current = stack.popLast() {
            if current == goal { return true }
            for uid in nodes[current].after {
                for next in holders[uid] ?? [] where seen.insert(next).inserted { stack.append(next) }
            }
        }
        return false
    }

    /// The cycles of links, each as the nodes along it, starting at its lowest node; one per strongly
    /// connected group of nodes that wait for each other (a node linking to itself included). An
    /// iterative walk (Tarjan's), so a long chain cannot overflow the stack, and each node is seen once.
    public var cycles: [[Int]] {
        var order = [Int](repeating: -1, count: nodes.count)
        var low = [Int](repeating: 0, count: nodes.count)
        var onStack = [Bool](repeating: false, count: nodes.count)
        var stack: [Int] = []
        var counter = 0
        var found: [[Int]] = []
        let successors: [[Int]] = nodes.map { node in node.after.flatMap { holders[$0] ?? [] } }
        for root in nodes.indices where order[root] < 0 {
            var work: [(node: Int, next: Int)] = [(root, 0)]
            order[root] = counter; low[root] = counter; counter += 1
            stack.append(root); onStack[root] = true
            while let (node, next) = work.last {
                if next < successors[node].count {
                    work[work.count - 1].next += 1
                    let child = successors[node][next]
                    if order[child] < 0 {
                        order[child] = counter; low[child] = counter; counter += 1
                        stack.append(child); onStack[child] = true
                        work.append((child, 0))
                    } else if onStack[child] {
                        low[node] = min(low[node], order[child])
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last?.node { low[parent] = min(low[parent], low[node]) }
                guard low[node] == order[node] else { continue }
                var group: [Int] = []
                while let member = stack.popLast() {
                    onStack[member] = false
                    group.append(member)
                    if member == node { break }
                }
                if group.count > 1 || successors[node].contains(node) { found.append(group.sorted()) }
            }
        }
        return found.sorted { ($0.first ?? 0) < ($1.first ?? 0) }
    }
}

extension DependencyGraph.Node {
    /// The node of a line: open when it is a task not done and not `archived`.
    public init(_ item: TodoItem, archived: Bool) {
        self.init(uid: item.uid, isOpen: item.isTask && !item.isCompleted && !archived, after: item.afterUIDs)
    }
}

extension TodoItem {
    /// The uids of the task's `after:` tags, in order, repeats dropped (docs/format.md section 4).
    public var afterUIDs: [String] {
        guard isTask else { return [] }
        var uids: [String] = []
        for tag in tags where tag.key == "after" && !tag.value.isEmpty && !uids.contains(tag.value) { uids.append(tag.value) }
        return uids
    }

    /// The content with `after:UID` added, unless the task already has it.
    public func addingAfter(_ uid: String) -> [UInt8] {
        if afterUIDs.contains(uid) { return Array(content) }
        var bytes = Array(content)
        if !bytes.isEmpty { bytes.append(0x20) }
        bytes += Array("after:\(uid)".utf8)
        return bytes
    }

    /// The content without any `after:UID` tag for this uid (other tags and `after:`s untouched).
    public func removingAfter(_ uid: String) -> [UInt8] {
        var spans: [Range<Int>] = []
        for tag in tags where tag.key == "after" && tag.value == uid {
            let span = removalSpan(ofWord: tag.range)
            if let previous = spans.last, span.lowerBound < previous.upperBound {
                spans.append(tag.range)
            } else {
                spans.append(span)
            }
        }
        return removing(spans)
    }
}

extension DependencyGraph {
    /// The uids held by open tasks among `lines` (each a line's content): what a listing needs to
    /// tell a blocked task, computed once for the whole file.
    public static func openUIDs<Lines: Sequence>(of lines: Lines) -> Set<String> where Lines.Element == ArraySlice<UInt8> {
        var open: Set<String> = []
        for line in lines {
            let item = TodoItem(line)
            if item.isTask, !item.isCompleted, let uid = item.uid { open.insert(uid) }
        }
        return open
    }

    /// Whether `bytes` hold `after:` anywhere: when not, no line of them waits for anything, and a
    /// listing skips the graph entirely.
    public static func mayHaveLinks(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { mayHaveLinks($0) }
    }

    /// `mayHaveLinks` on a buffer (a line of a document, without a copy).
    public static func mayHaveLinks(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let needle: [UInt8] = Array("after:".utf8)
        guard bytes.count >= needle.count else { return false }
        var index = 0
        let last = bytes.count - needle.count
        while index <= last {
            if bytes[index] == 0x61, bytes[index + 1] == 0x66, bytes[index + 2] == 0x74, bytes[index + 3] == 0x65,
               bytes[index + 4] == 0x72, bytes[index + 5] == 0x3A { return true }
            index += 1
        }
        return false
    }
}
