import Foundation
import Testing
import TodoTestSupport
import TodoTxt

/// Seeded property tests of the three-way merge: random base files, random independent edit scripts for
/// OURS and THEIRS, and an oracle per uid written from sync.md's table with its own field reading.
///
/// `TODO_PROPERTY_SEED` fixes the first seed, `TODO_PROPERTY_COUNT` the number of rounds; a failure
/// prints the seed of its round, which reproduces it with `TODO_PROPERTY_COUNT=1`.
@Suite struct MergePropertyTests {
    private var firstSeed: UInt64 {
        ProcessInfo.processInfo.environment["TODO_PROPERTY_SEED"].flatMap { UInt64($0) } ?? 0x7D0_2026
    }
    private var rounds: Int {
        ProcessInfo.processInfo.environment["TODO_PROPERTY_COUNT"].flatMap { Int($0) } ?? 3000
    }

    @Test func randomConcurrentEditsFollowTheTable() {
        var conflicted = 0, fieldMerged = 0
        for round in 0..<rounds {
            let seed = firstSeed &+ UInt64(round)
            var random = SplitMix64(seed: seed)
            let base = PropertyFiles.base(&random)
            let ours = PropertyFiles.edit(base, side: "o", &random)
            let theirs = PropertyFiles.edit(base, side: "t", &random)
            let result = TodoMerge.threeWay(base: base, ours: ours, theirs: theirs)
            let context = "seed \(seed)\n--- base\n\(show(base))--- ours\n\(show(ours))--- theirs\n\(show(theirs))--- result\n\(show(result.document))"
            var failures: [String] = []
            check(base: base, ours: ours, theirs: theirs, result: result, failures: &failures,
                  conflicted: &conflicted, fieldMerged: &fieldMerged)
            // Identities, byte-exact.
            for (x, label) in [(ours, "ours"), (theirs, "theirs")] {
                let bytes = x.rendered()
                if TodoMerge.threeWay(base: base, ours: x, theirs: x).bytes != bytes { failures.append("merge(base,\(label),\(label)) != \(label)") }
                if TodoMerge.threeWay(base: base, ours: base, theirs: x).bytes != bytes { failures.append("merge(base,base,\(label)) != \(label)") }
                if TodoMerge.threeWay(base: base, ours: x, theirs: base).bytes != bytes { failures.append("merge(base,\(label),base) != \(label)") }
            }
            if !failures.isEmpty {
                Issue.record(Comment(rawValue: failures.joined(separator: "\n") + "\n" + context))
                return
            }
        }
        // The generator must exercise the interesting rows, or the test proves little.
        if rounds >= 1000 {
            #expect(conflicted > rounds / 50, "too few conflicts generated")
            #expect(fieldMerged > rounds / 50, "too few field merges generated")
        }
    }

    @Test func emptyBaseMergesAsAddAdd() {
        for round in 0..<max(1, rounds / 10) {
            let seed = firstSeed &+ 1_000_000 &+ UInt64(round)
            var random = SplitMix64(seed: seed)
            let shared = PropertyFiles.base(&random)
            let ours = PropertyFiles.edit(shared, side: "o", &random)
            let theirs = PropertyFiles.edit(shared, side: "t", &random)
            let result = TodoMerge.threeWay(base: TodoDocument(), ours: ours, theirs: theirs)
            var failures: [String] = []
            var unused = 0, unused2 = 0
            check(base: TodoDocument(), ours: ours, theirs: theirs, result: result, failures: &failures,
                  conflicted: &unused, fieldMerged: &unused2)
            if !failures.isEmpty {
                Issue.record(Comment(rawValue: failures.joined(separator: "\n") + "\nseed \(seed)\n--- ours\n\(show(ours))--- theirs\n\(show(theirs))--- result\n\(show(result.document))"))
                return
            }
        }
    }

    // MARK: The oracle

    private func show(_ document: TodoDocument) -> String { String(decoding: document.rendered(), as: UTF8.self) }

    /// uid → line (each generated uid is held by one line at most).
    private func versions(_ document: TodoDocument) -> [String: [UInt8]] {
        var map: [String: [UInt8]] = [:]
        for index in 0..<document.lineCount {
            if let uid = document.item(at: index).uid { map[uid] = Array(document.content(at: index)) }
        }
        return map
    }

