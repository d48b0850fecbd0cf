import Testing
import TodoTxt

@Suite struct MergeConflictCopiesTests {
    private func parse(_ name: String, _ file: String = "todo.txt") -> ConflictCopy? {
        ConflictCopies.parse(name, copyOf: file)
    }

    @Test func dropboxCopiesAreRecognised() {
        let named = parse("todo (Ann's conflicted copy 2026-11-29).txt")
        #expect(named?.scheme == .dropbox)
        #expect(named?.stamp == "2026-11-29")
        #expect(named?.origin == "Ann")
        #expect(parse("todo (Ann\u{2019}s conflicted copy 2026-11-29).txt")?.origin == "Ann")
        #expect(parse("todo (Ann Lee's Laptop's conflicted copy 2026-11-29).txt")?.origin == "Ann Lee's Laptop")
        let anonymous = parse("todo (conflicted copy 2026-11-29).txt")
        #expect(anonymous?.scheme == .dropbox)
        #expect(anonymous?.origin == nil)
        #expect(parse("todo (conflicted copy 2026-11-29 (1)).txt")?.scheme == .dropbox)
        #expect(parse("todo (Ann's conflicted copy 2026-11-29) (2).txt")?.stamp == "2026-11-29")
        #expect(parse("todo (Ann's conflicted copy 2026-11-29 (12)).txt")?.origin == "Ann")
    }

    @Test func syncthingCopiesAreRecognised() {
        let copy = parse("todo.sync-conflict-20261129-101500-ABCDEFG.txt")
        #expect(copy?.scheme == .syncthing)
        #expect(copy?.stamp == "20261129-101500")
        #expect(copy?.origin == "ABCDEFG")
        #expect(parse("todo.sync-conflict-20261129-101500.txt")?.scheme == .syncthing)
        #expect(parse("todo.sync-conflict-20261129-101500-ABCDEFG", "todo")?.origin == "ABCDEFG")
        #expect(parse("my.todo.sync-conflict-20261129-101500-ABCDEFG.txt", "my.todo.txt")?.scheme == .syncthing)
    }

    @Test func nextcloudAndOwnCloudCopiesAreRecognised() {
        let copy = parse("todo (conflicted copy 2026-11-29 101500).txt")
        #expect(copy?.scheme == .nextcloud)
        #expect(copy?.stamp == "2026-11-29 101500")
        #expect(copy?.origin == nil)
        #expect(parse("todo (conflicted copy Ann 2026-11-29 101500).txt")?.origin == "Ann")
        #expect(parse("todo_conflict-20261129-101500.txt")?.scheme == .owncloud)
    }

    // MARK: - Round two: more clients (sync.md, "Reconcile, round two")

    /// Seafile: the desktop client's `gen_conflict_path` (stem, modifier, `%Y-%m-%d-%H-%M-%S`,
    /// extension) and the server merge's `genConflictPath` (whole name, Go's `2006-Jan-2-15-04-05`,
    /// the part after the first dot again).
    @Test func seafileCopiesAreRecognised() {
        let client = parse("todo (SFConflict ann@example.com 2026-11-29-10-15-00).txt")
        #expect(client?.scheme == .seafile)
        #expect(client?.stamp == "2026-11-29-10-15-00")
        #expect(client?.origin == "ann@example.com")
        let anonymous = parse("todo (SFConflict 2026-11-29-10-15-00).txt")
        #expect(anonymous?.scheme == .seafile)
        #expect(anonymous?.origin == nil)
        #expect(parse("done (SFConflict bob@example.org 2026-01-02-23-59-59).txt", "done.txt")?.origin == "bob@example.org")
        #expect(parse("my.todo (SFConflict a@b.example 2026-11-29-10-15-00).txt", "my.todo.txt")?.scheme == .seafile)
        #expect(parse("todo (SFConflict a@b.example 2026-11-29-10-15-00)", "todo")?.scheme == .seafile)
        let server = parse("todo.txt (SFConflict Ann Lee 2026-Nov-29-10-15-00).txt")
        #expect(server?.scheme == .seafile)
        #expect(server?.stamp == "2026-Nov-29-10-15-00")
        #expect(server?.origin == "Ann Lee")
        #expect(parse("todo.txt (SFConflict 2026-Dec-1-09-05-07).txt")?.stamp == "2026-Dec-1-09-05-07")
        #expect(parse("my.todo.txt (SFConflict Ann 2026-Nov-29-10-15-00).todo.txt", "my.todo.txt")?.scheme == .seafile)

        for name in ["todo (SFConflict ann@example.com 2026-11-29).txt", "todo (SFConflict ann@example.com 2026-11-29-24-15-00).txt",
                     "todo (SFConflict ann@example.com 2026-02-30-10-15-00).txt", "todo (SFconflict 2026-11-29-10-15-00).txt",
                     "todo (SFConflict  2026-11-29-10-15-00).txt", "todo(SFConflict 2026-11-29-10-15-00).txt",
                     "todo (SFConflict 2026-11-29-10-15-00) .txt", "todo (SFConflict 2026-11-29-10-15-00).md",
                     // The help page's shorthand, which neither the client nor the server writes:
                     "todo.txt (SFConflict ann@example.com 2026-11-29-10-15-00)",
                     // Each program's stamp only in its own form:
                     "todo (SFConflict Ann 2026-Nov-29-10-15-00).txt", "todo.txt (SFConflict Ann 2026-11-29-10-15-00).txt",
                     "todo.txt (SFConflict Ann 2026-Nov-09-10-15-00).txt", "todo.txt (SFConflict Ann 2026-nov-29-10-15-00).txt",
                     "todo.txt (SFConflict Ann 2026-Nov-29-10-15-00)", "other (SFConflict 2026-11-29-10-15-00).txt"] {
            #expect(parse(name) == nil, "\(name)")
        }
    }

