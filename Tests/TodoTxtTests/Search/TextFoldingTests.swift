import Testing
@testable import TodoTxt

@Suite struct TextFoldingTests {
    @Test(arguments: [("Café", "cafe"), ("ÉCOLE", "ecole"), ("Straße", "strasse"), ("Łódź", "lodz"),
                      ("Œuvre", "oeuvre"), ("naïve", "naive"), ("ÅSA", "asa"), ("×÷", "×÷"), ("日本", "日本")])
    func foldsCaseAndDiacritics(input: String, expected: String) {
        #expect(String(decoding: TextFolding.folded(Array(input.utf8)), as: UTF8.self) == expected)
    }

    @Test func plainTermsIgnoreCaseAndDiacriticsRegexTermsStayRegex() {
        let filter = TermFilter(["cafe", "-decaf"], plainText: true)
        #expect(filter.accepts(Array("1 Meet at Café +social".utf8)))
        #expect(!filter.accepts(Array("2 Meet at Café, decaf only".utf8)))
        #expect(!filter.accepts(Array("3 Meet at the bar".utf8)))
        let regex = TermFilter(["ca.e"], plainText: true)
        #expect(regex.accepts(Array("1 cake".utf8)), "a term with a metacharacter stays a regex")
        let todoSh = TermFilter(["cafe"], plainText: false)
        #expect(!todoSh.accepts(Array("1 Café".utf8)), "todo.sh's terms do not fold diacritics")
    }
}
