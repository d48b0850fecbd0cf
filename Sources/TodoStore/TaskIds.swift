#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The ids of a document's lines, and how they carry over to the next version of the file: the
/// rule of docs/store.md, "Identity". Pure: it runs off the main actor.
///
/// An id is `uid:VALUE` for a line whose uid no earlier line holds, else `local N` (N a number
/// this store never hands out twice; a uid holds no space, so the two never meet). Blank lines
/// have the empty id: they are not tasks and are never listed.
///
/// From an old version to a new one, a new line gets, in this order:
/// 1. the id the caller pins on it (the task this store just edited or added);
/// 2. the id of the line at the same place when the bytes of every line from the start (or from
///    the end) up to it are unchanged: the lines before and after a change keep theirs at no cost;
/// 3. among the lines in between: `uid:VALUE` when it has a uid; else the id of an old line with
///    the same bytes (equal lines pair in order); else of an old line with the same text without
///    header and uid (completed, reprioritised, re-dated elsewhere); else of a line this store
///    removed in the change it describes (`retired`: an undone removal gets its id back); else,
///    when exactly one old line and one new line are left unpaired, the old one's (one line edited
///    in place); else a fresh `local N`.
/// No id is given twice: a later line that would repeat one gets a fresh id.
struct TaskIds: Sendable {
    /// The id of each line of `document`.
    var ids: [String]
    /// The next `local N`.
    var nextLocal: Int

    /// Ids for a document read fresh: uids where there are, `local N` from `nextLocal` on.
    init(document: TodoDocument, nextLocal: Int = 0) {
        self.nextLocal = nextLocal
        ids = []
        ids.reserveCapacity(document.lineCount)
        var uidIDs: Set<String> = []
        uidIDs.reserveCapacity(document.lineCount)
        for index in 0..<document.lineCount {
            let content = document.content(at: index)
            if TodoItem.classify(content).isBlank {
                ids.append("")
            } else if Self.mayHoldUID(content), let uid = TodoItem(content).uid, uidIDs.insert("uid:" + uid).inserted {
                ids.append("uid:" + uid)
            } else {
                ids.append(makeLocal())
            }
        }
    }

    private init(ids: [String], nextLocal: Int) {
        self.ids = ids
        self.nextLocal = nextLocal
    }

    mutating func makeLocal() -> String {
        defer { nextLocal += 1 }
        return "local \(nextLocal)"
    }

    /// Whether `content` holds the bytes `uid:` (every `uid:` and `uuid:` tag does): only such a
    /// line is parsed for its uid.
    static func mayHoldUID(_ content: ArraySlice<UInt8>) -> Bool {
        content.withUnsafeBufferPointer { bytes in
            guard bytes.count >= 4, let base = bytes.baseAddress else { return false }
            var offset = 0
            while offset + 4 <= bytes.count {
                guard let found = memchr(base + offset, 0x3A, bytes.count - offset) else { return false }
                let colon = UnsafePointer<UInt8>(found.assumingMemoryBound(to: UInt8.self)) - base
                if colon >= 3, base[colon - 3] == 0x75, base[colon - 2] == 0x69, base[colon - 1] == 0x64 { return true }
                offset = colon + 1
            }
            return false
        }
    }

