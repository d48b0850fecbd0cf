// The fuzz targets and what they share: the input caps, the failure list, and the dispatch that the
// fuzz binary (Sources/TodoFuzz) and the corpus replay test (Tests/TodoFuzzChecksTests) both call.
//
// Why a library: a check that only ever runs under libFuzzer is a check nobody reruns. With the
// checks here, every corpus file under Fixtures/fuzz/TARGET/ is replayed by `swift test` without
// the fuzzing engine, so a finding copied there stays a regression input for good.

/// One fuzz target: a small, fast slice of the product checked on every input.
///
/// The raw value is what `TODO_FUZZ_TARGET` holds and the name of the corpus directory
/// (Fixtures/fuzz/<rawValue>/) and of the findings directory (fuzz-findings/<rawValue>/).
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// Parse, round trip, every accessor of every line, the document-wide read-only passes.
    case parse
    /// Every edit on every line: round trip, locality, the task's uid kept.
    case edits
    /// Sorting: permutation, idempotence, stability, `sortedPieces` agreeing with `sort`.
    case sort
    /// Three-way merge of three slices of the input, and the two-way reconcile of two of them.
    case merge
    /// A listing's search term (the first line) on task lines (the rest): the basic-regex engine
    /// against the C library's, and the term filters of both names against the engine.
    case filter

    /// The environment variable the fuzz binary reads once, at start, to choose its target.
    public static let environmentVariable = "TODO_FUZZ_TARGET"

    /// How much of an input this target looks at.
    ///
    /// Why caps: libFuzzer's speed is what finds bugs, and the edit and merge checks cost roughly
    /// lines squared per input. Inputs beyond the caps are cut (see `InputLimits.cut`), never
    /// rejected, so a saved input replays exactly the bytes that were checked.
    public var limits: InputLimits {
        switch self {
        case .parse: return InputLimits(maxBytes: 4096, maxLines: 256)
        case .edits: return InputLimits(maxBytes: 1024, maxLines: 12)
        case .sort: return InputLimits(maxBytes: 4096, maxLines: 128)
        case .merge: return InputLimits(maxBytes: 2048, maxLines: 96)
        case .filter: return InputLimits(maxBytes: 512, maxLines: 16)
        }
    }

    /// Runs this target's checks on `input` (cut to `limits` first) and returns every broken
    /// invariant, in the order found; empty when all hold.
    ///
    /// Never traps on any input: turning a failure into a crash is the caller's choice (the fuzz
    /// binary does, so libFuzzer saves the input; the tests assert the list is empty).
    public func failures(_ input: [UInt8]) -> [InvariantFailure] {
        let bytes = limits.cut(input)
        var log = FailureLog(target: self)
        switch self {
        case .parse: checkParse(bytes, &log)
        case .edits: checkEdits(bytes, &log)
        case .sort: checkSort(bytes, &log)
        case .merge: checkMerge(bytes, &log)
        case .filter: checkFilter(bytes, &log)
        }
        return log.failures
    }

    /// Runs this target's checks on `input` and calls `onFailure` once per broken invariant.
    public func run(_ input: [UInt8], onFailure: (InvariantFailure) -> Void) {
        for failure in failures(input) { onFailure(failure) }
    }
}

/// The caps on one input. Invariant: `cut(b)` is a prefix of `b`, at most `maxBytes` long, holding at
/// most `maxLines` LF bytes, and `cut(cut(b)) == cut(b)` (so a corpus file replays what was checked).
public struct InputLimits: Sendable, Equatable {
    /// The most bytes checked; also passed to libFuzzer as `-max_len` by scripts/fuzz.sh.
    public let maxBytes: Int
    /// The most LF-terminated lines checked (a last unterminated line comes on top). Lines ended by a
    /// lone CR are not counted: the byte cap bounds those.
    public let maxLines: Int

    public init(maxBytes: Int, maxLines: Int) {
        self.maxBytes = max(0, maxBytes)
        self.maxLines = max(1, maxLines)
    }

    /// The prefix of `input` within both caps: the first `maxBytes` bytes, ended just after the
    /// `maxLines`-th LF if that comes sooner.
    public func cut(_ input: [UInt8]) -> [UInt8] {
        var end = min(input.count, maxBytes)
        var lines = 0
        var index = 0
        while index < end {
            if input[index] == 0x0A {
                lines += 1
                if lines == maxLines {
                    end = index + 1
                    break
                }
            }
            index += 1
        }
        return end == input.count ? input : Array(input[..<end])
    }
}

/// A broken invariant: which target found it and what broke, in words that name the check.
public struct InvariantFailure: Sendable, Equatable, CustomStringConvertible {
    public let target: FuzzTarget
    public let message: String

    public init(target: FuzzTarget, message: String) {
        self.target = target
        self.message = message
    }

    public var description: String { "\(target.rawValue): invariant broken: \(message)" }
}

/// The failures of one run of one target.
///
/// A value passed `inout` rather than a class so a clean run (the usual case, thousands per second)
/// allocates nothing for it. `expect` returns whether the condition held, so a check whose later
/// steps would index by a count that turned out wrong can stop instead of trapping.
struct FailureLog {
    let target: FuzzTarget
    private(set) var failures: [InvariantFailure] = []

    init(target: FuzzTarget) { self.target = target }

    /// Records `message` when `condition` is false; returns `condition`.
    @discardableResult
    mutating func expect(_ condition: Bool, _ message: @autoclosure () -> String) -> Bool {
        if !condition { failures.append(InvariantFailure(target: target, message: message())) }
        return condition
    }
}