    /// Resilio Sync: `NAME.Conflict.EXT`, where NAME.EXT is the file's name or one that clashes with
    /// it on a case-insensitive (or normalising) file system; numbered only without an extension.
    @Test func resilioSyncCopiesAreRecognised() {
        let copy = parse("todo.Conflict.txt")
        #expect(copy?.scheme == .resilio)
        #expect(copy?.stamp == "")
        #expect(copy?.origin == nil)
        #expect(parse("Todo.Conflict.txt")?.scheme == .resilio, "the clashing name of the other device")
        #expect(parse("TODO.Conflict.TXT")?.scheme == .resilio)
        #expect(parse("ta\u{0302}ches.Conflict.txt", "t\u{00E2}ches.txt")?.scheme == .resilio, "decomposed vs composed")
        #expect(parse("todo.Conflict", "todo")?.scheme == .resilio)
        #expect(parse("todo.Conflict2", "todo")?.scheme == .resilio)

        for name in ["todo.conflict.txt", "todo.CONFLICT.txt", "todo.Conflict1.txt", "todo.txt.Conflict", "todo.Conflict.md",
                     "todos.Conflict.txt", "todo.Conflict.Conflict.txt", "todo Conflict.txt", "todo.Conflicts.txt",
                     "todo.Conflict", "todo-Conflict.txt", ".Conflict.txt"] {
            #expect(parse(name) == nil, "\(name)")
        }
        #expect(parse("todo.Conflict.txt", "todo") == nil, "a file without an extension gets no extension")
        #expect(parse("todo.Conflict x", "todo") == nil)
    }

    /// OneDrive (the Linux client since v2.5.3): `NAME-HOSTNAME-safeBackup-NNNN.EXT`. The bare
    /// `NAME-HOSTNAME.EXT` cannot be told from a person's own file and is not recognised.
    @Test func oneDriveCopiesAreRecognised() {
        let copy = parse("todo-onedrive-client-dev-safeBackup-0001.txt")
        #expect(copy?.scheme == .onedrive)
        #expect(copy?.origin == "onedrive-client-dev")
        #expect(copy?.stamp == "")
        #expect(parse("todo-DESKTOP-5GU6T73-safeBackup-0002.txt")?.origin == "DESKTOP-5GU6T73")
        #expect(parse("todo-laptop.example.com-safeBackup-1000.txt")?.origin == "laptop.example.com")
        #expect(parse("done-ann_pc-safeBackup-0003.txt", "done.txt")?.scheme == .onedrive)
        #expect(parse("todo-host-safeBackup-0001", "todo")?.origin == "host")

        for name in ["todo-onedrive-client-dev.txt", "todo-onedrive-client-dev-2.txt", "todo-DESKTOP-5GU6T73.txt",
                     "todo-laptop.txt", "todo-work.txt", "todo-host-safeBackup-0000.txt", "todo-host-safeBackup-001.txt",
                     "todo-host-safeBackup-00001.txt", "todo--safeBackup-0001.txt", "todo-host-safebackup-0001.txt",
                     "todo-ho st-safeBackup-0001.txt", "todo_host-safeBackup-0001.txt", "todo-host-safeBackup-0001.md",
                     "todo-host-safeBackup-.txt", "todo-safeBackup-0001.txt", "todo-host-safeBackup-0001-2.txt"] {
            #expect(parse(name) == nil, "\(name)")
        }
    }