    private func textCounts(_ document: TodoDocument) -> [[UInt8]: Int] {
        var counts: [[UInt8]: Int] = [:]
        for index in 0..<document.lineCount where document.item(at: index).uid == nil {
            counts[Array(document.content(at: index)), default: 0] += 1
        }
        return counts
    }

    private struct Parsed {
        var plain: [(line: [UInt8], position: Int)] = []
        var conflicts: [(ours: [UInt8], theirs: [UInt8], position: Int)] = []
        var malformed = false
    }

    private func parse(_ document: TodoDocument) -> Parsed {
        var parsed = Parsed()
        var index = 0
        let lines = (0..<document.lineCount).map { Array(document.content(at: $0)) }
        while index < lines.count {
            if lines[index] == Array("<<<<<<< ours".utf8) {
                guard index + 4 < lines.count, lines[index + 2] == Array("=======".utf8),
                      lines[index + 4] == Array(">>>>>>> theirs".utf8) else { parsed.malformed = true; return parsed }
                parsed.conflicts.append((lines[index + 1], lines[index + 3], index))
                index += 5
            } else {
                parsed.plain.append((lines[index], index))
                index += 1
            }
        }
        return parsed
    }

    private func check(base: TodoDocument, ours: TodoDocument, theirs: TodoDocument, result: MergeResult,
                       failures: inout [String], conflicted: inout Int, fieldMerged: inout Int) {
        let merged = result.document
        if TodoDocument(bytes: result.bytes).rendered() != result.bytes { failures.append("result does not round-trip") }
        let parsed = parse(merged)
        if parsed.malformed { failures.append("malformed conflict block"); return }
        var plainByUID: [String: [[UInt8]]] = [:]
        for entry in parsed.plain {
            if let uid = TodoItem(entry.line).uid { plainByUID[uid, default: []].append(entry.line) }
        }
        var conflictByUID: [String: (ours: [UInt8], theirs: [UInt8])] = [:]
        for block in parsed.conflicts {
            guard let uid = TodoItem(block.ours).uid, TodoItem(block.theirs).uid == uid else {
                failures.append("conflict block without a common uid"); continue
            }
            if conflictByUID[uid] != nil { failures.append("uid \(uid) in two conflict blocks") }
            conflictByUID[uid] = (block.ours, block.theirs)
        }
        let b = versions(base), o = versions(ours), t = versions(theirs)
        // No uid is ever on two lines of the result (– A B is a conflict block since issue 13).
        for (uid, lines) in plainByUID where lines.count > 1 { failures.append("uid \(uid) appears \(lines.count) times") }
        if result.conflicts.count != parsed.conflicts.count { failures.append("conflicts listed \(result.conflicts.count), blocks \(parsed.conflicts.count)") }
        if result.isClean != parsed.conflicts.isEmpty { failures.append("isClean wrong") }

        var expectedConflicts = 0
        for uid in Set(b.keys).union(o.keys).union(t.keys) {
            let got = plainByUID[uid]?.first
            let inConflict = conflictByUID[uid]
            func expect(_ line: [UInt8]?, _ row: String) {
                if inConflict != nil { failures.append("\(uid) (\(row)): unexpected conflict") }
                if got != line {
                    failures.append("\(uid) (\(row)): expected \(line.map { String(decoding: $0, as: UTF8.self) } ?? "absent"), got \(got.map { String(decoding: $0, as: UTF8.self) } ?? "absent")")
                }
            }
            switch (b[uid], o[uid], t[uid]) {
            case (nil, let mine?, let other?):
                if mine == other { expect(mine, "– A A") }
                else {
                    expectedConflicts += 1
                    if inConflict.map({ $0.0 == mine && $0.1 == other }) != true || plainByUID[uid] != nil {
                        failures.append("\(uid) (– A B): one conflict block with both versions expected")
                    }
                }
            case (nil, let mine?, nil): expect(mine, "– A –")
            case (nil, nil, let other?): expect(other, "– – B")
            case (_?, nil, nil): expect(nil, "X – –")
            case (let original?, let mine?, nil): expect(mine == original ? nil : mine, "X A –")
            case (let original?, nil, let other?): expect(other == original ? nil : other, "X – B")
            case (let original?, let mine?, let other?):
                if mine == other || other == original { expect(mine, "X A A / X A X") }
                else if mine == original { expect(other, "X X B") }
                else {
                    switch SyncFields.merge(base: original, ours: mine, theirs: other) {
                    case nil:
                        expectedConflicts += 1
                        if let block = inConflict {
                            if block.ours != mine || block.theirs != other { failures.append("\(uid): conflict block holds other versions") }
                        } else {
                            failures.append("\(uid): expected a conflict, got \(got.map { String(decoding: $0, as: UTF8.self) } ?? "absent")")
                        }
                    case let fields?:
                        fieldMerged += 1
                        if inConflict != nil { failures.append("\(uid): mergeable fields but conflict") }
                        else if let got, SyncFields(got) != fields {
                            failures.append("\(uid): merged fields wrong: \(String(decoding: got, as: UTF8.self))")
                        } else if got == nil { failures.append("\(uid): merged task missing") }
                    }
                }
            default: break
            }
        }
        if expectedConflicts > 0 { conflicted += 1 }
        if expectedConflicts != parsed.conflicts.count { failures.append("expected \(expectedConflicts) conflicts, got \(parsed.conflicts.count)") }

        // Lines without uid: a multiset per table row, occurrence by occurrence.
        let nb = textCounts(base), no = textCounts(ours), nt = textCounts(theirs)
        var gotCounts: [[UInt8]: Int] = [:]
        for entry in parsed.plain where TodoItem(entry.line).uid == nil { gotCounts[entry.line, default: 0] += 1 }
        for line in Set(nb.keys).union(no.keys).union(nt.keys).union(gotCounts.keys) {
            let cb = nb[line] ?? 0, co = no[line] ?? 0, ct = nt[line] ?? 0
            let expected = min(cb, co, ct) + max(0, max(co, ct) - cb)
            if gotCounts[line] ?? 0 != expected {
                failures.append("line '\(String(decoding: line, as: UTF8.self))': expected \(expected) times, got \(gotCounts[line] ?? 0)")
            }
        }

        // Order: what OURS holds keeps OURS' order (after the stable partition when OURS is sorted).
        // When OURS equals BASE the whole-file shortcut gives THEIRS, order included.
        guard ours.rendered() != base.rendered() else { return }
        let sortedMode = isPartitioned(ours) && (hasCompleted(ours) || (hasCompleted(base) && isPartitioned(base)))
        var positionInResult: [String: (Int, Bool)] = [:]
        for entry in parsed.plain {
            // A uid kept twice (– A B): OURS' version is the one OURS' order applies to.
            if let uid = TodoItem(entry.line).uid, (plainByUID[uid]?.count ?? 0) < 2 || entry.line == o[uid] {
                positionInResult[uid] = (entry.position, TodoItem(entry.line).isCompleted)
            }
        }
        for block in parsed.conflicts { if let uid = TodoItem(block.ours).uid { positionInResult[uid] = (block.position, TodoItem(block.ours).isCompleted) } }
        var fromOurs: [(uid: String, done: Bool, position: Int)] = []
        for index in 0..<ours.lineCount {
            if let uid = ours.item(at: index).uid, let (position, done) = positionInResult[uid] { fromOurs.append((uid, done, position)) }
        }
        let expectedOrder = sortedMode ? fromOurs.filter { !$0.done } + fromOurs.filter(\.done) : fromOurs
        if expectedOrder.map(\.position) != expectedOrder.map(\.position).sorted() { failures.append("OURS' order not kept (sorted mode \(sortedMode))") }
        if sortedMode && !isPartitioned(merged) && parsed.conflicts.isEmpty { failures.append("sorted OURS but result not sorted") }
    }

