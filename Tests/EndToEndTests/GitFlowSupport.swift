import Foundation
import TodoTestSupport
import TodoTxt

/// One clone of the simulation's shared repository: a work tree whose todo.txt and done.txt are both
/// tracked and merged by `todo merge`. `name` is also the name under which the other clones know it as
/// a git remote (for cherry-picks).
struct GitFlowClone: Hashable {
    let name: String
    let path: String
    var todoPath: String { path + "/todo.txt" }
    var donePath: String { path + "/done.txt" }
}

/// How a clone brings in what the others did.
enum GitFlowMethod: String, CaseIterable {
    /// `git pull --no-rebase`: a merge commit (or a fast-forward).
    case merge
    /// `git pull --rebase`: the clone's commits replayed on the remote's.
    case rebase
    /// `git cherry-pick` of one commit fetched from another clone (not a complete sync).
    case cherryPick = "cherry-pick"
    /// `git stash`, `git pull --no-rebase`, `git stash pop`, with the round's edits never committed
    /// before the pull.
    case stash

    /// The methods that leave the clone holding everything the remote holds when they complete.
    var isCompleteSync: Bool { self != .cherryPick }
}

/// A git operation that can stop half way, with what continues it and what abandons it.
enum GitFlowOperation {
    case merge, rebase, cherryPick, stashPop

    /// Continues after every unmerged file was added (`core.editor=true`: never an editor).
    var continueArguments: [String] {
        switch self {
        case .merge: return ["-c", "core.editor=true", "commit", "-q", "--no-edit"]
        case .rebase: return ["-c", "core.editor=true", "rebase", "--continue"]
        case .cherryPick: return ["-c", "core.editor=true", "cherry-pick", "--continue"]
        case .stashPop: return []
        }
    }

    /// Goes on past a step that has become empty (its change is already there).
    var skipArguments: [String] {
        switch self {
        case .rebase: return ["rebase", "--skip"]
        case .cherryPick: return ["cherry-pick", "--skip"]
        case .merge, .stashPop: return []
        }
    }

    /// Puts the clone back as it was before the operation.
    var abortArguments: [String] {
        switch self {
        case .merge: return ["merge", "--abort"]
        case .rebase: return ["rebase", "--abort"]
        case .cherryPick: return ["cherry-pick", "--abort"]
        case .stashPop: return ["reset", "-q", "--hard"]
        }
    }

    /// Whether git still has the operation in progress in `clone` (the state files git keeps).
    func inProgress(_ clone: GitFlowClone) -> Bool {
        let git = clone.path + "/.git/"
        let manager = FileManager.default
        switch self {
        case .merge: return manager.fileExists(atPath: git + "MERGE_HEAD")
        case .rebase: return manager.fileExists(atPath: git + "rebase-merge") || manager.fileExists(atPath: git + "rebase-apply")
        case .cherryPick: return manager.fileExists(atPath: git + "CHERRY_PICK_HEAD") || manager.fileExists(atPath: git + "sequencer")
        case .stashPop: return false
        }
    }
}

/// Whether `bytes` holds a line that is a git conflict marker (`<<<<<<<`, `=======`, `>>>>>>>`, of
/// git's default size 7, alone or followed by a space), anywhere. Taking a merged file "as it is" is
/// only right when this is false.
func gitFlowHasConflictMarkers(_ bytes: [UInt8]) -> Bool {
    let document = TodoDocument(bytes: bytes)
    for index in 0..<document.lineCount {
        let line = document.content(at: index)
        guard line.count >= 7, let first = line.first, first == 0x3C || first == 0x3D || first == 0x3E else { continue }
        if line.prefix(7).allSatisfy({ $0 == first }) && (line.count == 7 || line[line.startIndex + 7] == 0x20) { return true }
    }
    return false
}

/// What a clone's todo.txt and done.txt hold, read straight from the work tree.
///
/// Invariant: `todoHolders`/`doneHolders` list every line index holding a uid, in file order, so a uid
/// held twice is visible as two entries (the invariants count exactly that).
struct GitFlowSnapshot {
    let todoBytes: [UInt8]
    let doneBytes: [UInt8]
    let todo: TodoDocument
    let done: TodoDocument
    /// uid → line indexes in todo.txt.
    let todoHolders: [String: [Int]]
    /// uid → line indexes in done.txt.
    let doneHolders: [String: [Int]]
    /// uids of open tasks in todo.txt, in file order (first holder of each).
    let openUIDs: [String]
    /// uids of completed tasks still in todo.txt, in file order.
    let completedUIDs: [String]

