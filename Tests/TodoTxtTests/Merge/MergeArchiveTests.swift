import Testing
@testable import TodoTxt

/// A task archived on one side (moved to that side's done file) and edited on the other: it stays
/// archived instead of coming back open beside its done copy (issue 13: every duplicate uid the
/// driver produced came from this). The done file's own merge keeps a task archived twice once.
struct MergeArchiveTests {
    func merge(_ base: String, _ ours: String, _ theirs: String, _ options: ThreeWayOptions) -> MergeResult {
        TodoMerge.threeWay(base: TodoDocument(bytes: b(base)), ours: TodoDocument(bytes: b(ours)),
                           theirs: TodoDocument(bytes: b(theirs)), options: options)
    }

    let base = "buy milk uid:aaaaaa\ncall mom uid:bbbbbb\n"

    @Test func archivedByThemEditedByUsStaysArchived() {
        let result = merge(base, "(A) buy milk uid:aaaaaa\ncall mom uid:bbbbbb\n", "call mom uid:bbbbbb\n",
                           ThreeWayOptions(archivedUIDs: ["aaaaaa"]))
        #expect(String(decoding: result.bytes, as: UTF8.self) == "call mom uid:bbbbbb\n")
        #expect(result.reports.isEmpty, "a priority on an archived task is not worth a word: \(result.reports)")
    }

    @Test func archivedByUsEditedByThemStaysArchivedAndATextEditIsReported() {
        let result = merge(base, "call mom uid:bbbbbb\n", "buy oat milk uid:aaaaaa\ncall mom uid:bbbbbb\n",
                           ThreeWayOptions(archivedUIDs: ["aaaaaa"]))
        #expect(String(decoding: result.bytes, as: UTF8.self) == "call mom uid:bbbbbb\n")
        #expect(result.reports.map(\.kind) == [.archivedTextEditDropped])
        #expect(result.reports.first?.description.contains("buy oat milk") == true)
    }

    @Test func withoutTheDoneFileADeletionAgainstAnEditStillKeepsTheEdit() {
        let result = merge(base, "(A) buy milk uid:aaaaaa\ncall mom uid:bbbbbb\n", "call mom uid:bbbbbb\n", ThreeWayOptions())
        #expect(String(decoding: result.bytes, as: UTF8.self) == "(A) buy milk uid:aaaaaa\ncall mom uid:bbbbbb\n")
        #expect(result.reports.map(\.kind) == [.keptEditedDeletedByThem])
    }

    /// An open version of a task BASE has completed cannot be told from a cherry-pick whose BASE the
    /// other side never had: the task stays archived (it is safe in the done file) and it is said.
    @Test func anOpenVersionOfAnArchivedTaskStaysArchivedAndIsReported() {
        let doneBase = "x 2026-01-01 buy milk uid:aaaaaa\ncall mom uid:bbbbbb\n"
        let result = merge(doneBase, "buy milk uid:aaaaaa\ncall mom uid:bbbbbb\n", "call mom uid:bbbbbb\n",
                           ThreeWayOptions(archivedUIDs: ["aaaaaa"]))
        #expect(String(decoding: result.bytes, as: UTF8.self) == "call mom uid:bbbbbb\n")
        #expect(result.reports.map(\.kind) == [.archivedTextEditDropped])
    }

    @Test func theDoneFileKeepsATaskArchivedOnBothSidesOnce() {
        let done = "x 2026-01-01 old uid:cccccc\n"
        let result = merge(done, done + "x 2026-01-05 buy milk uid:aaaaaa\n", done + "x 2026-01-06 buy milk uid:aaaaaa\n",
                           ThreeWayOptions(isDoneFile: true))
        #expect(String(decoding: result.bytes, as: UTF8.self) == done + "x 2026-01-05 buy milk uid:aaaaaa\n")
        #expect(result.reports.map(\.kind) == [.archivedTwiceKeptOnce])
        // Not in a done file: a conflict block, never two lines with one uid.
        let todo = merge(done, done + "x 2026-01-05 buy milk uid:aaaaaa\n", done + "x 2026-01-06 buy milk uid:aaaaaa\n",
                         ThreeWayOptions())
        #expect(!todo.isClean)
    }

