import Foundation
import Testing
import TodoTestSupport
@testable import TodoCLI
@testable import TodoFileSystem

/// When `todo sync` may start its fetch before reading git's configuration (docs/sync.md section 3,
/// "Speed"): only when no configuration git reads can set `core.sshCommand`.
struct SyncEarlyFetchTests {
    /// A home and a git directory with the given configuration files (paths relative to the root).
    func world(_ files: [String: String]) throws -> (TemporaryDirectory, environment: [String: String], gitDirectory: String) {
        let root = TemporaryDirectory("todo-early-fetch")
        for (name, text) in files {
            let path = root.file(name)
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        try FileManager.default.createDirectory(atPath: root.file("repo/.git"), withIntermediateDirectories: true)
        let environment = ["HOME": root.file("home"), "GIT_CONFIG_NOSYSTEM": "1"]
        return (root, environment, root.file("repo/.git"))
    }

    func mayMention(_ files: [String: String], extra: [String: String] = [:]) throws -> Bool {
        let (root, environment, gitDirectory) = try world(files)
        defer { _ = root }
        return EarlyFetch.mayMention(EarlyFetch.words, environment: environment.merging(extra) { $1 }, gitDirectory: gitDirectory,
                                     FileSystem())
    }

    @Test func plainConfigurationsAllowTheEarlyFetch() throws {
        #expect(try !mayMention([:]))
        #expect(try !mayMention(["home/.gitconfig": "[user]\n\tname = Someone\n",
                                 "repo/.git/config": "[remote \"origin\"]\n\turl = git@example.com:me/todo.git\n"]))
    }

    @Test(arguments: ["home/.gitconfig", "home/.config/git/config", "repo/.git/config", "repo/.git/config.worktree"])
    func anSSHCommandOrAnIncludeAnywhereStopsIt(file: String) throws {
        #expect(try mayMention([file: "[core]\n\tSSHCommand = ssh -i ~/.ssh/todo\n"]))
        #expect(try mayMention([file: "[includeIf \"gitdir:~/todo/\"]\n\tpath = todo.inc\n"]))
        #expect(try mayMention([file: "[Include]\n\tpath = other\n"]))
    }

    @Test func theEnvironmentsConfigurationCounts() throws {
        #expect(try !mayMention([:], extra: ["GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "gc.auto", "GIT_CONFIG_VALUE_0": "0"]))
        #expect(try mayMention([:], extra: ["GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "core.sshCommand", "GIT_CONFIG_VALUE_0": "x"]))
        #expect(try mayMention([:], extra: ["GIT_CONFIG_PARAMETERS": "'core.sshcommand'='ssh -v'"]))
        // A global file named by the environment replaces the home's ones.
        #expect(try !mayMention(["home/.gitconfig": "[core]\nsshCommand = x\n"], extra: ["GIT_CONFIG_GLOBAL": "/nonexistent/gitconfig"]))
    }

    @Test func theSystemFileIsReadUnlessTurnedOff() throws {
        let (root, environment, gitDirectory) = try world(["system": "[core]\n\tsshCommand = x\n"])
        var withSystem = environment
        withSystem["GIT_CONFIG_NOSYSTEM"] = nil
        withSystem["GIT_CONFIG_SYSTEM"] = root.file("system")
        #expect(EarlyFetch.mayMention(EarlyFetch.words, environment: withSystem, gitDirectory: gitDirectory, FileSystem()))
        withSystem["GIT_CONFIG_NOSYSTEM"] = "true"
        #expect(!EarlyFetch.mayMention(EarlyFetch.words, environment: withSystem, gitDirectory: gitDirectory, FileSystem()))
        withSystem["GIT_CONFIG_NOSYSTEM"] = "0"
        #expect(EarlyFetch.mayMention(EarlyFetch.words, environment: withSystem, gitDirectory: gitDirectory, FileSystem()))
    }

    @Test func anUnreadableFileCountsAsMentioningThem() throws {
        let (root, environment, gitDirectory) = try world(["home/.gitconfig": "[user]\n"])
        let directory = root.file("home/.gitconfig")
        try FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        #expect(EarlyFetch.mayMention(EarlyFetch.words, environment: environment, gitDirectory: gitDirectory, FileSystem()))
    }

    @Test func aRelativeXDGConfigHomeCannotBeToldFromHere() throws {
        #expect(try mayMention([:], extra: ["XDG_CONFIG_HOME": "config"]))
        #expect(try !mayMention([:], extra: ["XDG_CONFIG_HOME": ""]))
    }

    @Test func gitsBooleans() {
        for value in ["1", "true", "YES", "On", "2"] { #expect(EarlyFetch.isTrue(value), "\(value)") }
        for value in [nil, "", "0", "false", "no", "off", "maybe"] { #expect(!EarlyFetch.isTrue(value), "\(String(describing: value))") }
    }

    @Test func theWordsAreFoundInAnyLetterCaseOnly() {
        #expect(EarlyFetch.holdsAny(EarlyFetch.words, Array("x\n\tsShCoMmAnD=1".utf8)))
        #expect(!EarlyFetch.holdsAny(EarlyFetch.words, Array("sshcomman".utf8)))
        #expect(!EarlyFetch.holdsAny(EarlyFetch.words, Array("".utf8)))
        #expect(EarlyFetch.holdsAny(EarlyFetch.words, Array("INCLUDE".utf8)))
    }
}
