import Foundation
import XCTest

/// Runs every `Fixtures/transcripts/*.txt` against the built binary invoked as `todo.sh`.
///
/// The format is `Transcript`'s (see Support/Transcript.swift) with only the common directives and
/// `^[` for ESC. `$HOME/todo.cfg` starts as `export TODO_DIR="$DIR"` and `@config` appends to it.
/// The clock is `TODO_TEST_TIME=1234567890` (2009-02-13T23:31:30) with `TZ=UTC`.
final class TodoShTranscriptTests: XCTestCase {
    static let configuration = Transcript.Configuration(
        programName: "todo.sh",
        fixtureDirectory: Transcript.fixtureDirectory("transcripts"),
        environment: { paths in
            ["HOME": paths.home, "TODO_TEST_TIME": "1234567890", "TZ": "UTC",
             "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LC_ALL": "C"]
        },
        initialConfig: { paths in "export TODO_DIR=\"\(paths.data)\"\n" },
        extras: [.caretEscape])

    static var transcripts: [String] { Transcript.names(in: configuration.fixtureDirectory) }

    func testTranscriptsExist() {
        XCTAssertGreaterThanOrEqual(Self.transcripts.count, 10)
    }

    /// Every transcript, one after another (`Transcript.runEvery`).
    func testEveryTranscript() {
        Transcript.runEvery(Self.configuration, in: self)
    }
}