    /// Synology Drive: `STEM_CLIENT_Mon-DD-HHMM-YYYY_REASON[_N].EXT`, for the reasons `Conflict` and
    /// `CaseConflict` (whose stem may differ in letter case).
    @Test func synologyDriveCopiesAreRecognised() {
        let copy = parse("todo_Andy-PC_Jan-03-0901-2013_Conflict_1.txt")
        #expect(copy?.scheme == .synology)
        #expect(copy?.stamp == "Jan-03-0901-2013")
        #expect(copy?.origin == "Andy-PC")
        #expect(parse("todo_DiskStation_Nov-29-1015-2026_Conflict.txt")?.origin == "DiskStation")
        #expect(parse("todo_Andy-PC_Jan-03-0901-2013_CaseConflict_1.txt")?.scheme == .synology)
        #expect(parse("Todo_Andy-PC_Jan-03-0901-2013_CaseConflict_1.txt")?.scheme == .synology)
        #expect(parse("my_todo_My_PC_Feb-28-2359-2027_Conflict_12.txt", "my_todo.txt")?.origin == "My_PC")
        #expect(parse("todo_PC_Dec-31-0000-2026_Conflict", "todo")?.origin == "PC")

        for name in ["Todo_Andy-PC_Jan-03-0901-2013_Conflict_1.txt", "todo_Andy-PC_Jan-03-0901-2013_WhiteSpaceConflict_1.txt",
                     "todo_Andy-PC_Jan-03-0901-2013_TailCharacterConflict_1.txt", "todo_Andy-PC_Jan-03-0901-2013_TypeConflict_1.txt",
                     "todo_Andy-PC_Jan-32-0901-2013_Conflict_1.txt", "todo_Andy-PC_Feb-30-0901-2013_Conflict_1.txt",
                     "todo_Andy-PC_Jan-03-2401-2013_Conflict_1.txt", "todo_Andy-PC_Jan-03-0960-2013_Conflict_1.txt",
                     "todo_Andy-PC_jan-03-0901-2013_Conflict_1.txt", "todo_Andy-PC_Jan-3-0901-2013_Conflict_1.txt",
                     "todo__Jan-03-0901-2013_Conflict_1.txt", "todo_Jan-03-0901-2013_Conflict_1.txt",
                     "todo_Andy-PC_Jan-03-0901-2013_conflict_1.txt", "todo_Andy-PC_Jan-03-0901-2013_Conflict_x.txt",
                     "todo_Andy-PC_Jan-03-0901-2013_Conflict_1.md", "todo_Andy-PC_Jan-03-0901-2013.txt",
                     "todos_Andy-PC_Jan-03-0901-2013_Conflict_1.txt", "todo_Andy-PC_Jan-03-0901-2013_Conflict_.txt"] {
            #expect(parse(name) == nil, "\(name)")
        }
    }

