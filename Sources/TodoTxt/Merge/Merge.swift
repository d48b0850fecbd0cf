/// Merging todo.txt files by task identity instead of by line (docs/sync.md).
///
/// Entry points, all pure (no I/O, no clock, no randomness):
/// - `threeWay(base:ours:theirs:)` for git's merge driver (docs/sync.md section 1);
/// - `twoWay(file:copy:doneUIDs:)` for conflict copies left by sync clients (docs/sync.md section 2);
/// - `threeWayLine(base:ours:theirs:)` for one task line, the field merge alone (`todo ui`'s edit field).
///
/// **Matching.** A task with a `uid:` (or Simpletask's `uuid:`) matches the task with the same uid on
/// the other side. When several lines of one file hold the same uid, its owner (the only completed
/// holder, else the first) matches by uid and the other holders match like lines without a uid: by
/// identical bytes, as a multiset (the k-th occurrence of a line in one file matches the k-th
/// occurrence in the other). In a three-way merge, when BASE holds the uid and BASE or a side holds
/// it on several lines, each side's holders are matched with BASE's: identical bytes first (k-th copy
/// to k-th copy), then the owner of what is left on each side with the owner of what is left in
/// BASE; the rest are additions or deletions, so a copy deleted on one side stays deleted. Blank lines are such lines too, so they follow the same
/// table: a blank line one side added is kept, one that a side removed is removed.
///
/// Complexity: O(n) expected in the total number of lines (hash maps keyed by uid or line bytes),
/// plus O(k log k) per task that both sides changed, for its k tags.
public enum TodoMerge {}

/// A field of a task that two versions can disagree on (see `MergeFields` for the definitions).
public enum MergeField: Sendable, Hashable, CustomStringConvertible {
    /// Done or open, with the completion date.
    case completion
    /// The creation date.
    case creationDate
    /// The header priority, or the `pri:` tag of a completed task.
    case priority
    /// Every value of one tag key.
    case tag(String)
    /// The words of the body that are not projects, contexts or tags.
    case description
    /// The sets of projects and contexts (merged element by element: reported, never a conflict).
    case projectsAndContexts
    /// The fields merged cleanly but the merged line could not be rebuilt exactly (an unusual
    /// header or repeated `pri:` tags); treated as a conflict so nothing odd is written silently.
    case line

    public var description: String {
        switch self {
        case .completion: return "completion"
        case .creationDate: return "creation date"
        case .priority: return "priority"
        case .tag(let key): return "tag \(key):"
        case .description: return "text"
        case .projectsAndContexts: return "projects/contexts"
        case .line: return "line"
        }
    }
}

/// A task both sides changed in ways the field merge cannot settle (three-way merge only).
///
/// The merged document holds both versions between git's markers, at the task's place:
/// ```
/// <<<<<<< ours
/// (A) call mom uid:k3f9qz
/// =======
/// (B) call mom uid:k3f9qz
/// >>>>>>> theirs
/// ```
public struct MergeConflict: Sendable, Equatable {
    /// The task's uid (conflicts only arise for tasks matched by uid).
    public let uid: String?
    /// BASE's version of the line, without terminator.
    public let base: [UInt8]?
    /// OURS' version.
    public let ours: [UInt8]
    /// THEIRS' version.
    public let theirs: [UInt8]
    /// The fields both sides changed differently, in a fixed order.
    public let fields: [MergeField]

    /// OURS' version, lossily decoded.
    public var text: String { lossyString(ours) }
}

