import TodoFileSystem

/// Add-on actions from the actions directory (docs/todosh.md sections 1 and 7).
enum TodoShAddons {
    /// The executable for add-on `name`: `DIR/name/name`, else `DIR/name`; nil when there is none.
    /// A broken symlink is fatal, as in todo.sh.
    static func executable(_ name: String, _ context: TodoShContext) throws(CLIError) -> String? {
        let directory = context.settings.actionsDirectory
        guard !name.isEmpty, !name.contains("/"), context.files.fileSystem.kind(of: directory) == .directory else { return nil }
        for path in [directory + "/" + name + "/" + name, directory + "/" + name] {
            if context.files.fileSystem.kind(of: path, followingLinks: false) == .symbolicLink, context.files.fileSystem.kind(of: path) == nil {
                throw context.die("Fatal Error: Broken link to custom action: '\(path)'")
            }
            if context.files.fileSystem.kind(of: path) == .regular, context.files.fileSystem.isExecutable(path) { return path }
        }
        return nil
    }

    /// Runs add-on `name` with `arguments` (the action name included) if there is one; its exit
    /// status is passed through.
    static func runIfPresent(_ name: String, _ arguments: [String], _ context: TodoShContext) throws(CLIError) -> Int32? {
        guard let path = try executable(name, context) else { return nil }
        return ProcessSpawning.runInheriting([path] + arguments, environment: context.childEnvironment)
    }

    /// The valid add-on names, byte-sorted.
    static func names(_ context: TodoShContext) -> [String] {
        let directory = context.settings.actionsDirectory
        guard let entries = context.files.fileSystem.directoryEntries(directory) else { return [] }
        return entries.filter { name in
            let path = directory + "/" + name
            switch context.files.fileSystem.kind(of: path) {
            case .regular: return context.files.fileSystem.isExecutable(path)
            case .directory:
                let inner = path + "/" + name
                return context.files.fileSystem.kind(of: inner) == .regular && context.files.fileSystem.isExecutable(inner)
            default: return false
            }
        }.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// The path to run for a listed add-on name.
    static func path(of name: String, _ context: TodoShContext) -> String {
        let directory = context.settings.actionsDirectory
        let inner = directory + "/" + name + "/" + name
        return context.files.fileSystem.kind(of: inner) == .regular ? inner : directory + "/" + name
    }

    /// `ADDON usage`, run with the usual environment, its output passed through to `io`; with
    /// `onlyActionLines`, only its lines that start with four spaces and a letter (an action's
    /// one-line usage, by todo.sh's indentation convention).
    static func usage(of name: String, _ context: TodoShContext, toError: Bool = false, onlyActionLines: Bool = false) {
        var output = ProcessSpawning.run([path(of: name, context), "usage"], environment: context.childEnvironment,
                                         input: nil, captureOutput: true).output
        if onlyActionLines {
            output = output.split(separator: 0x0A, omittingEmptySubsequences: false).filter { line in
                guard line.count > 4, line.prefix(4).allSatisfy({ $0 == 0x20 }) else { return false }
                let rest = String(decoding: line.dropFirst(4), as: UTF8.self)
                return rest.first?.isLetter == true
            }.flatMap { Array($0) + [0x0A] }
        }
        if toError { context.io.writeError(output) } else { context.sayBytes(output) }
    }

    static func listAddons(_ context: inout TodoShContext, _ arguments: [String]) throws(CLIError) -> Int32 {
        let directory = context.settings.actionsDirectory
        guard context.files.fileSystem.kind(of: directory) == .directory else {
            throw context.die("TODO: '\(directory)' does not exist.")
        }
        let found = names(context)
        guard !found.isEmpty else { throw context.die("TODO: '\(directory)' does not contain valid actions.") }
        for name in found { context.say(name) }
        context.inform("--")
        context.inform("TODO: \(found.count) valid addon actions found.")
        return 0
    }
}
