import Testing
@testable import TodoCLI

@Suite struct SavedViewsTests {
    func parse(_ text: String) throws(SavedViews.LineError) -> SavedViews { try SavedViews(parsing: Array(text.utf8)) }

    @Test func viewsCommentsAndBlankLines() throws {
        let views = try parse("\u{FEFF}# my views\r\nweek = due:<=7d -@waiting --sort due\r\n\n  shop=@shop 'two words'  \n\t# indented comment\n")
        #expect(views.views.map(\.name) == ["week", "shop"])
        #expect(views.views[0].words == ["due:<=7d", "-@waiting", "--sort", "due"])
        #expect(views.views[0].line == 2)
        #expect(views.views[1].definition == "@shop 'two words'")
        #expect(views.views[1].words == ["@shop", "two words"])
        #expect(views.view(named: "shop")?.line == 4)
        #expect(try parse("all =").views.first?.words == [])
    }

    @Test(arguments: [
        ("a = b\njust words\n", 2, "not a view (NAME = TERMS)"),
        ("= @x", 1, "the view has no name (NAME = TERMS)"),
        ("my view = @x", 1, "'my view' is not a view name (letters, digits, - _ .)"),
        ("-x = @x", 1, "'-x' is not a view name (letters, digits, - _ .)"),
        ("a = @x\na = @y", 2, "view 'a' is already defined on line 1"),
        ("a = 'open", 1, "a quote is not closed"),
    ])
    func badLines(_ text: String, _ line: Int, _ problem: String) {
        #expect(throws: SavedViews.LineError(line: line, problem: problem)) { try parse(text) }
    }

    @Test func optionsGoBeforeTheTerms() throws {
        let list = try #require(ActionTable.find("ls"))
        #expect(ViewsFile.listWords(["due:x", "-@waiting"], list) == ["due:x", "-@waiting"])
        let ui = try #require(ActionTable.find("ui"))
        #expect(ViewsFile.split(["@a", "--view", "w", "-b"], ui).options == ["--view", "w"])
        #expect(ViewsFile.split(["@a", "--view=w", "-b"], ui).terms == ["@a", "-b"])
    }

    @Test func pathFollowsXDGIgnoringARelativeOne() {
        #expect(ViewsFile.path(["HOME": "/h"]) == "/h/.config/todo/views.txt")
        #expect(ViewsFile.path(["HOME": "/h", "XDG_CONFIG_HOME": "/x"]) == "/x/todo/views.txt")
        #expect(ViewsFile.path(["HOME": "/h", "XDG_CONFIG_HOME": "rel"]) == "/h/.config/todo/views.txt")
    }
}