    init(_ clone: GitFlowClone) {
        self.init(todo: Files.read(clone.todoPath), done: Files.read(clone.donePath))
    }

    init(todo todoBytes: [UInt8], done doneBytes: [UInt8]) {
        self.todoBytes = todoBytes
        self.doneBytes = doneBytes
        todo = TodoDocument(bytes: todoBytes)
        done = TodoDocument(bytes: doneBytes)
        func holders(_ document: TodoDocument) -> [String: [Int]] {
            var map: [String: [Int]] = [:]
            for index in 0..<document.lineCount {
                if let uid = document.item(at: index).uid { map[uid, default: []].append(index) }
            }
            return map
        }
        todoHolders = holders(todo)
        doneHolders = holders(done)
        var open: [String] = [], completed: [String] = []
        var seen = Set<String>()
        for index in 0..<todo.lineCount {
            let item = todo.item(at: index)
            guard let uid = item.uid, seen.insert(uid).inserted else { continue }
            if item.isCompleted { completed.append(uid) } else { open.append(uid) }
        }
        openUIDs = open
        completedUIDs = completed
    }

    /// Every uid in either file.
    var present: Set<String> { Set(todoHolders.keys).union(doneHolders.keys) }

    /// The first todo.txt line holding `uid`.
    func todoLine(_ uid: String) -> [UInt8]? {
        todoHolders[uid]?.first.map { Array(todo.content(at: $0)) }
    }

    /// Whether some todo.txt line holding `uid` is an open task.
    func isOpen(_ uid: String) -> Bool {
        (todoHolders[uid] ?? []).contains { !todo.item(at: $0).isCompleted }
    }

    var hasConflictMarkers: Bool { gitFlowHasConflictMarkers(todoBytes) || gitFlowHasConflictMarkers(doneBytes) }
}

/// What the simulation knows about every task, so that a task that is missing can be told from one a
/// user removed on purpose.
///
/// Invariants: `expected[clone]` only grows, except when the clone gives up its own work after a stop
/// (then what only it had moves to `discarded`); `remote` is what the shared repository must hold,
/// and grows with every successful push.
struct GitFlowLedger {
    /// uid → where it was created (for reports).
    var created: [String: String] = [:]
    /// uids some clone removed with `todo del`: absent is fine, wherever.
    var deleted = Set<String>()
    /// uids some clone reopened with `todo undo`: open in todo.txt and archived is fine.
    var reopened = Set<String>()
    /// uids that existed only in work a clone abandoned after a stop (an aborted merge followed by a
    /// reset to the remote, a dropped stash).
    var discarded = Set<String>()
    /// uids each clone must hold (todo.txt or done.txt) after a complete sync.
    var expected: [String: Set<String>] = [:]
    /// uids the remote's main branch must hold.
    var remote = Set<String>()
}

/// One finding, kept for the report: which invariant, where, and the lines involved.
struct GitFlowFinding {
    let kind: String
    let uid: String
    let detail: String
}

/// Counters of one simulation, printed as one summary line.
///
/// Each invariant violation is counted once per (invariant, uid): a duplicate that stays in the files
/// for ten rounds is one duplicate, not ten.
struct GitFlowTally {
    var rounds = 0
    var issueRounds = 0, issuePriority = 0, issueAppend = 0, issueSpoiled = 0
    /// Outcome of the issue scenario in Y after its sync completed.
    var issueStaysArchived = 0, issueOpenAndArchived = 0, issueOther = 0
    /// The issue scenario's "open and archived" outcomes by Y's sync method.
    var issueOpenAndArchivedBy: [GitFlowMethod: Int] = [:]
    /// Issue rounds with a text append whose sync output carried a `todo merge:` line naming the task.
    var issueTextReported = 0, issueTextSynced = 0
    var syncs: [GitFlowMethod: Int] = [:]
    var completed: [GitFlowMethod: Int] = [:]
    var stops: [GitFlowMethod: Int] = [:]
    var resolvedWithoutMarkers = 0
    var cherryPickNothing = 0
    var pushes = 0, pushesRejected = 0
    var todoCommands = 0, todoFailures = 0
    var actions: [String: Int] = [:]
    var lost = 0
    var todoDuplicates = 0, doneDuplicates = 0, openAndArchived = 0
    /// Open in todo.txt and archived right after a cherry-pick (reported, not asserted).
    var openAndArchivedAfterCherryPick = 0
    /// Open in todo.txt and archived, or twice in done.txt, for a uid some clone reopened on purpose.
    var excusedReopened = 0
    /// Completed in todo.txt and archived (not an invariant; the next archive may duplicate it).
    var completedAndArchived = 0
    var markersAfterCompletion = 0
    /// Tasks created, deleted with `del`, reopened with `undo`, and abandoned with a clone's work
    /// after a stop (filled in at the end, from the ledger): what the loss check had to account for.
    var created = 0, deleted = 0, reopened = 0, abandoned = 0
    var clonesDifferAtEnd = false
    var findings: [GitFlowFinding] = []
    var counted = Set<String>()