/// Something the merge did that the user should hear about (the CLI prints these).
public struct MergeReport: Sendable, Equatable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Sendable, Equatable {
        /// Three-way: we edited a task they deleted; our version is kept.
        case keptEditedDeletedByThem
        /// Three-way: they edited a task we deleted; their version is kept.
        case keptEditedDeletedByUs
        /// Three-way: both sides added a task with this uid, with different text; both are kept and the
        /// uid's owner follows docs/format.md section 4 (the only completed holder, else the first).
        case duplicateUIDAdded
        /// Both sides changed the task; the changes touched different fields and were combined.
        case fieldsMerged
        /// Three-way: both sides changed the same field differently; both versions are between markers.
        case conflict
        /// Two-way: a task only the conflict copy has was added to the file.
        case addedFromCopy
        /// Two-way: a task only the copy has was not added because its uid is in the done file.
        case notResurrected
        /// Two-way: both versions kept a difference; the one further along is kept and the other is
        /// kept too, marked with a `conflict:` tag.
        case keptBothVersions
        /// Three-way: one side archived the task (it is in that side's done file) and the other
        /// changed its text; the task stays archived and the text change is not kept.
        case archivedTextEditDropped
        /// Three-way, done file: both sides archived the task (same uid, different lines); one copy
        /// is kept, OURS'.
        case archivedTwiceKeptOnce
    }

    /// What happened.
    public let kind: Kind
    /// The task's uid, if it has one.
    public let uid: String?
    /// The line concerned (the version kept), lossily decoded.
    public let text: String
    /// The fields involved (for `fieldsMerged`, `conflict` and `keptBothVersions`).
    public let fields: [MergeField]

    /// One line for the user, e.g. `kept task edited by us and deleted by them: (A) call mom uid:k3`.
    public var description: String {
        // ` (priority, text)`, or nothing: never an empty `()`.
        let list = fields.isEmpty ? "" : " (" + fields.map(\.description).joined(separator: ", ") + ")"
        switch kind {
        case .keptEditedDeletedByThem: return "kept task edited by us and deleted by them: \(text)"
        case .keptEditedDeletedByUs: return "kept task edited by them and deleted by us: \(text)"
        case .duplicateUIDAdded: return "both sides added a task with uid \(uid ?? ""); kept both: \(text)"
        case .fieldsMerged: return "merged changes from both sides\(list): \(text)"
        case .conflict: return "conflict\(list): \(text)"
        case .addedFromCopy: return "added from the conflict copy: \(text)"
        case .notResurrected: return "not resurrected (already in the done file): \(text)"
        case .keptBothVersions: return "kept both versions\(list); the other is marked conflict: \(text)"
        case .archivedTextEditDropped:
            return "task archived on one side, its text edited on the other: it stays archived; the edit was: \(text)"
        case .archivedTwiceKeptOnce: return "both sides archived the task with uid \(uid ?? ""); kept once: \(text)"
        }
    }
}

/// The outcome of a merge: the merged file, its conflicts and what was done.
public struct MergeResult: Sendable {
    /// The merged file. Render it with `document.rendered()` (or use `bytes`).
    public let document: TodoDocument
    /// Tasks left between conflict markers (three-way only; empty when clean).
    public let conflicts: [MergeConflict]
    /// What the merge did, in result order of discovery (OURS' lines first, then THEIRS').
    public let reports: [MergeReport]

    /// The merged file's bytes.
    public var bytes: [UInt8] { document.rendered() }

    /// No conflict markers remain.
    public var isClean: Bool { conflicts.isEmpty }
}

extension TodoMerge {
    /// Git's default conflict marker length.
    public static let defaultMarkerSize = 7

