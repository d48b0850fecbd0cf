import Foundation
import TodoTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a transcript: a text file that sets up files, runs the built binary under one name
/// (`todo.sh` or `todo`) and states the exact output, exit status and resulting files.
///
/// One transcript file = one fresh HOME (`$HOME`) and one fresh, empty todo directory (`$DIR`). Every
/// `NAME` below is relative to `$DIR`. Directives are read line by line:
///
/// Always available (both runners):
/// - `# …` or a lone `#`: a comment. Blank lines between blocks are ignored.
/// - `@config` … `@end`: the block goes into `$HOME/todo.cfg`. With an initial config (the todo.sh
///   runner: `export TODO_DIR="$DIR"`) the lines are appended to it; without one (the todo runner)
///   no `todo.cfg` exists until an `@config`, and each `@config` writes the file fresh with exactly
///   its block.
/// - `@file NAME` … `@end`: writes `$DIR/NAME`, every line followed by LF.
/// - `@file-noeol NAME` … `@end`: the same without a newline after the last line.
/// - `@expect NAME` … `@end`: `$DIR/NAME` must hold exactly these lines, each followed by LF
///   (compared as bytes).
/// - `@addon NAME` … `@end`: an executable script `$HOME/.todo.actions.d/NAME` (mode 755).
/// - `@stdin TEXT`: the next command's standard input (TEXT, no newline added; `\n` is a newline).
/// - `$ [VAR=value …] PROGRAM ARGS…`: a command. PROGRAM is the runner's name (`todo.sh` or `todo`)
///   and becomes argv[0]; the line is split like a shell (single and double quotes, `$'…'`,
///   backslashes). `VAR=value` words before PROGRAM override the base environment for this command
///   (`VAR=` sets it empty). The lines after it are the expected output: plain lines are stdout,
///   lines starting `! ` are stderr (the prefix removed), and `=== N` ends the block with the exit
///   status N. Inside the block every line is output (blank lines, `#` and `@` lines included).
///   Output is compared as bytes.
/// - Expansion: `$DIR` (the todo directory) and `$HOME` (the home), plus the runner's escape tokens
///   below, are replaced in the `$` line (before it is split into words), in every block body
///   (`@config`, `@file…`, `@addon`, `@expect…`), in expected output, and in directive NAMEs and
///   `@symlink`'s TARGET. `@stdin` text only turns `\n` into a newline (and, with `controlTokens`,
///   is expanded too). NAMEs are plain relative paths without spaces.
///
/// Extras, each enabled per runner (`Transcript.Extras`):
/// - `caretEscape` (todo.sh runner): `^[` stands for ESC wherever `$DIR`/`$HOME` are expanded.
/// - `controlTokens` (todo runner): `{ESC}` (0x1B), `{BEL}` (0x07), `{CR}` (0x0D), `{TAB}` (0x09) and
///   `{NUL}` (0x00) are expanded wherever `$DIR`/`$HOME` are, and in `@stdin` text too. (An
///   argument cannot hold NUL: a command whose arguments would is reported, not run.)
/// - `fileVariants` (todo runner): `@file-crlf NAME` … `@end` (every line ends CR LF) and
///   `@file-bom NAME` … `@end` (a UTF-8 BOM, then LF lines). File bodies are written as raw bytes.
/// - `expectVariants` (todo runner): `@expect-noeol NAME` (no newline after the last line),
///   `@expect-crlf NAME` (CR LF after every line), `@expect-bom NAME` (a UTF-8 BOM, then LF lines),
///   each … `@end`; and the one-line `@expect-missing NAME` (nothing, not even a dangling symlink,
///   exists at `$DIR/NAME`). With this extra, every `@expect…` also requires the file to exist
///   (without it, as in the todo.sh runner, a missing file reads as empty).
/// - `untouched` (todo runner): the one-line `@untouched NAME`: `$DIR/NAME` has exactly the bytes,
///   inode and modification time (to the nanosecond) it had just before the most recent `$` command
///   ran, i.e. that command did not write it. Before every command the runner records stat and
///   bytes of every regular file under `$DIR` (symlinks followed to regular files, symlinked
///   directories not entered); NAME must have been one of them.
/// - `filesystem` (todo runner), one-line directives: `@mkdir NAME` (a directory, parents created as
///   needed), `@chmod MODE NAME` (MODE in octal, e.g. `444`), `@symlink TARGET NAME` (`$DIR/NAME`
///   becomes a symlink whose content is TARGET as written, after token expansion; a relative TARGET
///   resolves from NAME's directory).
/// - `uidWildcard` (todo runner): in expected text only (command output and `@expect…` bodies),
///   `{UID}` matches exactly six characters of `[0-9a-z]`.
///
/// A failure is reported at `file:line` of the transcript (the line of the directive or command),
/// showing expected and actual text with control characters written as the runner's tokens. A line
/// the parser does not understand, a block without `@end`, a command without `=== N` and a
/// transcript without any command fail too (a transcript that does not parse is not run). `$DIR` and
/// `$HOME` are canonical paths (symlinks resolved, no `//`).
struct Transcript {
    /// The directories of one transcript run.
    struct Paths: Sendable {
        let root: String
        let home: String
        /// `$DIR`, the todo directory.
        let data: String
    }

