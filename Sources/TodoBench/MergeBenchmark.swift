// The merge section of TodoBench: a three-way merge of three seeded versions of one large todo.txt.
import TodoTestSupport
import TodoTxt

/// Runs the three-way merge benchmark and returns the report to print.
///
/// BASE is a generated file of `lines` lines (tasks with priorities, dates, projects, contexts, `due:`
/// and a `uid:` each, completed tasks at the bottom). OURS and THEIRS are each BASE with realistic,
/// independent edits made through the library's editing API: about 2% of the tasks changed (completed,
/// re-prioritised, text appended, a tag set), 0.5% deleted and 1% added at the end, with part of the
/// changed tasks shared by both sides so that field merges and a few conflicts happen. The versions are
/// rendered to bytes, as git hands them to the driver.
///
/// The measured step is what `todo merge` does between reading and writing: parse the three byte
/// arrays, `TodoMerge.threeWay`, render the result. Best of several runs (at least 3, more for small
/// inputs), with `ContinuousClock`.
///
/// - Parameters:
///   - lines: the size of BASE in lines (the target: 100k lines merge in under 1 s, release build).
///   - seed: the seed of the generated files; the same seed gives the same files.
func runMergeBenchmark(lines: Int, seed: UInt64) -> String {
    var random = SplitMix64(seed: seed)
    let base = MergeBenchFiles.base(lines: lines, &random)
    let ours = MergeBenchFiles.edit(base, side: "o", &random)
    let theirs = MergeBenchFiles.edit(base, side: "t", &random)
    let runs = lines >= 50_000 ? 5 : 10
    let clock = ContinuousClock()
    var best = Duration.seconds(1_000_000)
    var total = Duration.zero
    var outcome: (bytes: Int, lines: Int, conflicts: Int, reports: Int, digest: UInt64) = (0, 0, 0, 0, 0)
    for _ in 0..<runs {
        var result: MergeResult?
        var merged: [UInt8] = []
        let elapsed = clock.measure {
            let merge = TodoMerge.threeWay(base: TodoDocument(bytes: base.bytes), ours: TodoDocument(bytes: ours.bytes),
                                           theirs: TodoDocument(bytes: theirs.bytes))
            merged = merge.bytes
            result = merge
        }
        best = min(best, elapsed)
        total += elapsed
        if let result {
            // FNV-1a of the result, so that two builds (before and after an optimisation) can be
            // compared for identical output.
            var digest: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in merged { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01B3 }
            outcome = (merged.count, TodoDocument(bytes: merged).lineCount, result.conflicts.count, result.reports.count, digest)
        }
    }
    func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let micro = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        let whole = micro / 1000, fraction = micro % 1000
        let padded = String(fraction)
        return "\(whole).\(String(repeating: "0", count: 3 - padded.count))\(padded) ms"
    }
    let megabytes = Double(base.bytes.count + ours.bytes.count + theirs.bytes.count) / 1_000_000
    let bestSeconds = Double(best.components.seconds) + Double(best.components.attoseconds) / 1e18
    let throughput = bestSeconds > 0 ? megabytes / bestSeconds : 0
    let target = lines >= 100_000 ? (bestSeconds < 1.0 * Double(lines) / 100_000 ? "  PASS (< 1 s per 100k lines)" : "  FAIL (target < 1 s per 100k lines)") : ""
    var report = "merge: three-way, seed \(seed)\n"
    report += "  base \(base.lines) lines (\(base.bytes.count) bytes), ours \(ours.lines) lines (\(ours.edits) edits), theirs \(theirs.lines) lines (\(theirs.edits) edits)\n"
    report += "  result \(outcome.lines) lines (\(outcome.bytes) bytes), \(outcome.conflicts) conflicts, \(outcome.reports) reports, FNV-1a \(String(outcome.digest, radix: 16))\n"
    report += "  parse + merge + render: best \(milliseconds(best)) of \(runs), mean \(milliseconds(total / runs)), "
    let tenths = Int(throughput * 10 + 0.5)
    report += "\(tenths / 10).\(tenths % 10) MB/s of input\(target)\n"
    return report
}

