@preconcurrency import Glibc
import TodoFileSystem
import TodoTxt

extension BenchSection {
    /// Every section, in table order. Add later benchmarks here (whole-process `todo sort` vs awk,
    /// merge): a section gets the file's path and bytes and returns its best time.
    static var all: [BenchSection] {
        [readFile, roundTrip, renderAfterEdit, fullParse, fullParseStrings, sort, sortPieces]
    }

    /// The floor every section is compared with: a libc `memchr` scan counting lines, the least any
    /// line-based pass over the same bytes can do.
    static func memchrLineCount(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { raw -> Int in
            guard let base = raw.baseAddress else { return 0 }
            var lines = 0
            var offset = 0
            let count = raw.count
            while offset < count, let found = memchr(base + offset, 0x0A, count - offset) {
                lines += 1
                offset = base.distance(to: UnsafeRawPointer(found)) + 1
            }
            return offset < count ? lines + 1 : lines
        }
    }

    /// A new array holding a copy of `bytes` (malloc + page faults + memcpy): the second floor, the least
    /// any pass returning a new file-sized buffer (render, sort) can cost on this machine.
    static func freshCopy(_ bytes: [UInt8]) -> Int {
        let copy = [UInt8](unsafeUninitializedCapacity: bytes.count) { buffer, initialized in
            bytes.withUnsafeBytes { source in
                if let base = buffer.baseAddress, let from = source.baseAddress { memcpy(base, from, source.count) }
            }
            initialized = bytes.count
        }
        blackHole(copy)
        return copy.count
    }

