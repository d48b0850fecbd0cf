import Foundation
import TodoTestSupport
import XCTest

/// `todo export --format ics` read back by a real iCalendar parser, the `icalendar` package from PyPI
/// that `.ci/run` installs into `.build/ics-venv` (docs/todo-command.md, "Calendar feed").
final class ICalendarExportTests: XCTestCase {
    /// 2026-12-02 13:45:30 UTC.
    static let environment = ["TODO_TEST_TIME": "1796219130", "TZ": "UTC"]

    /// Every field, a long summary with multi-byte characters at the fold, text to escape, a done task,
    /// a blank line, a placeholder, and two equal uid-less lines.
    static let fixture = [
        #"(A) 2026-11-01 Pay rent; then call landlord, ask about \heating +home @phone due:2026-12-05 t:2026-12-01 rec:+1m uid:k3f9ab"#,
        "(B) Grüße an die Nachbarn überbringen und die Blumen gießen, während sie im Urlaub sind 😀😀😀 — jeden zweiten Tag +garden @home due:2026-12-10 rec:+2d",
        "x 2026-12-01 2026-11-20 file taxes +money pri:C uid:d0ne1",
        "",
        "standup notes +work rec:+1b t:2026-12-02",
        "buy milk",
        "placeholder h:1",
        "buy milk",
    ].joined(separator: "\n") + "\n"