/// Draws for the merge section.
private extension SplitMix64 {
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func percent(_ chance: Int) -> Bool { below(100) < chance }
}

/// One generated version: its bytes and what was done to make it.
struct MergeBenchVersion {
    var bytes: [UInt8]
    var lines: Int
    var edits: Int
}

enum MergeBenchFiles {
    static let words = ["call", "mom", "pay", "rent", "buy", "milk", "book", "dentist", "plan", "trip", "fix", "bike",
                        "email", "report", "review", "draft", "clean", "garage", "renew", "passport", "order", "parts"]
    static let projects = ["+home", "+work", "+trip", "+garden", "+taxes"]
    static let contexts = ["@phone", "@laptop", "@town", "@office"]

    static func date(_ random: inout SplitMix64) -> TodoDate {
        TodoDate(year: 2026, month: 1 + random.below(12), day: 1 + random.below(28)) ?? TodoDate(year: 2026, month: 1, day: 1)!
    }

    static func uid(_ side: String, _ number: Int) -> String { "\(side)\(number)" }

    static func task(uid: String, _ random: inout SplitMix64) -> [UInt8] {
        var text = ""
        if random.percent(30) { text += "(\(["A", "B", "C", "D"][random.below(4)])) " }
        if random.percent(60) { text += "\(date(&random)) " }
        text += (0..<(2 + random.below(5))).map { _ in words[random.below(words.count)] }.joined(separator: " ")
        if random.percent(50) { text += " " + projects[random.below(projects.count)] }
        if random.percent(40) { text += " " + contexts[random.below(contexts.count)] }
        if random.percent(30) { text += " due:\(date(&random))" }
        text += " uid:\(uid)"
        return Array(text.utf8)
    }

    /// BASE: `lines` tasks, a fifth completed; sorted (completed last) unless `sorted` is false.
    static func base(lines: Int, sorted: Bool = true, _ random: inout SplitMix64) -> MergeBenchVersion {
        var document = TodoDocument()
        for number in 0..<lines {
            var line = task(uid: uid("b", number), &random)
            if random.percent(20) { line = TodoItem(line).completed(on: date(&random)) ?? line }
            document.appendLine(line)
        }
        let bytes = sorted ? document.sorted().rendered() : document.rendered()
        return MergeBenchVersion(bytes: bytes, lines: lines, edits: 0)
    }

    /// BASE with independent edits. Half the changed tasks come from a pool both sides draw from
    /// (seeded by the base alone), so both sides often touch the same tasks.
    static func edit(_ base: MergeBenchVersion, side: String, _ random: inout SplitMix64) -> MergeBenchVersion {
        var document = TodoDocument(bytes: base.bytes)
        let count = document.lineCount
        guard count > 0 else { return base }
        var shared = SplitMix64(seed: UInt64(count) &* 0x51_7CC1_B727_220A)
        var edits = 0
        let changes = max(1, count / 50)
        for change in 0..<changes {
            let index = change % 2 == 0 ? shared.below(count) : random.below(count)
            switch random.below(4) {
            case 0:
                if document.item(at: index).isCompleted { _ = document.uncomplete(at: index) }
                else { _ = document.complete(at: index, on: date(&random)) }
            case 1: _ = document.setPriority(Priority(["A", "B", "C"][random.below(3)]), at: index)
            case 2: _ = try? document.appendText(Array(words[random.below(words.count)].utf8), at: index)
            default: _ = document.setTag("due", to: "\(date(&random))", at: index)
            }
            edits += 1
        }
        var deleted = Set<Int>()
        for _ in 0..<max(1, count / 200) { deleted.insert(random.below(count)) }
        for index in deleted.sorted(by: >) { document.removeLine(at: index) }
        edits += deleted.count
        let added = max(1, count / 100)
        for number in 0..<added {
            document.appendLine(task(uid: uid(side, number), &random))
        }
        edits += added
        let bytes = document.rendered()
        return MergeBenchVersion(bytes: bytes, lines: TodoDocument(bytes: bytes).lineCount, edits: edits)
    }
}
