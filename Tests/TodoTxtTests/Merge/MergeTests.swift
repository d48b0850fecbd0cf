import Testing
import TodoTestSupport
import TodoTxt

private func document(_ text: String) -> TodoDocument { TodoDocument(text) }
private func text(_ result: MergeResult) -> String { String(decoding: result.bytes, as: UTF8.self) }
private func merge3(_ base: String, _ ours: String, _ theirs: String, markerSize: Int = 7) -> MergeResult {
    TodoMerge.threeWay(base: document(base), ours: document(ours), theirs: document(theirs), markerSize: markerSize)
}

@Suite struct MergeThreeWayTests {
    @Test func conflictIsReportedAsData() {
        let result = merge3("(C) call mom uid:k1\n", "(A) call mom uid:k1\n", "(B) call mom @phone uid:k1\n")
        #expect(!result.isClean)
        #expect(result.conflicts.count == 1)
        let conflict = result.conflicts[0]
        #expect(conflict.uid == "k1")
        #expect(conflict.base == Array("(C) call mom uid:k1".utf8))
        #expect(conflict.ours == Array("(A) call mom uid:k1".utf8))
        #expect(conflict.theirs == Array("(B) call mom @phone uid:k1".utf8))
        #expect(conflict.fields == [.priority])
        #expect(result.reports.map(\.kind) == [.conflict])
        #expect(result.reports[0].description == "conflict (priority): (A) call mom uid:k1")
    }

    @Test func severalConflictingFieldsAreAllListed() {
        let result = merge3("a due:2026-01-01 uid:k1\n", "(A) a b due:2026-01-02 uid:k1\n", "(B) a c due:2026-01-03 uid:k1\n")
        #expect(result.conflicts.first?.fields == [.priority, .tag("due"), .description])
    }

    @Test func markerSizeIsHonoured() {
        let result = merge3("a uid:k1\n", "(A) a uid:k1\n", "(B) a uid:k1\n", markerSize: 3)
        #expect(text(result) == "<<< ours\n(A) a uid:k1\n===\n(B) a uid:k1\n>>> theirs\n")
    }

    @Test func reportsForEditDeleteRows() {
        let weEdited = merge3("a uid:k1\nb uid:k2\n", "a +x uid:k1\nb uid:k2\n", "b +y uid:k2\n")
        #expect(text(weEdited) == "a +x uid:k1\nb +y uid:k2\n")
        #expect(weEdited.reports.map(\.kind) == [.keptEditedDeletedByThem])
        #expect(weEdited.reports[0].description == "kept task edited by us and deleted by them: a +x uid:k1")
        #expect(weEdited.isClean)

        let theyEdited = merge3("a uid:k1\nb uid:k2\n", "b +y uid:k2\n", "a +x uid:k1\nb uid:k2\n")
        #expect(text(theyEdited) == "a +x uid:k1\nb +y uid:k2\n")
        #expect(theyEdited.reports.map(\.kind) == [.keptEditedDeletedByUs])
        #expect(theyEdited.reports[0].uid == "k1")
    }

    @Test func fieldMergeReportNamesTheChangedFields() {
        let result = merge3("(B) a uid:k1\n", "(A) a uid:k1\n", "(B) a due:2026-12-01 uid:k1\n")
        #expect(text(result) == "(A) a uid:k1 due:2026-12-01\n")
        #expect(result.reports.map(\.kind) == [.fieldsMerged])
        #expect(result.reports[0].fields == [.priority, .tag("due")])
    }

    /// Both sides hold a task with one uid that BASE lacks (a cherry-pick's history, a line copied to
    /// both), in different versions: one conflict block, never two lines with one uid (issue 13).
    @Test func sameUIDAddedOnBothSidesDifferentlyIsAConflictNotADuplicate() {
        let result = merge3("a uid:k1\n", "a uid:k1\nmine uid:dd\n", "a uid:k1\nx 2026-11-29 theirs uid:dd\n")
        #expect(text(result) == "a uid:k1\n<<<<<<< ours\nmine uid:dd\n=======\nx 2026-11-29 theirs uid:dd\n>>>>>>> theirs\n")
        #expect(!result.isClean)
        #expect(result.reports.map(\.kind) == [.conflict])
        #expect(result.conflicts.first?.base == nil)
    }

