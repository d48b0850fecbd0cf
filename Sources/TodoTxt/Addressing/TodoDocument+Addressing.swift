// Task addresses: what `todo do 3`, `todo do k3x9` or `todo do uid:k3x9q2` names, resolved to a line.

/// Why a task address could not be resolved.
public enum TaskAddressError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A line number past the end of the file, zero, or pointing at a blank line (as typed, so a
    /// number too large for `Int` is still named as given).
    case noTask(lineNumber: String)
    /// No task has this uid or uid prefix.
    case unknownUID(String)
    /// A prefix shared by several uids; candidates are (uid, 1-based line number).
    case ambiguous(prefix: String, candidates: [Candidate])
    /// A prefix shorter than two characters (it would match too much by accident).
    case prefixTooShort(String)
    /// Neither a number nor a possible uid (empty, or holding whitespace).
    case malformed(String)

    /// A task an ambiguous address could mean.
    public struct Candidate: Equatable, Sendable {
        public let uid: String
        public let lineNumber: Int
    }

    public var description: String {
        switch self {
        case .noTask(let number): return "no task \(number)"
        case .unknownUID(let value): return "no task with uid \(value)"
        case .prefixTooShort(let value): return "uid prefix '\(value)' is too short (2 characters at least)"
        case .malformed(let value): return "'\(value)' is neither a line number nor a uid"
        case .ambiguous(let prefix, let candidates):
            let list = candidates.map { "\($0.uid) (line \($0.lineNumber))" }.joined(separator: ", ")
            return "uid prefix '\(prefix)' is ambiguous: \(list)"
        }
    }
}

/// Where an address led: the line, and any other lines holding the same uid.
public struct TaskReference: Equatable, Sendable {
    /// 0-based line index.
    public let index: Int
    /// The uid the address matched, if it was a uid.
    public let uid: String?
    /// Other lines carrying the same uid (a duplicate the caller should report).
    public let duplicateIndices: [Int]
}

extension TodoDocument {
    /// Resolves a line number, a full uid, `uid:VALUE` or a unique uid prefix (≥ 2 characters).
    ///
    /// A number is always a line number (generated uids are never all digits); a uid held by several
    /// lines resolves to its owner (docs/format.md section 4) and lists the others.
    public func resolve(_ address: String, index: UIDIndex? = nil) throws(TaskAddressError) -> TaskReference {
        guard !address.isEmpty, !address.utf8.contains(where: { $0 == 0x20 || $0 == 0x09 }) else {
            throw .malformed(address)
        }
        if address.utf8.allSatisfy(ByteScanning.isDigit) {
            guard let number = Int(address), number >= 1, number <= lineCount, item(at: number - 1).isTask else {
                throw .noTask(lineNumber: address)
            }
            return TaskReference(index: number - 1, uid: nil, duplicateIndices: [])
        }
        var value = Substring(address)
        let explicit = value.hasPrefix("uid:")
        if explicit { value = value.dropFirst(4) }
        let key = String(value)
        guard !key.isEmpty else { throw .malformed(address) }
        // Without an index, only the uids that could match are collected (one scan, no dictionary
        // of every uid): resolving one task in a large file costs a read of its bytes.
        let uids = index ?? UIDIndex(self, matching: Array(key.utf8), prefixes: !explicit)
        if let owner = uids.owners[key] {
            let others = (uids.holders[key] ?? []).filter { $0 != owner }
            return TaskReference(index: owner, uid: key, duplicateIndices: others)
        }
        if explicit { throw .unknownUID(key) }
        guard key.utf8.count >= 2 else { throw .prefixTooShort(key) }
        let matches = uids.owners.keys.filter { $0.hasPrefix(key) }.sorted()
        guard let only = matches.first else { throw .unknownUID(key) }
        guard matches.count == 1 else {
            let candidates = matches.compactMap { uid in
                uids.owners[uid].map { TaskAddressError.Candidate(uid: uid, lineNumber: $0 + 1) }
            }.sorted { $0.lineNumber < $1.lineNumber }
            throw .ambiguous(prefix: key, candidates: candidates)
        }
        let owner = uids.owners[only] ?? 0
        let others = (uids.holders[only] ?? []).filter { $0 != owner }
        return TaskReference(index: owner, uid: only, duplicateIndices: others)
    }

    /// Gives every task without a uid, and every non-owner holder of a duplicate uid, a fresh one.
    /// Returns the 0-based indices changed. The owner of a uid and every other line stay untouched.
    public mutating func assignMissingUIDs<R: RandomNumberGenerator>(using generator: inout R,
                                                                     doneFile: TodoDocument? = nil) -> [Int] {
        let index = UIDIndex(self)
        var taken = index.allUIDs.union(doneFile.map { UIDIndex($0).allUIDs } ?? [])
        var changed: [Int] = []
        var needsFresh: [Int] = []
        for (uid, holders) in index.holders where holders.count > 1 {
            needsFresh += holders.filter { $0 != index.owners[uid] }
        }
        for line in 0..<lineCount {
            let item = item(at: line)
            if item.isTask && item.uid == nil { needsFresh.append(line) }
        }
        for line in needsFresh.sorted() {
            let fresh = UID.generate(using: &generator) { taken.contains($0) }
            taken.insert(fresh)
            let item = item(at: line)
            if let tag = item.tags.first(where: { $0.key == "uid" }) {
                var bytes = Array(item.content)
                bytes.replaceSubrange(tag.valueRange, with: Array(fresh.utf8))
                replaceContent(at: line, with: bytes)
            } else {
                replaceContent(at: line, with: item.settingTag("uid", to: fresh))
            }
            changed.append(line)
        }
        return changed
    }
}
