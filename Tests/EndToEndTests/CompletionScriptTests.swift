import TodoTestSupport
import XCTest

/// The completion scripts load in real shells and complete actions and projects (docs/todo-command.md).
final class CompletionScriptTests: XCTestCase {
    private var environment: [String: String] {
        let home = Spawn.makeTemporaryDirectory("completion-home")
        Files.write(home + "/todo.txt", "call mom +family @phone\nfix bike +garage\n")
        let path = Spawn.productsDirectory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return ["HOME": home, "PATH": path, "TODO_FILE": "", "TODO_DIR": ""]
    }

    private func shellAvailable(_ name: String) -> Bool {
        ["/bin/", "/usr/bin/", "/usr/local/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + name) }
    }

    func testBashCompletesActionsOptionsAndProjects() throws {
        try XCTSkipUnless(shellAvailable("bash"), "bash is not installed")
        let script = """
            set -e
            source <(todo completions bash)
            COMP_WORDS=(todo ar); COMP_CWORD=1; _todo_complete; echo "actions: ${COMPREPLY[*]}"
            COMP_WORDS=(todo sort --d); COMP_CWORD=2; _todo_complete; echo "options: ${COMPREPLY[*]}"
            COMP_WORDS=(todo add +f); COMP_CWORD=2; _todo_complete; echo "projects: ${COMPREPLY[*]}"
            COMP_WORDS=(todo ls @); COMP_CWORD=2; _todo_complete; echo "contexts: ${COMPREPLY[*]}"
            """
        let result = Spawn.run(["bash", "-c", script], environment: environment)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.err, "")
        XCTAssertEqual(result.out, "actions: archive\noptions: --dry-run\nprojects: +family\ncontexts: @phone\n")
    }

    /// `todo --<Tab>` offers every long option `--help` lists, `todo sort --by <Tab>` the sort keys
    /// (not file names), and add-on actions complete like built-ins.
    func testBashCompletesGlobalOptionsSortKeysAndAddons() throws {
        try XCTSkipUnless(shellAvailable("bash"), "bash is not installed")
        var environment = self.environment
        let home = environment["HOME"] ?? ""
        try FileManager.default.createDirectory(atPath: home + "/.todo.actions.d", withIntermediateDirectories: true)
        let addon = home + "/.todo.actions.d/greet"
        Files.write(addon, "#!/bin/sh\necho hello\n")
        XCTAssertEqual(chmod(addon, 0o755), 0)
        environment["TODO_ACTIONS_DIR"] = ""
        let script = """
            set -e
            source <(todo completions bash)
            COMP_WORDS=(todo --); COMP_CWORD=1; _todo_complete; echo "globals: ${COMPREPLY[*]}"
            COMP_WORDS=(todo sort --by ''); COMP_CWORD=3; _todo_complete; echo "keys: ${COMPREPLY[*]}"
            COMP_WORDS=(todo gr); COMP_CWORD=1; _todo_complete; echo "addons: ${COMPREPLY[*]}"
            COMP_WORDS=(todo del -); COMP_CWORD=2; _todo_complete; echo "del: ${COMPREPLY[*]}"
            """
        let result = Spawn.run(["bash", "-c", script], environment: environment)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.err, "")
        XCTAssertEqual(result.out, """
            globals: --file --quiet --all --color= --no-date --force --help --version
            keys: priority due threshold created text
            addons: greet
            del: --force

            """)
    }

    func testZshLoadsTheScriptWithoutErrors() throws {
        try XCTSkipUnless(shellAvailable("zsh"), "zsh is not installed")
        let script = "autoload -Uz compinit && compinit -u -D; source <(todo completions zsh); whence -w _todo"
        let result = Spawn.run(["zsh", "-f", "-c", script], environment: environment)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.err, "")
        XCTAssertTrue(result.out.contains("_todo: function"), result.out)
    }

    func testFishCompletesActionsAndProjects() throws {
        try XCTSkipUnless(shellAvailable("fish"), "fish is not installed")
        let script = "todo completions fish | source; complete -C 'todo ar'; complete -C 'todo add +f'"
        let result = Spawn.run(["fish", "--no-config", "-c", script], environment: environment)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.err, "")
        XCTAssertTrue(result.out.contains("archive"), result.out)
        XCTAssertTrue(result.out.contains("+family"), result.out)
    }
}