    private func isPartitioned(_ document: TodoDocument) -> Bool {
        var seen = false
        for index in 0..<document.lineCount {
            if document.item(at: index).isCompleted { seen = true } else if seen { return false }
        }
        return true
    }

    private func hasCompleted(_ document: TodoDocument) -> Bool {
        (0..<document.lineCount).contains { document.item(at: $0).isCompleted }
    }
}


/// Random files and edit scripts built with the library's own editing functions.
private enum PropertyFiles {
    static let words = ["call", "mom", "pay", "rent", "buy", "milk", "book", "dentist", "plan", "trip", "fix", "bike"]
    static let projects = ["+home", "+work", "+trip"]
    static let contexts = ["@phone", "@laptop", "@town"]
    static let plainLines = ["buy milk", "call mom", "", "# notes", "water plants"]

    static func pick<T>(_ items: [T], _ random: inout SplitMix64) -> T { items[Int(random.next() % UInt64(items.count))] }
    static func chance(_ percent: UInt64, _ random: inout SplitMix64) -> Bool { random.next() % 100 < percent }
    static func date(_ random: inout SplitMix64) -> TodoDate {
        TodoDate(year: 2026, month: 11, day: 1 + Int(random.next() % 28))!
    }

    static func task(uid: String, _ random: inout SplitMix64) -> [UInt8] {
        var text = ""
        if chance(30, &random) { text += "(\(pick(["A", "B", "C"], &random))) " }
        if chance(30, &random) { text += "\(date(&random)) " }
        text += (0..<(1 + Int(random.next() % 3))).map { _ in pick(words, &random) }.joined(separator: " ")
        if chance(40, &random) { text += " \(pick(projects, &random))" }
        if chance(30, &random) { text += " \(pick(contexts, &random))" }
        if chance(30, &random) { text += " due:\(date(&random))" }
        text += " uid:\(uid)"
        var bytes = Array(text.utf8)
        if chance(25, &random) { bytes = TodoItem(bytes).completed(on: date(&random)) ?? bytes }
        return bytes
    }

