import Foundation
@testable import TodoTxt
import Testing
import TodoTestSupport

/// The basic-regex engine (Sources/TodoTxt/Search): grep's reading of a term in a UTF-8 locale, the
/// automaton against the backtracking matcher, and the syntax errors grep reports. The expected
/// answers were taken from GNU grep 3.8 (`LC_ALL=C.UTF-8 grep -G`), the reference the `filter` fuzz
/// target compares with.
struct BasicRegexTests {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test(arguments: [
        // Ignoring case beyond ASCII; a character of several bytes is one atom.
        ("É", "café", true), ("CAFÉ\\>", "un café", true), ("[é]", "ÉCOLE", true), ("^é\\{2\\}x", "ééx", true),
        ("ø", "ØRESUND", true), ("ß", "STRASSE", false), ("a\\Éb", "aéb", true),
        // Classes: all of Unicode, ignoring case as grep does.
        ("[[:alpha:]]", "ø", true), ("[[:upper:]]", "é", true), ("[[:digit:]]", "٣", false), ("\\w", "é", true),
        ("[[:space:]]", "\u{00A0}", false), ("[[:space:]]", "\u{2003}", true),
        // Word boundaries read characters, not bytes.
        ("\\<sun", "é sun", true), ("\\<sun", "ésun", false), ("sun\\>", "sunés", false),
        // A repetition right after an anchor is literal text.
        ("\\b*", "a*", true), ("\\b*", "ab", false), ("\\<\\{2\\}", "x{2}", false), ("^*a", "*a", true),
        // Nested repetitions: answered at once, whatever the nesting.
        (".**", "abc", true), ("\\(a*\\)*b", String(repeating: "a", count: 400), false),
        ("\\(\\(a*\\)*\\)*\\(b\\|c\\)", String(repeating: "a", count: 400) + "c", true),
    ])
    func matchesLikeGrepIgnoringCase(pattern: String, text: String, expected: Bool) {
        #expect(BasicRegex(pattern, ignoreCase: true).matches(bytes(text)) == expected)
    }