    /// Byte equality with one `memcmp` (`==` on `[UInt8]` compares element by element, which would
    /// cost the harness more than the library work it checks).
    static func sameBytes(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool { ProcessSpawning.sameBytes(lhs, rhs) }

    /// read(2) of the whole file into a fresh array (information only: page faults dominate).
    static let readFile = BenchSection(name: "read(2) file", target: nil) { input in
        let (seconds, cpu, bytes) = bestTime(runs: input.runs) { readWholeFile(input.path) }
        return SectionResult(bestSeconds: seconds, bestCPUSeconds: cpu, checkPassed: sameBytes(bytes, input.bytes), detail: "bytes equal the file")
    }

    /// Bytes → `TodoDocument` (line split) → `rendered()`, compared with the input. The document is
    /// pristine, so `rendered()` returns the stored input: this is the split plus the comparison. The
    /// next section is the same with one edit, so the copying render is measured too.
    static let roundTrip = BenchSection(
        name: "round trip (pristine)",
        target: ThroughputTarget(megabytesPerSecond: 1000, fromLines: 1_000_000)
    ) { input in
        var lines = 0
        let (seconds, cpu, equal) = bestTime(runs: input.runs) { () -> Bool in
            let document = TodoDocument(bytes: input.bytes)
            lines = document.lineCount
            return sameBytes(document.rendered(), input.bytes)
        }
        return SectionResult(bestSeconds: seconds, bestCPUSeconds: cpu, checkPassed: equal && lines == input.lines,
                             detail: "render(parse(b)) == b, \(lines) lines")
    }

    /// Split, one edit (the middle line replaced by its own content, so the output must still equal
    /// the input), then `rendered()`: the non-pristine render, a fresh buffer written run by run. The
    /// edit appends to storage that is shared with the caller's bytes, so it includes that
    /// copy-on-write copy, as an edit in `FileAccess.update` does.
    static let renderAfterEdit = BenchSection(
        name: "render after edit",
        target: ThroughputTarget(megabytesPerSecond: 1000, fromLines: 1_000_000)
    ) { input in
        var lines = 0
        let (seconds, cpu, equal) = bestTime(runs: input.runs) { () -> Bool in
            var document = TodoDocument(bytes: input.bytes)
            lines = document.lineCount
            let middle = lines / 2
            document.replaceContent(at: middle, with: Array(document.content(at: middle)))
            return sameBytes(document.rendered(), input.bytes)
        }
        return SectionResult(bestSeconds: seconds, bestCPUSeconds: cpu, checkPassed: equal && lines == input.lines,
                             detail: "render(edit(parse(b))) == b, line \(lines / 2) rewritten")
    }

    /// Split, then every line's header fields and every body field as byte ranges (`scanFields`): each
    /// field's ranges and the first byte of its name and value are read, the uid is picked from the
    /// same scan (what `uidRange` returns; the check compares the count with the String path's `uid`),
    /// no String is made.
    static let fullParse = BenchSection(
        name: "full parse",
        target: ThroughputTarget(megabytesPerSecond: 200, fromLines: 1_000_000)
    ) { input in
        let (seconds, cpu, totals) = bestTime(runs: input.runs) { () -> (tasks: Int, done: Int, fields: Int, uids: Int, sum: Int) in
            let document = TodoDocument(bytes: input.bytes)
            var tasks = 0, done = 0, fields = 0, uids = 0, sum = 0
            for index in 0..<document.lineCount {
                let item = document.item(at: index)
                guard item.isTask else { continue }
                tasks += 1
                if item.isCompleted { done += 1 }
                sum &+= Int(item.priority?.letter ?? 0) &+ (item.creationDate?.day ?? 0) &+ (item.completionDate?.month ?? 0)
                let content = item.content
                let base = content.startIndex
                // The uid as `uidRange` defines it (first `uid:` value, else first `uuid:`), taken from
                // the same scan, as a caller that visits every field would.
                var uid: Range<Int>?
                var uuid: Range<Int>?
                item.scanFields { field in
                    fields += 1
                    sum &+= field.nameRange.count &+ field.valueRange.count &+ field.range.lowerBound
                    sum &+= Int(content[base + field.nameRange.lowerBound])
                    guard field.kind == .tag else { return }
                    sum &+= Int(content[base + field.valueRange.lowerBound])
                    let key = field.nameRange.count, at = base + field.nameRange.lowerBound
                    if uid == nil, key == 3, content[at] == 0x75, content[at + 1] == 0x69, content[at + 2] == 0x64 {
                        uid = field.valueRange
                    } else if uuid == nil, key == 4, content[at] == 0x75, content[at + 1] == 0x75, content[at + 2] == 0x69,
                              content[at + 3] == 0x64 {
                        uuid = field.valueRange
                    }
                }
                if let found = uid ?? uuid {
                    uids += 1
                    sum &+= found.count &+ Int(content[base + found.lowerBound])
                }
            }
            return (tasks, done, fields, uids, sum)
        }
        blackHole(totals.sum)
        return SectionResult(bestSeconds: seconds, bestCPUSeconds: cpu, checkPassed: totals.tasks > 0 && totals.fields > 0,
                             detail: "ranges: \(totals.tasks) tasks (\(totals.done) done), \(totals.fields) fields, \(totals.uids) uids")
    }

    /// The String-building path, as before: `fields` (deduplicated `[String]` projects and contexts,
    /// `[Tag]` with String key and value) and `uid` as a String, for every line. Information only.
    static let fullParseStrings = BenchSection(
        name: "full parse (Strings)",
        target: nil
    ) { input in
        let (seconds, cpu, totals) = bestTime(runs: input.runs) { () -> (tasks: Int, done: Int, fields: Int, uids: Int, sum: Int) in
            let document = TodoDocument(bytes: input.bytes)
            var tasks = 0, done = 0, fields = 0, uids = 0, sum = 0
            for index in 0..<document.lineCount {
                let item = document.item(at: index)
                guard item.isTask else { continue }
                tasks += 1
                if item.isCompleted { done += 1 }
                sum &+= Int(item.priority?.letter ?? 0) &+ (item.creationDate?.day ?? 0) &+ (item.completionDate?.month ?? 0)
                let body = item.fields
                fields += body.projects.count + body.contexts.count + body.tags.count
                for project in body.projects { sum &+= project.utf8.count }
                for context in body.contexts { sum &+= context.utf8.count }
                for tag in body.tags { sum &+= tag.key.utf8.count &+ tag.value.utf8.count &+ tag.range.lowerBound }
                if let uid = item.uid {
                    uids += 1
                    sum &+= uid.utf8.count
                }
            }
            return (tasks, done, fields, uids, sum)
        }
        blackHole(totals.sum)
        return SectionResult(bestSeconds: seconds, bestCPUSeconds: cpu, checkPassed: totals.tasks > 0 && totals.fields > 0,
                             detail: "Strings: \(totals.tasks) tasks (\(totals.done) done), \(totals.fields) fields, \(totals.uids) uids")
    }

    /// `TodoDocument.sort` bytes → bytes (completed tasks sink, stably).
    static let sort = BenchSection(
        name: "sort",
        target: ThroughputTarget(megabytesPerSecond: 500, fromLines: 1_000_000)
    ) { input in
        let (seconds, cpu, sorted) = bestTime(runs: input.runs) { TodoDocument.sort(input.bytes) }
        let moved = !sameBytes(sorted, input.bytes)
        let stable = sameBytes(TodoDocument.sort(sorted), sorted)
        return SectionResult(bestSeconds: seconds, bestCPUSeconds: cpu,
                             checkPassed: sorted.count == input.bytes.count && moved && stable,
                             detail: "same size, reordered, idempotent")
    }

    /// `TodoDocument.sortedPieces`: the plan `todo sort` writes from (ranges of the input, no output
    /// buffer), checked against `sort`.
    static let sortPieces = BenchSection(
        name: "sort plan (pieces)",
        target: nil
    ) { input in
        let (seconds, cpu, pieces) = bestTime(runs: input.runs) { TodoDocument.sortedPieces(input.bytes) }
        // Piece by piece against `sort`'s output, without building a third file-sized buffer.
        let sorted = TodoDocument.sort(input.bytes)
        var offset = 0
        var matches = true
        for piece in pieces ?? [] where matches {
            matches = offset + piece.count <= sorted.count && input.bytes[piece].elementsEqual(sorted[offset..<(offset + piece.count)])
            offset += piece.count
        }
        matches = matches && offset == sorted.count
        return SectionResult(bestSeconds: seconds, bestCPUSeconds: cpu, checkPassed: matches,
                             detail: "\(pieces?.count ?? 0) pieces, equal to sort")
    }
}