    /// The parser's reading of a feed: the calendar's VERSION and PRODID on the first line, then each
    /// VTODO's fields as one line of JSON (keys sorted, no spaces), in order.
    static let parserScript = #"""
    import json, sys
    from icalendar import Calendar
    calendar = Calendar.from_ical(sys.stdin.buffer.read())
    print(str(calendar.get("VERSION")) + " " + str(calendar.get("PRODID")))
    for todo in calendar.walk("VTODO"):
        fields = {}
        for name in ("UID", "SUMMARY", "STATUS"):
            if name in todo: fields[name] = str(todo.get(name))
        for name in ("DUE", "DTSTART", "COMPLETED", "DTSTAMP"):
            if name in todo: fields[name] = todo.decoded(name).isoformat()
        if "PRIORITY" in todo: fields["PRIORITY"] = int(todo.get("PRIORITY"))
        if "CATEGORIES" in todo: fields["CATEGORIES"] = [str(c) for c in todo.get("CATEGORIES").cats]
        if "RRULE" in todo: fields["RRULE"] = todo.get("RRULE").to_ical().decode()
        print(json.dumps(fields, ensure_ascii=False, sort_keys=True, separators=(",", ":")))
    """#

    /// The venv's Python, when `icalendar` imports there; else a skip saying why.
    func parserPython() throws -> String {
        var directory = URL(fileURLWithPath: Spawn.productsDirectory)
        while directory.path != "/", directory.lastPathComponent != ".build" { directory.deleteLastPathComponent() }
        let python = directory.path + "/ics-venv/bin/python3"
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: python),
                          "no \(python): .ci/run installs the icalendar package there (python3 -m venv, pip install icalendar)")
        let probe = Spawn.run([python, "-c", "import icalendar"])
        try XCTSkipUnless(probe.status == 0, "the icalendar package does not import in \(python): \(probe.err)")
        return python
    }

    func makeTodoFile(_ text: String) -> (directory: String, path: String) {
        let directory = Spawn.makeTemporaryDirectory("ics-export")
        Files.write(directory + "/todo.txt", text)
        return (directory, directory + "/todo.txt")
    }

    func export(_ path: String, _ arguments: [String] = []) -> ProcessResult {
        Spawn.todo(["-f", path, "export", "--format", "ics"] + arguments, environment: Self.environment)
    }

    /// The parser's lines for `feed` (see `parserScript`).
    func parsed(_ feed: [UInt8], _ python: String) -> [String] {
        let result = Spawn.run([python, "-c", Self.parserScript], stdin: feed)
        XCTAssertEqual(result.status, 0, result.err)
        return result.out.split(separator: "\n").map(String.init)
    }

    func testAParserReadsEveryFieldFoldedAndEscaped() throws {
        let python = try parserPython()
        let file = makeTodoFile(Self.fixture)
        let result = export(file.path)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(Files.text(file.path), Self.fixture, "the export wrote into the todo file")

        // Physical lines: CRLF only, at most 75 octets, each valid UTF-8; the long summary is folded.
        let physical = result.out.components(separatedBy: "\r\n")
        XCTAssertEqual(physical.last, "")
        XCTAssertFalse(result.stdout.enumerated().contains { $0.element == 0x0A && ($0.offset == 0 || result.stdout[$0.offset - 1] != 0x0D) })
        XCTAssertTrue(physical.allSatisfy { $0.utf8.count <= 75 }, result.out)
        XCTAssertTrue(physical.contains { $0.hasPrefix(" ") }, "nothing was folded")

        var lines = parsed(result.stdout, python)
        XCTAssertEqual(lines.first, "2.0 -//todo//todo.txt calendar feed//EN")
        // The derived UIDs (their stability is the next test's) written as DERIVED.
        let derived = try NSRegularExpression(pattern: #""UID":"todo-[0-9a-f]{16}-[0-9]+""#)
        lines = lines.map { derived.stringByReplacingMatches(in: $0, range: NSRange($0.startIndex..., in: $0), withTemplate: #""UID":"DERIVED""#) }
        let stamp = #""DTSTAMP":"2026-12-02T13:45:30+00:00""#
        XCTAssertEqual(Array(lines.dropFirst()), [
            #"{"CATEGORIES":["+home","@phone"],"# + stamp + #","DTSTART":"2026-12-01","DUE":"2026-12-05","PRIORITY":1,"RRULE":"FREQ=MONTHLY","STATUS":"NEEDS-ACTION","SUMMARY":"Pay rent; then call landlord, ask about \\heating +home @phone","UID":"k3f9ab"}"#,
            #"{"CATEGORIES":["+garden","@home"],"# + stamp + #","DUE":"2026-12-10","PRIORITY":2,"RRULE":"FREQ=DAILY;INTERVAL=2","STATUS":"NEEDS-ACTION","SUMMARY":"Grüße an die Nachbarn überbringen und die Blumen gießen, während sie im Urlaub sind 😀😀😀 — jeden zweiten Tag +garden @home","UID":"DERIVED"}"#,
            #"{"CATEGORIES":["+money"],"COMPLETED":"2026-12-01T00:00:00+00:00","# + stamp + #","PRIORITY":3,"STATUS":"COMPLETED","SUMMARY":"file taxes +money","UID":"d0ne1"}"#,
            #"{"CATEGORIES":["+work"],"# + stamp + #","DTSTART":"2026-12-02","RRULE":"FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR","STATUS":"NEEDS-ACTION","SUMMARY":"standup notes +work","UID":"DERIVED"}"#,
            "{" + stamp + #","STATUS":"NEEDS-ACTION","SUMMARY":"buy milk","UID":"DERIVED"}"#,
            "{" + stamp + #","STATUS":"NEEDS-ACTION","SUMMARY":"buy milk","UID":"DERIVED"}"#,
        ])
    }

    /// A uid-less task gets the same UID on every run, even after other lines changed around it, and
    /// equal lines get different ones; TERMs choose the tasks without changing the UIDs.
    func testDerivedUIDsAreStableAcrossRunsAndDistinct() throws {
        let file = makeTodoFile("buy milk\nwater plants +garden\nbuy milk\n")
        func uids(_ result: ProcessResult) -> [String] {
            result.out.components(separatedBy: "\r\n").filter { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) }
        }
        let first = uids(export(file.path))
        XCTAssertEqual(first.count, 3)
        XCTAssertEqual(Set(first).count, 3, "\(first)")
        XCTAssertEqual(uids(export(file.path)), first)
        Files.write(file.path, "(A) new task on top\nx 2026-12-01 buy milk\nwater plants +garden\nbuy milk\n")
        XCTAssertEqual(Array(uids(export(file.path)).dropFirst()), first, "moving, completing or adding lines changed a UID")
        XCTAssertEqual(uids(export(file.path, ["+garden"])), [first[1]])
        let all = uids(export(file.path))
        XCTAssertEqual(uids(export(file.path, ["--", "-milk"])), [all[0], first[1]])
    }

    /// `--output FILE` replaces FILE with what stdout would have shown, prints nothing, and leaves the
    /// todo file alone; an `--output` naming the todo or done file (a symlink too) and other mistakes
    /// are usage errors.
    func testOutputFileAndErrors() throws {
        let file = makeTodoFile("(A) call mom due:2026-12-03\n")
        let printed = export(file.path)
        XCTAssertEqual(printed.status, 0, printed.err)
        let feed = file.directory + "/feed.ics"
        Files.write(feed, "old content\n")
        let written = export(file.path, ["--output", feed])
        XCTAssertEqual(written.status, 0, written.err)
        XCTAssertEqual(written.out, "")
        XCTAssertEqual(Files.read(feed), printed.stdout)
        XCTAssertEqual(Files.text(file.path), "(A) call mom due:2026-12-03\n")

        let link = file.directory + "/link.ics"
        XCTAssertEqual(symlink(file.path, link), 0)
        for target in [file.path, link, file.directory + "/done.txt"] {
            if target.hasSuffix("done.txt") { Files.write(target, "x 2026-11-30 old\n") }
            let refused = export(file.path, ["--output", target])
            XCTAssertNotEqual(refused.status, 0, target)
            XCTAssertTrue(refused.err.contains("the calendar would replace the tasks"), refused.err)
        }
        XCTAssertEqual(Files.text(file.path), "(A) call mom due:2026-12-03\n")
        XCTAssertEqual(Files.text(file.directory + "/done.txt"), "x 2026-11-30 old\n")

        let badFormat = Spawn.todo(["-f", file.path, "export", "--format", "xml"], environment: Self.environment)
        XCTAssertNotEqual(badFormat.status, 0)
        XCTAssertTrue(badFormat.err.contains("--format 'xml' is not json or ics"), badFormat.err)
        let jsonOutput = Spawn.todo(["-f", file.path, "export", "--output", feed], environment: Self.environment)
        XCTAssertNotEqual(jsonOutput.status, 0)
        XCTAssertTrue(jsonOutput.err.contains("--output is for --format ics"), jsonOutput.err)
        let badTerm = export(file.path, ["due:<tomorow"])
        XCTAssertNotEqual(badTerm.status, 0)
        XCTAssertTrue(badTerm.err.contains("not a valid search term"), badTerm.err)
        let json = Spawn.todo(["-f", file.path, "export", "--format", "json"], environment: Self.environment)
        XCTAssertEqual(json.out, Spawn.todo(["export", file.path], environment: Self.environment).out)
    }
}
