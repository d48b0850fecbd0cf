import Foundation
import Testing

/// Runs every `Fixtures/transcripts/*.txt` against the built binary invoked as `todo.sh`.
///
/// Transcript format (one file = one fresh HOME and todo directory):
/// - `# …` comment; blank lines between blocks are ignored.
/// - `@config` … `@end`: lines appended to `$HOME/todo.cfg` (which starts as `export TODO_DIR="$DIR"`).
/// - `@file NAME` … `@end`: writes `$DIR/NAME` (each line gets a newline; `@file-noeol` omits the last).
/// - `@expect NAME` … `@end`: the file `$DIR/NAME` must hold exactly these lines.
/// - `@addon NAME` … `@end`: an executable script `$HOME/.todo.actions.d/NAME` (mode 755).
/// - `@stdin TEXT`: the next command's standard input (TEXT, no newline added; `\n` is a newline).
/// - `$ [VAR=value …] todo.sh ARGS…`: a command, split like a shell (quotes, backslashes); then its
///   expected stdout lines, stderr lines prefixed `! `, and `=== N` (the exit status) ending the block.
/// In expected output and arguments, `$DIR` is the todo directory, `$HOME` the home, and `^[` is ESC.
/// The clock is `TODO_TEST_TIME=1234567890` (2009-02-13T23:31:30) with `TZ=UTC`.
struct TodoShTranscriptTests {
    static let directory: String = {
        let here = URL(fileURLWithPath: #filePath)
        return here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/transcripts").path
    }()

    static var transcripts: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".txt") }.sorted()
    }

    @Test func transcriptsExist() {
        #expect(Self.transcripts.count >= 10)
    }

    @Test(arguments: transcripts)
    func transcript(_ name: String) throws {
        let text = try String(contentsOfFile: Self.directory + "/" + name, encoding: .utf8)
        let root = Spawn.makeTemporaryDirectory("todosh-transcript")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let home = root + "/home", data = root + "/data"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        func expand(_ line: String) -> String {
            line.replacingOccurrences(of: "$DIR", with: data).replacingOccurrences(of: "$HOME", with: home)
                .replacingOccurrences(of: "^[", with: "\u{1B}")
        }
        Files.write(home + "/todo.cfg", "export TODO_DIR=\"\(data)\"\n")

        let lines = text.components(separatedBy: "\n")
        var index = 0
        var stdin = ""
        var commands = 0
        func block() -> [String] {
            var body: [String] = []
            while index < lines.count, lines[index] != "@end" { body.append(lines[index]); index += 1 }
            index += 1
            return body
        }
        while index < lines.count {
            let line = lines[index]
            let location = "\(name):\(index + 1)"
            index += 1
            if line.isEmpty || line.hasPrefix("# ") || line == "#" { continue }
            if line == "@config" {
                let body = block().map(expand)
                let old = Files.text(home + "/todo.cfg")
                Files.write(home + "/todo.cfg", old + body.map { $0 + "\n" }.joined())
            } else if line.hasPrefix("@file ") || line.hasPrefix("@file-noeol ") {
                let noEOL = line.hasPrefix("@file-noeol ")
                let path = data + "/" + line.split(separator: " ", maxSplits: 1)[1]
                let body = block().map(expand)
                var content = body.map { $0 + "\n" }.joined()
                if noEOL, !content.isEmpty { content.removeLast() }
                Files.write(path, content)
            } else if line.hasPrefix("@addon ") {
                let directory = home + "/.todo.actions.d"
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                let path = directory + "/" + line.dropFirst("@addon ".count)
                Files.write(path, block().map { expand($0) + "\n" }.joined())
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
            } else if line.hasPrefix("@expect ") {
                let path = data + "/" + line.dropFirst("@expect ".count)
                let body = block().map(expand)
                #expect(Files.text(path) == body.map { $0 + "\n" }.joined(), "\(location): file \(path)")
            } else if line.hasPrefix("@stdin ") {
                stdin = String(line.dropFirst("@stdin ".count)).replacingOccurrences(of: "\\n", with: "\n")
            } else if line.hasPrefix("$ ") {
                var words = Self.shellWords(expand(String(line.dropFirst(2))))
                var environment = ["HOME": home, "TODO_TEST_TIME": "1234567890", "TZ": "UTC",
                                   "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                                   "LC_ALL": "C"]
                while let first = words.first, first.contains("="), !first.hasPrefix("todo.sh") {
                    let parts = first.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    environment[String(parts[0])] = String(parts[1])
                    words.removeFirst()
                }
                #expect(words.first == "todo.sh", "\(location): commands run todo.sh")
                var expectedOut = "", expectedErr = ""
                var status: Int32 = 0
                while index < lines.count {
                    let expected = lines[index]
                    index += 1
                    if expected.hasPrefix("=== ") { status = Int32(expected.dropFirst(4)) ?? -1; break }
                    if expected.hasPrefix("! ") {
                        expectedErr += expand(String(expected.dropFirst(2))) + "\n"
                    } else {
                        expectedOut += expand(expected) + "\n"
                    }
                }
                let result = Spawn.run([Spawn.todo] + words.dropFirst(), stdin: Array(stdin.utf8),
                                       environment: environment, argv0: "todo.sh")
                stdin = ""
                commands += 1
                #expect(result.out == expectedOut, "\(location): stdout of \(line)")
                #expect(result.err == expectedErr, "\(location): stderr of \(line)")
                #expect(result.status == status, "\(location): exit status of \(line)")
            } else {
                Issue.record("\(location): unrecognised transcript line: \(line)")
            }
        }
        #expect(commands > 0, "\(name) runs no command")
    }

    /// Shell-like word splitting for transcript commands: single quotes, `$'…'`, double quotes (with
    /// `\"`, `\\`, `\$`), backslash escapes.
    static func shellWords(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var iterator = Array(text)[...]
        while let character = iterator.popFirst() {
            switch character {
            case " ":
                if inWord { words.append(current); current = ""; inWord = false }
            case "$" where iterator.first == "'":
                // $'…' with \n, \t, \\ and \' escapes.
                inWord = true
                iterator.removeFirst()
                while let next = iterator.popFirst(), next != "'" {
                    if next == "\\", let escaped = iterator.popFirst() {
                        switch escaped {
                        case "n": current.append("\n")
                        case "t": current.append("\t")
                        case "r": current.append("\r")
                        default: current.append(escaped)
                        }
                    } else {
                        current.append(next)
                    }
                }
            case "'":
                inWord = true
                while let next = iterator.popFirst(), next != "'" { current.append(next) }
            case "\"":
                inWord = true
                while let next = iterator.popFirst(), next != "\"" {
                    if next == "\\", let escaped = iterator.first, "\"\\$`".contains(escaped) {
                        current.append(escaped)
                        iterator.removeFirst()
                    } else {
                        current.append(next)
                    }
                }
            case "\\":
                inWord = true
                if let next = iterator.popFirst() { current.append(next) }
            default:
                inWord = true
                current.append(character)
            }
        }
        if inWord { words.append(current) }
        return words
    }
}
