import TodoTxt

/// `todo dep NR after NR|UID...`, `todo dep NR rm NR|UID...`, `todo dep ls NR`: the links of
/// `after:UID` between tasks (docs/todo-command.md, "Dependencies"; the rule is the library's
/// `DependencyGraph`).
///
/// `after` writes full uids: the task and each target without a uid get a fresh one in the same
/// write. Refused, with nothing written: an unknown task, a task waiting for itself, a link that
/// would close a cycle, and a link to a task that is only in the done file (it never blocks).
enum DepAction {
    static let spec = ActionSpec(
        name: "dep", arguments: "NR|UID after|rm NR|UID... | ls NR|UID", placement: .leading, argumentCount: 2...Int.max,
        summary: "Make a task wait for others (after:UID), remove a link, or list what a task waits for.",
        completes: .task, availability: .todoOnly, group: .tasks,
        notes: ActionTable.singleAddressDetails + [
            "after: the task waits for each task given (line numbers, uids or uid prefixes); both get a",
            "       uid if they have none. rm: the links removed (a uid no task holds may be given).",
            "ls: what the task waits for and what waits for it, done and archived tasks included, with",
            "    links to unknown uids and cycles reported.",
        ],
        parsed: { invocation, parsed, usage throws(CLIError) in
            let words = parsed.positionals
            if words[0] == "ls" {
                guard words.count == 2 else { throw .usage("ls takes one task; usage: \(usage)") }
                return try list(words[1], &invocation)
            }
            guard words.count >= 3, words[1] == "after" || words[1] == "rm" else {
                throw .usage("expected 'NR after NR|UID…', 'NR rm NR|UID…' or 'ls NR'; usage: \(usage)")
            }
            let targets = TodoShActions.numberList(Array(words.dropFirst(2)))
            return words[1] == "after" ? try link(words[0], to: targets, &invocation) : try unlink(words[0], from: targets, &invocation)
        })

    /// The done file beside the todo file, parsed; nil when there is none.
    static func doneDocument(_ invocation: Invocation, todoPath: String) throws(CLIError) -> (path: String, document: TodoDocument?) {
        let path = invocation.doneFilePath(forTodoFile: todoPath)
        return (path, try invocation.files.readIfExists(path).map { TodoDocument(bytes: $0) })
    }

    /// `dep NR after ADDR…`.
    static func link(_ address: String, to addresses: [String], _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        let file = TodoFileEdit(invocation)
        let done = try doneDocument(invocation, todoPath: file.path)
        var pinned: [TaskTarget]?
        let result = try file.transact({ (document: inout TodoDocument, notices: inout [String]) throws(CLIError) -> (line: Int, content: [UInt8], added: [String]) in
            let located = try file.targets([address] + addresses, pinned: &pinned, in: document, invocation, notices: &notices, archived: done)
            let (_, index) = located[0]
            guard document.item(at: index).isTask, !document.item(at: index).isCompleted else {
                throw .failure("\(file.path): line \(index + 1): the task is done; a done task waits for nothing")
            }
            var generator = UIDRandomness(environment: invocation.environment)
            func uid(of line: Int) -> String {
                if let uid = document.item(at: line).uid { return uid }
                let fresh = UID.generate(using: &generator, unusedIn: document, and: done.document)
                document.replaceContent(at: line, with: document.item(at: line).settingTag("uid", to: fresh))
                return fresh
            }
            var added: [String] = []
            for (target, targetIndex) in located.dropFirst() {
                guard targetIndex != index else {
                    throw .failure("\(file.path): line \(index + 1): a task cannot wait for itself (\(target.address)); nothing changed")
                }
                if DependencyGraph(todo: document).reaches(from: targetIndex, to: index) {
                    throw .failure("\(file.path): line \(index + 1): waiting for line \(targetIndex + 1) would make a cycle (line \(targetIndex + 1) already waits for line \(index + 1)); nothing changed")
                }
                let targetUID = uid(of: targetIndex)
                _ = uid(of: index)
                let item = document.item(at: index)
                if item.afterUIDs.contains(targetUID) { continue }
                document.replaceContent(at: index, with: item.addingAfter(targetUID))
                added.append("\(targetIndex + 1)")
            }
            return (index + 1, Array(document.content(at: index)), added)
        }, invocation)
        let prefix = TodoShContext.prefix(of: file.path)
        invocation.echoTask(result.line, result.content)
        if result.added.isEmpty {
            invocation.report("\(prefix): \(result.line) already waits for those tasks.")
        } else {
            invocation.report("\(prefix): \(result.line) waits for \(result.added.joined(separator: ", ")).")
        }
        return 0
    }

