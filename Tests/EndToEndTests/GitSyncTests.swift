import Foundation
import TodoTxt
import XCTest
import TodoTestSupport

/// Two git clones of one bare repository edit todo.txt concurrently, round after round, and merge
/// through `todo merge` registered by `todo merge --setup` (sync.md section 3). Each round's
/// three versions are also merged by git's default line merge and by `merge=union` in two further
/// repositories, and the results compared.
///
/// Rounds: `TODO_GIT_ROUNDS`, else 10 per second of `TODO_SOAK_SECONDS` (default 3: 30 rounds;
/// 20: 200 rounds). The seed is printed; `TODO_PROPERTY_SEED` replays it.
final class GitSyncTests: XCTestCase {
    private var rounds: Int {
        if let text = ProcessInfo.processInfo.environment["TODO_GIT_ROUNDS"], let value = Int(text), value > 0 { return value }
        return max(1, Int(Spawn.soakSeconds(default: 3) * 10))
    }

    func testTwoClonesMergeByTaskWithTheDriver() throws {
        let seed = propertySeed("GitSyncTests")
        var random = SplitMix64(seed: seed)
        let root = Spawn.makeTemporaryDirectory("git-sync")
        let sandbox = GitSandbox(root: root)
        let remote = root + "/remote.git", a = root + "/a", b = root + "/b"

        // The shared repository, clone A with a first todo.txt, the driver registered and committed.
        sandbox.gitOK(root, ["init", "-q", "--bare", "-b", "main", remote])
        sandbox.gitOK(root, ["init", "-q", "-b", "main", a])
        var initial = TodoDocument()
        for _ in 0..<12 { SyncEdits.add(to: &initial, &random) }
        Files.write(a + "/todo.txt", initial.rendered())
        sandbox.gitOK(a, ["add", "todo.txt"])
        sandbox.gitOK(a, ["commit", "-q", "-m", "first tasks"])
        sandbox.gitOK(a, ["remote", "add", "origin", remote])
        sandbox.gitOK(a, ["push", "-q", "-u", "origin", "main"])

        let setupA = sandbox.todo(in: a, ["merge", "--setup"])
        XCTAssertEqual(setupA.status, 0, setupA.err)
        let driver = sandbox.gitOK(a, ["config", "merge.todotxt.driver"]).out
        XCTAssertEqual(driver, "'\(Spawn.todo)' merge %O %A %B %L %P %S %X %Y\n", "the driver is registered by the path it was run as")
        XCTAssertEqual(sandbox.gitOK(a, ["check-attr", "merge", "todo.txt"]).out, "todo.txt: merge: todotxt\n")
        sandbox.gitOK(a, ["add", ".gitattributes"])
        sandbox.gitOK(a, ["commit", "-q", "-m", "merge todo.txt by task"])
        sandbox.gitOK(a, ["push", "-q"])

        sandbox.gitOK(root, ["clone", "-q", remote, b])
        let setupB = sandbox.todo(in: b, ["merge", "--setup"])
        XCTAssertEqual(setupB.status, 0, setupB.err)
        XCTAssertEqual(sandbox.gitOK(b, ["status", "--porcelain"]).out, "", "setup in a clone that has the attributes changes nothing")

        // The comparison repository: each round's versions merged by git's default merge, then by
        // merge=union (set in .git/info/attributes).
        let replayRepo = root + "/replay"
        sandbox.gitOK(root, ["init", "-q", "-b", "main", replayRepo])

        var stats = SyncStats()
        let clock = ContinuousClock()
        let started = clock.now
        for round in 0..<rounds {
            let base = Files.read(a + "/todo.txt")
            XCTAssertEqual(Files.read(b + "/todo.txt"), base, "round \(round): clones differ at the start")
            // Both clones edit and commit; A pushes first, so B's pull is the concurrent merge.
            let theirs = SyncEdits.edit(base, round: round, &random)
            let ours = SyncEdits.edit(base, round: round, &random)
            Files.write(a + "/todo.txt", theirs)
            sandbox.gitOK(a, ["commit", "-q", "--allow-empty", "-am", "A: round \(round)"])
            Files.write(b + "/todo.txt", ours)
            sandbox.gitOK(b, ["commit", "-q", "--allow-empty", "-am", "B: round \(round)"])
            sandbox.gitOK(a, ["push", "-q"])
            let pull = sandbox.git(b, ["pull", "-q", "--no-rebase", "--no-edit"])
            let mergedBytes = Files.read(b + "/todo.txt")
            let merged = SyncMergedFile(mergedBytes)
            let context = "round \(round), seed \(seed), kept in \(root)\n--- base\n\(text(base))--- ours (B)\n\(text(ours))--- theirs (A)\n\(text(theirs))--- merged\n\(text(mergedBytes))--- git\n\(pull.out)\(pull.err)"

            XCTAssertTrue(pull.status == 0 || pull.status == 1, "git pull exit \(pull.status)\n\(context)")
            XCTAssertEqual(pull.status != 0, !merged.conflicts.isEmpty, "exit status and conflict blocks disagree\n\(context)")
            XCTAssertEqual(merged.malformed, [], context)
            XCTAssertEqual(merged.markerCount, merged.conflicts.count, context)
            let audit = SyncAudit(base: base, ours: ours, theirs: theirs, merged: merged, strict: true)
            XCTAssertEqual(audit.problems, [], context)
            stats.driverLost += audit.lost.count
            stats.driverDuplicates += audit.duplicates.count
            if !merged.conflicts.isEmpty {
                stats.driverConflictRounds += 1
                stats.driverConflictTasks += merged.conflicts.count
                XCTAssertEqual(sandbox.gitOK(b, ["diff", "--name-only", "--diff-filter=U"]).out, "todo.txt\n", context)
                // The user keeps their own version of each conflicting task.
                Files.write(b + "/todo.txt", merged.resolvedKeepingOurs)
                sandbox.gitOK(b, ["add", "todo.txt"])
                sandbox.gitOK(b, ["commit", "-q", "--no-edit"])
            }
            if !audit.problems.isEmpty || pull.status > 1 { break }
            sandbox.gitOK(b, ["push", "-q"])
            sandbox.gitOK(a, ["pull", "-q", "--no-rebase", "--no-edit"])
            XCTAssertEqual(Files.read(a + "/todo.txt"), Files.read(b + "/todo.txt"), "round \(round): clones differ after the exchange")

            // The same three versions through git's default merge and merge=union.
            let (lineMerge, unionMerge) = replay(sandbox, replayRepo, round: round, base: base, ours: ours, theirs: theirs)
            let lineFile = SyncMergedFile(lineMerge.bytes)
            if lineMerge.status != 0 {
                stats.defaultConflictRounds += 1
                stats.defaultConflictHunks += lineFile.markerCount
            }
            XCTAssertEqual(unionMerge.status, 0, "merge=union never stops")
            let unionAudit = SyncAudit(base: base, ours: ours, theirs: theirs, merged: SyncMergedFile(unionMerge.bytes), strict: false)
            stats.unionDuplicates += unionAudit.duplicates.count
            stats.unionLost += unionAudit.lost.count
            stats.unionResurrected += unionAudit.resurrected.count
            if !unionAudit.duplicates.isEmpty || !unionAudit.lost.isEmpty { stats.unionBadRounds += 1 }
            stats.rounds += 1
        }
        let seconds = Double((clock.now - started).components.seconds) + Double((clock.now - started).components.attoseconds) / 1e18
        print(stats.table(seed: seed, seconds: seconds))

        XCTAssertEqual(stats.rounds, rounds)
        XCTAssertEqual(stats.driverLost, 0)
        XCTAssertEqual(stats.driverDuplicates, 0)
        if rounds >= 20 {
            // The histories must exercise what the comparison is about, or it proves little.
            XCTAssertGreaterThan(stats.defaultConflictRounds, stats.driverConflictRounds,
                                 "the driver must conflict less often than git's line merge")
            XCTAssertGreaterThan(stats.unionDuplicates, 0, "union should have duplicated something")
        }
        if (testRun?.failureCount ?? 0) == 0 { try? FileManager.default.removeItem(atPath: root) }
    }

    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// Writes BASE, OURS (child of BASE) and THEIRS (child of BASE) as commits with one
    /// `git fast-import`, then merges THEIRS into OURS twice with `git merge`: with git's default
    /// merge, and with `todo.txt merge=union` in `.git/info/attributes`. Returns each merge's exit
    /// status and merged file.
    private func replay(_ sandbox: GitSandbox, _ repo: String, round: Int, base: [UInt8], ours: [UInt8], theirs: [UInt8])
        -> (line: (status: Int32, bytes: [UInt8]), union: (status: Int32, bytes: [UInt8])) {
        var stream: [UInt8] = []
        func commit(_ branch: String, mark: Int, parent: Int?, _ content: [UInt8]) {
            let message = Array("\(branch) \(round)".utf8)
            stream += Array("commit refs/heads/\(branch)\nmark :\(mark)\ncommitter Sync Test <sync@example.invalid> \(1_800_000_000 + round) +0000\n".utf8)
            stream += Array("data \(message.count)\n".utf8) + message + [0x0A]
            if let parent { stream += Array("from :\(parent)\n".utf8) }
            stream += Array("M 100644 inline todo.txt\ndata \(content.count)\n".utf8) + content + [0x0A, 0x0A]
        }
        commit("base", mark: 1, parent: nil, base)
        commit("ours", mark: 2, parent: 1, ours)
        commit("theirs", mark: 3, parent: 1, theirs)
        sandbox.gitOK(repo, ["fast-import", "--quiet", "--force"], stdin: stream)
        let attributes = repo + "/.git/info/attributes"
        func merge(union: Bool) -> (status: Int32, bytes: [UInt8]) {
            try? FileManager.default.removeItem(atPath: attributes)
            if union {
                try? FileManager.default.createDirectory(atPath: repo + "/.git/info", withIntermediateDirectories: true)
                Files.write(attributes, "todo.txt merge=union\n")
            }
            sandbox.gitOK(repo, ["reset", "-q", "--hard", "ours"])
            let merge = sandbox.git(repo, ["merge", "-q", "--no-edit", "theirs"])
            return (merge.status, Files.read(repo + "/todo.txt"))
        }
        return (merge(union: false), merge(union: true))
    }
}

