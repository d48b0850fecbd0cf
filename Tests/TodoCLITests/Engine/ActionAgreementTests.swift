import Foundation
import Testing
@testable import TodoCLI

/// For every action of the table (so a new action is covered without a new test): `todo help
/// ACTION`, `todo ACTION --help`, the bash, zsh and fish completions and the parser agree on its
/// options, and likewise for the options before the action.
@Suite struct ActionAgreementTests {
    static var actions: [ActionSpec] { ActionTable.todoActions.filter { !$0.summary.isEmpty } }

    @Test func actionHelpAndTheHelpOptionShowTheSameText() {
        for action in Self.actions {
            let help = CapturedRun(["help", action.name])
            #expect(help.status == 0, "\(action.name): \(help.err)")
            #expect(help.out.hasPrefix("usage: todo \(action.name)"), "\(action.name)")
            for spelling in ["--help", "-h"] {
                for name in [action.name] + action.aliases {
                    let run = CapturedRun([name, spelling])
                    #expect(run.status == 0 && run.out == help.out && run.err.isEmpty, "todo \(name) \(spelling)")
                }
            }
        }
    }

    @Test func theHelpNamesEveryOptionAndTheUsageLineShowsIt() {
        for action in Self.actions {
            let help = CapturedRun(["help", action.name]).out
            let usage = help.split(separator: "\n").first.map(String.init) ?? ""
            for option in action.options {
                for line in option.helpLines { #expect(help.contains("  " + line + "\n"), "help \(action.name): \(line)") }
                if option.inUsage { #expect(usage.contains("[\(option.usage)]"), "usage of \(action.name) lacks \(option.usage)") }
            }
        }
    }

    @Test func theParserAcceptsEveryDeclaredOptionAndNothingElse() throws {
        for action in Self.actions {
            let filler = Array(repeating: "1", count: action.argumentCount?.lowerBound ?? 0)
            for option in action.options {
                for name in option.names {
                    let words = [name] + (option.value == nil ? [] : [option.values.first ?? "5"]) + filler
                    let parsed = try action.parse(words, usage: "u")
                    if option.value == nil {
                        #expect(parsed.flags.isSuperset(of: option.names), "\(action.name) \(name)")
                    } else {
                        #expect(parsed.values[name] == (option.values.first ?? "5"), "\(action.name) \(name)")
                    }
                    #expect(parsed.positionals == filler, "\(action.name) \(name)")
                }
            }
            if action.placement != .leadingThenText {
                #expect(throws: CLIError.self, "\(action.name) accepts an undeclared option") {
                    try action.parse(["--no-such-option"] + filler, usage: "u")
                }
            }
        }
    }

    /// The case of `action` in the bash script: from its `NAME|ALIAS)` line to its `;;`.
    static func bashCase(_ script: String, _ action: ActionSpec) -> String {
        let label = ([action.name] + action.aliases).joined(separator: "|") + ")"
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == label }) else { return "" }
        let end = lines[start...].firstIndex { $0.trimmingCharacters(in: .whitespaces) == ";;" } ?? lines.endIndex
        return lines[start..<end].joined(separator: "\n")
    }

    @Test func theCompletionScriptsOfferEveryOptionAndItsValues() {
        let bash = CapturedRun(["completions", "bash"]).out
        let zsh = CapturedRun(["completions", "zsh"]).out.split(separator: "\n").map(String.init)
        let fish = CapturedRun(["completions", "fish"]).out.split(separator: "\n").map(String.init)
        for action in Self.actions {
            let names = [action.name] + action.aliases
            let bashCase = Self.bashCase(bash, action)
            #expect(!bashCase.isEmpty, "bash has no case for \(action.name)")
            let zshCase = zsh.first { $0.hasPrefix("        " + names.joined(separator: "|") + ") ") } ?? ""
            #expect(!zshCase.isEmpty, "zsh has no case for \(action.name)")
            let seen = "__fish_seen_subcommand_from \(names.joined(separator: " "))'"
            let fishLines = fish.filter { $0.hasPrefix("complete -c todo ") && $0.contains(seen) }
            for option in action.options {
                for name in option.names {
                    #expect(bashCase.contains(name), "bash \(action.name) lacks \(name)")
                    #expect(zshCase.contains("'\(name)'"), "zsh \(action.name) lacks \(name)")
                    let fishName = name.hasPrefix("--") ? "-l '\(name.dropFirst(2))'" : "-s '\(name.dropFirst())'"
                    #expect(fishLines.contains { $0.contains(fishName) }, "fish \(action.name) lacks \(name)")
                }
                if !option.values.isEmpty {
                    let words = option.values.joined(separator: " ")
                    #expect(bashCase.contains("compgen -W '\(words)'"), "bash \(action.name) \(option.usage) values")
                    #expect(zshCase.contains("compadd -- \(words)"), "zsh \(action.name) \(option.usage) values")
                    #expect(fishLines.contains { $0.contains("-x -a '\(words)'") }, "fish \(action.name) \(option.usage) values")
                }
            }
        }
    }

    @Test func theOptionsBeforeTheActionAgreeToo() {
        let help = CapturedRun(["--help"]).out
        let bash = CapturedRun(["completions", "bash"]).out
        let zsh = CapturedRun(["completions", "zsh"]).out
        let fish = CapturedRun(["completions", "fish"]).out
        let words = Set(CompletionsAction.globalWords.split(separator: " ").map(String.init))
        for option in GlobalOption.all where option.listed {
            for name in option.names {
                #expect(GlobalOption.named(name) != nil)
                #expect(help.contains(option.spelled(name)), "--help lacks \(name)")
                let word = name.hasPrefix("--") && !option.values.isEmpty ? name + "=" : name
                #expect(words.contains(word), "bash and zsh lack \(word)")
                #expect(bash.contains(CompletionsAction.globalWords) && zsh.contains("'\(word)'"), "\(word)")
                let fishName = name.hasPrefix("--") ? "-l '\(name.dropFirst(2))'" : "-s '\(name.dropFirst())'"
                #expect(fish.contains("-n '__fish_use_subcommand' ") && fish.contains(fishName), "fish lacks \(name)")
            }
        }
        // Each listed option works before an action (a flag) or takes its value.
        for option in GlobalOption.all where option.listed && option.names.allSatisfy({ !["-h", "--help", "-V", "--version"].contains($0) }) {
            let name = option.names[0]
            let words = option.value == nil ? [name] : [name, option.values.first ?? "/dev/null"]
            let run = CapturedRun(words + ["where"], environment: ["HOME": "/nonexistent"])
            #expect(run.status == 0, "todo \(words.joined(separator: " ")) where: \(run.err)")
        }
    }

    @Test func bashCompletesEveryActionsOptionsAndSortKeys() throws {
        guard FileManager.default.isExecutableFile(atPath: "/bin/bash") else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("agreement-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("todo.bash")
        try CapturedRun(["completions", "bash"]).out.write(to: script, atomically: true, encoding: .utf8)
        var queries = ["source '\(script.path)'", "program=false"]
        for action in Self.actions {
            queries.append("COMP_WORDS=(false \(action.name) -); COMP_CWORD=2; _todo_complete; echo \"\(action.name): ${COMPREPLY[*]}\"")
            for option in action.options where !option.values.isEmpty {
                queries.append("COMP_WORDS=(false \(action.name) \(option.names[0]) ''); COMP_CWORD=3; _todo_complete; echo \"\(action.name) \(option.names[0]): ${COMPREPLY[*]}\"")
            }
        }
        queries.append("COMP_WORDS=(false --); COMP_CWORD=1; _todo_complete; echo \"globals: ${COMPREPLY[*]}\"")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", queries.joined(separator: "\n")]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let lines = output.split(separator: "\n").map(String.init)
        func offered(_ key: String) -> Set<String> {
            let line = lines.first { $0.hasPrefix(key + ":") } ?? ""
            return Set(line.dropFirst(key.count + 1).split(separator: " ").map(String.init))
        }
        for action in Self.actions {
            let expected = Set(action.options.flatMap(\.names))
            #expect(offered(action.name) == expected, "todo \(action.name) -<Tab>")
            for option in action.options where !option.values.isEmpty {
                #expect(offered("\(action.name) \(option.names[0])") == Set(option.values), "todo \(action.name) \(option.names[0]) <Tab>")
            }
        }
        let longGlobals = Set(GlobalOption.completionWords.filter { $0.hasPrefix("--") })
        #expect(offered("globals") == longGlobals, "todo --<Tab>")
        #expect(longGlobals.isSuperset(of: ["--quiet", "--no-date", "--force", "--file", "--color="]))
    }
}