    /// Merges OURS and THEIRS, which both descend from BASE, task by task (docs/sync.md section 1).
    ///
    /// Whole-file shortcuts first, byte-exact: OURS equal to THEIRS or THEIRS equal to BASE gives
    /// OURS; OURS equal to BASE gives THEIRS. Otherwise each task follows docs/sync.md's table; a task both
    /// sides changed is merged field by field (`MergeField`), and when both changed one field
    /// differently the task becomes a conflict block, OURS' version first.
    ///
    /// Layout: the result follows OURS' order. A line only THEIRS has goes after its nearest
    /// preceding line in THEIRS that is in the result, past any lines only OURS added right there (so
    /// when both sides append, ours come first, then theirs); with no such line, at the start (after
    /// any lines only OURS added there). If OURS is sorted (no open line after a completed task, and
    /// OURS, or a sorted BASE, holds a completed task), the result is stably partitioned the same way;
    /// a conflict block counts as OURS' version. BOM, final newline and line endings follow OURS:
    /// OURS' lines keep their terminators, other lines take OURS' dominant one. When OURS has no lines
    /// these follow THEIRS (a BOM in OURS is still kept). An empty last line always keeps a terminator,
    /// even when OURS has no final newline: without one it would not be a line at all.
    ///
    /// - Parameters:
    ///   - base: the version both sides descend from (git's `%O`).
    ///   - ours: this side's version (`%A`), whose order and layout the result follows.
    ///   - theirs: the other side's version (`%B`).
    ///   - markerSize: the length of the conflict markers (git passes it as `%L`), at least 1.
    /// - Complexity: O(n) expected in the total number of lines.
    public static func threeWay(base: TodoDocument, ours: TodoDocument, theirs: TodoDocument,
                                markerSize: Int = defaultMarkerSize) -> MergeResult {
        threeWay(base: base, ours: ours, theirs: theirs, options: ThreeWayOptions(markerSize: markerSize))
    }

    /// `threeWay` with what the caller knows beyond the three versions (`ThreeWayOptions`): the
    /// tasks archived on either side, whether the file is a done file, the labels git gives the sides.
    public static func threeWay(base: TodoDocument, ours: TodoDocument, theirs: TodoDocument,
                                options: ThreeWayOptions) -> MergeResult {
        threeWay(base: base.rendered(), ours: ours.rendered(), theirs: theirs.rendered(), options: options).result
    }

    /// `threeWay` on the files' bytes, its result as runs of them (`MergeOutput`), for a caller
    /// that writes it without building it.
    ///
    /// For inputs each under 4 GiB whose uids are ASCII, each held by at most one line per input
    /// (nearly every file), the compact merge runs (`CompactIndex`: a few bytes per line beside the
    /// inputs); for any other input, the general one. Both give the same bytes and reports.
    public static func threeWay(base: [UInt8], ours: [UInt8], theirs: [UInt8], options: ThreeWayOptions) -> MergeOutput {
        unmergedThreeWay(base: base, ours: ours, theirs: theirs)
            ?? CompactThreeWay.merge(base: base, ours: ours, theirs: theirs, options: options)
            ?? generalThreeWay(base: base, ours: ours, theirs: theirs, options: options)
    }

    /// The result of a three-way merge that merges no line: one side holds every change (or both
    /// the same ones), so the result is that side's bytes; nil when lines must be merged. Every
    /// `threeWay` starts with it; a caller checks it first to skip preparing the inputs.
    public static func unmergedThreeWay(base: [UInt8], ours: [UInt8], theirs: [UInt8]) -> MergeOutput? {
        if sameBytes(ours[...], theirs[...]) || sameBytes(theirs[...], base[...]) {
            return MergeOutput(bytes: ours, conflicts: [], reports: [])
        }
        if sameBytes(ours[...], base[...]) { return MergeOutput(bytes: theirs, conflicts: [], reports: []) }
        return nil
    }

    /// BASE indexed ahead, for `threeWay` with a `PreparedMergeBase`: the costliest step that needs
    /// only BASE, so that a caller with a second core can run it while it still reads OURS and
    /// THEIRS (docs/notes/speed-commands.md, "Round four").
    public static func prepareBase(_ base: [UInt8]) -> PreparedMergeBase {
        PreparedMergeBase(bytes: base, scan: CompactFirstScan(base, side: CompactThreeWay.baseSide, sideCount: 3, keepEntries: false))
    }