    /// Syncthing copies of copies: one `.sync-conflict-…` segment per layer (older Syncthing).
    @Test func syncthingCopiesOfCopiesAreRecognised() {
        let twice = parse("todo.sync-conflict-20261129-101500-ABCDEFG.sync-conflict-20261130-080000-HIJKLMN.txt")
        #expect(twice?.scheme == .syncthing)
        #expect(twice?.stamp == "20261129-101500", "the first segment's")
        #expect(twice?.origin == "ABCDEFG")
        #expect(parse("todo.sync-conflict-20261129-101500.sync-conflict-20261130-080000.txt")?.scheme == .syncthing)
        #expect(parse("todo.sync-conflict-20261129-101500-ABCDEFG.sync-conflict-20261130-080000.sync-conflict-20261201-000000-ZZZZ777.txt")?.scheme ==
                .syncthing)
        #expect(parse("todo.sync-conflict-20261130-080000-HIJKLMN.sync-conflict-20261129-101500-ABCDEFG", "todo")?.scheme ==
                .syncthing, "without an extension, the newer segment comes first")

        for name in ["todo.sync-conflict-20261129-101500-ABCDEFG.sync-conflict.txt",
                     "todo.sync-conflict-20261129-101500-ABCDEFG.txt.sync-conflict-20261130-080000-HIJKLMN.txt",
                     "todo.sync-conflict-20261129-101500-ABCDEFG..sync-conflict-20261130-080000.txt",
                     "todo.sync-conflict-20261129-101500-ABCDEFGsync-conflict-20261130-080000.txt",
                     "todo.sync-conflict-20261129-101500-ABCDEFG.sync-conflict-20261130-080000-HIJKLM.txt",
                     "todo.sync-conflict-20261129-101500-ABCDEFG.sync-conflict-20261330-080000.txt",
                     "todo.sync-conflict-20261129-101500-ABCDEFG.copy.txt", "todo.txt.sync-conflict-20261129-101500-ABCDEFG"] {
            #expect(parse(name) == nil, "\(name)")
        }
    }

    /// Names a person makes (copies, numbered duplicates, per-machine lists) are never copies.
    @Test func namesPeopleMakeThemselvesAreNotCopies() {
        for name in ["todo (1).txt", "todo (2).txt", "todo 2.txt", "todo copy.txt", "todo copy 2.txt", "todo - Copy.txt",
                     "todo (copy).txt", "Copy of todo.txt", "todo-work.txt", "todo-2.txt", "todo_old.txt", "todo.old.txt",
                     "todo_conflict.txt", "todo (conflict).txt", "todo.Conflict notes.txt", "todo-laptop.txt",
                     "todo-laptop-2.txt", "todo_Andy-PC.txt", "todo.bak.txt", "todo~.txt"] {
            #expect(parse(name) == nil, "\(name)")
        }
    }

    /// `--keep` renames a merged copy to `NAME.reconciled`: no scheme may recognise that name again.
    @Test func reconciledNamesAreNeverCopies() {
        let copies = ["todo (Ann's conflicted copy 2026-11-29).txt", "todo.sync-conflict-20261129-101500-ABCDEFG.txt",
                      "todo (conflicted copy 2026-11-29 101500).txt", "todo_conflict-20261129-101500.txt",
                      "todo (SFConflict ann@example.com 2026-11-29-10-15-00).txt", "todo.txt (SFConflict Ann 2026-Nov-29-10-15-00).txt",
                      "todo.Conflict.txt", "todo-host-safeBackup-0001.txt", "todo_Andy-PC_Jan-03-0901-2013_Conflict_1.txt",
                      "todo.sync-conflict-20261129-101500-ABCDEFG.sync-conflict-20261130-080000-HIJKLMN.txt"]
        for name in copies {
            #expect(parse(name) != nil, "\(name)")
            #expect(parse(name + ".reconciled") == nil, "\(name)")
        }
        for name in ["todo.Conflict", "todo.Conflict3", "todo_PC_Jan-03-0901-2013_Conflict", "todo-host-safeBackup-0001",
                     "todo.sync-conflict-20261129-101500-ABCDEFG", "todo (SFConflict 2026-11-29-10-15-00)"] {
            #expect(parse(name, "todo") != nil, "\(name)")
            #expect(parse(name + ".reconciled", "todo") == nil, "\(name)")
        }
    }

    @Test func namesThatAlmostFollowASchemeAreNotCopies() {
        for name in ["todo.txt", "done.txt", "todo.txt.bak", "todo (copy).txt", "todo (conflicted copy).txt",
                     "other (conflicted copy 2026-11-29).txt", "mytodo (conflicted copy 2026-11-29).txt",
                     "todo (conflicted copy 2026-11-29).md", "todo (conflicted copy 2026-13-29).txt",
                     "todo (conflicted copy 2026-11-29 10150).txt", "todo ('s conflicted copy 2026-11-29).txt",
                     "todo (Anns conflicted copy 2026-11-29).txt", "todo.sync-conflict-20261129-101500-abcdefg.txt",
                     "todo.sync-conflict-20260230-101500-ABCDEFG.txt", "todo.sync-conflict-20261129-101500-ABCDEF.txt",
                     "Todo (conflicted copy 2026-11-29).txt", "todo_conflict-20261129-1015.txt",
                     "todo (conflicted copy 2026-11-29) (x).txt", "todo (conflicted copy 2026-11-29)).txt"] {
            #expect(parse(name) == nil, "\(name)")
        }
    }

    @Test func listingIsFilteredAndSorted() {
        let listing = ["todo.txt", "done.txt", "todo.sync-conflict-20261129-101500-ABCDEFG.txt", "notes.txt",
                       "done (conflicted copy 2026-11-29).txt", "todo (conflicted copy 2026-11-29 101500).txt",
                       "todo (Ann's conflicted copy 2026-11-28).txt", "done.Conflict.txt", "todo-laptop.txt",
                       "todo_PC_Jan-03-0901-2013_Conflict.txt", "done-host-safeBackup-0001.txt", "todo (1).txt"]
        #expect(ConflictCopies.copies(of: "todo.txt", in: listing).map(\.name) ==
                ["todo (Ann's conflicted copy 2026-11-28).txt", "todo (conflicted copy 2026-11-29 101500).txt",
                 "todo.sync-conflict-20261129-101500-ABCDEFG.txt", "todo_PC_Jan-03-0901-2013_Conflict.txt"])
        #expect(ConflictCopies.copies(of: "done.txt", in: listing).map(\.name) ==
                ["done (conflicted copy 2026-11-29).txt", "done-host-safeBackup-0001.txt", "done.Conflict.txt"])
        #expect(ConflictCopies.copies(of: "", in: listing) == [])
    }
}
