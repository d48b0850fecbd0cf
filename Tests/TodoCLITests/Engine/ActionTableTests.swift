import Testing
@testable import TodoCLI

/// The action table drives dispatch, help and completions: check they agree.
@Suite struct ActionTableTests {
    @Test func everyVisibleActionAppearsInHelpAndCompletions() {
        let help = CapturedRun(["--help"])
        #expect(help.status == 0)
        let bash = CapturedRun(["completions", "bash"])
        let fish = CapturedRun(["completions", "fish"])
        for action in ActionTable.todoActions where !action.summary.isEmpty {
            let listed = ([action.name] + action.aliases).joined(separator: ", ")
            #expect(help.out.contains("  \(listed) "), "help lacks \(listed)")
            #expect(bash.out.contains(action.name), "bash completion lacks \(action.name)")
            #expect(fish.out.contains("-a '\(action.name)'"), "fish completion lacks \(action.name)")
        }
        #expect(!help.out.contains("__complete-words"))
        #expect(!help.out.contains("shorthelp"), "todo.sh's own action is not todo's")
        for group in ActionSpec.Group.allCases { #expect(help.out.contains("\n\(group.rawValue):\n"), "no \(group) heading") }
        for option in TodoCommand.globalOptions { #expect(help.out.contains("  \(option.names) "), "help lacks \(option.names)") }
        for example in TodoCommand.examples("todo") { #expect(help.out.contains("  \(example.command)\n")) }
    }

    @Test func everyOptionAnActionAcceptsIsExplainedInItsHelp() {
        // What `todo help ACTION` must say: each declared option (the man page prints the same).
        for action in ActionTable.todoActions where !action.summary.isEmpty {
            let help = CapturedRun(["help", action.name])
            #expect(help.status == 0, "\(action.name)")
            for option in action.options {
                for name in option.names { #expect(help.out.contains(name), "help \(action.name) does not explain \(name)") }
            }
        }
    }

    @Test func aMistypedActionNamesTheNearest() {
        #expect(ActionTable.suggestion(for: "srot") == " (did you mean 'sort' or 'stop'?)", "nearest first, both two edits away")
        #expect(ActionTable.suggestion(for: "achive") == " (did you mean 'archive'?)")
        #expect(ActionTable.suggestion(for: "xyzzy") == "")
        #expect(ActionTable.editDistance(Array("ab"), Array("ba")) == 1, "a swap is one edit")
        #expect(ActionTable.editDistance(Array("kitten"), Array("sitting")) == 3)
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