    /// `threeWay(base:ours:theirs:options:)` on BASE indexed ahead (`prepareBase`), OURS and THEIRS
    /// not lined up: the same result. Consumes `base`, as the form with prepared sides does.
    public static func threeWay(base: consuming PreparedMergeBase, ours: [UInt8], theirs: [UInt8], options: ThreeWayOptions,
                                workers: MergeWorkers = .oneThread) -> MergeOutput {
        threeWay(base: consume base, ours: PreparedMergeSide(bytes: ours, alignment: nil), theirs: PreparedMergeSide(bytes: theirs, alignment: nil),
                 options: options, workers: workers)
    }

    /// OURS, THEIRS or the file a copy is reconciled into, lined up against the merge's first input
    /// (BASE, or the copy) before that one is indexed (`CompactAlignment`): the comparisons of the
    /// merge's scan that need only the two files' bytes, so that a caller can run them while the
    /// first input is indexed on another thread. For `threeWay` and `twoWay` with prepared sides;
    /// the result is the same.
    public static func prepareSide(_ bytes: [UInt8], against first: [UInt8]) -> PreparedMergeSide {
        PreparedMergeSide(bytes: bytes, alignment: bytes.count < Int(UInt32.max) && first.count < Int(UInt32.max)
                            ? CompactAlignment(bytes, against: first) : nil)
    }

    /// `threeWay(base:ours:theirs:options:)` on BASE indexed ahead and OURS and THEIRS lined up
    /// against it (`prepareSide` against BASE's bytes): the same result. Consumes what it is given,
    /// which the merge extends and fills in place (a copy held elsewhere would make it duplicate
    /// them first). `workers` may run the two halves of the decisions on a large OURS at once
    /// (`MergeWorkers`); the result is the same either way.
    public static func threeWay(base: consuming PreparedMergeBase, ours: consuming PreparedMergeSide, theirs: consuming PreparedMergeSide,
                                options: ThreeWayOptions, workers: MergeWorkers = .oneThread) -> MergeOutput {
        let (baseBytes, oursBytes, theirsBytes) = (base.bytes, ours.bytes, theirs.bytes)
        if let unmerged = unmergedThreeWay(base: baseBytes, ours: oursBytes, theirs: theirsBytes) { return unmerged }
        if let scan = (consume base).scan,
           let merged = CompactThreeWay.merge(base: scan, ours: oursBytes, theirs: theirsBytes, options: options, workers: workers,
                                              oursAligned: (consume ours).alignment.flatMap { $0.isAligned(with: baseBytes) ? $0 : nil },
                                              theirsAligned: (consume theirs).alignment.flatMap { $0.isAligned(with: baseBytes) ? $0 : nil }) {
            return merged
        }
        return generalThreeWay(base: baseBytes, ours: oursBytes, theirs: theirsBytes, options: options)
    }

    /// A conflict copy indexed ahead, for `twoWay` with a `PreparedConflictCopy`: the costliest step
    /// that needs only the copy, so that a caller with a second core can run it while it still
    /// reads the file.
    public static func prepareCopy(_ copy: [UInt8]) -> PreparedConflictCopy {
        PreparedConflictCopy(bytes: copy, scan: CompactFirstScan(copy, side: CompactTwoWay.copySide, sideCount: 2, keepEntries: true))
    }

    /// The result of a two-way merge that merges no line (the file and the copy are the same), nil
    /// otherwise; as `unmergedThreeWay`.
    public static func unmergedTwoWay(file: [UInt8], copy: [UInt8]) -> MergeOutput? {
        sameBytes(file[...], copy[...]) ? MergeOutput(bytes: file, conflicts: [], reports: []) : nil
    }

