@testable import TodoCLI
import Testing

/// In-process checks of the todo.sh building blocks: prefixes, priority sets,
/// shell words and the default sort.
struct TodoShUnitTests {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func prefixCutsAtFirstDotBeforeNonDot() {
        #expect(TodoShContext.prefix(of: "/a/todo.txt") == "TODO")
        #expect(TodoShContext.prefix(of: "garden.txt") == "GARDEN")
        #expect(TodoShContext.prefix(of: "specialdone.txt") == "SPECIALDONE")
        #expect(TodoShContext.prefix(of: "a..b.txt") == "A.")
    }

    @Test func prioritySets() {
        #expect(TodoShListing.prioritySet("a") == [0x41])
        #expect(TodoShListing.prioritySet("a-c") == [0x41, 0x42, 0x43])
        #expect(TodoShListing.prioritySet("CX") == [0x43, 0x58])
        #expect(TodoShListing.prioritySet("ABR-Y")?.count == 2 + 8)
        #expect(TodoShListing.prioritySet("A-") == nil)
        #expect(TodoShListing.prioritySet("should be") == nil)
        #expect(TodoShListing.prioritySet("ab") == nil)
    }

    @Test func shellWordsHonourQuotesAndEscapes() {
        let words = TodoShConfig.shellWords(#"ls "two words" 'single $X' \$HOSTNAME $X"#, variables: ["X": "ex"])
        #expect(words == ["ls", "two words", "single $X", "$HOSTNAME", "ex"])
    }

    @Test func defaultSortFoldsCaseAndBreaksTiesByNumber() {
        let lines = ["roses", "Roses", "(A) a", "x done", "_under", "  leading", "{curly}", "2009-01-01 d"]
        var buffer: [UInt8] = []
        var entries: [TodoShListing.Entry] = []
        for (index, line) in lines.enumerated() {
            entries.append(.init(number: index + 1, filterNumber: index + 1, start: buffer.count, length: line.utf8.count))
            buffer += bytes(line)
        }
        let order = TodoShListing.sortedDefault(entries, buffer).map { lines[$0] }
        #expect(order == ["  leading", "(A) a", "2009-01-01 d", "roses", "Roses", "x done", "_under", "{curly}"])
    }

    @Test func colourEscapesDecode() {
        #expect(TodoShColors.decode("\\\\033[1;33m") == [0x1B] + bytes("[1;33m"))
        #expect(TodoShColors.decode("\\033[0m") == [0x1B] + bytes("[0m"))
        #expect(TodoShColors.decode("${color yellow}") == bytes("${color yellow}"))
    }

    @Test func optionsBundleAndStop() {
        let options = TodoShCommand.parseOptions(["-npf", "-d", "cfg", "ls", "-second"])
        #expect(options.preserveLineNumbers == false && options.plain == true && options.force == true)
        #expect(options.configFile == "cfg")
        #expect(options.remaining == ["ls", "-second"])
        #expect(TodoShCommand.parseOptions(["-@@", "-+", "ls"]).hideContexts == 2)
        #expect(TodoShCommand.parseOptions(["-q"]).invalid)
        #expect(TodoShCommand.parseOptions(["-v", "-h", "-Z"]).remaining == ["shorthelp"])
    }
}
