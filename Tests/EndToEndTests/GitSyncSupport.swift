import Foundation
import TodoTestSupport
import TodoTxt
import XCTest

/// git from tests, isolated from the host's configuration (docs/notes/toolchain.md): no system config,
/// HOME in the test's temp directory, fixed author and committer. Every command runs as
/// `git -C <dir> …` through posix_spawn.
struct GitSandbox {
    let root: String
    let environment: [String: String]

    init(root: String) {
        self.root = root
        let home = root + "/home"
        try? FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        var environment: [String: String] = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": home,
            "XDG_CONFIG_HOME": home + "/.config",
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_NAME": "Sync Test", "GIT_AUTHOR_EMAIL": "sync@example.invalid",
            "GIT_COMMITTER_NAME": "Sync Test", "GIT_COMMITTER_EMAIL": "sync@example.invalid",
            "GIT_TERMINAL_PROMPT": "0",
            // No background housekeeping between rounds (it only costs time here).
            "GIT_CONFIG_COUNT": "2",
            "GIT_CONFIG_KEY_0": "gc.auto", "GIT_CONFIG_VALUE_0": "0",
            "GIT_CONFIG_KEY_1": "maintenance.auto", "GIT_CONFIG_VALUE_1": "false",
            "LC_ALL": "C",
        ]
        if let tmp = ProcessInfo.processInfo.environment["TMPDIR"] { environment["TMPDIR"] = tmp }
        self.environment = environment
    }

    /// Runs `git -C directory arguments…`.
    @discardableResult
    func git(_ directory: String, _ arguments: [String], stdin: [UInt8] = []) -> ProcessResult {
        Spawn.run(["git", "-C", directory] + arguments, stdin: stdin, environment: environment)
    }

    /// Runs git and fails the test (with its output) unless it exits 0.
    @discardableResult
    func gitOK(_ directory: String, _ arguments: [String], stdin: [UInt8] = [],
               file: StaticString = #filePath, line: UInt = #line) -> ProcessResult {
        let result = git(directory, arguments, stdin: stdin)
        XCTAssertEqual(result.status, 0, "git \(arguments.joined(separator: " ")) in \(directory): \(result.out)\(result.err)",
                       file: file, line: line)
        return result
    }

    /// Runs the built `todo` (by absolute path, so `merge --setup` registers that path) with its
    /// working directory set to `directory` (through `sh`, since Glibc has no posix_spawn chdir).
    func todo(in directory: String, _ arguments: [String]) -> ProcessResult {
        Spawn.run(["/bin/sh", "-c", "cd \"$1\" && shift && exec \"$@\"", "sh", directory, Spawn.todo] + arguments,
                  environment: environment)
    }
}


/// What sync.md's table keeps of one uid, given its BASE, OURS and THEIRS versions.
enum SyncExpectation: Equatable {
    /// Not in the result (deleted, or deleted on one side and untouched on the other).
    case absent
    /// Exactly this line, once.
    case line([UInt8])
    /// One line whose merge fields are these (both sides changed different fields).
    case merged(SyncFields)
    /// Both versions between conflict markers: OURS', then THEIRS'.
    case conflict(ours: [UInt8], theirs: [UInt8])
    /// Both sides added this uid with different text: both lines kept.
    case both([UInt8], [UInt8])

    /// The row of sync.md's table.
    static func of(base: [UInt8]?, ours: [UInt8]?, theirs: [UInt8]?) -> SyncExpectation {
        switch (base, ours, theirs) {
        case (nil, nil, nil): return .absent
        case (nil, let mine?, nil): return .line(mine)
        case (nil, nil, let other?): return .line(other)
        case (nil, let mine?, let other?): return mine == other ? .line(mine) : .both(mine, other)
        case (_?, nil, nil): return .absent
        case (let original?, let mine?, nil): return mine == original ? .absent : .line(mine)
        case (let original?, nil, let other?): return other == original ? .absent : .line(other)
        case (let original?, let mine?, let other?):
            if mine == other || other == original { return .line(mine) }
            if mine == original { return .line(other) }
            if let fields = SyncFields.merge(base: original, ours: mine, theirs: other) { return .merged(fields) }
            return .conflict(ours: mine, theirs: other)
        }
    }
}

/// A merged todo.txt split into plain lines and conflict blocks (markers of git's default size 7).
struct SyncMergedFile {
    var plain: [[UInt8]] = []
    var conflicts: [(ours: [UInt8], theirs: [UInt8])] = []
    /// Marker lines that do not form a one-task block (or any other malformation).
    var malformed: [String] = []
    /// Every `<<<<<<<` marker line, whatever follows.
    var markerCount = 0

    init(_ bytes: [UInt8]) {
        let document = TodoDocument(bytes: bytes)
        if document.rendered() != bytes { malformed.append("does not round-trip") }
        let lines = (0..<document.lineCount).map { Array(document.content(at: $0)) }
        func isMarker(_ line: [UInt8], _ byte: UInt8) -> Bool {
            line.count >= 7 && line.prefix(7).allSatisfy { $0 == byte } && (line.count == 7 || line[7] == 0x20)
        }
        markerCount = lines.filter { isMarker($0, 0x3C) }.count
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if isMarker(line, 0x3C) {
                if index + 4 < lines.count, isMarker(lines[index + 2], 0x3D), isMarker(lines[index + 4], 0x3E) {
                    conflicts.append((lines[index + 1], lines[index + 3]))
                    resolvedKeepingOurs += lines[index + 1] + [0x0A]
                    index += 5
                } else {
                    malformed.append("marker block at line \(index + 1) is not one task each side")
                    index += 1
                }
                continue
            }
            if isMarker(line, 0x3D) || isMarker(line, 0x3E) { malformed.append("stray marker at line \(index + 1)") }
            plain.append(line)
            resolvedKeepingOurs += line + [0x0A]
            index += 1
        }
    }

    /// The plain lines of each uid, in file order.
    var plainByUID: [String: [[UInt8]]] {
        var map: [String: [[UInt8]]] = [:]
        for line in plain { if let uid = TodoItem(line).uid { map[uid, default: []].append(line) } }
        return map
    }

    /// The file's lines after resolving every conflict block by keeping OURS' version (LF endings).
    var resolvedKeepingOurs: [UInt8] = []
}