    /// `twoWay(file:copy:doneUIDs:)` on the copy indexed ahead (`prepareCopy`) and the file lined up
    /// against it (`prepareSide` against the copy's bytes): the same result. Consumes what it is
    /// given, as the three-way form does; `workers` as there.
    public static func twoWay(file: consuming PreparedMergeSide, copy: consuming PreparedConflictCopy, doneUIDs: Set<String>,
                              workers: MergeWorkers = .oneThread) -> MergeOutput {
        let (fileBytes, copyBytes) = (file.bytes, copy.bytes)
        if let unmerged = unmergedTwoWay(file: fileBytes, copy: copyBytes) { return unmerged }
        if let scan = (consume copy).scan,
           let merged = CompactTwoWay.merge(file: fileBytes, copy: scan, doneUIDs: doneUIDs, workers: workers,
                                            fileAligned: (consume file).alignment.flatMap { $0.isAligned(with: copyBytes) ? $0 : nil }) {
            return merged
        }
        return generalTwoWay(file: fileBytes, copy: copyBytes, doneUIDs: doneUIDs)
    }

    /// `twoWay(file:copy:doneUIDs:)` on the copy indexed ahead, the file not lined up: the same result.
    public static func twoWay(file: [UInt8], copy: consuming PreparedConflictCopy, doneUIDs: Set<String>,
                              workers: MergeWorkers = .oneThread) -> MergeOutput {
        twoWay(file: PreparedMergeSide(bytes: file, alignment: nil), copy: consume copy, doneUIDs: doneUIDs, workers: workers)
    }

    /// The general three-way merge (documents, keys and units), past the whole-file shortcuts.
    static func generalThreeWay(base: [UInt8], ours: [UInt8], theirs: [UInt8], options: ThreeWayOptions) -> MergeOutput {
        var merger = ThreeWayMerger(base: TodoDocument(bytes: base), ours: TodoDocument(bytes: ours),
                                    theirs: TodoDocument(bytes: theirs), options: options)
        let result = merger.run()
        return MergeOutput(bytes: result.document.rendered(), conflicts: result.conflicts, reports: result.reports)
    }

    /// Merges a sync client's conflict copy into the file without a common base (docs/sync.md section 2).
    ///
    /// A task on one side only is kept, except a task only the copy has whose uid is in `doneUIDs`
    /// (archived: not resurrected; reported). The file's own lines are never dropped: a file-only task
    /// whose uid is also in the done file may be a recurring copy that kept its uid. Tasks matched on both sides that differ are
    /// merged field by field: completed beats open, a value beats none, projects and contexts are
    /// united. When a difference remains (text, or two different values of one field), the result keeps
    /// the version further along (completed beats open; the file's when both are equally far), with
    /// every mergeable field merged into it, and right after it the other version unchanged but for an
    /// appended tag `conflict:copy` (or `conflict:file`, naming where that version came from), so
    /// it stays a valid task the user sees. That marked line keeps its uid; the first line owns it
    /// (docs/format.md section 4) and the backfill command gives it a fresh one.
    ///
    /// Order, sorting and layout follow the file as `threeWay` follows OURS. Identical bytes give the
    /// file unchanged. Never leaves conflict markers: `conflicts` is always empty.
    ///
    /// - Complexity: O(n) expected in the total number of lines.
    public static func twoWay(file: TodoDocument, copy: TodoDocument, doneUIDs: Set<String>) -> MergeResult {
        twoWay(file: file.rendered(), copy: copy.rendered(), doneUIDs: doneUIDs).result
    }

    /// `twoWay` on the files' bytes, its result as runs of them (`MergeOutput`); the compact merge
    /// where it applies, as for `threeWay(base:ours:theirs:options:)`.
    public static func twoWay(file: [UInt8], copy: [UInt8], doneUIDs: Set<String>) -> MergeOutput {
        unmergedTwoWay(file: file, copy: copy)
            ?? CompactTwoWay.merge(file: file, copy: copy, doneUIDs: doneUIDs)
            ?? generalTwoWay(file: file, copy: copy, doneUIDs: doneUIDs)
    }

    /// The general two-way merge, past the whole-file shortcut.
    static func generalTwoWay(file: [UInt8], copy: [UInt8], doneUIDs: Set<String>) -> MergeOutput {
        var merger = TwoWayMerger(file: TodoDocument(bytes: file), copy: TodoDocument(bytes: copy), doneUIDs: doneUIDs)
        let result = merger.run()
        return MergeOutput(bytes: result.document.rendered(), conflicts: [], reports: result.reports)
    }
}