    /// The directives and tokens beyond the common set (see the type's documentation).
    struct Extras: OptionSet, Sendable {
        let rawValue: Int
        static let caretEscape = Extras(rawValue: 1 << 0)
        static let controlTokens = Extras(rawValue: 1 << 1)
        static let fileVariants = Extras(rawValue: 1 << 2)
        static let expectVariants = Extras(rawValue: 1 << 3)
        static let untouched = Extras(rawValue: 1 << 4)
        static let filesystem = Extras(rawValue: 1 << 5)
        static let uidWildcard = Extras(rawValue: 1 << 6)
        /// Everything the `todo` runner uses.
        static let todo: Extras = [.controlTokens, .fileVariants, .expectVariants, .untouched, .filesystem,
                                   .uidWildcard]
    }

    /// How to run a directory of transcripts.
    struct Configuration: Sendable {
        /// argv[0] of every command, and the word commands must name (`todo.sh` or `todo`).
        var programName: String
        /// The directory holding the `*.txt` transcripts.
        var fixtureDirectory: String
        /// The base environment of every command (before the command's own `VAR=value` words).
        var environment: @Sendable (Paths) -> [String: String]
        /// The initial `$HOME/todo.cfg`, or nil for none (then `@config` writes the file fresh).
        var initialConfig: (@Sendable (Paths) -> String)?
        /// Which extra directives and tokens are understood.
        var extras: Extras
    }

    /// `Fixtures/<name>` of this package.
    static func fixtureDirectory(_ name: String) -> String {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures").appendingPathComponent(name).path
    }