    static func sameBytes(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y in
                guard let p = x.baseAddress, let q = y.baseAddress else { return true }
                return memcmp(p, q, x.count) == 0
            }
        }
    }

    /// The ids of `new`, carried over from these (the ids of `old`) by the rule above.
    func carried(from old: TodoDocument, to new: TodoDocument, pinned: [Int: String] = [:],
                 retired: [[UInt8]: String] = [:]) -> TaskIds {
        var next = TaskIds(ids: [String](repeating: "", count: new.lineCount), nextLocal: nextLocal)
        let oldCount = old.lineCount, newCount = new.lineCount
        var prefix = 0
        while prefix < oldCount, prefix < newCount, pinned[prefix] == nil,
              Self.sameBytes(old.content(at: prefix), new.content(at: prefix)) {
            next.ids[prefix] = ids[prefix]
            prefix += 1
        }
        var suffix = 0
        while suffix < oldCount - prefix, suffix < newCount - prefix, pinned[newCount - 1 - suffix] == nil,
              Self.sameBytes(old.content(at: oldCount - 1 - suffix), new.content(at: newCount - 1 - suffix)) {
            next.ids[newCount - 1 - suffix] = ids[oldCount - 1 - suffix]
            suffix += 1
        }
        let oldMiddle = prefix..<(oldCount - suffix), newMiddle = prefix..<(newCount - suffix)
        if !newMiddle.isEmpty || !pinned.isEmpty {
            next.match(old: old, oldIDs: ids, oldMiddle: oldMiddle, new: new, newMiddle: newMiddle, pinned: pinned, retired: retired)
            next.removeRepeats(keptEnds: [0..<prefix, (newCount - suffix)..<newCount], oldMiddleIDs: Set(ids[oldMiddle]),
                               newMiddle: newMiddle, pinned: pinned)
        }
        return next
    }

    /// Steps 1 and 3 of the rule for the lines between the unchanged ends, then the check that no
    /// id is given twice.
    private mutating func match(old: TodoDocument, oldIDs: [String], oldMiddle: Range<Int>, new: TodoDocument,
                                newMiddle: Range<Int>, pinned: [Int: String], retired: [[UInt8]: String]) {
        var taken = Set(pinned.values)
        for (index, id) in pinned where index < ids.count { ids[index] = id }
        var open = newMiddle.filter { pinned[$0] == nil && !TodoItem.classify(new.content(at: $0)).isBlank }
        // uids first: a uid names its task wherever it went.
        open.removeAll { index in
            let content = new.content(at: index)
            guard Self.mayHoldUID(content), let uid = TodoItem(content).uid, taken.insert("uid:" + uid).inserted else { return false }
            ids[index] = "uid:" + uid
            return true
        }
        var byBytes: [ArraySlice<UInt8>: [String]] = [:]
        var unpaired: [(id: String, index: Int)] = []
        for index in oldMiddle.reversed() where !oldIDs[index].isEmpty && !taken.contains(oldIDs[index]) {
            byBytes[old.content(at: index), default: []].append(oldIDs[index])
            unpaired.append((oldIDs[index], index))
        }
        func claim(_ id: String, for index: Int) {
            ids[index] = id
            taken.insert(id)
        }
        open.removeAll { index in
            while let id = byBytes[new.content(at: index)]?.popLast() {
                if taken.contains(id) { continue }
                claim(id, for: index)
                return true
            }
            return false
        }
        if !open.isEmpty {
            unpaired.removeAll { taken.contains($0.id) }
            var byText: [[UInt8]: [String]] = [:]
            for entry in unpaired { byText[old.item(at: entry.index).editableDescription, default: []].append(entry.id) }
            open.removeAll { index in
                while let id = byText[new.item(at: index).editableDescription]?.popLast() {
                    if taken.contains(id) { continue }
                    claim(id, for: index)
                    return true
                }
                if let id = retired[Array(new.content(at: index))], !taken.contains(id) {
                    claim(id, for: index)
                    return true
                }
                return false
            }
            unpaired.removeAll { taken.contains($0.id) }
            if open.count == 1, unpaired.count == 1, let index = open.first, unpaired[0].id.hasPrefix("local ") {
                claim(unpaired[0].id, for: index)
                open = []
            }
            for index in open { claim(makeLocal(), for: index) }
        }
    }

    /// No id twice. Within the lines in between, `match` gives each id once; old ids are unique, so
    /// an id taken over from an old line in between cannot be held at an unchanged end either. Only a
    /// uid's id or a pinned id that no old line in between held may repeat one kept at an end (a uid
    /// written twice): those few are looked for there, and the line in between gets a fresh id.
    private mutating func removeRepeats(keptEnds: [Range<Int>], oldMiddleIDs: Set<String>, newMiddle: Range<Int>,
                                        pinned: [Int: String]) {
        let candidates = Array(newMiddle) + pinned.keys.filter { !newMiddle.contains($0) }
        for index in candidates where index < ids.count {
            let id = ids[index]
            guard !id.isEmpty, !oldMiddleIDs.contains(id), id.hasPrefix("uid:") || pinned[index] == id else { continue }
            if keptEnds.contains(where: { end in end.contains { $0 != index && ids[$0] == id } }) { ids[index] = makeLocal() }
        }
    }
}