    @Test func wholeFileShortcutsAreByteExact() {
        let base = "a uid:k1\r\nb\n", changed = "\u{FEFF}b\r\na uid:k1 +x"
        #expect(text(merge3(base, base, changed)) == changed)
        #expect(text(merge3(base, changed, base)) == changed)
        #expect(text(merge3(base, changed, changed)) == changed)
    }

    @Test func unusualHeaderThatCannotBeRebuiltBecomesConflictNotOddLine() {
        // THEIRS drops the completion date but keeps the creation date (`x (A) D …`); OURS changes the
        // text. On OURS' line, removing the completion date would turn the creation date into one:
        // the rebuild check refuses, so the task is a conflict rather than a wrong line.
        let result = merge3("x 2026-11-01 2026-10-01 a uid:k1\n",
                            "x 2026-11-01 2026-10-01 b uid:k1\n",
                            "x (A) 2026-10-01 a uid:k1\n")
        #expect(result.conflicts.first?.fields == [.line])
        #expect(text(result) == "<<<<<<< ours\nx 2026-11-01 2026-10-01 b uid:k1\n=======\n"
                                + "x (A) 2026-10-01 a uid:k1\n>>>>>>> theirs\n")
    }

    @Test func sortedOursKeepsConflictBlockWithOursVersion() {
        let base = "a uid:k1\nb uid:k2\nx 2026-11-01 c uid:k3\n"
        let ours = "(A) a uid:k1\nb uid:k2\nx 2026-11-01 c uid:k3\n"
        let theirs = "(B) a uid:k1\nx 2026-11-29 b uid:k2\nx 2026-11-01 c uid:k3\n"
        #expect(text(merge3(base, ours, theirs)) ==
                "<<<<<<< ours\n(A) a uid:k1\n=======\n(B) a uid:k1\n>>>>>>> theirs\n"
                + "x 2026-11-29 b uid:k2\nx 2026-11-01 c uid:k3\n")
    }

    @Test func theirsLineEndingInBareCRKeepsItsCR() {
        // THEIRS' line content ends in CR (file bytes "c\r\r\n"); written with LF it would lose the CR.
        let result = TodoMerge.threeWay(base: document("a uid:k1\n"), ours: document("a +x uid:k1\n"),
                                        theirs: TodoDocument(bytes: Array("a uid:k1\nc\r\r\n".utf8)))
        let merged = result.document
        #expect(merged.lineCount == 2)
        #expect(Array(merged.content(at: 1)) == [0x63, 0x0D])
    }

    @Test func binaryGarbageSidesKeepEveryLine() {
        var generator = SplitMix64(seed: 42)
        for _ in 0..<200 {
            let ours = randomBytes(&generator), theirs = randomBytes(&generator)
            let result = TodoMerge.threeWay(base: TodoDocument(), ours: TodoDocument(bytes: ours), theirs: TodoDocument(bytes: theirs))
            // Without a base nothing is deleted: each distinct line appears max(count in ours, in theirs)
            // times at least (more only inside conflict blocks or for duplicate uids kept twice).
            let got = lineCounts(result.document)
            let oursCounts = lineCounts(TodoDocument(bytes: ours)), theirsCounts = lineCounts(TodoDocument(bytes: theirs))
            for (line, count) in oursCounts.merging(theirsCounts, uniquingKeysWith: max) {
                #expect((got[line] ?? 0) >= count, "line \(line) lost")
            }
            #expect(TodoDocument(bytes: result.bytes).rendered() == result.bytes)
        }
    }

    private func randomBytes(_ generator: inout SplitMix64) -> [UInt8] {
        let alphabet: [UInt8] = [0x00, 0x0A, 0x0D, 0x20, 0x78, 0x28, 0x41, 0x29, 0x75, 0x69, 0x64, 0x3A, 0x61, 0xFF, 0xC3, 0xEF, 0xBB, 0xBF, 0x2B, 0x40]
        let count = Int(generator.next() % 120)
        var bytes: [UInt8] = []
        for _ in 0..<count { bytes.append(alphabet[Int(generator.next() % UInt64(alphabet.count))]) }
        if generator.next() % 4 == 0 { bytes += Array("x uid:q\n".utf8) }
        return bytes
    }

    private func lineCounts(_ document: TodoDocument) -> [[UInt8]: Int] {
        var counts: [[UInt8]: Int] = [:]
        for index in 0..<document.lineCount { counts[Array(document.content(at: index)), default: 0] += 1 }
        return counts
    }
}

