import Foundation
import TodoTestSupport
import XCTest

/// `scripts/install.sh` into a temporary prefix, then everything a user would try with what it
/// installed: both names, the manual, and each shell's completion loaded from the installed files
/// (bash always; zsh and fish where present). The test installs the debug binary under test
/// (`TODO_INSTALL_BINARY`) instead of building a release one.
final class InstallTests: XCTestCase {
    /// The repository: three levels above this file.
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    private var prefix = ""
    private var home = ""
    private var environment: [String: String] = [:]

    override func setUpWithError() throws {
        prefix = Spawn.makeTemporaryDirectory("install-prefix")
        home = Spawn.makeTemporaryDirectory("install-home")
        Files.write(home + "/todo.txt", "call mom +family @phone uid:k3f9qz\nfix bike +garage\nx 2026-01-02 paid rent uid:r7p4cd\n")
        environment = ["HOME": home, "PATH": prefix + "/bin:/usr/local/bin:/usr/bin:/bin", "TODO_FILE": home + "/todo.txt",
                       "TODO_INSTALL_BINARY": Spawn.todo, "LC_ALL": "C.UTF-8"]
        let install = Spawn.run([Self.repository + "/scripts/install.sh", prefix], environment: environment)
        XCTAssertEqual(install.status, 0, install.err)
    }

    private func run(_ argv: [String]) -> ProcessResult { Spawn.run(argv, environment: environment) }

    private func shellAvailable(_ name: String) -> Bool {
        ["/bin/", "/usr/bin/", "/usr/local/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + name) }
    }

    func testBothNamesRunFromThePrefix() throws {
        let added = run([prefix + "/bin/todo", "add", "water plants"])
        XCTAssertEqual(added.status, 0, added.err)
        XCTAssertTrue(run([prefix + "/bin/todo", "ls", "water"]).out.contains("water plants"))
        // todo.sh, as todo.txt-cli: it needs its config.
        try FileManager.default.createDirectory(atPath: home + "/.todo", withIntermediateDirectories: true)
        Files.write(home + "/.todo/config", "export TODO_DIR=\"\(home)\"\n")
        let listed = Spawn.run([prefix + "/bin/todo.sh", "ls", "bike"],
                               environment: environment.merging(["TODO_FILE": ""]) { _, new in new })
        XCTAssertEqual(listed.status, 0, listed.err)
        XCTAssertTrue(listed.out.contains("fix bike +garage"), listed.out)
    }

    func testTheManualRendersWithoutWarnings() throws {
        try XCTSkipUnless(shellAvailable("man"), "man is not installed")
        let page = prefix + "/share/man/man1/todo.1"
        let rendered = run(["man", "--warnings=w", "-E", "UTF-8", "-l", page])
        XCTAssertEqual(rendered.status, 0, rendered.err)
        XCTAssertEqual(rendered.err, "", "man warns about the page")
        for heading in ["SYNOPSIS", "ACTIONS: TASKS", "OPTIONS", "FILES", "ENVIRONMENT", "EXIT STATUS", "EXAMPLES"] {
            XCTAssertTrue(rendered.out.contains(heading), "no \(heading)")
        }
        for action in ["add", "sort", "merge", "reconcile", "where"] {
            XCTAssertTrue(rendered.out.contains("       \(action)"), "no \(action) in the manual")
        }
        // `man todo.sh` finds the same page.
        let found = Spawn.run(["man", "-w", "todo.sh"], environment: environment.merging(["MANPATH": prefix + "/share/man"]) { _, new in new })
        XCTAssertEqual(found.out.trimmingCharacters(in: .whitespacesAndNewlines), page, found.err)
    }

    func testBashCompletesUIDsHelpAndFilesFromTheInstalledScript() throws {
        let script = """
            set -e
            source \(prefix)/share/bash-completion/completions/todo.sh
            COMP_WORDS=(todo do k); COMP_CWORD=2; _todo_complete; echo "uid: ${COMPREPLY[*]}"
            COMP_WORDS=(todo do ''); COMP_CWORD=2; _todo_complete; echo "all: ${COMPREPLY[*]}"
            COMP_WORDS=(todo append k3f9qz ''); COMP_CWORD=3; _todo_complete; echo "text: ${COMPREPLY[*]}"
            COMP_WORDS=(todo help rec); COMP_CWORD=2; _todo_complete; echo "help: ${COMPREPLY[*]}"
            COMP_WORDS=(todo -f \(home)/to); COMP_CWORD=2; _todo_complete; echo "file: ${COMPREPLY[*]}"
            COMP_WORDS=(todo.sh arc); COMP_CWORD=1; _todo_complete; echo "todo.sh: ${COMPREPLY[*]}"
            """
        let result = run(["bash", "-c", script])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.err, "")
        XCTAssertEqual(result.out, """
            uid: k3f9qz
            all: k3f9qz 2 r7p4cd
            text: \("")
            help: reconcile
            file: \(home)/todo.txt
            todo.sh: archive

            """)
    }

