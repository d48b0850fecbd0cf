import Testing
import TodoTestSupport
@testable import TodoTxt

/// Seeded property tests over random files: byte-exact round trip, and every accessor runs.
/// Override with TODO_PROPERTY_SEED and TODO_PROPERTY_COUNT.
@Suite struct RoundTripPropertyTests {
    /// The cheap sweep run on every input: each line's header fields and one body scan.
    static func exerciseFields(_ document: TodoDocument) -> [String] {
        var problems: [String] = []
        for index in 0..<document.lineCount {
            let item = document.item(at: index)
            if item.bodyOffset > item.content.count { problems.append("line \(index + 1): body offset past the end") }
            if item.isBlank && (item.isCompleted || item.priority != nil || item.creationDate != nil) {
                problems.append("line \(index + 1): blank line with header fields")
            }
            let fields = item.fields
            if item.isBlank && !(fields.projects.isEmpty && fields.contexts.isEmpty && fields.tags.isEmpty) {
                problems.append("line \(index + 1): blank line with body fields")
            }
        }
        return problems
    }

    /// Touches every field accessor and pure edit of every line; returns a checksum so nothing is
    /// optimised away, and checks a few invariants that must hold for any input.
    static func exercise(_ document: TodoDocument, _ bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        let today = TodoDate(year: 2026, month: 3, day: 1)!
        for index in 0..<document.lineCount {
            let item = document.item(at: index)
            let content = document.content(at: index)
            if content.contains(0x0A) { problems.append("line \(index + 1) holds an LF") }
            if item.bodyOffset > content.count { problems.append("line \(index + 1): body offset past the end") }
            if item.isBlank && (item.isCompleted || item.priority != nil) { problems.append("blank line with header") }
            let afterMark = content.starts(with: [0xEF, 0xBB, 0xBF]) ? content.dropFirst(3) : content
            if item.isCompleted != (afterMark.count >= 2 && afterMark.first == 0x78 && afterMark.dropFirst().first == 0x20) {
                problems.append("line \(index + 1): completed flag disagrees with the bytes")
            }
            _ = item.body
            _ = item.text
            let fields = item.fields
            if Set(fields.projects).count != fields.projects.count { problems.append("duplicate project") }
            for tag in fields.tags {
                let word = Array(content[(content.startIndex + tag.range.lowerBound)..<(content.startIndex + tag.range.upperBound)])
                if String(decoding: word, as: UTF8.self) != tag.key + ":" + tag.value { problems.append("tag range mismatch") }
            }
            _ = item.uid
            _ = item.due; _ = item.threshold; _ = item.recurrence; _ = item.hidden; _ = item.keptPriority
            _ = item.isHidden(on: today); _ = item.isOverdue(on: today)
            _ = item.nextRecurrence(completedOn: today, uid: "abcdef")
            if let done = item.completed(on: today), !TodoItem(done).isCompleted { problems.append("complete failed") }
            _ = item.uncompleted()
            _ = item.settingPriority(Priority("B")); _ = item.settingPriority(nil)
            _ = item.settingTag("due", to: "2026-01-01"); _ = item.removingTag("due")
            _ = item.prepending(b("p")); _ = item.appending(b("q")); _ = try? item.replacingDescription(with: b("r"))
        }
        _ = document.diagnostics()
        _ = document.exportJSONLines()
        _ = UIDIndex(document).duplicates
        _ = try? document.resolve("1")
        _ = try? document.resolve("k3")
        _ = TodoDocument.sort(bytes, by: [.priority, .due, .text])
        return problems
    }

    /// Round trip and the field sweep on every input; every accessor and pure edit on one in `fullEvery`.
    func run(_ name: String, defaultSeed: UInt64, defaultCount: Int, fullEvery: Int,
             make: (inout TodoTextGenerator) -> [UInt8]) {
        let settings = PropertySettings(defaultSeed: defaultSeed, defaultCount: defaultCount)
        var generator = TodoTextGenerator(rng: SplitMix64(seed: settings.seed))
        var failures = 0
        for iteration in 0..<settings.count {
            let bytes = make(&generator)
            let document = TodoDocument(bytes: bytes)
            let rendered = document.rendered()
            var problems: [String] = rendered == bytes ? [] : ["round trip: got \(show(rendered))"]
            let terminators = (0..<document.lineCount).reduce(0) { $0 + document.terminator(at: $1).byteCount }
            let bom = document.hasByteOrderMark ? 3 : 0
            let contentBytes = (0..<document.lineCount).reduce(0) { $0 + document.content(at: $1).count }
            if bom + contentBytes + terminators != bytes.count { problems.append("byte accounting") }
            var newlines = 0
            for byte in bytes where byte == 0x0A { newlines += 1 }
            if document.lineCount != newlines + (bytes.last == 0x0A || bytes.count == bom ? 0 : 1) {
                problems.append("line count \(document.lineCount)")
            }
            problems += RoundTripPropertyTests.exerciseFields(document)
            if iteration % fullEvery == 0 { problems += RoundTripPropertyTests.exercise(document, bytes) }
            if !problems.isEmpty {
                failures += 1
                if failures <= 3 {
                    Issue.record("\(name) seed \(settings.seed) iteration \(iteration): \(problems) for input \(show(bytes))")
                }
            }
        }
        print("\(name): \(settings.count) inputs, seed \(settings.seed), \(failures) failures")
        #expect(failures == 0, "\(name) seed \(settings.seed)")
    }

    @Test func randomTaskFiles() {
        run("task files", defaultSeed: 0x7_0D0_7E57, defaultCount: 40_000, fullEvery: 50) { $0.file() }
    }

    @Test func randomRawBytes() {
        run("raw bytes", defaultSeed: 0xB7_7E5, defaultCount: 60_000, fullEvery: 60) { generator in
            var bytes: [UInt8] = generator.chance(10) ? [0xEF, 0xBB, 0xBF] : []
            bytes += generator.rawBytes()
            return bytes
        }
    }
}