/// What a three-way merge may know beyond the three versions.
/// How a merge may run two independent halves of its work at the same time. TodoTxt starts no
/// thread of its own (it is pure code: docs/architecture.md); a caller with a core to spare passes
/// workers that run `second` on another thread while `first` runs on the calling one. The halves
/// write disjoint state and read only what neither changes.
public struct MergeWorkers: Sendable {
    /// Runs both pieces and returns once both have returned.
    public let runBoth: @Sendable (_ first: () -> Void, _ second: () -> Void) -> Void
    /// The input size from which the work is cut in two (`CompactHalves.threshold`); tests lower it
    /// to cut small inputs.
    var halvingThreshold = CompactHalves.threshold

    public init(runBoth: @escaping @Sendable (_ first: () -> Void, _ second: () -> Void) -> Void) {
        self.runBoth = runBoth
    }

    /// Both pieces on the calling thread, one after the other.
    public static let oneThread = MergeWorkers { first, second in
        first()
        second()
    }
}

/// A three-way merge's BASE, read and indexed before OURS and THEIRS are at hand
/// (`TodoMerge.prepareBase`). A value: it can be made on one thread and merged on another, and used
/// for any number of merges.
public struct PreparedMergeBase: Sendable {
    /// BASE's bytes, as given.
    public let bytes: [UInt8]
    /// The compact merge's scan of BASE; nil when BASE is outside its reach (the general merge runs).
    let scan: CompactFirstScan?
}

/// A merge input lined up against the merge's first input (`TodoMerge.prepareSide`); a value, like
/// `PreparedMergeBase`.
public struct PreparedMergeSide: Sendable {
    /// The input's bytes, as given.
    public let bytes: [UInt8]
    /// Its lines' partners in the first input; nil for an input too large for the compact merge.
    let alignment: CompactAlignment?
}

/// A conflict copy, read and indexed before the file it merges into is at hand
/// (`TodoMerge.prepareCopy`); a value, like `PreparedMergeBase`.
public struct PreparedConflictCopy: Sendable {
    /// The copy's bytes, as given.
    public let bytes: [UInt8]
    /// The compact merge's scan of the copy; nil when it is outside its reach.
    let scan: CompactFirstScan?
}

public struct ThreeWayOptions: Sendable {
    /// The length of the conflict markers (git's `%L`), at least 1.
    public var markerSize: Int
    /// The uids completed in either side's done file (the commits being merged): a task deleted on
    /// one side whose uid is here was archived there, not deleted. Edited (not reopened) on the other
    /// side, it stays archived instead of coming back open (docs/sync.md section 1, "Archived is not deleted").
    public var archivedUIDs: Set<String>
    /// The file is a done file: a task both sides archived (same uid, different lines, as when both
    /// completed it on different days) is kept once, OURS' line, not twice.
    public var isDoneFile: Bool
    /// The labels of the two sides in conflict markers (git's `%X` and `%Y`: during a rebase they
    /// name the commits); `ours`/`theirs` when git gives none.
    public var oursLabel: String
    public var theirsLabel: String
    /// When set, no conflict block is ever left: a task both sides changed differently is settled as
    /// `twoWay` settles a conflict copy (docs/sync.md section 3, `todo sync`), and `conflicts` stays
    /// empty.
    public var settlement: ConflictSettlement?

    public init(markerSize: Int = TodoMerge.defaultMarkerSize, archivedUIDs: Set<String> = [], isDoneFile: Bool = false,
                oursLabel: String = "ours", theirsLabel: String = "theirs", settlement: ConflictSettlement? = nil) {
        self.markerSize = max(1, markerSize)
        self.archivedUIDs = archivedUIDs
        self.isDoneFile = isDoneFile
        self.oursLabel = oursLabel
        self.theirsLabel = theirsLabel
        self.settlement = settlement
    }
}