/// uid → line for a file whose uids are unique.
func syncVersions(_ bytes: [UInt8]) -> [String: [UInt8]] {
    let document = TodoDocument(bytes: bytes)
    var map: [String: [UInt8]] = [:]
    for index in 0..<document.lineCount {
        if let uid = document.item(at: index).uid { map[uid] = Array(document.content(at: index)) }
    }
    return map
}

/// How a merged file measures against the table.
struct SyncAudit {
    /// Task versions the table keeps that are nowhere in the file (counted per uid).
    var lost: [String] = []
    /// uids on more than one plain line where the table keeps one.
    var duplicates: [String] = []
    /// Tasks present although the table removes them.
    var resurrected: [String] = []
    /// Present, single, but not what the table gives (wrong field merge, wrong version).
    var wrong: [String] = []
    /// Conflict blocks the table does not call for, or missing ones.
    var conflictMismatches: [String] = []
    /// Plain lines without a uid (every generated task has one).
    var strayLines: [String] = []

    var problems: [String] { lost + duplicates + resurrected + wrong + conflictMismatches + strayLines }

    /// Audits `merged` (the file after a merge of `ours` and `theirs` from `base`).
    ///
    /// - `strict`: a merge that claims to follow the table (our driver): every row is checked exactly.
    ///   Otherwise (git's union merge) only losses and duplicates are counted: for a task both sides
    ///   changed, union keeps both lines, which is a duplicate, not a loss.
    init(base: [UInt8], ours: [UInt8], theirs: [UInt8], merged file: SyncMergedFile, strict: Bool) {
        let b = syncVersions(base), o = syncVersions(ours), t = syncVersions(theirs)
        let plain = file.plainByUID
        var blocks: [String: (ours: [UInt8], theirs: [UInt8])] = [:]
        for block in file.conflicts {
            if let uid = TodoItem(block.ours).uid { blocks[uid] = block }
        }
        for line in file.plain where TodoItem(line).uid == nil {
            strayLines.append("line without uid: \(String(decoding: line, as: UTF8.self))")
        }
        func show(_ line: [UInt8]) -> String { String(decoding: line, as: UTF8.self) }
        for uid in Set(b.keys).union(o.keys).union(t.keys).union(plain.keys).sorted() {
            let got = plain[uid] ?? []
            let block = blocks[uid]
            let present = got + (block.map { [$0.ours, $0.theirs] } ?? [])
            switch SyncExpectation.of(base: b[uid], ours: o[uid], theirs: t[uid]) {
            case .absent:
                if !got.isEmpty { resurrected.append("\(uid): removed by the table, present: \(show(got[0]))") }
            case .line(let line):
                if !present.contains(line) { lost.append("\(uid): lost \(show(line))") }
                if got.count > 1 { duplicates.append("\(uid) × \(got.count)") }
                if strict && (got != [line] || block != nil) { wrong.append("\(uid): expected \(show(line)), got \(got.map(show))") }
            case .both(let mine, let other):
                if !present.contains(mine) { lost.append("\(uid): lost \(show(mine))") }
                if !present.contains(other) { lost.append("\(uid): lost \(show(other))") }
                if got.count > 2 { duplicates.append("\(uid) × \(got.count)") }
            case .merged(let fields):
                if strict {
                    if got.count != 1 || block != nil { wrong.append("\(uid): expected one merged line, got \(got.map(show))") }
                    if got.isEmpty { lost.append("\(uid): merged task missing") }
                    else if SyncFields(got[0]) != fields { wrong.append("\(uid): merged fields wrong: \(show(got[0]))") }
                } else {
                    // Union cannot merge fields; it keeps neither, one or both versions.
                    if present.isEmpty { lost.append("\(uid): both versions lost") }
                    if got.count > 1 { duplicates.append("\(uid) × \(got.count)") }
                }
            case .conflict(let mine, let other):
                if strict {
                    if let block {
                        if block.ours != mine || block.theirs != other { conflictMismatches.append("\(uid): block holds other versions") }
                        if !got.isEmpty { duplicates.append("\(uid): in a conflict block and on a plain line") }
                    } else {
                        conflictMismatches.append("\(uid): expected a conflict, got \(got.map(show))")
                        if got.isEmpty { lost.append("\(uid): lost") }
                    }
                } else {
                    if present.isEmpty { lost.append("\(uid): both versions lost") }
                    if got.count > 1 { duplicates.append("\(uid) × \(got.count)") }
                }
            }
        }
        if strict {
            for block in file.conflicts where TodoItem(block.ours).uid == nil || TodoItem(block.ours).uid != TodoItem(block.theirs).uid {
                conflictMismatches.append("conflict block without a common uid")
            }
        }
    }
}