/// Counters for the comparison table.
struct SyncStats {
    var rounds = 0
    var driverConflictRounds = 0, driverConflictTasks = 0, driverLost = 0, driverDuplicates = 0
    var defaultConflictRounds = 0, defaultConflictHunks = 0
    var unionDuplicates = 0, unionLost = 0, unionResurrected = 0, unionBadRounds = 0

    func table(seed: UInt64, seconds: Double) -> String {
        let rows = [
            ("rounds", "\(rounds)"),
            ("todo merge: rounds with a conflict (conflicting tasks)", "\(driverConflictRounds) (\(driverConflictTasks))"),
            ("todo merge: lost task versions / duplicate uids", "\(driverLost) / \(driverDuplicates)"),
            ("git default merge: rounds with a conflict (conflict hunks)", "\(defaultConflictRounds) (\(defaultConflictHunks))"),
            ("merge=union: duplicated uids (rounds affected)", "\(unionDuplicates) (\(unionBadRounds))"),
            ("merge=union: lost task versions", "\(unionLost)"),
            ("merge=union: deleted tasks resurrected", "\(unionResurrected)"),
        ]
        var out = "git sync comparison: seed \(seed), \(rounds) rounds in \(Int(seconds)) s\n"
        out += "| measure | count |\n|---|---|\n"
        for (label, value) in rows { out += "| \(label) | \(value) |\n" }
        return out
    }
}