    /// Counts `kind` for `uid` once; returns whether this was the first time.
    mutating func countOnce(_ kind: String, _ uid: String) -> Bool {
        counted.insert(kind + " " + uid).inserted
    }

    var duplicates: Int { todoDuplicates + doneDuplicates + openAndArchived }

    func summary(seed: UInt64, seconds: Double) -> String {
        func per(_ map: [GitFlowMethod: Int]) -> String {
            GitFlowMethod.allCases.map { "\($0.rawValue) \(map[$0, default: 0])" }.joined(separator: ", ")
        }
        let stopTotal = stops.values.reduce(0, +)
        return "GitFlowSimulation: \(rounds) rounds, seed \(seed), \(Int(seconds)) s; "
            + "syncs (\(per(syncs))), completed (\(per(completed))); "
            + "stops \(stopTotal) (\(per(stops))), resolved without markers \(resolvedWithoutMarkers), nothing to cherry-pick \(cherryPickNothing); "
            + "pushes \(pushes) (rejected \(pushesRejected)); todo commands \(todoCommands) (failed \(todoFailures); "
            + GitFlowAction.allCases.map { "\($0.rawValue) \(actions[$0.rawValue, default: 0])" }.joined(separator: ", ") + "); "
            + "issue scenario \(issueRounds) (pri \(issuePriority), append \(issueAppend), spoiled by a stop \(issueSpoiled)): "
            + "stays archived \(issueStaysArchived), open and archived \(issueOpenAndArchived) (\(per(issueOpenAndArchivedBy))), other \(issueOther), "
            + "text edit reported \(issueTextReported)/\(issueTextSynced); "
            + "tasks created \(created) (deleted \(deleted), reopened \(reopened), abandoned \(abandoned)); "
            + "lost \(lost); duplicates \(duplicates) (todo.txt \(todoDuplicates), done.txt \(doneDuplicates), open and archived \(openAndArchived), after a cherry-pick \(openAndArchivedAfterCherryPick)); "
            + "excused as reopened \(excusedReopened); completed and archived \(completedAndArchived); "
            + "conflict markers after completion \(markersAfterCompletion); clones differ at end \(clonesDifferAtEnd)"
    }
}

/// The user actions of one clone between syncs, with their relative weights.
enum GitFlowAction: String, CaseIterable {
    case add, complete = "do", reopen = "undo", prioritize = "pri", deprioritize = "depri"
    case append, replace, delete = "del", archive

    var weight: UInt64 {
        switch self {
        case .add: return 18
        case .complete: return 16
        case .reopen: return 5
        case .prioritize: return 14
        case .deprioritize: return 5
        case .append: return 12
        case .replace: return 7
        case .delete: return 6
        case .archive: return 12
        }
    }

    static func pick(_ random: inout SplitMix64, fewTasks: Bool) -> GitFlowAction {
        // With few open tasks, adding is more likely, so the lists neither run dry nor grow without end.
        let weights = allCases.map { $0 == .add && fewTasks ? $0.weight * 3 : $0.weight }
        var draw = random.next() % weights.reduce(0, +)
        for (action, weight) in zip(allCases, weights) {
            if draw < weight { return action }
            draw -= weight
        }
        return .add
    }
}

/// Random words for task text; small vocabularies, so that edits on two clones often touch the same
/// fields.
enum GitFlowWords {
    static let words = ["call", "mom", "pay", "rent", "buy", "milk", "book", "dentist", "plan", "trip", "fix", "bike"]
    static let tails = ["soon", "today", "twice", "again", "later", "first"]

    static func task(_ random: inout SplitMix64) -> String {
        var text = (0..<(1 + Int(random.next() % 3))).map { _ in SyncEdits.pick(words, &random) }.joined(separator: " ")
        if SyncEdits.chance(25, &random) { text = "(\(SyncEdits.pick(["A", "B", "C"], &random))) " + text }
        if SyncEdits.chance(40, &random) { text += " " + SyncEdits.pick(SyncEdits.projects, &random) }
        if SyncEdits.chance(30, &random) { text += " " + SyncEdits.pick(SyncEdits.contexts, &random) }
        return text
    }
}
