import Testing
@testable import TodoCLI

/// The action table drives dispatch, help and completions: check they agree.
@Suite struct ActionTableTests {
    @Test func everyVisibleActionAppearsInHelpAndCompletions() {
        let help = CapturedRun(["--help"])
        #expect(help.status == 0)
        let bash = CapturedRun(["completions", "bash"])
        let fish = CapturedRun(["completions", "fish"])
        for action in ActionTable.all where !action.summary.isEmpty {
            #expect(help.out.contains("  \(action.name) "), "help lacks \(action.name)")
            #expect(bash.out.contains(action.name), "bash completion lacks \(action.name)")
            #expect(fish.out.contains("-a '\(action.name)'"), "fish completion lacks \(action.name)")
        }
        #expect(!help.out.contains("__complete-words"))
    }

    @Test func namesAndAliasesAreUnique() {
        let names = ActionTable.all.flatMap { [$0.name] + $0.aliases }
        #expect(Set(names).count == names.count)
    }

    @Test func helpForOneActionShowsItsUsage() {
        let run = CapturedRun(["help", "sort"])
        #expect(run.status == 0)
        #expect(run.out.hasPrefix("usage: todo sort [--check] [--dry-run] [--by KEYS] [FILE]"))
    }

    @Test func usageErrorsExitTwoWithOneLine() {
        for arguments in [["sort", "--nope"], ["frob"], ["sort", "--by", "colour"], ["completions", "tcsh"]] {
            let run = CapturedRun(arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.err.hasPrefix("todo: "), "\(arguments): \(run.err)")
            #expect(run.err.filter { $0 == "\n" }.count == 1, "\(arguments): \(run.err)")
        }
    }
}