    func testZshCompletesUIDsHelpAndFilesFromTheInstalledScript() throws {
        try XCTSkipUnless(shellAvailable("zsh"), "zsh is not installed")
        // The completion system's builtins replaced by ones that print what they were given, so the
        // script's own logic is what is checked.
        let script = """
            fpath=(\(prefix)/share/zsh/site-functions $fpath)
            autoload -Uz compinit && compinit -u -D
            whence -w _todo
            _describe() { local name=${@[-1]}; print -l -- "${(@P)name}" }
            compadd() { print -l -- "$@" }
            _files() { print FILES }
            autoload -Uz +X _todo
            words=(todo do ''); CURRENT=3; _todo
            words=(todo help rec); CURRENT=3; _todo | grep '^reconcile:'
            words=(todo -f ''); CURRENT=3; _todo
            words=(todo.sh append k3f9qz ''); CURRENT=4; _todo
            true  # (no match is status 1 for a completion function)
            """
        let result = run(["zsh", "-f", "-c", script])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.out, """
            _todo: function
            k3f9qz:call mom +family @phone uid:k3f9qz
            2:fix bike +garage
            r7p4cd:x 2026-01-02 paid rent uid:r7p4cd
            reconcile:Merge sync-conflict copies (Dropbox, Syncthing, Nextcloud, Seafile, ...) back into the file.
            FILES

            """)
    }

    func testFishCompletesUIDsHelpAndFilesFromTheInstalledScript() throws {
        try XCTSkipUnless(shellAvailable("fish"), "fish is not installed")
        // todo.sh completes from the file its config names.
        try FileManager.default.createDirectory(atPath: home + "/.todo", withIntermediateDirectories: true)
        Files.write(home + "/.todo/config", "export TODO_DIR=\"\(home)\"\n")
        let script = """
            source \(prefix)/share/fish/vendor_completions.d/todo.sh.fish
            echo '-- do'; complete -C 'todo do k'
            echo '-- append'; complete -C 'todo append k3f9qz '
            echo '-- help'; complete -C 'todo help rec'
            echo '-- file'; complete -C 'todo -f \(home)/to'
            echo '-- todo.sh'; complete -C 'todo.sh do r'
            """
        let result = run(["fish", "--no-config", "-c", script])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.err, "")
        XCTAssertEqual(result.out, """
            -- do
            k3f9qz\tcall mom +family @phone uid:k3f9qz
            -- append
            -- help
            reconcile
            -- file
            \(home)/todo.txt
            -- todo.sh
            r7p4cd\tx 2026-01-02 paid rent uid:r7p4cd

            """)
    }

    func testUninstallRemovesEverythingItInstalled() throws {
        let removed = run([Self.repository + "/scripts/install.sh", "--uninstall", prefix])
        XCTAssertEqual(removed.status, 0, removed.err)
        let left = FileManager.default.enumerator(atPath: prefix)?.compactMap { entry -> String? in
            guard let name = entry as? String else { return nil }
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: prefix + "/" + name, isDirectory: &isDirectory)
            return isDirectory.boolValue ? nil : name
        } ?? []
        XCTAssertEqual(left, [], "left behind")
    }
}