    /// `dep NR rm ADDR…`: each ADDR is a uid (or unique start of one) among the task's `after:`
    /// links, else a task of the file whose uid is removed.
    static func unlink(_ address: String, from addresses: [String], _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        let file = TodoFileEdit(invocation)
        var pinned: [TaskTarget]?
        let result = try file.transact({ (document: inout TodoDocument, notices: inout [String]) throws(CLIError) -> (line: Int, content: [UInt8]) in
            let (_, index) = try file.targets([address], pinned: &pinned, in: document, invocation, notices: &notices)[0]
            for target in addresses {
                let item = document.item(at: index)
                let links = item.afterUIDs
                let uid: String
                let bare = target.hasPrefix("uid:") ? String(target.dropFirst(4)) : target
                let matches = links.filter { $0.hasPrefix(bare) }
                if links.contains(bare) {
                    uid = bare
                } else if matches.count == 1, !bare.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
                    uid = matches[0]
                } else {
                    let reference: TaskReference
                    do { reference = try document.resolve(target) } catch { throw .failure("\(file.path): \(error)") }
                    guard let found = document.item(at: reference.index).uid, links.contains(found) else {
                        throw .failure("\(file.path): line \(index + 1): the task does not wait for \(target); nothing changed")
                    }
                    uid = found
                }
                document.replaceContent(at: index, with: item.removingAfter(uid))
            }
            return (index + 1, Array(document.content(at: index)))
        }, invocation)
        invocation.echoTask(result.line, result.content)
        invocation.report("\(TodoShContext.prefix(of: file.path)): \(result.line) links removed.")
        return 0
    }

    /// `dep ls NR`: the task, what it waits for (open, done, archived or unknown), what waits for
    /// it, and the cycle it is part of.
    static func list(_ address: String, _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        let file = TodoFileEdit(invocation)
        let document = try file.snapshot()
        let done = try doneDocument(invocation, todoPath: file.path)
        let index = try file.targets([address], in: document, invocation)[0].identity.index
        let graph = DependencyGraph(todo: document, done: done.document)
        let doneName = String(done.path.split(separator: "/").last ?? "done.txt")
        func describe(_ node: Int) -> String {
            if node < graph.doneOffset {
                let state = graph.nodes[node].isOpen ? (graph.isBlocked(node) ? "  (open, blocked)" : "  (open)") : "  (done)"
                return "  \(node + 1) " + invocation.shown(document.text(at: node)) + state
            }
            let line = node - graph.doneOffset
            return "  \(doneName):\(line + 1) " + invocation.shown(done.document?.text(at: line) ?? "") + "  (archived)"
        }
        invocation.say("\(index + 1) " + invocation.shown(document.text(at: index)) + (graph.isBlocked(index) ? "  (blocked)" : ""))
        var problems = 0
        let targets = graph.targets(of: index)
        invocation.say(targets.isEmpty ? "Waits for nothing." : "Waits for:")
        for (uid, holders) in targets {
            if holders.isEmpty {
                invocation.say("  after:\(invocation.shown(uid))  (no task has this uid)")
                problems += 1
            }
            for holder in holders { invocation.say(describe(holder)) }
        }
        let waiting = graph.waiting(for: index)
        invocation.say(waiting.isEmpty ? "Nothing waits for it." : "Waited for by:")
        for node in waiting { invocation.say(describe(node)) }
        for cycle in graph.cycles where cycle.contains(index) {
            invocation.say("Cycle: " + cycle.map { cycleName($0, graph, doneName) }.joined(separator: ", ") + " wait for each other")
            problems += 1
        }
        return problems == 0 ? 0 : 1
    }

    /// A node as a cycle report names it: its line, or `done.txt:N`.
    static func cycleName(_ node: Int, _ graph: DependencyGraph, _ doneName: String) -> String {
        node < graph.doneOffset ? "line \(node + 1)" : "\(doneName):\(node - graph.doneOffset + 1)"
    }
}

extension TodoFileEdit {
    /// `targets(_:pinned:in:_:notices:)`, where an address found in no task of the todo file but
    /// held in the done file (`archived`) is refused as such: a link to an archived task never blocks.
    func targets(_ addresses: [String], pinned: inout [TaskTarget]?, in document: TodoDocument, _ invocation: Invocation,
                 notices: inout [String], archived: (path: String, document: TodoDocument?)) throws(CLIError) -> [(target: TaskTarget, index: Int)] {
        if pinned == nil, let done = archived.document {
            for address in addresses {
                guard case .unknownUID = Result(catching: { () throws(TaskAddressError) in try document.resolve(address) }).error,
                      let reference = try? done.resolve(address) else { continue }
                throw .failure("\(path): task \(address) is archived in \(archived.path) (line \(reference.index + 1)); a link to a done task never blocks; nothing changed")
            }
        }
        return try targets(addresses, pinned: &pinned, in: document, invocation, notices: &notices)
    }
}

private extension Result {
    /// The failure, if any.
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

extension DepAction {
    /// `TODO: 5 is free now (it waited for abc).` for each open task that waited for one of
    /// `completedUIDs` and waits for no open task now `document` has them done. Nothing (and no
    /// graph) when no task was completed with a uid or no line has a link.
    static func freedNotes(completing completedUIDs: [String], in document: TodoDocument, prefix: String) -> [TaskActions.Outcome] {
        guard !completedUIDs.isEmpty, DependencyGraph.mayHaveLinks(document.rendered()) else { return [] }
        let open = DependencyGraph.openUIDs(of: (0..<document.lineCount).lazy.map { document.content(at: $0) })
        var notes: [TaskActions.Outcome] = []
        for index in 0..<document.lineCount {
            let item = document.item(at: index)
            guard item.isTask, !item.isCompleted else { continue }
            let links = item.afterUIDs
            guard let freedBy = links.first(where: completedUIDs.contains), !DependencyGraph.isBlocked(after: links, openUIDs: open) else { continue }
            notes.append(.note("\(prefix): \(index + 1) is free now (it waited for \(freedBy))."))
        }
        return notes
    }
}
