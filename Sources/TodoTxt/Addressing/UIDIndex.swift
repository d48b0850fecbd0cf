/// Every uid of a document and the lines holding it.
public struct UIDIndex: Sendable {
    /// uid → 0-based line indices holding it, in file order.
    public private(set) var holders: [String: [Int]] = [:]
    /// uid → the index of the line that owns it (docs/format.md section 4's duplicate rule).
    public private(set) var owners: [String: Int] = [:]

    /// Indexes `document`. Complexity: one parse of each task line.
    public init(_ document: TodoDocument) {
        self.init(document, including: { _ in true })
    }

    /// Indexes only the uids equal to `key` or, with `prefixes`, starting with it: what resolving
    /// one address needs, without a string or a dictionary entry for every other uid.
    init(_ document: TodoDocument, matching key: [UInt8], prefixes: Bool) {
        self.init(document) { uid in prefixes ? uid.starts(with: key) : uid.elementsEqual(key) }
    }

    /// Indexes the uids whose bytes `including` accepts.
    private init(_ document: TodoDocument, including: (ArraySlice<UInt8>) -> Bool) {
        var completed: [Int: Bool] = [:]
        for index in 0..<document.lineCount {
            let item = document.item(at: index)
            guard let range = item.uidRange else { continue }
            let start = item.content.startIndex
            let bytes = item.content[(start + range.lowerBound)..<(start + range.upperBound)]
            guard including(bytes) else { continue }
            holders[String(decoding: bytes, as: UTF8.self), default: []].append(index)
            completed[index] = item.isCompleted
        }
        for (uid, lines) in holders {
            let done = lines.filter { completed[$0] == true }
            owners[uid] = done.count == 1 ? done[0] : lines[0]
        }
    }

    /// Every uid in the document.
    public var allUIDs: Set<String> { Set(holders.keys) }

    /// The uids held by more than one line, with their holders.
    public var duplicates: [String: [Int]] { holders.filter { $0.value.count > 1 } }
}