/// The random edits a person makes on one machine between two syncs.
enum SyncEdits {
    static let words = ["call", "mom", "pay", "rent", "buy", "milk", "book", "dentist", "plan", "trip", "fix", "bike", "email", "report"]
    static let projects = ["+home", "+work", "+trip"]
    static let contexts = ["@phone", "@laptop", "@town"]

    static func pick<T>(_ items: [T], _ random: inout SplitMix64) -> T { items[Int(random.next() % UInt64(items.count))] }
    static func chance(_ percent: UInt64, _ random: inout SplitMix64) -> Bool { random.next() % 100 < percent }
    static func date(_ random: inout SplitMix64) -> TodoDate {
        TodoDate(year: 2026, month: 11, day: 1 + Int(random.next() % 5)) ?? TodoDate(year: 2026, month: 11, day: 1)!
    }

    /// Adds a task with a fresh uid at the end, as `todo add` does.
    static func add(to document: inout TodoDocument, _ random: inout SplitMix64) {
        var text = (0..<(1 + Int(random.next() % 3))).map { _ in pick(words, &random) }.joined(separator: " ")
        if chance(30, &random) { text = "(\(pick(["A", "B", "C"], &random))) " + text }
        if chance(40, &random) { text += " " + pick(projects, &random) }
        if chance(30, &random) { text += " " + pick(contexts, &random) }
        let uid = UID.generate(using: &random, unusedIn: document)
        document.addTask(Array(text.utf8), creationDate: chance(50, &random) ? date(&random) : nil, uid: uid)
    }

    /// One to four edits: add, complete, uncomplete, edit text, re-prioritise, set a tag, delete.
    static func edit(_ bytes: [UInt8], round: Int, _ random: inout SplitMix64) -> [UInt8] {
        var document = TodoDocument(bytes: bytes)
        for _ in 0..<(1 + Int(random.next() % 4)) {
            let tasks = (0..<document.lineCount).filter { document.item(at: $0).uid != nil }
            // Most edits go to the first few tasks (what one works on), so both machines often touch
            // the same task.
            let pool = chance(50, &random) ? Array(tasks.prefix(4)) : tasks
            guard let target = pool.isEmpty ? nil : pick(pool, &random) else { add(to: &document, &random); continue }
            switch random.next() % 100 {
            case 0..<22 where tasks.count < 40: add(to: &document, &random)
            case 0..<22: document.removeLine(at: target)
            case 22..<36: document.complete(at: target, on: date(&random))
            case 36..<44: document.uncomplete(at: target)
            case 44..<58: _ = try? document.prependText(Array(pick(words, &random).utf8), at: target)
            case 58..<72: document.setPriority(chance(20, &random) ? nil : Priority(pick(["A", "B", "C", "D"], &random)), at: target)
            case 72..<88: document.setTag("due", to: "\(date(&random))", at: target)
            default: document.removeLine(at: target)
            }
        }
        return document.rendered()
    }
}
