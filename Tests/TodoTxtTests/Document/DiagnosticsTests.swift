import Testing
@testable import TodoTxt

/// The diagnostics pass: parsing never fails, this pass says what looks wrong.
@Suite struct DiagnosticsTests {
    @Test func cleanFileHasNoDiagnostics() {
        #expect(parseRoundTrip(b("(A) 2026-01-01 a due:2026-01-02 uid:abc\n\nx 2026-01-03 b uid:def\n")).diagnostics() == [])
    }

    @Test func invalidHeaderDate() {
        let found = parseRoundTrip(b("2026-02-30 a\n(A) 2017-06-31 b\nx 2026-01-01 0000-01-01 c\nbody 2026-02-30\n")).diagnostics()
        #expect(found == [
            Diagnostic(line: 1, kind: .invalidDate("2026-02-30")),
            Diagnostic(line: 2, kind: .invalidDate("2017-06-31")),
            Diagnostic(line: 3, kind: .invalidDate("0000-01-01")),
        ])
        #expect(found[0].description == "line 1: '2026-02-30' is not a valid date")
    }

    @Test func invalidExtensionValues() {
        let found = parseRoundTrip(b("a due:someday t:2026-13-01 rec:often h:2 pri:aa other:x\n")).diagnostics()
        #expect(found == [
            Diagnostic(line: 1, kind: .invalidExtensionValue(key: "due", value: "someday")),
            Diagnostic(line: 1, kind: .invalidExtensionValue(key: "t", value: "2026-13-01")),
            Diagnostic(line: 1, kind: .invalidExtensionValue(key: "rec", value: "often")),
            Diagnostic(line: 1, kind: .invalidExtensionValue(key: "h", value: "2")),
            Diagnostic(line: 1, kind: .invalidExtensionValue(key: "pri", value: "aa")),
        ])
        #expect(found[0].description == "line 1: invalid due: value 'someday'")
    }

    @Test func duplicateUIDsReportTheNonOwners() {
        let found = parseRoundTrip(b("a uid:dup\nx b uid:dup\nc uid:dup\n")).diagnostics()
        #expect(found == [
            Diagnostic(line: 1, kind: .duplicateUID("dup", ownerLine: 2)),
            Diagnostic(line: 3, kind: .duplicateUID("dup", ownerLine: 2)),
        ])
        #expect(found[0].description == "line 1: duplicate uid dup (kept by line 2)")
    }

    @Test func invalidUTF8() {
        let found = parseRoundTrip([0x61, 0xFF, 0x0A, 0x62, 0x0A, 0xED, 0xA0, 0x80]).diagnostics()
        #expect(found == [Diagnostic(line: 1, kind: .invalidUTF8), Diagnostic(line: 3, kind: .invalidUTF8)])
    }

    @Test func blankLinesAreNotDiagnosed() {
        #expect(parseRoundTrip(b("\n   \n\t\n")).diagnostics().isEmpty)
    }
}