    /// A clone that could not see the archive (untracked done.txt) kept the task; merged back into
    /// the archiving clone it shows up as new in THEIRS, and is not resurrected there.
    @Test func anOpenTaskAddedByThemWhoseUIDIsArchivedIsNotResurrected() {
        let result = merge("call mom uid:bbbbbb\n", "call mom uid:bbbbbb\nnew uid:eeeeee\n",
                           "call mom uid:bbbbbb\n(A) buy milk uid:aaaaaa\n", ThreeWayOptions(archivedUIDs: ["aaaaaa"]))
        #expect(String(decoding: result.bytes, as: UTF8.self) == "call mom uid:bbbbbb\nnew uid:eeeeee\n")
        #expect(result.reports.map(\.kind) == [.notResurrected])
    }

    /// Completed on one side (not yet archived there), archived on the other, and not in BASE (one
    /// side got it by a cherry-pick): kept, it would be archived a second time by the next `todo
    /// archive` (the three-clone simulation's done-file duplicates). Not resurrected either, on
    /// whichever side it is new; its done copy stands for it.
    @Test func aCompletedTaskNewOnOneSideWhoseUIDIsArchivedIsNotResurrected() {
        let completed = "x 2026-01-05 buy milk uid:aaaaaa\n"
        let ours = merge("call mom uid:bbbbbb\n", "call mom uid:bbbbbb\n" + completed, "call mom uid:bbbbbb\nnew uid:eeeeee\n",
                         ThreeWayOptions(archivedUIDs: ["aaaaaa"]))
        #expect(String(decoding: ours.bytes, as: UTF8.self) == "call mom uid:bbbbbb\nnew uid:eeeeee\n")
        #expect(ours.reports.map(\.kind) == [.notResurrected])
        let theirs = merge("call mom uid:bbbbbb\n", "call mom uid:bbbbbb\nnew uid:eeeeee\n", "call mom uid:bbbbbb\n" + completed,
                           ThreeWayOptions(archivedUIDs: ["aaaaaa"]))
        #expect(String(decoding: theirs.bytes, as: UTF8.self) == "call mom uid:bbbbbb\nnew uid:eeeeee\n")
        #expect(theirs.reports.map(\.kind) == [.notResurrected])
        // In a done file's own merge every line is an archived task: all are kept.
        let done = merge("", completed, "x 2026-01-06 call mom uid:bbbbbb\n", ThreeWayOptions(archivedUIDs: ["aaaaaa", "bbbbbb"], isDoneFile: true))
        #expect(String(decoding: done.bytes, as: UTF8.self) == completed + "x 2026-01-06 call mom uid:bbbbbb\n")
    }

    @Test func conflictMarkersCarryTheLabelsGitGives() {
        let result = merge("call mom uid:bbbbbb\n", "call dad uid:bbbbbb\n", "ring mom uid:bbbbbb\n",
                           ThreeWayOptions(oursLabel: "HEAD", theirsLabel: "1a2b3c4 (edit on laptop)"))
        let text = String(decoding: result.bytes, as: UTF8.self)
        #expect(text.contains("<<<<<<< HEAD\n") && text.contains(">>>>>>> 1a2b3c4 (edit on laptop)\n"), "\(text)")
    }

    @Test func reportsNeverPrintAnEmptyFieldList() {
        let report = MergeReport(kind: .fieldsMerged, uid: "aaaaaa", text: "buy milk", fields: [])
        #expect(report.description == "merged changes from both sides: buy milk")
        let listed = MergeReport(kind: .fieldsMerged, uid: "aaaaaa", text: "buy milk", fields: [.priority, .description])
        #expect(listed.description == "merged changes from both sides (priority, text): buy milk")
    }
}