    /// The `*.txt` file names of `directory`, sorted.
    static func names(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".txt") }.sorted()
    }

    // MARK: - Parsing

    enum FileForm: Sendable { case lf, noEOL, crlf, bom }

    struct Command: Sendable {
        /// The command line after `$ `, unexpanded.
        let text: String
        var stdout: [String] = []
        var stderr: [String] = []
        var status: Int32 = 0
    }

    enum Directive: Sendable {
        case config([String])
        case file(String, FileForm, [String])
        case addon(String, [String])
        case expect(String, FileForm, [String])
        case expectMissing(String)
        case untouched(String)
        case mkdir(String)
        case chmod(mode_t, String)
        case symlink(target: String, name: String)
        case stdin(String)
        case command(Command)
    }

    struct Step: Sendable {
        let line: Int
        let directive: Directive
    }

    /// A problem found while parsing or running, at a transcript line.
    struct Problem: Sendable {
        let line: Int
        let message: String
    }

    /// The steps of a transcript, and the lines it could not read.
    static func parse(_ text: String, _ configuration: Configuration) -> (steps: [Step], problems: [Problem]) {
        let extras = configuration.extras
        let lines = text.components(separatedBy: "\n")
        var steps: [Step] = []
        var problems: [Problem] = []
        var index = 0
        func block(from start: Int) -> [String] {
            var body: [String] = []
            while index < lines.count, lines[index] != "@end" { body.append(lines[index]); index += 1 }
            if index >= lines.count { problems.append(Problem(line: start, message: "no @end for this block")) }
            index += 1
            return body
        }
        func argument(_ line: String, _ directive: String) -> String? {
            guard line.hasPrefix(directive + " ") else { return nil }
            let rest = String(line.dropFirst(directive.count + 1))
            return rest.isEmpty ? nil : rest
        }
        let fileForms: [(String, FileForm)] = [("@file", .lf), ("@file-noeol", .noEOL)]
            + (extras.contains(.fileVariants) ? [("@file-crlf", .crlf), ("@file-bom", .bom)] : [])
        let expectForms: [(String, FileForm)] = [("@expect", .lf)]
            + (extras.contains(.expectVariants) ? [("@expect-noeol", .noEOL), ("@expect-crlf", .crlf), ("@expect-bom", .bom)] : [])

        lineLoop: while index < lines.count {
            let line = lines[index]
            let number = index + 1
            index += 1
            if line.isEmpty || line.hasPrefix("# ") || line == "#" { continue }
            func add(_ directive: Directive) { steps.append(Step(line: number, directive: directive)) }
            if line == "@config" {
                add(.config(block(from: number)))
                continue
            }
            for (word, form) in fileForms {
                if let name = argument(line, word) { add(.file(name, form, block(from: number))); continue lineLoop }
            }
            for (word, form) in expectForms {
                if let name = argument(line, word) { add(.expect(name, form, block(from: number))); continue lineLoop }
            }
            if let name = argument(line, "@addon") {
                add(.addon(name, block(from: number)))
            } else if line.hasPrefix("@stdin ") {
                add(.stdin(String(line.dropFirst("@stdin ".count))))
            } else if extras.contains(.expectVariants), let name = argument(line, "@expect-missing") {
                add(.expectMissing(name))
            } else if extras.contains(.untouched), let name = argument(line, "@untouched") {
                add(.untouched(name))
            } else if extras.contains(.filesystem), let name = argument(line, "@mkdir") {
                add(.mkdir(name))
            } else if extras.contains(.filesystem), let rest = argument(line, "@chmod") {
                let parts = rest.split(separator: " ", maxSplits: 1).map(String.init)
                if parts.count == 2, let mode = mode_t(parts[0], radix: 8) {
                    add(.chmod(mode, parts[1]))
                } else {
                    problems.append(Problem(line: number, message: "expected `@chmod MODE NAME` (MODE in octal): \(line)"))
                }
            } else if extras.contains(.filesystem), let rest = argument(line, "@symlink") {
                let parts = rest.split(separator: " ", maxSplits: 1).map(String.init)
                if parts.count == 2 {
                    add(.symlink(target: parts[0], name: parts[1]))
                } else {
                    problems.append(Problem(line: number, message: "expected `@symlink TARGET NAME`: \(line)"))
                }
            } else if line.hasPrefix("$ ") {
                var command = Command(text: String(line.dropFirst(2)))
                let (_, words) = splitAssignments(shellWords(command.text))
                if words.first != configuration.programName {
                    problems.append(Problem(line: number, message: "commands run \(configuration.programName): \(line)"))
                }
                var ended = false
                while index < lines.count {
                    let expected = lines[index]
                    index += 1
                    if expected.hasPrefix("=== ") {
                        if let status = Int32(expected.dropFirst(4)) {
                            command.status = status
                        } else {
                            problems.append(Problem(line: index, message: "`=== N` needs a number: \(expected)"))
                            command.status = -1
                        }
                        ended = true
                        break
                    }
                    if expected.hasPrefix("! ") {
                        command.stderr.append(String(expected.dropFirst(2)))
                    } else {
                        command.stdout.append(expected)
                    }
                }
                if !ended { problems.append(Problem(line: number, message: "no `=== N` line ends this command's output")) }
                add(.command(command))
            } else {
                problems.append(Problem(line: number, message: "unrecognised transcript line: \(line)"))
            }
        }
        return (steps, problems)
    }

    /// How many commands the transcript `name` of the configuration's directory runs.
    static func commandCount(_ name: String, _ configuration: Configuration) -> Int {
        guard let text = try? String(contentsOfFile: configuration.fixtureDirectory + "/" + name, encoding: .utf8) else {
            return 0
        }
        return parse(text, configuration).steps.filter {
            if case .command = $0.directive { return true } else { return false }
        }.count
    }

    /// Leading `VAR=value` words (VAR a shell name) and the rest.
    static func splitAssignments(_ words: [String]) -> (assignments: [(String, String)], rest: [String]) {
        var rest = words[...]
        var assignments: [(String, String)] = []
        while let first = rest.first, let equals = first.firstIndex(of: "="), isName(first[..<equals]) {
            assignments.append((String(first[..<equals]), String(first[first.index(after: equals)...])))
            rest.removeFirst()
        }
        return (assignments, Array(rest))
    }

    private static func isName(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || (first.isASCII && first.properties.isAlphabetic) else {
            return false
        }
        return text.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
    }

    // MARK: - Running

    /// Runs every transcript of `configuration`, one after another. Each failure is located at its
    /// transcript's line and its message starts with the transcript's name (`NAME:LINE: …`, or
    /// `NAME: ERROR` when the transcript could not be run at all); one that fails does not stop
    /// the others.
    static func runEvery(_ configuration: Configuration, in testCase: XCTestCase) {
        for name in names(in: configuration.fixtureDirectory) {
            do {
                try run(name, configuration, in: testCase)
            } catch {
                XCTFail("\(name): \(error)")
            }
        }
    }

    /// Runs the transcript `name` of the configuration's directory, recording a failure of
    /// `testCase` for every difference (at the transcript's `file:line`).
    static func run(_ name: String, _ configuration: Configuration, in testCase: XCTestCase) throws {
        let path = configuration.fixtureDirectory + "/" + name
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var runner = try Runner(name: name, path: path, configuration: configuration, testCase: testCase)
        defer { runner.cleanUp() }
        let (steps, problems) = parse(text, configuration)
        for problem in problems { runner.fail(problem.message, at: problem.line) }
        guard problems.isEmpty else { return }
        var commands = 0
        for step in steps {
            if case .command = step.directive { commands += 1 }
            try runner.perform(step)
        }
        if commands == 0 { runner.fail("\(name) runs no command", at: 1) }
    }

    /// The bytes and identity of a regular file before a command.
    struct FileState: Equatable {
        let inode: UInt64
        let seconds: Int
        let nanoseconds: Int
        let bytes: [UInt8]
    }

    /// The state of one transcript run.
    private struct Runner {
        let name: String
        let path: String
        let configuration: Configuration
        /// The test whose failures the differences are.
        let testCase: XCTestCase
        let paths: Paths
        var stdin: [UInt8] = []
        /// Regular files under `$DIR` just before the most recent command (nil: no command yet).
        var before: [String: FileState]?
        var changedModes: [String] = []

        init(name: String, path: String, configuration: Configuration, testCase: XCTestCase) throws {
            self.name = name
            self.path = path
            self.configuration = configuration
            self.testCase = testCase
            // Canonical (no `//`, no symlinked /tmp), as the program prints some paths resolved.
            let made = Spawn.makeTemporaryDirectory("transcript")
            let root = realpath(made, nil).map { resolved in
                defer { free(resolved) }
                return String(cString: resolved)
            } ?? made
            paths = Paths(root: root, home: root + "/home", data: root + "/data")
            try FileManager.default.createDirectory(atPath: paths.home, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: paths.data, withIntermediateDirectories: true)
            if let initial = configuration.initialConfig {
                Files.write(paths.home + "/todo.cfg", initial(paths))
            }
        }

        func cleanUp() {
            for path in changedModes { chmod(path, 0o700) }
            try? FileManager.default.removeItem(atPath: paths.root)
        }

        var extras: Extras { configuration.extras }

        func fail(_ message: String, at line: Int) {
            Transcript.recordFailure("\(name):\(line): \(message)", file: path, line: max(line, 1), of: testCase)
        }

        /// `$DIR`, `$HOME` and the runner's escape tokens replaced.
        func expand(_ text: String) -> String {
            var text = text.replacingOccurrences(of: "$DIR", with: paths.data).replacingOccurrences(of: "$HOME", with: paths.home)
            if extras.contains(.caretEscape) { text = text.replacingOccurrences(of: "^[", with: "\u{1B}") }
            if extras.contains(.controlTokens) {
                for (token, value) in Transcript.controlTokens { text = text.replacingOccurrences(of: token, with: value) }
            }
            return text
        }

        /// The bytes of a file body or an expectation in `form`.
        func bytes(_ lines: [String], _ form: FileForm) -> [UInt8] {
            let body = lines.map(expand)
            switch form {
            case .lf: return Array(body.map { $0 + "\n" }.joined().utf8)
            case .noEOL: return Array(body.joined(separator: "\n").utf8)
            case .crlf: return Array(body.map { $0 + "\r\n" }.joined().utf8)
            case .bom: return [0xEF, 0xBB, 0xBF] + Array(body.map { $0 + "\n" }.joined().utf8)
            }
        }

        func dataPath(_ name: String) -> String { paths.data + "/" + expand(name) }

        mutating func perform(_ step: Step) throws {
            let line = step.line
            switch step.directive {
            case .config(let body):
                let text = body.map { expand($0) + "\n" }.joined()
                let path = paths.home + "/todo.cfg"
                Files.write(path, (configuration.initialConfig == nil ? "" : Files.text(path)) + text)
            case .file(let name, let form, let body):
                if !FileManager.default.createFile(atPath: dataPath(name), contents: Data(bytes(body, form))) {
                    fail("could not write \(dataPath(name))", at: line)
                }
            case .addon(let name, let body):
                let directory = paths.home + "/.todo.actions.d"
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                let path = directory + "/" + name
                Files.writeExecutable(path, body.map { expand($0) + "\n" }.joined())
            case .expect(let name, let form, let body):
                let path = dataPath(name)
                let expected = bytes(body, form)
                guard let actual = FileManager.default.contents(atPath: path).map({ [UInt8]($0) }) else {
                    if extras.contains(.expectVariants) || !expected.isEmpty {
                        fail("file \(name) does not exist; expected:\n\(render(expected))", at: line)
                    }
                    return
                }
                if !matches(actual, expected) {
                    fail("file \(name) differs\nexpected:\n\(render(expected))\nactual:\n\(render(actual))", at: line)
                }
            case .expectMissing(let name):
                var status = stat()
                if lstat(dataPath(name), &status) == 0 {
                    fail("file \(name) exists but should not:\n\(render(Files.read(dataPath(name))))", at: line)
                }
            case .untouched(let name):
                guard let before else { fail("@untouched \(name): no command has run yet", at: line); return }
                guard let old = before[expand(name)] else {
                    fail("@untouched \(name): it was not a regular file before the last command", at: line)
                    return
                }
                guard let new = Transcript.state(of: dataPath(name)) else {
                    fail("@untouched \(name): it is no longer a regular file", at: line)
                    return
                }
                var differences: [String] = []
                if new.inode != old.inode { differences.append("inode \(old.inode) → \(new.inode)") }
                if (new.seconds, new.nanoseconds) != (old.seconds, old.nanoseconds) {
                    differences.append("mtime \(old.seconds).\(old.nanoseconds) → \(new.seconds).\(new.nanoseconds)")
                }
                if new.bytes != old.bytes {
                    differences.append("bytes changed\nbefore:\n\(render(old.bytes))\nnow:\n\(render(new.bytes))")
                }
                if !differences.isEmpty {
                    fail("@untouched \(name): the last command touched it: " + differences.joined(separator: "; "), at: line)
                }
            case .mkdir(let name):
                try FileManager.default.createDirectory(atPath: dataPath(name), withIntermediateDirectories: true)
            case .chmod(let mode, let name):
                if chmod(dataPath(name), mode) != 0 {
                    fail("chmod \(String(mode, radix: 8)) \(name) failed: errno \(errno)", at: line)
                } else {
                    changedModes.append(dataPath(name))
                }
            case .symlink(let target, let name):
                if symlink(expand(target), dataPath(name)) != 0 {
                    fail("symlink \(target) \(name) failed: errno \(errno)", at: line)
                }
            case .stdin(let text):
                let unescaped = text.replacingOccurrences(of: "\\n", with: "\n")
                stdin = Array((extras.contains(.controlTokens) ? expand(unescaped) : unescaped).utf8)
            case .command(let command):
                run(command, at: line)
            }
        }

        mutating func run(_ command: Command, at line: Int) {
            let (assignments, words) = Transcript.splitAssignments(Transcript.shellWords(expand(command.text)))
            let input = stdin
            stdin = []
            if words.contains(where: { $0.contains("\u{0}") }) {
                fail("an argument holds NUL, which no process argument can: $ \(command.text)", at: line)
                return
            }
            var environment = configuration.environment(paths)
            for (name, value) in assignments { environment[name] = value }
            if extras.contains(.untouched) { before = Transcript.snapshot(of: paths.data) }
            let result = Spawn.run([Spawn.todo] + words.dropFirst(), stdin: input, environment: environment,
                                   argv0: configuration.programName)
            let expectedOut = Array(command.stdout.map { expand($0) + "\n" }.joined().utf8)
            let expectedErr = Array(command.stderr.map { expand($0) + "\n" }.joined().utf8)
            var differences: [String] = []
            if !matches(result.stdout, expectedOut) {
                differences.append("stdout differs\nexpected:\n\(render(expectedOut))\nactual:\n\(render(result.stdout))")
            }
            if !matches(result.stderr, expectedErr) {
                differences.append("stderr differs\nexpected:\n\(render(expectedErr))\nactual:\n\(render(result.stderr))")
            }
            if result.status != command.status {
                differences.append("exit status: expected \(command.status), actual \(result.status)")
            }
            if !differences.isEmpty {
                fail("$ \(command.text)\n" + differences.joined(separator: "\n"), at: line)
            }
        }

        func matches(_ actual: [UInt8], _ expected: [UInt8]) -> Bool {
            extras.contains(.uidWildcard) ? Transcript.matches(actual, pattern: expected) : actual == expected
        }

        /// Text for a failure message: one `|`-prefixed line per line, control characters as tokens.
        func render(_ bytes: [UInt8]) -> String {
            Transcript.render(bytes, caret: extras.contains(.caretEscape))
        }
    }

    /// Records a failure of `testCase` located at `file:line` of a transcript. (XCTFail cannot: its
    /// location is a `StaticString`, i.e. a Swift source file known at compile time.)
    static func recordFailure(_ message: String, file: String, line: Int, of testCase: XCTestCase) {
        #if canImport(Darwin)
        let location = XCTSourceCodeLocation(filePath: file, lineNumber: line)
        testCase.record(XCTIssue(type: .assertionFailure, compactDescription: message,
                                 sourceCodeContext: XCTSourceCodeContext(location: location)))
        #else
        testCase.recordFailure(withDescription: message, inFile: file, atLine: line, expected: true)
        #endif
    }

    static let controlTokens: [(String, String)] = [
        ("{ESC}", "\u{1B}"), ("{BEL}", "\u{07}"), ("{CR}", "\r"), ("{TAB}", "\t"), ("{NUL}", "\u{0}"),
    ]

    /// Whether `actual` equals `pattern`, where each `{UID}` in `pattern` stands for exactly six bytes
    /// of `[0-9a-z]`.
    static func matches(_ actual: [UInt8], pattern: [UInt8]) -> Bool {
        let token = Array("{UID}".utf8)
        var pieces: [ArraySlice<UInt8>] = []
        var start = 0, index = 0
        while index + token.count <= pattern.count {
            if pattern[index..<index + token.count].elementsEqual(token) {
                pieces.append(pattern[start..<index])
                index += token.count
                start = index
            } else {
                index += 1
            }
        }
        pieces.append(pattern[start...])
        var position = 0
        for (number, piece) in pieces.enumerated() {
            if number > 0 {
                guard position + 6 <= actual.count,
                      actual[position..<position + 6].allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) })
                else { return false }
                position += 6
            }
            guard position + piece.count <= actual.count, actual[position..<position + piece.count].elementsEqual(piece)
            else { return false }
            position += piece.count
        }
        return position == actual.count
    }

    /// `bytes` for a failure message: each line prefixed `  |`, control characters written as tokens
    /// (`^[` for ESC when `caret`), a final line without newline marked.
    static func render(_ bytes: [UInt8], caret: Bool) -> String {
        if bytes.isEmpty { return "  (empty)" }
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        let noEOL = bytes.last != 0x0A
        if !noEOL { lines.removeLast() }
        let names: [UInt32: String] = [0x1B: caret ? "^[" : "{ESC}", 0x07: "{BEL}", 0x0D: "{CR}", 0x09: "{TAB}", 0x00: "{NUL}"]
        var result = lines.map { line in
            "  |" + String(decoding: line, as: UTF8.self).unicodeScalars.map { scalar -> String in
                if let name = names[scalar.value] { return name }
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0xFEFF {
                    return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                }
                return String(scalar)
            }.joined()
        }.joined(separator: "\n")
        if noEOL { result += "\n  (no newline at end)" }
        return result
    }

    /// stat (following symlinks) and bytes of `path` when it is a regular file.
    static func state(of path: String) -> FileState? {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        #if canImport(Darwin)
        let time = status.st_mtimespec
        #else
        let time = status.st_mtim
        #endif
        return FileState(inode: UInt64(status.st_ino), seconds: Int(time.tv_sec), nanoseconds: Int(time.tv_nsec),
                         bytes: Files.read(path))
    }

    /// Every regular file under `directory` (relative path → state), entering real directories only.
    static func snapshot(of directory: String) -> [String: FileState] {
        var result: [String: FileState] = [:]
        func walk(_ relative: String) {
            let full = relative.isEmpty ? directory : directory + "/" + relative
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: full)) ?? [] {
                let path = relative.isEmpty ? entry : relative + "/" + entry
                var status = stat()
                guard lstat(directory + "/" + path, &status) == 0 else { continue }
                if (status.st_mode & S_IFMT) == S_IFDIR {
                    walk(path)
                } else if let state = state(of: directory + "/" + path) {
                    result[path] = state
                }
            }
        }
        walk("")
        return result
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
