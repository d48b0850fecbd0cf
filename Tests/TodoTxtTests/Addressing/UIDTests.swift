import Testing
import TodoTestSupport
@testable import TodoTxt

/// docs/format.md section 4: generated uids, addressing, duplicates, backfill.
@Suite struct UIDTests {
    static let crockford = Set("0123456789abcdefghjkmnpqrstvwxyz".utf8)

    func expectGeneratedShape(_ uid: String, length: Int = 6, sourceLocation: SourceLocation = #_sourceLocation) {
        let bytes = Array(uid.utf8)
        #expect(bytes.count == length, "\(uid)", sourceLocation: sourceLocation)
        #expect(bytes.allSatisfy { Self.crockford.contains($0) }, "\(uid)", sourceLocation: sourceLocation)
        #expect(bytes.first.map { $0 >= 0x61 && $0 <= 0x7A } == true, "\(uid)", sourceLocation: sourceLocation)
        #expect(!bytes.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }, sourceLocation: sourceLocation)
    }

    @Test func alphabetIsLowercaseCrockford() {
        #expect(UID.alphabet.count == 32)
        #expect(Set(UID.alphabet) == Self.crockford)
        for excluded in "ilou".utf8 { #expect(!UID.alphabet.contains(excluded)) }
        #expect(UID.letters.count == 22)
    }

    @Test func generatedShapeOverManySeeds() {
        var rng = SplitMix64(seed: 42)
        var seen = Set<String>()
        for _ in 0..<5_000 {
            let uid = UID.generate(using: &rng) { _ in false }
            expectGeneratedShape(uid)
            seen.insert(uid)
        }
        #expect(seen.count > 4_990)
    }

    @Test func deterministicWithInjectedGenerator() {
        var first = SplitMix64(seed: 99)
        var second = SplitMix64(seed: 99)
        let a = UID.generate(using: &first) { _ in false }
        let b = UID.generate(using: &second) { _ in false }
        #expect(a == b)
        expectGeneratedShape(a)
    }

    @Test func minimalAndMaximalDraws() {
        var low = ReplayGenerator(uidDraws("a00000"))
        #expect(UID.generate(using: &low) { _ in false } == "a00000")
        var mixed = ReplayGenerator(uidDraws("k3f9qz"))
        #expect(UID.generate(using: &mixed) { _ in false } == "k3f9qz")
        var high = ReplayGenerator([UInt64.max])
        #expect(UID.generate(using: &high) { _ in false } == "zzzzzz")
    }

    @Test func generationAvoidsTakenValues() {
        // The replay generator yields "a00000" first; it is taken, so the next draw must differ.
        var rng = ReplayGenerator(uidDraws("a00000") + uidDraws("b11111"))
        let uid = UID.generate(using: &rng) { $0 == "a00000" }
        #expect(uid == "b11111")
    }

    @Test func generationEndsEvenWhenEverythingCollides() {
        var rng = ReplayGenerator([UInt64.max])
        let uid = UID.generate(using: &rng) { $0.utf8.count == 6 }
        expectGeneratedShape(uid, length: 7)
    }

    @Test func generationIsUniqueAgainstDocumentAndDoneFile() {
        let todo = parseRoundTrip(b("a uid:a00000\n"))
        let done = parseRoundTrip(b("x b uid:b11111\n"))
        var rng = ReplayGenerator(uidDraws("a00000") + uidDraws("b11111") + uidDraws("c22222"))
        #expect(UID.generate(using: &rng, unusedIn: todo, and: done) == "c22222")
        var again = ReplayGenerator(uidDraws("a00000") + uidDraws("b11111"))
        #expect(UID.generate(using: &again, unusedIn: todo) == "b11111")
    }

    // MARK: Addressing

    static let file = """
        first uid:k3f9qz
        second uid:k3abcd

        x fourth uid:mmmmmm
        fifth uuid:simple-1
        sixth uid:123
        seventh
        """

    func document() -> TodoDocument { parseRoundTrip(b(Self.file)) }

    @Test func resolveLineNumber() throws {
        #expect(try document().resolve("2").index == 1)
        #expect(try document().resolve("2").uid == nil)
        #expect(try document().resolve("007").index == 6)
    }

    @Test(arguments: ["0", "3", "8", "99999999999999999999999"])
    func resolveBadLineNumber(_ address: String) {
        #expect(throws: TaskAddressError.self) { try document().resolve(address) }
    }

    @Test func blankLineIsNoTask() {
        #expect(throws: TaskAddressError.noTask(lineNumber: "3")) { try document().resolve("3") }
    }

    @Test func resolveFullUID() throws {
        let reference = try document().resolve("k3abcd")
        #expect(reference.index == 1)
        #expect(reference.uid == "k3abcd")
        #expect(reference.duplicateIndices.isEmpty)
    }

    @Test func resolveExplicitUID() throws {
        #expect(try document().resolve("uid:mmmmmm").index == 3)
        // An all-digit uid a user wrote is reachable only with the uid: prefix.
        #expect(try document().resolve("uid:123").index == 5)
        #expect(try document().resolve("6").index == 5)
        #expect(throws: TaskAddressError.unknownUID("mm")) { try document().resolve("uid:mm") }
    }

    @Test func resolveUniquePrefix() throws {
        #expect(try document().resolve("k3f").index == 0)
        #expect(try document().resolve("mm").index == 3)
    }

    @Test func resolveSimpletaskUUID() throws {
        #expect(try document().resolve("simple-1").index == 4)
        #expect(try document().resolve("simple").index == 4)
    }

    @Test func prefixTooShort() {
        #expect(throws: TaskAddressError.prefixTooShort("k")) { try document().resolve("k") }
    }

    @Test func ambiguousPrefixListsCandidates() {
        let expected = TaskAddressError.ambiguous(prefix: "k3", candidates: [
            .init(uid: "k3f9qz", lineNumber: 1), .init(uid: "k3abcd", lineNumber: 2),
        ])
        #expect(throws: expected) { try document().resolve("k3") }
        #expect(expected.description == "uid prefix 'k3' is ambiguous: k3f9qz (line 1), k3abcd (line 2)")
    }

    @Test(arguments: ["", "a b", "k3\tf"])
    func malformed(_ address: String) {
        #expect(throws: TaskAddressError.malformed(address)) { try document().resolve(address) }
    }

    @Test func unknown() {
        #expect(throws: TaskAddressError.unknownUID("zz")) { try document().resolve("zz") }
    }

    // MARK: Duplicates

    @Test func firstHolderKeepsADuplicateUID() throws {
        let document = parseRoundTrip(b("a uid:dup\nb uid:dup\nc uid:dup\n"))
        let reference = try document.resolve("dup")
        #expect(reference.index == 0)
        #expect(reference.duplicateIndices == [1, 2])
        #expect(UIDIndex(document).duplicates == ["dup": [0, 1, 2]])
    }

    @Test func theOnlyCompletedHolderKeepsIt() throws {
        let document = parseRoundTrip(b("a uid:dup\nx b uid:dup\nc uid:dup\n"))
        let reference = try document.resolve("dup")
        #expect(reference.index == 1)
        #expect(reference.duplicateIndices == [0, 2])
    }

    @Test func twoCompletedHoldersFallBackToTheFirst() throws {
        let document = parseRoundTrip(b("a uid:dup\nx b uid:dup\nx c uid:dup\n"))
        #expect(try document.resolve("dup").index == 0)
    }

    @Test func duplicateViaPrefix() throws {
        let document = parseRoundTrip(b("a uid:dupdup\nx b uid:dupdup\n"))
        let reference = try document.resolve("dup")
        #expect(reference.index == 1)
        #expect(reference.duplicateIndices == [0])
    }

    // MARK: Backfill

    @Test func assignMissingUIDsBackfillsAndFixesDuplicates() {
        let bytes = b("(A) a\r\nb uid:dup\r\n\r\nx c uid:dup\r\nd uid:keep\r\ne uid:dup extra\r\nf uuid:s1")
        let before = parseRoundTrip(bytes)
        var document = before
        var rng = SplitMix64(seed: 7)
        let done = parseRoundTrip(b("x old uid:zzzzzz\n"))
        let changed = document.assignMissingUIDs(using: &rng, doneFile: done)
        #expect(changed == [0, 1, 5])
        for untouched in [2, 3, 4, 6] {
            #expect(document.content(at: untouched).elementsEqual(before.content(at: untouched)))
        }
        for index in 0..<before.lineCount { #expect(document.terminator(at: index) == before.terminator(at: index)) }
        let index = UIDIndex(document)
        #expect(index.duplicates.isEmpty)
        #expect(document.item(at: 3).uid == "dup")
        let line1 = document.text(at: 1), line5 = document.text(at: 5)
        #expect(line1.hasPrefix("b uid:") && line1.count == "b uid:".count + 6)
        #expect(line5.hasPrefix("e uid:") && line5.hasSuffix(" extra"))
        let fresh = [0, 1, 5].compactMap { document.item(at: $0).uid }
        #expect(Set(fresh).count == 3)
        for uid in fresh { expectGeneratedShape(uid); #expect(uid != "zzzzzz") }
        #expect(document.text(at: 0).hasPrefix("(A) a uid:"))
        let again = document.assignMissingUIDs(using: &rng, doneFile: done)
        #expect(again.isEmpty)
    }

    @Test func assignMissingUIDsAvoidsDoneFileValues() {
        var document = parseRoundTrip(b("a\n"))
        var rng = ReplayGenerator(uidDraws("a00000") + uidDraws("b11111"))
        let done = parseRoundTrip(b("x old uid:a00000\n"))
        #expect(document.assignMissingUIDs(using: &rng, doneFile: done) == [0])
        #expect(document.rendered() == b("a uid:b11111\n"))
    }
}

@Suite struct MentionsUIDTests {
    @Test func findsWholeWordUIDsOnly() {
        let document = TodoDocument("call mom uid:abc123\nsimpletask uuid:zz9999 +p\nnote about uid:abc12x3\n")
        #expect(document.mentionsUID("abc123"))
        #expect(document.mentionsUID("zz9999"))
        #expect(!document.mentionsUID("abc12"), "a prefix of a uid is not that uid")
        #expect(!document.mentionsUID("bc123"), "uid:abc123 does not mention bc123")
        #expect(!document.mentionsUID("qqqqqq"))
    }

    /// Generation must never under-reject: every uid `TodoItem` reads counts as mentioned, also on a
    /// line that starts with a byte order mark or after whitespace other than a space.
    @Test func findsEveryUIDTheParserReads() {
        let document = TodoDocument("first\n\u{FEFF}uid:bom111\ncall\u{3000}uid:ideo22\nx\u{00A0}uuid:nbsp33\n")
        for index in 0..<document.lineCount {
            guard let uid = document.item(at: index).uid else { continue }
            #expect(document.mentionsUID(uid), "line \(index + 1)")
        }
        #expect(document.mentionsUID("bom111"))
        #expect(document.mentionsUID("ideo22"))
        #expect(document.mentionsUID("nbsp33"))
    }

    /// The scan runs over the parsed bytes whole and over edited lines one by one: a uid moved
    /// into the edit buffer, one beside other edited content, one on a CRLF line and one on the
    /// last line without a terminator all count; one that is only part of a word does not.
    @Test func findsUIDsInEditedLinesAndAtLineEnds() {
        var document = TodoDocument("a uid:crlf01\r\nb\nc\nd uid:last01")
        #expect(document.mentionsUID("crlf01"))
        #expect(document.mentionsUID("last01"))
        document.replaceContent(at: 1, with: Array("edited x".utf8))
        document.replaceContent(at: 2, with: Array("uid:edit01 +p".utf8))
        #expect(document.mentionsUID("edit01"), "a uid at the start of an edited line, after other edited bytes")
        #expect(!document.mentionsUID("dit01"))
        #expect(!TodoDocument("seeuid:word01\n").mentionsUID("word01"))
        #expect(!TodoDocument("uid:part01x\n").mentionsUID("part01"))
    }

    /// Seeded property: in random documents (CRLF, byte order marks, Unicode spaces, edits), every
    /// uid the parser reads counts as mentioned.
    @Test func neverMissesAUIDTheParserReads() {
        let settings = PropertySettings(defaultSeed: 0x01D5_CA11, defaultCount: 2_000)
        var random = SplitMix64(seed: settings.seed)
        let pieces = ["uid:ab12cd", "uid:zz", "uuid:ab12cd", "x ", " ", "\u{3000}", "\u{FEFF}", "\r\n", "\n", "\r", "word", "uid:"]
        for _ in 0..<settings.count {
            let text = (0..<Int(random.next() % 12)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            var document = TodoDocument(text)
            if document.lineCount > 0, random.next() % 2 == 0 {
                let line = Int(random.next() % UInt64(document.lineCount))
                let replacement = (0..<Int(random.next() % 4)).map { _ in pieces[Int(random.next() % 3)] }.joined(separator: " ")
                document.replaceContent(at: line, with: Array(("e " + replacement).utf8))
            }
            for index in 0..<document.lineCount {
                guard let uid = document.item(at: index).uid else { continue }
                #expect(document.mentionsUID(uid), "seed \(settings.seed): \(show(document.rendered())) line \(index + 1)")
            }
        }
    }

    @Test func generationAvoidsUIDsInBothFiles() {
        let taken = TodoDocument("x uid:a00000\n")
        var generator = ReplayGenerator(uidDraws("a00000") + uidDraws("b11111"))
        #expect(UID.generate(using: &generator, unusedIn: TodoDocument(), and: taken) == "b11111")
        var again = ReplayGenerator(uidDraws("a00000") + uidDraws("b11111"))
        #expect(UID.generate(using: &again, unusedIn: taken) == "b11111")
    }
}
