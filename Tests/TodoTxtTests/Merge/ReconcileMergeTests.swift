import Testing
import TodoTxt

/// Reconciling several conflict copies one after another: each copy is merged into the result of
/// the previous merge (`todo reconcile` does exactly that), so a version kept beside another with a
/// `conflict:` tag (the "leftover" line) comes back as part of the file the next copy meets.
///
/// Invariant under test: however many copies carry the same other version of a task, the result
/// holds that leftover line once; a different other version still gets its own line; and the
/// file's own lines are never lost to the rule.
@Suite struct ReconcileMergeTests {
    private func document(_ text: String) -> TodoDocument { TodoDocument(text) }

    /// Merges `copies` into `file` in order, as reconcile does.
    private func reconcile(_ file: String, _ copies: [String], done: Set<String> = []) -> String {
        var current = file
        for copy in copies {
            let result = TodoMerge.twoWay(file: document(current), copy: document(copy), doneUIDs: done)
            current = String(decoding: result.bytes, as: UTF8.self)
        }
        return current
    }

    private func lines(_ text: String) -> [String] { text.split(separator: "\n").map(String.init) }

    @Test func threeCopiesWithTheSameOtherVersionLeaveOneLeftoverLine() {
        let file = "(A) call mom uid:k1\npay rent uid:k2\n"
        let copy = "(B) call mom uid:k1\npay rent uid:k2\n"
        let merged = lines(reconcile(file, [copy, copy, copy]))
        #expect(merged == ["(A) call mom uid:k1", "(B) call mom uid:k1 conflict:copy", "pay rent uid:k2"])
    }

    @Test func copiesWithDifferentOtherVersionsEachKeepTheirOwn() {
        let file = "(A) call mom uid:k1\n"
        let merged = lines(reconcile(file, ["(B) call mom uid:k1\n", "(C) call mom uid:k1\n", "(B) call mom uid:k1\n"]))
        // Each new leftover goes right after the version kept, ahead of older ones.
        #expect(merged == ["(A) call mom uid:k1", "(C) call mom uid:k1 conflict:copy", "(B) call mom uid:k1 conflict:copy"])
    }

    @Test func theFilesVersionMarkedByACompletedCopyIsKeptOnce() {
        // The copies completed the task and edited its text: their version leads, the file's is marked.
        let file = "call mom tonight uid:k1\n"
        let copy = "x 2026-11-29 call mom uid:k1\n"
        let merged = lines(reconcile(file, [copy, copy, copy]))
        #expect(merged == ["x 2026-11-29 call mom uid:k1", "call mom tonight uid:k1 conflict:file"])
    }

    @Test func aCopyThatAlreadyCarriesTheLeftoverLineAddsNoSecond() {
        // The other machine reconciled an older copy itself and synced the result back as a copy.
        let file = "(A) call mom uid:k1\n"
        let copy = "(B) call mom uid:k1\n(B) call mom uid:k1 conflict:copy\n"
        let merged = lines(reconcile(file, [copy]))
        #expect(merged.filter { $0 == "(B) call mom uid:k1 conflict:copy" }.count == 1, "\(merged)")
        #expect(merged.first == "(A) call mom uid:k1")
    }

    @Test func theFilesOwnLineIsNeverTakenForTheLeftover() {
        // The file's own open line already carries `conflict:file`; a copy completes the task with
        // other text. Marking the file's version gives the file's own bytes: they must stay.
        let file = "call mom tonight uid:k1 conflict:file\n"
        let copy = "x 2026-11-29 call mom uid:k1\n"
        let merged = lines(reconcile(file, [copy]))
        #expect(merged.count == 2, "\(merged)")
        #expect(merged.first?.hasPrefix("x 2026-11-29 call mom uid:k1") == true, "\(merged)")
        #expect(merged.contains("call mom tonight uid:k1 conflict:file"), "\(merged)")
    }

    @Test func aSingleCopyStillKeepsBothVersions() {
        let result = TodoMerge.twoWay(file: document("(A) a uid:k1\nz\n"), copy: document("(B) a uid:k1\nz\n"), doneUIDs: [])
        #expect(String(decoding: result.bytes, as: UTF8.self) == "(A) a uid:k1\n(B) a uid:k1 conflict:copy\nz\n")
        #expect(result.reports.map(\.kind) == [.keptBothVersions])
    }
}
