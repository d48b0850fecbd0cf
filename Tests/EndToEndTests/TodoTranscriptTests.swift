import Foundation
import XCTest

/// Runs every `Fixtures/todo-transcripts/*.txt` against the built binary invoked as `todo`.
///
/// The format is `Transcript`'s (see Support/Transcript.swift) with every extra except `^[`:
/// `{ESC}`-style tokens, `@file-crlf`/`@file-bom`, the `@expect-…` forms, `@untouched`,
/// `@mkdir`/`@chmod`/`@symlink` and the `{UID}` wildcard. Commands are `$ [VAR=value …] todo ARGS…`.
/// No `todo.cfg` exists unless a transcript writes one with `@config`.
///
/// Base environment of every command: `HOME=$HOME`, `TODO_DIR=$DIR`, `TODO_FILE=`, `DONE_FILE=`,
/// `TODOTXT_CFG_FILE=`, `TODO_TEST_TIME=1764410000` (2025-11-29 UTC), `TZ=UTC`, `LC_ALL=C`, `NO_COLOR=`,
/// `TODO_TEST_UID_SEED=1` and this process's `PATH`.
final class TodoTranscriptTests: XCTestCase {
    static let configuration = Transcript.Configuration(
        programName: "todo",
        fixtureDirectory: Transcript.fixtureDirectory("todo-transcripts"),
        environment: { paths in
            ["HOME": paths.home, "TODO_DIR": paths.data, "TODO_FILE": "", "DONE_FILE": "", "TODOTXT_CFG_FILE": "",
             "TODO_TEST_TIME": "1764410000", "TZ": "UTC", "LC_ALL": "C", "NO_COLOR": "", "TODO_TEST_UID_SEED": "1",
             "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        },
        initialConfig: nil,
        extras: .todo)

    static var transcripts: [String] { Transcript.names(in: configuration.fixtureDirectory) }

    /// Every transcript, one after another (`Transcript.runEvery`).
    func testEveryTranscript() {
        Transcript.runEvery(Self.configuration, in: self)
    }

    /// The behaviour suite of the `todo` name is at least as thorough as issue 11 asked (300 cases).
    func testTodoTranscriptsHaveEnoughCases() {
        let count = Self.transcripts.reduce(0) { $0 + Transcript.commandCount($1, Self.configuration) }
        print("todo transcripts: \(count) `$ todo` commands in \(Self.transcripts.count) files")
        XCTAssertGreaterThanOrEqual(count, 300)
    }
}