@Suite struct MergeTwoWayTests {
    private func merge2(_ file: String, _ copy: String, done: Set<String> = []) -> MergeResult {
        TodoMerge.twoWay(file: document(file), copy: document(copy), doneUIDs: done)
    }

    @Test func identicalGivesFileBytes() {
        let result = merge2("a uid:k1\r\n", "a uid:k1\r\n")
        #expect(text(result) == "a uid:k1\r\n")
        #expect(result.reports.isEmpty)
    }

    @Test func tasksOnOneSideAreKeptAndPlacedByNeighbour() {
        let result = merge2("a uid:k1\nb uid:k2\nfile only uid:f1\n", "a uid:k1\ncopy only uid:c1\nb uid:k2\n")
        #expect(text(result) == "a uid:k1\ncopy only uid:c1\nb uid:k2\nfile only uid:f1\n")
        #expect(result.reports.map(\.kind) == [.addedFromCopy])
        #expect(result.isClean)
    }

    @Test func archivedTaskFromCopyIsNotResurrectedButFileLinesStay() {
        let result = merge2("a uid:k1\nrecurring uid:r1\n", "a uid:k1\nold uid:k2\n", done: ["k2", "r1"])
        #expect(text(result) == "a uid:k1\nrecurring uid:r1\n")
        #expect(result.reports.map(\.kind) == [.notResurrected])
        #expect(result.reports[0].uid == "k2")
    }

    @Test func completedBeatsOpenAndOtherFieldsMerge() {
        let result = merge2("(A) pay rent due:2026-12-01 uid:k1\n", "x 2026-11-29 pay rent uid:k1 pri:A @bank\n")
        #expect(text(result) == "x 2026-11-29 pay rent uid:k1 pri:A @bank due:2026-12-01\n")
        #expect(result.reports.map(\.kind) == [.fieldsMerged])
    }

    @Test func unmergeableDifferenceKeepsBothFurtherAlongFirst() {
        let result = merge2("call mom tonight +family uid:k1\n", "x 2026-11-29 call mom uid:k1\n")
        #expect(text(result) ==
                "x 2026-11-29 call mom uid:k1 +family\ncall mom tonight +family uid:k1 conflict:file\n")
        #expect(result.reports.map(\.kind) == [.keptBothVersions])
        #expect(result.reports[0].fields == [.description])
        #expect(UIDIndex(result.document).owners["k1"] == 0)
        #expect(result.conflicts.isEmpty)
    }

    @Test func equallyFarAlongKeepsFileVersionFirstAndMarksCopy() {
        let result = merge2("(A) a uid:k1\nz\n", "(B) a uid:k1\nz\n")
        #expect(text(result) == "(A) a uid:k1\n(B) a uid:k1 conflict:copy\nz\n")
        #expect(result.reports[0].fields == [.priority])
    }

    @Test func linesWithoutUIDAreUnitedAsMultisets() {
        let result = merge2("buy milk\nbuy milk\ncall mom\n", "buy milk\ncall mom @phone\nbuy milk\nbuy milk\nbuy milk\n")
        // Copy lines go after their anchor, past the file-only lines right after it.
        #expect(text(result) == "buy milk\ncall mom @phone\nbuy milk\ncall mom\nbuy milk\nbuy milk\n")
    }

    @Test func layoutFollowsFileAndSortedFileStaysSorted() {
        let file = "\u{FEFF}a uid:k1\r\nx 2026-11-01 b uid:k2\r\n"
        let copy = "a uid:k1\nx 2026-11-01 b uid:k2\nx 2026-11-28 c uid:k3\nnew uid:k4\n"
        #expect(text(merge2(file, copy)) ==
                "\u{FEFF}a uid:k1\r\nnew uid:k4\r\nx 2026-11-01 b uid:k2\r\nx 2026-11-28 c uid:k3\r\n")
    }
}

