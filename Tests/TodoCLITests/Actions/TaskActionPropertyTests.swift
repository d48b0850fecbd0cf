import Foundation
import Testing
import TodoTestSupport
import TodoTxt

/// A random sequence of `todo` actions on a random file: no action ever changes or removes an
/// existing uid (except `del` of that very task), and every line an action did not target keeps its
/// bytes and its terminator. A usage error or a failure changes nothing at all.
struct TaskActionPropertyTests {
    static let words = ["milk", "call", "+home", "@phone", "due:2026-01-05", "rec:1w", "Café", "t:2030-01-01",
                        "pay", "h:1", "x", "(B)", "2026-02-02", "uid:", "-", ",", "ü"]

    /// A random task line (or blank line), in one of the states the suite cares about.
    static func randomLine(_ random: inout SplitMix64, uid: String) -> String {
        let body = (0..<Int.random(in: 1...4, using: &random)).map { _ in words.randomElement(using: &random)! }
            .joined(separator: " ")
        switch Int.random(in: 0..<9, using: &random) {
        case 0: return ""
        case 1: return "(A) 2026-01-01 \(body) uid:\(uid)"
        case 2: return "x 2026-01-03 2026-01-01 \(body) uid:\(uid) pri:C"
        case 3: return "x 2026-01-03 \(body)"
        case 4: return body
        case 5: return "\(body) uid:\(uid) +tagged key:value"
        default: return "\(body) uid:\(uid)"
        }
    }

    /// What one step asks for, and which tasks it targets (0-based, in the file as it was).
    struct Step {
        var arguments: [String]
        var addresses: [String]
        var deletes = false
    }

    static func randomStep(_ document: TodoDocument, _ random: inout SplitMix64) -> Step {
        func address() -> String {
            let uids = UIDIndex(document).allUIDs.sorted()
            switch Int.random(in: 0..<6, using: &random) {
            case 0: return String(Int.random(in: 0...(document.lineCount + 1), using: &random))
            case 1 where !uids.isEmpty: return "uid:" + uids.randomElement(using: &random)!
            case 2 where !uids.isEmpty: return String(uids.randomElement(using: &random)!.prefix(3))
            case 3: return "zzzzzz"
            default:
                if let uid = uids.randomElement(using: &random) { return uid }
                return String(Int.random(in: 1...max(1, document.lineCount), using: &random))
            }
        }
        let text = ["more +p", ", 2 litres", "   ", "uid:other1", "(b) new text", "x 2026-02-02 done text",
                    "plain words @c"].randomElement(using: &random)!
        switch Int.random(in: 0..<10, using: &random) {
        case 0: let a = address(); return Step(arguments: ["do", a], addresses: [a])
        case 1: let a = address(), b = address(); return Step(arguments: ["do", a, b], addresses: [a, b])
        case 2: let a = address(); return Step(arguments: ["undo", a], addresses: [a])
        case 3: let a = address(); return Step(arguments: ["pri", a, ["A", "b", "7"].randomElement(using: &random)!], addresses: [a])
        case 4: let a = address(); return Step(arguments: ["depri", a], addresses: [a])
        case 5: let a = address(); return Step(arguments: ["append", a, text], addresses: [a])
        case 6: let a = address(); return Step(arguments: ["prepend", a, text], addresses: [a])
        case 7: let a = address(); return Step(arguments: ["replace", a, text], addresses: [a])
        case 8: let a = address(); return Step(arguments: ["--force", "del", a], addresses: [a], deletes: true)
        default: return Step(arguments: ["add", text], addresses: [])
        }
    }

    @Test func randomActionSequencesKeepUIDsAndUntargetedLines() throws {
        let seed = propertySeed()
        var random = SplitMix64(seed: seed)
        let directory = NSTemporaryDirectory() + "todo-property-\(seed)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        let environment = ["HOME": directory, "TODO_FILE": path, "TODO_TEST_TIME": "1764410000", "TZ": "UTC",
                           "NO_COLOR": "1", "TODOTXT_CFG_FILE": "", "TODO_LOCK_TIMEOUT": "1"]
        for round in 0..<25 {
            let crlf = Bool.random(using: &random)
            let lines = (0..<Int.random(in: 1...10, using: &random)).map { index in
                Self.randomLine(&random, uid: index % 7 == 6 ? "dup000" : "u\(round)x\(index)")
            }
            var text = lines.joined(separator: crlf ? "\r\n" : "\n")
            if Bool.random(using: &random) { text += crlf ? "\r\n" : "\n" }
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            for stepNumber in 0..<12 {
                let before = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
                let document = TodoDocument(bytes: before)
                let step = Self.randomStep(document, &random)
                let run = CapturedRun(step.arguments, environment: environment)
                let after = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
                let edited = TodoDocument(bytes: after)
                let context = "seed \(seed) round \(round) step \(stepNumber): todo \(step.arguments) → \(run.status) \(run.err)"
                if run.status == 2 || (run.status == 1 && step.addresses.count <= 1 && !run.err.contains("already")
                                       && !run.err.contains("not done") && !run.err.contains("prioritized")) {
                    #expect(after == before, "a refused command changed the file: \(context)")
                }
                #expect(!run.err.contains("Fatal") && run.err.split(separator: "\n").allSatisfy { $0.hasPrefix("todo: ") },
                        "stderr is one `todo:` line per problem: \(context)")
                let targets = Set(step.addresses.compactMap { try? document.resolve($0).index })
                // Emptying an unterminated last line leaves no line at all: the one way the count drops.
                let emptiedLast = step.deletes && run.status == 0 && targets.contains(document.lineCount - 1)
                    && document.terminator(at: document.lineCount - 1) == .none
                #expect(edited.lineCount >= document.lineCount - (emptiedLast ? 1 : 0), "a line disappeared: \(context)")
                for index in 0..<min(document.lineCount, edited.lineCount) {
                    let old = document.item(at: index)
                    if targets.contains(index) {
                        if step.deletes, run.status == 0 { continue }
                        if let uid = old.uid {
                            #expect(edited.item(at: index).uid == uid, "the target's uid changed: \(context)")
                        }
                    } else {
                        #expect(edited.content(at: index).elementsEqual(document.content(at: index))
                                && (edited.terminator(at: index) == document.terminator(at: index) || index == document.lineCount - 1),
                                "untargeted line \(index + 1) changed: \(context)")
                    }
                }
            }
        }
    }
}