    /// A repeated group that only an anchor lets match empty (`\(\<\)`, `\(^\)`, `\(\>\)`): its one empty
    /// iteration sets `\1` where the anchor holds, but never for a match empty as a whole. Each answer
    /// is what GNU grep 3.8 printed for the same term and line (`grep -c`).
    @Test(arguments: [
        (#"\(\<\)*A\1"#, " <\\A", true), (#"\(\<\)*A\1"#, "A", true), (#"\(\b\)*A\1"#, "A", true),
        (#"\(^\)*A\1"#, "A", true), (#"\(^\)*A\1"#, " <\\A", false), (#"\(\>\)*A\1"#, "A", false),
        (#"\(\<\)*\1A"#, "A", true), (#"\(\<\)*\1A*"#, "A", true), (#"A\(\>\)*\1$"#, "A", true),
        (#"\(\<\)*\1"#, "A", false), (#"x\(\<\)*\1"#, "A", false), (#"\(\<\)*\1$"#, "A", false),
        (#"\(\<\)*\(\1\)"#, "A", false), (#"\(^\)*\1"#, "A", false), (#"\(\b\)*\1"#, "A", false),
    ])
    func anAnchorOnlyIterationSetsItsCaptureForAMatchThatIsNotEmpty(pattern: String, text: String, expected: Bool) {
        #expect(BasicRegex(pattern, ignoreCase: true).matches(bytes(text)) == expected, "\(pattern) on \(text)")
    }

    @Test func aByteThatIsNotUTF8MatchesOnlyItself() {
        let invalid: [UInt8] = [0x61, 0xFF, 0x62]
        #expect(!BasicRegex("a.b", ignoreCase: true).matches(invalid))
        #expect(!BasicRegex("a[^x]b", ignoreCase: true).matches(invalid))
        #expect(BasicRegex(bytes: [0x61, 0xFF], ignoreCase: true).matches(invalid))
        // A lone lead byte in the pattern does not match the first byte of a valid `é`.
        #expect(!BasicRegex(bytes: [0xC3], ignoreCase: false).matches(bytes("é")))
    }

    @Test func aMatchNeverStartsInsideACharacter() {
        // `\xA9` is the second byte of `é`: a pattern holding it alone matches no character.
        #expect(BasicRegex(bytes: [0xA9, 0x2A, 0x78], ignoreCase: false).firstMatch(in: bytes("éx"), from: 0) == 2..<3)
        #expect(BasicRegex("x*", ignoreCase: false).replacingMatches(in: bytes("éé"), with: bytes("-")) == bytes("-é-é-"))
    }

    @Test func firstMatchIsLeftmostLongestAsSedReplaces() {
        #expect(BasicRegex("a\\|ab", ignoreCase: false).firstMatch(in: bytes("xab"), from: 0) == 1..<3)
        #expect(BasicRegex("b*", ignoreCase: false).firstMatch(in: bytes("abb"), from: 0) == 0..<0)
        #expect(BasicRegex("m", ignoreCase: false).removingMatches(from: bytes("smell Mom")) == bytes("sell Mo"))
    }

    @Test func aDecreasingIntervalMatchesNothing() {
        // grep refuses it (`todo` does too); todo.sh's own uses of the engine then find nothing.
        #expect(!BasicRegex("a\\{3,2\\}", ignoreCase: false).matches(bytes("aaaa")))
        #expect(BasicRegex("a\\{3,2\\}", ignoreCase: false).firstMatch(in: bytes("aaaa"), from: 0) == nil)
    }

    @Test func aBackReferenceStillMatchesByBacktracking() {
        let regex = BasicRegex("\\(ab*\\)x\\1", ignoreCase: true)
        #expect(regex.matches(bytes("abbxABB")))
        #expect(!regex.matches(bytes("abbxab")))
        // The quick test rules a line out before any backtracking: no `c`, no match.
        let nested = BasicRegex("\\(a*\\)*\\1c", ignoreCase: false)
        #expect(nested.matchOutcome(bytes(String(repeating: "a", count: 400))) == false)
    }

    @Test(arguments: [
        // An empty iteration of a starred group sets its capture (filter finding): grep matches all
        // of these, with `\1` empty.
        ("\\(\\|\\)*\\1", ""), ("\\(a*\\)*\\1", "b"), ("\\(a*\\)*b\\1", "b"), ("^\\(a\\|b*\\)*c\\1$", "aac"),
        ("^\\(a\\|b*\\)*c\\1$", "aaca"),
    ])
    func anEmptyIterationSetsTheCaptureABackReferenceReads(pattern: String, text: String) {
        #expect(BasicRegex(pattern, ignoreCase: true).matches(bytes(text)))
        #expect(!BasicRegex("\\(a\\)*\\1", ignoreCase: true).matches(bytes("b")))
    }

    @Test(arguments: [
        // An iteration that is empty only thanks to an anchor sets nothing: grep matches none of
        // these (the C library matches the first three), but does match a group with an empty way out.
        ("\\(\\<\\)*\\1", "abc", false), ("\\(\\b\\)*\\1", "abc", false), ("\\(^\\)*\\1", "abc", false),
        ("x\\(\\<\\)*\\1", "xabc", false), ("\\(\\<\\|\\)*\\1", "abc", true), ("\\(\\<\\)\\1", "abc", true),
        ("\\(\\<\\)*a", "abc", true),
    ])
    func anEmptyIterationThroughAnAnchorSetsNoCapture(pattern: String, text: String, expected: Bool) {
        #expect(BasicRegex(pattern, ignoreCase: true).matches(bytes(text)) == expected)
    }

    @Test func nestingDeeperThanTheLimitIsUndecidedNotACrash() {
        // Each starred iteration nests one call inside the last: a line this long would nest past
        // the limit (and, before it existed, past the stack under the address sanitizer).
        let regex = BasicRegex("\\(x\\)*\\1y", ignoreCase: false)
        let long = bytes(String(repeating: "x", count: BasicRegex.backtrackingDepthLimit * 2) + "y")
        let undecided = regex.matchOutcome(long) == nil, shown = regex.matches(long)
        #expect(undecided)
        #expect(shown, "undecided lines are shown")
        #expect(regex.matchOutcome(bytes("xxxy")) == true)
        #expect(regex.matchOutcome(bytes("xxxz")) == false)
    }

    /// Random patterns without back-references, from pieces that nest and repeat: the automaton
    /// and the backtracking matcher give the same answer wherever the latter decides in budget.
    @Test func automatonAgreesWithBacktracking() {
        let seed = propertySeed()
        var random = SplitMix64(seed: seed)
        let pieces = ["a", "b", "é", ".", "*", "\\(", "\\)", "\\|", "\\+", "\\?", "[ab]", "[^a]", "^", "$", "\\<", "\\>",
                      "\\b", "\\{1,2\\}", "\\{0\\}", "\\w", "x"]
        let letters = ["a", "b", "é", " ", "x", "É", "A"]
        var decided = 0
        for _ in 0..<3000 {
            let pattern = (0..<Int.random(in: 1...7, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            guard BasicRegex.syntaxError(bytes(pattern), ignoreCase: true) == nil else { continue }
            let regex = BasicRegex(pattern, ignoreCase: Bool.random(using: &random))
            let text = (0..<Int.random(in: 0...8, using: &random)).map { _ in letters.randomElement(using: &random)! }.joined()
            guard let automaton = regex.matchOutcome(bytes(text)), let backtracked = regex.backtrackingOutcome(bytes(text)) else { continue }
            decided += 1
            #expect(automaton == backtracked, "seed \(seed): \(pattern) on \(text)")
        }
        #expect(decided > 500, "seed \(seed): too few valid patterns")
    }

    @Test(arguments: [
        ("[ab", "Unmatched [, [^, [:, [., or [="), ("a[", "Invalid regular expression"),
        ("\\(a", "Unmatched ( or \\("), ("a\\)", "Unmatched ) or \\)"), ("a\\", "Trailing backslash"),
        ("[[:foo:]]", "Invalid character class name"), ("[[.ab.]]", "Invalid collation character"),
        ("[z-a]", "Invalid range end"), ("[a-é]", "Invalid collation character"), ("[[=é=]]", "Invalid collation character"), ("[a-c-e]", "Invalid range end"), ("[[:alpha:]-z]", "Invalid range end"),
        ("[a-[=b=]]", "Invalid range end"), ("[[[[=e=]-", "Invalid range end"), ("[[:alpha:]-", "Invalid range end"), ("[[=e=]-z]", "Invalid range end"), ("a\\{\\,\\}", "invalid content of \\{\\}"), ("x\\{0\\0\\}\\+", "invalid content of \\{\\}"),
        // After an anchor that does not start its branch, grep's parser reads `\{` as an interval.
        ("a\\b\\{", "invalid content of \\{\\}"), ("\\a\\b\\{2,*", "invalid content of \\{\\}"),
        ("a\\b\\{1,x\\}", "invalid content of \\{\\}"), ("[::a:]", "character class syntax is [[:space:]], not [:space:]"), ("x\\{\\1\\}", "Invalid content of \\{\\}"),
        ("a\\{1\\x\\}", "Invalid content of \\{\\}"), ("[a-[:alpha]", "Unmatched [, [^, [:, [., or [="),
        ("\\1", "Invalid back reference"), ("\\(a\\)\\|\\1", "Invalid back reference"),
        ("a\\{1", "Unmatched \\{"), ("a\\{x\\}", "Invalid content of \\{\\}"), ("a\\{2,1\\}", "Invalid content of \\{\\}"),
        ("a\\{32768\\}", "Regular expression too big"), ("a\\{99999999999999999999\\}", "Regular expression too big"),
        ("[:space:]", "character class syntax is [[:space:]], not [:space:]"),
        ("\\([\\{0,2\\}ab\\)\\25A^[-1-", "Invalid range end"), ("[b[-1", "Invalid range end"), ("^^\\{1,x\\}", "Invalid content of \\{\\}"), ("a\\|^*\\{1", "Unmatched \\{"), ("[\u{1B}-1-", "Invalid range end"),
        ("[[:" + String(repeating: "a", count: 32) + ":]]", "Unmatched [, [^, [:, [., or [="),
    ])
    func syntaxErrorsAreGrepsOwn(pattern: String, message: String) {
        #expect(BasicRegex.syntaxError(bytes(pattern), ignoreCase: true) == message)
    }

    @Test(arguments: ["\\b\\{", "a\\b\\{2\\}", "\\(\\b\\{x\\)", "a\\|\\<\\{", "[:::]", "[::]",
                      "a\\{1,\\}", "a\\{,2\\}", "\\{1", "*a", "[]a]", "[a-]", "[:a-z:]", "\\(a\\)\\1", "x\\|\\(a\\)\\1",
                      "[a-`]", "\\b\\{1", "^\\{1,x", "a\\{32767\\}", "[[:alpha:][:digit:]]", "[[.-.]]", "[\\]"])
    func patternsGrepAcceptsAreValid(pattern: String) {
        #expect(BasicRegex.syntaxError(bytes(pattern), ignoreCase: true) == nil)
    }

    @Test func rangeEndsAreComparedInUppercaseOnlyIgnoringCase() {
        #expect(BasicRegex.syntaxError(bytes("[a-`]"), ignoreCase: false) == "Invalid range end")
        #expect(BasicRegex.syntaxError(bytes("[Z-a]"), ignoreCase: false) == nil)
        #expect(BasicRegex.syntaxError(bytes("[Z-a]"), ignoreCase: true) == "Invalid range end")
    }
}

/// Terms as todo.sh's `grep -i` reads them, and the case-sensitive removal of `del NR TERM`.
struct BasicRegexGrepCaseTests {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test(arguments: [
        ("ir[ds]", "the birds sing", true), ("ir[ds]", "fir", false), ("f.*t", "FIRST", true),
        ("sun\\|money", "get money", true), ("sun\\|money", "nothing", false), ("^ *3 ", " 3 task", true),
        ("^ *3 ", "13 task", false), ("$$", "costs $$", true), ("a\\{2\\}", "baab", true),
        ("a\\{3\\}", "baab", false), ("x\\+y", "xxy", true), ("\\(ab\\)\\1", "abab", true),
        ("\\<sun", "sunflower", true), ("\\<sun", "asun", false), ("[[:digit:]]", "a1", true),
        ("*star", "a *star", true), ("O'Brian", "o'brian", true), ("get   money", "get money", false),
    ])
    func basicRegexMatchesLikeGrepI(pattern: String, text: String, expected: Bool) {
        #expect(BasicRegex(pattern, ignoreCase: true).matches(bytes(text)) == expected)
    }

    @Test func caseSensitiveRemoval() {
        let regex = BasicRegex("m", ignoreCase: false)
        #expect(regex.removingMatches(from: bytes("smell Mom")) == bytes("sell Mo"))
    }
}
