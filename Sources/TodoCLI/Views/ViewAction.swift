import TodoTxt

/// `todo view [NAME [TERM...]]`: lists the saved view NAME of `views.txt` (`SavedViews`), that is,
/// runs `todo ls` with the view's words and then the TERMs given; without NAME, prints the views
/// with their definitions (docs/todo-command.md, "Saved views").
enum ViewAction {
    static let spec = ActionSpec(
        name: "view", arguments: "[NAME [TERM...]]", placement: .leadingThenText, argumentCount: nil,
        summary: "List a saved view of views.txt (NAME = TERMS and options); without NAME, the views.",
        completes: .views, availability: .todoOnly, group: .listing,
        notes: [
            "NAME: a view of $XDG_CONFIG_HOME/todo/views.txt (default ~/.config/todo/views.txt), one a",
            "      line: NAME = TERMS and options of ls (week = due:<=7d -@waiting); # starts a comment.",
            "TERM: more terms, as for list, after the view's own.",
        ],
        parsed: { invocation, parsed, _ throws(CLIError) in
            try run(parsed.positionals, &invocation)
        }).completing(.views, .projectsAndContexts)

    /// Hidden helper for the completion scripts: the view names, one a line; nothing when the file
    /// is missing, unreadable or has a bad line.
    static let namesSpec = ActionSpec(
        name: "__complete-views", arguments: "", placement: .leadingThenText, summary: "", completes: .nothing,
        availability: .todoOnly, group: .program,
        words: { invocation, _ throws(CLIError) in
            let path = ViewsFile.path(invocation.environment)
            guard let bytes = try? invocation.files.readIfExists(path), let views = try? SavedViews(parsing: bytes) else { return 0 }
            for view in views.views { invocation.say(invocation.shown(view.name)) }
            return 0
        })

    static func run(_ words: [String], _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        let path = ViewsFile.path(invocation.environment)
        guard let name = words.first else {
            guard let views = try ViewsFile.load(path, invocation) else {
                if !invocation.quiet { invocation.warn("no views: \(path) does not exist (one view a line: NAME = TERMS)") }
                return 0
            }
            for view in views.views { invocation.say(invocation.shown("\(view.name) = \(view.definition)")) }
            return 0
        }
        let view = try ViewsFile.view(named: name, path: path, invocation)
        guard let list = ActionTable.find("list") else { throw .failure("the list action is missing") }
        return try list.run(&invocation, ViewsFile.listWords(view.words, list) + words.dropFirst())
    }
}

/// Where `views.txt` is and how a command reads it.
enum ViewsFile {
    /// `$XDG_CONFIG_HOME/todo/views.txt`, `~/.config/todo/views.txt` when it is unset, empty or
    /// relative (a relative one is ignored, as for the config: docs/todo-command.md).
    static func path(_ environment: [String: String]) -> String {
        let cleaned = TodoShConfig.ignoringRelativeXDGConfigHome(environment)
        let home = cleaned["HOME"] ?? ""
        let xdg = cleaned["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
        return xdg + "/todo/views.txt"
    }

    /// The views of `path`; nil when it does not exist. A bad line is one failure naming the file
    /// and the line.
    static func load(_ path: String, _ invocation: Invocation) throws(CLIError) -> SavedViews? {
        guard let bytes = try invocation.files.readIfExists(path) else { return nil }
        do throws(SavedViews.LineError) {
            return try SavedViews(parsing: bytes)
        } catch {
            throw .failure("\(path): line \(error.line): \(error.problem)")
        }
    }

    /// The view `name` of `path`: a missing file or an unknown name is one failure (with the
    /// nearest names, at most two edits away).
    static func view(named name: String, path: String, _ invocation: Invocation) throws(CLIError) -> SavedViews.View {
        guard let views = try load(path, invocation) else {
            throw .failure("\(path): no such file, so no view '\(name)' (one view a line: NAME = TERMS)")
        }
        guard let view = views.view(named: name) else {
            let near = views.views.map(\.name).filter { ActionTable.editDistance(Array(name), Array($0)) <= 2 }
            let hint = near.isEmpty ? "" : " (did you mean " + near.map { "'\($0)'" }.joined(separator: " or ") + "?)"
            throw .failure("\(path): no view '\(name)'\(hint)")
        }
        return view
    }

    /// A view's words as `action` parses them: its declared options (and their values) first,
    /// wherever the view wrote them, then the terms in order (`due:<=7d --sort due` is
    /// `--sort due due:<=7d`), since a listing reads its options before the first term.
    static func listWords(_ words: [String], _ action: ActionSpec) -> [String] {
        let parts = split(words, action)
        return parts.options + parts.terms
    }

    /// A view's words split into the options `action` declares (with their values) and the terms;
    /// the terms are what `todo ui --view` filters by.
    static func split(_ words: [String], _ action: ActionSpec) -> (options: [String], terms: [String]) {
        var options: [String] = [], terms: [String] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            let name = word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word
            guard word.hasPrefix("-"), let option = action.options.first(where: { $0.names.contains(name) }) else {
                terms.append(word)
                continue
            }
            options.append(word)
            if option.value != nil, !word.contains("="), index < words.count {
                options.append(words[index])
                index += 1
            }
        }
        return (options, terms)
    }
}
