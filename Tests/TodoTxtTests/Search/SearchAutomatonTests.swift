@testable import TodoTxt
import Testing
import TodoTestSupport

/// The search automaton (BasicRegex+SearchAutomaton.swift) answers "matches anywhere?" exactly as the
/// thread simulation it is built from, on ASCII, non-ASCII and invalid UTF-8 text, with and without
/// ignoring case.
struct SearchAutomatonTests {
    /// Pattern pieces: literals of one and several bytes, `.`, sets (negated, classes, non-ASCII),
    /// repetitions, groups and alternation; no assertion (those keep the simulation).
    static let patternPieces = ["a", "b", "o", "q", "É", "é", "ø", ".", "[ab]", "[^a]", "[[:alpha:]]", "[[:digit:]]", "[é-]",
                                "*", "\\+", "\\?", "\\{2\\}", "\\{1,3\\}", "\\(", "\\)", "\\|", "x", " ", "\\w", "\\s"]
    static let textPieces: [[UInt8]] = ["a", "b", "o", "q", "x", " ", "é", "É", "ø", "Ø", "1", "٣", "AB", "\u{00A0}"].map { Array($0.utf8) }
        + [[0xFF], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80]]

    static func program(_ pattern: [UInt8], ignoreCase: Bool) -> BasicRegex.Program? {
        var parser = BasicRegex.Parser(pattern: pattern, ignoreCase: ignoreCase)
        return BasicRegex.Program(parser.parseAlternatives(topLevel: true))
    }

    @Test func agreesWithTheThreadSimulation() {
        let settings = PropertySettings(defaultSeed: 0x5EA_4C4, defaultCount: 1_500)
        var random = SplitMix64(seed: settings.seed)
        var built = 0
        for _ in 0..<settings.count {
            let pattern = (0..<(1 + Int(random.next() % 6))).map { _ in
                Self.patternPieces[Int(random.next() % UInt64(Self.patternPieces.count))]
            }.joined()
            let ignoreCase = random.next() % 2 == 0
            guard let program = Self.program(Array(pattern.utf8), ignoreCase: ignoreCase),
                  let automaton = BasicRegex.SearchAutomaton(program, ignoreCase: ignoreCase) else { continue }
            built += 1
            for _ in 0..<8 {
                var text: [UInt8] = []
                for _ in 0..<Int(random.next() % 12) { text += Self.textPieces[Int(random.next() % UInt64(Self.textPieces.count))] }
                let simulated = program.firstMatch(BasicRegex.Matcher(text: text, ignoreCase: ignoreCase, groupCount: 0),
                                                   from: 0, longest: false) != nil
                #expect(automaton.matches(text) == simulated,
                        "pattern \(pattern.debugDescription) ignoreCase \(ignoreCase) text \(text)")
            }
        }
        // Most drawn patterns compile to an automaton (the test would prove nothing otherwise).
        #expect(built > settings.count / 2)
    }

    @Test func assertionsKeepTheSimulation() {
        for pattern in ["^a", "a$", "\\<a", "\\bx", "a\\>"] {
            let program = Self.program(Array(pattern.utf8), ignoreCase: true)
            #expect(program != nil)
            #expect(program.flatMap { BasicRegex.SearchAutomaton($0, ignoreCase: true) } == nil, "\(pattern)")
        }
    }

    @Test func listingTermOnLines() {
        let regex = BasicRegex("o.*q", ignoreCase: true)
        #expect(regex.matchOutcome(Array("buy OQ".utf8)) == true)
        #expect(regex.matchOutcome(Array("book milk".utf8)) == false)
        #expect(regex.matchOutcome(Array("Ø o é Q".utf8)) == true)
        // `.` does not match a byte that is not UTF-8 (grep in a UTF-8 locale).
        #expect(regex.matchOutcome([0x6F, 0xFF, 0x71]) == false)
        #expect(regex.matchOutcome([0x6F, 0x71, 0xFF]) == true)
    }
}