    static func base(_ random: inout SplitMix64) -> TodoDocument {
        var document = TodoDocument()
        let count = Int(random.next() % 10)
        for number in 0..<count { document.appendLine(task(uid: "b\(number)", &random)) }
        for _ in 0..<Int(random.next() % 3) {
            document.insertLine(Array(pick(plainLines, &random).utf8), at: Int(random.next() % UInt64(document.lineCount + 1)))
        }
        if chance(30, &random) { document = document.sorted() }
        return document
    }

    static func uidLines(_ document: TodoDocument) -> [Int] {
        (0..<document.lineCount).filter { document.item(at: $0).uid != nil }
    }

    static func edit(_ original: TodoDocument, side: String, _ random: inout SplitMix64) -> TodoDocument {
        var document = original
        var added = 0
        for _ in 0..<Int(random.next() % 5) {
            let tasks = uidLines(document)
            let target = tasks.isEmpty ? nil : pick(tasks, &random)
            switch random.next() % 13 {
            case 0:
                let line = task(uid: "\(side)\(added)", &random)
                added += 1
                if chance(50, &random) { document.appendLine(line) }
                else { document.insertLine(line, at: Int(random.next() % UInt64(document.lineCount + 1))) }
            case 1: if let target { document.complete(at: target, on: date(&random)) }
            case 2: if let target { document.uncomplete(at: target) }
            case 3: if let target { _ = try? document.appendText(Array(pick(words, &random).utf8), at: target) }
            case 4: if let target { document.setPriority(chance(20, &random) ? nil : Priority(pick(["A", "B", "C", "D"], &random)), at: target) }
            case 5: if let target { document.setTag("due", to: "\(date(&random))", at: target) }
            case 6: if let target { document.setTag("t", to: "\(date(&random))", at: target) }
            case 7: if let target { _ = try? document.appendText(Array(pick(projects + contexts, &random).utf8), at: target) }
            case 8: if let target { document.removeLine(at: target) }
            case 9:
                var order = Array(0..<document.lineCount)
                order.shuffle(using: &random)
                if !order.isEmpty { document.reorder(order) }
            case 10: document = document.sorted()
            case 11: document.insertLine(Array(pick(plainLines, &random).utf8), at: Int(random.next() % UInt64(document.lineCount + 1)))
            default:
                let plain = (0..<document.lineCount).filter { document.item(at: $0).uid == nil }
                if !plain.isEmpty { document.removeLine(at: pick(plain, &random)) }
                else if let target { document.removeTag("due", at: target) }
            }
        }
        return document
    }
}
