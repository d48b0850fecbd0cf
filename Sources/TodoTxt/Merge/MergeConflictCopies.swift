/// The sync client that named a conflict copy.
///
/// Each case lists the exact forms recognised for `todo.txt` and where the naming comes from. A form
/// is recognised only when the client's own code, documentation or bug reports show it, and only
/// when a person would not plausibly give a file that name themselves: `todo (1).txt`, `todo 2.txt`,
/// `todo copy.txt` or `todo-laptop.txt` are never copies, however much they look like one.
public enum ConflictCopyScheme: String, Sendable, Hashable, CaseIterable {
    /// `todo (Ann's conflicted copy 2026-11-29).txt`, `todo (conflicted copy 2026-11-29).txt`, with
    /// an optional number: `todo (conflicted copy 2026-11-29 (1)).txt` or `… 2026-11-29) (1).txt`.
    case dropbox
    /// `todo.sync-conflict-20261129-101500-ABCDEFG.txt` (older versions omit the device id), and a
    /// copy of such a copy, made by Syncthing versions before the fix of
    /// https://github.com/syncthing/syncthing/issues/2605 (see also
    /// https://github.com/syncthing/syncthing/issues/1658): every layer adds one more
    /// `.sync-conflict-…` segment, `todo.sync-conflict-20261129-101500-ABCDEFG.sync-conflict-20261130-080000-HIJKLMN.txt`.
    /// A file without an extension gets its segments the same way: `todo.sync-conflict-…`.
    case syncthing
    /// Nextcloud and newer ownCloud desktop clients: `todo (conflicted copy 2026-11-29 101500).txt`
    /// (a user name may precede the date: `todo (conflicted copy Ann 2026-11-29 101500).txt`).
    case nextcloud
    /// Older ownCloud/Nextcloud clients: `todo_conflict-20261129-101500.txt`.
    case owncloud
    /// Seafile. The desktop client (`gen_conflict_path` in `common/vc-common.c` of
    /// https://github.com/haiwen/seafile, and the help page https://help.seafile.com/syncing_client/file_conflicts/)
    /// writes `todo (SFConflict ann@example.com 2026-11-29-10-15-00).txt`, or without the modifier
    /// `todo (SFConflict 2026-11-29-10-15-00).txt`: the stem, then the modifier and the local time
    /// `%Y-%m-%d-%H-%M-%S`, then the extension (from the last dot). The server's merge
    /// (`genConflictPath` in `fileserver/merge.go` of https://github.com/haiwen/seafile-server) keeps
    /// the whole name and repeats the part after its first dot, with Go's time layout
    /// `2006-Jan-2-15-04-05`: `todo.txt (SFConflict Ann 2026-Nov-29-10-15-00).txt`.
    case seafile
    /// Resilio Sync (formerly BitTorrent Sync), https://help.resilio.com/hc/en-us/articles/204753629-Conflict-files-in-Sync:
    /// `todo.Conflict.txt`, where the name around `.Conflict` is the file's own or one that clashes
    /// with it on a case-insensitive or normalising file system (`Todo.Conflict.txt`, the example
    /// `Filename.Conflict.txt` beside `filename.txt`); a file without an extension gets
    /// `todo.Conflict`, or numbered `todo.Conflict1`. The numbered form is documented only for names
    /// without an extension, and `….Conflict.Conflict…` chains only for renames, so neither is
    /// recognised otherwise.
    case resilio
    /// The OneDrive client for Linux (https://github.com/abraunegg/onedrive, `safeBackup` in
    /// `src/util.d`; the client's own documentation is cited in docs/notes/sync.md): since v2.5.3
    /// `todo-HOSTNAME-safeBackup-0001.txt`, the host name as `gethostname` reports it and a
    /// four-digit counter from 0001. The older `todo-HOSTNAME.txt` / `todo-HOSTNAME-2.txt` (that
    /// client up to v2.5.2, and Microsoft's own client with the computer name) are **not**
    /// recognised: without knowing every host name of every device they cannot be told apart from a
    /// person's own `todo-work.txt` or a per-machine `todo-$(hostname).txt`, and merging such a list
    /// into the todo file and removing it would be the one mistake reconcile must never make.
    case onedrive
    /// Synology Drive, https://kb.synology.com/en-eu/DSM/tutorial/Synology_Drive_file_conflict_resolution:
    /// `<stem>_<client>_<Mon-DD-HHMM-YYYY>_<reason>_<number>.<ext>`, e.g.
    /// `todo_Andy-PC_Jan-03-0901-2013_Conflict_1.txt` (the number may be absent). Of the reasons, only
    /// those that mean "another version of this same file" are recognised: `Conflict` (both sides
    /// edited it; the stem exactly the file's) and `CaseConflict` (a name differing only in letter
    /// case, so the stem may differ in case). `WhiteSpaceConflict`, `TailCharacterConflict` and
    /// `TypeConflict` rename files whose own names were invalid, which are not versions of this file.
    case synology
}

/// A file in a directory listing recognised as a sync client's conflict copy of a todo file.
public struct ConflictCopy: Sendable, Hashable {
    /// The copy's file name, as listed.
    public let name: String
    /// Which client's naming it follows.
    public let scheme: ConflictCopyScheme
    /// The date (and time) in the name, as written there: `2026-11-29`, `2026-11-29 101500`,
    /// `20261129-101500`, `2026-11-29-10-15-00`, `Jan-03-0901-2013`; for a Syncthing copy of a copy,
    /// the first (leftmost) segment's. Empty when the name carries none (Resilio Sync, OneDrive).
    public let stamp: String
    /// Who or which device made it, when the name says: `Ann` (Dropbox, Nextcloud, Seafile),
    /// `ABCDEFG` (Syncthing's short device id), the host name (OneDrive), the client name (Synology).
    public let origin: String?
}

/// Recognises conflict copies by name (docs/sync.md section 2). Pure: the caller lists the directory.
public enum ConflictCopies {
    /// The names in `listing` that are conflict copies of `fileName` (a bare name such as `todo.txt`,
    /// not a path), sorted by name. The file itself and unrelated names are never included; matching
    /// is exact and case-sensitive on the file's stem and extension (the part from its last dot),
    /// except where a client's copies stand for a name that clashes with the file's on a
    /// case-insensitive file system (Resilio Sync, Synology Drive's `CaseConflict`).
    ///
    /// Complexity: O(total length of the names).
    public static func copies(of fileName: String, in listing: [String]) -> [ConflictCopy] {
        listing.compactMap { parse($0, copyOf: fileName) }.sorted { $0.name < $1.name }
    }

    /// `candidate` as a conflict copy of `fileName`, or nil if it is not one.
    public static func parse(_ candidate: String, copyOf fileName: String) -> ConflictCopy? {
        let file = Array(fileName.utf8), name = Array(candidate.utf8)
        guard !file.isEmpty, name != file else { return nil }
        let dot = file.lastIndex(of: 0x2E).flatMap { $0 > 0 ? $0 : nil } ?? file.count
        let stem = Array(file[..<dot]), ext = Array(file[dot...])
        guard let match = exactStemMatch(name, stem: stem, ext: ext)
                ?? seafileServer(name, file: file)
                ?? resilio(name, stem: stem, ext: ext)
                ?? synology(name, stem: stem, ext: ext) else { return nil }
        return ConflictCopy(name: candidate, scheme: match.scheme, stamp: String(decoding: match.stamp, as: UTF8.self),
                            origin: match.origin.map { String(decoding: $0, as: UTF8.self) })
    }

    /// What a scheme's parser found in a name.
    struct Match {
        let scheme: ConflictCopyScheme
        let stamp: [UInt8]
        let origin: [UInt8]?

        init(_ scheme: ConflictCopyScheme, _ stamp: some Sequence<UInt8>, _ origin: (some Sequence<UInt8>)?) {
            self.scheme = scheme
            self.stamp = Array(stamp)
            self.origin = origin.map { Array($0) }
        }
    }

    // MARK: - Names that keep the file's stem and extension exactly

    /// The schemes that put their marker between the file's exact stem and exact extension.
    static func exactStemMatch(_ name: [UInt8], stem: [UInt8], ext: [UInt8]) -> Match? {
        guard name.count > stem.count + ext.count, name.starts(with: stem),
              name.reversed().starts(with: ext.reversed()) else { return nil }
        let middle = Array(name[stem.count..<(name.count - ext.count)])
        return syncthing(middle) ?? owncloud(middle) ?? oneDrive(middle) ?? seafileClient(middle) ?? parenthesised(middle)
    }

    /// One or more `.sync-conflict-YYYYMMDD-HHMMSS[-DEVICE]` segments, nothing else.
    static func syncthing(_ middle: [UInt8]) -> Match? {
        let marker = Array(".sync-conflict-".utf8)
        var rest = middle[...]
        var first: Match?
        repeat {
            guard rest.starts(with: marker) else { return nil }
            rest = rest.dropFirst(marker.count)
            guard rest.count >= 15, isStamp(rest.prefix(15)) else { return nil }
            let stamp = rest.prefix(15)
            rest = rest.dropFirst(15)
            var device: ArraySlice<UInt8>?
            if rest.first == 0x2D {
                let id = rest.dropFirst().prefix(7)
                guard id.count == 7, id.allSatisfy(isDeviceIDCharacter) else { return nil }
                device = id
                rest = rest.dropFirst(8)
            }
            if first == nil { first = Match(.syncthing, stamp, device) }
        } while !rest.isEmpty
        return first
    }

    /// `_conflict-YYYYMMDD-HHMMSS`.
    static func owncloud(_ middle: [UInt8]) -> Match? {
        guard let rest = middle.dropPrefix("_conflict-"), rest.count == 15, isStamp(rest[...]) else { return nil }
        return Match(.owncloud, rest, nil as [UInt8]?)
    }

    /// `-HOSTNAME-safeBackup-NNNN` (four digits, not 0000).
    static func oneDrive(_ middle: [UInt8]) -> Match? {
        let marker = Array("-safeBackup-".utf8)
        guard middle.first == 0x2D, middle.count > 1 + marker.count + 4 else { return nil }
        let counter = middle.suffix(4)
        guard counter.allSatisfy(ByteScanning.isDigit), counter.contains(where: { $0 != 0x30 }),
              middle.dropLast(4).reversed().starts(with: marker.reversed()) else { return nil }
        let host = middle[1..<(middle.count - 4 - marker.count)]
        guard !host.isEmpty, host.allSatisfy(isHostNameCharacter) else { return nil }
        return Match(.onedrive, [UInt8](), host)
    }

    /// ` (SFConflict [MODIFIER ]YYYY-MM-DD-HH-MM-SS)`: the Seafile desktop client.
    static func seafileClient(_ middle: [UInt8]) -> Match? {
        guard let inner = middle.dropPrefix(" (SFConflict "), inner.last == 0x29 else { return nil }
        return seafileInner(inner.dropLast(), isStamp: isSeafileClientStamp)
    }

    /// The part inside `(SFConflict …)`: an optional modifier, a space, then a stamp with no space.
    static func seafileInner(_ inner: ArraySlice<UInt8>, isStamp: (ArraySlice<UInt8>) -> Bool) -> Match? {
        guard !inner.contains(0x28), !inner.contains(0x29) else { return nil }
        guard let space = inner.lastIndex(of: 0x20) else {
            return isStamp(inner) ? Match(.seafile, inner, nil as [UInt8]?) : nil
        }
        let modifier = inner[..<space], stamp = inner[(space + 1)...]
        guard isStamp(stamp), !modifier.isEmpty, modifier.first != 0x20, modifier.last != 0x20 else { return nil }
        return Match(.seafile, stamp, modifier)
    }

    /// ` ([Who's ]conflicted copy …)`: Dropbox, Nextcloud and newer ownCloud.
    static func parenthesised(_ middle: [UInt8]) -> Match? {
        // ` (` inner `)`, optionally followed by ` (N)`.
        var outer = middle[...]
        if let stripped = outer.droppingCopyNumber(), stripped.last == 0x29 { outer = stripped }
        guard let afterOpen = Array(outer).dropPrefix(" ("), afterOpen.last == 0x29 else { return nil }
        var inner = afterOpen.dropLast()
        if let stripped = inner.droppingCopyNumber() { inner = stripped }
        let words = Array(inner)
        // Nextcloud: `conflicted copy [user ]YYYY-MM-DD HHMMSS`.
        if let rest = words.dropPrefix("conflicted copy "), rest.count >= 17 {
            let stamp = rest[(rest.count - 17)...]
            if TodoDate(bytes: stamp.prefix(10)) != nil, stamp[stamp.startIndex + 10] == 0x20,
               stamp.dropFirst(11).allSatisfy(ByteScanning.isDigit) {
                let user = rest.dropLast(17)
                if user.isEmpty { return Match(.nextcloud, stamp, nil as [UInt8]?) }
                if user.count > 1, user.last == 0x20 { return Match(.nextcloud, stamp, user.dropLast()) }
                return nil
            }
        }
        // Dropbox: `[Who's ]conflicted copy YYYY-MM-DD`.
        let marker = Array("conflicted copy ".utf8)
        guard words.count >= marker.count + 10, TodoDate(bytes: words.suffix(10)) != nil,
              words[(words.count - 10 - marker.count)..<(words.count - 10)].elementsEqual(marker) else { return nil }
        let date = words.suffix(10)
        let who = words[..<(words.count - 10 - marker.count)]
        if who.isEmpty { return Match(.dropbox, date, nil as [UInt8]?) }
        for possessive in ["'s ", "\u{2019}s "] {
            let suffix = Array(possessive.utf8)
            if who.count > suffix.count, who.reversed().starts(with: suffix.reversed()) {
                return Match(.dropbox, date, who.dropLast(suffix.count))
            }
        }
        return nil
    }

    // MARK: - Names built differently

    /// The Seafile server's `NAME (SFConflict [MODIFIER ]YYYY-Mon-D-HH-MM-SS)[.AFTER-FIRST-DOT]`.
    static func seafileServer(_ name: [UInt8], file: [UInt8]) -> Match? {
        let suffix: [UInt8] = file.firstIndex(of: 0x2E).map { Array(file[$0...]) } ?? []
        guard let afterName = name.dropPrefix(file), let inner = afterName.dropPrefix(Array(" (SFConflict ".utf8)),
              inner.count > suffix.count + 1, inner.reversed().starts(with: suffix.reversed()) else { return nil }
        let closed = inner.dropLast(suffix.count)
        guard closed.last == 0x29 else { return nil }
        return seafileInner(closed.dropLast(), isStamp: isSeafileServerStamp)
    }

    /// Resilio Sync's `STEM.Conflict.EXT` (or `NAME.Conflict[N]` for a file without an extension),
    /// where the embedded name may clash with the file's rather than equal it.
    static func resilio(_ name: [UInt8], stem: [UInt8], ext: [UInt8]) -> Match? {
        let marker = Array(".Conflict".utf8)
        var base = name[...]
        if ext.isEmpty {
            while let last = base.last, ByteScanning.isDigit(last) { base = base.dropLast() }
        } else {
            guard let dot = name.lastIndex(of: 0x2E), dot > 0, clashes(name[dot...], ext[...]) else { return nil }
            base = name[..<dot]
        }
        guard base.count > marker.count, base.reversed().starts(with: marker.reversed()),
              clashes(base.dropLast(marker.count), stem[...]) else { return nil }
        return Match(.resilio, [UInt8](), nil as [UInt8]?)
    }

    /// Synology Drive's `STEM_CLIENT_Mon-DD-HHMM-YYYY_REASON[_N].EXT`.
    static func synology(_ name: [UInt8], stem: [UInt8], ext: [UInt8]) -> Match? {
        var base = name[...]
        var nameExt = name[name.endIndex...]
        if !ext.isEmpty {
            guard let dot = name.lastIndex(of: 0x2E), dot > 0 else { return nil }
            nameExt = name[dot...]
            base = name[..<dot]
        }
        if let underscore = base.lastIndex(of: 0x5F), underscore + 1 < base.endIndex,
           base[(underscore + 1)...].allSatisfy(ByteScanning.isDigit) {
            base = base[..<underscore]
        }
        let caseConflict = Array("_CaseConflict".utf8), conflict = Array("_Conflict".utf8)
        let ignoringCase: Bool
        if base.reversed().starts(with: caseConflict.reversed()) {
            ignoringCase = true
            base = base.dropLast(caseConflict.count)
        } else if base.reversed().starts(with: conflict.reversed()) {
            ignoringCase = false
            base = base.dropLast(conflict.count)
        } else {
            return nil
        }
        guard ignoringCase ? clashes(nameExt, ext[...]) : nameExt.elementsEqual(ext),
              base.count > 17, isSynologyStamp(base.suffix(16)), base[base.endIndex - 17] == 0x5F else { return nil }
        let stamp = base.suffix(16)
        base = base.dropLast(17)
        // `STEM_CLIENT`: both may hold underscores, so try each split whose left part is the stem.
        for split in base.indices where base[split] == 0x5F && split + 1 < base.endIndex {
            let left = base[..<split]
            if ignoringCase ? clashes(left, stem[...]) : left.elementsEqual(stem) {
                return Match(.synology, stamp, base[(split + 1)...])
            }
        }
        return nil
    }

    // MARK: - Pieces

    /// Whether two names are the same on a case-insensitive, normalising file system (the clash that
    /// makes Resilio Sync and Synology Drive rename one of them): equal bytes, or equal valid UTF-8
    /// after lowercasing, compared as Swift strings (canonical equivalence: NFC equals NFD).
    static func clashes(_ left: ArraySlice<UInt8>, _ right: ArraySlice<UInt8>) -> Bool {
        if left.elementsEqual(right) { return true }
        guard !left.isEmpty, let a = String(validating: left, as: UTF8.self),
              let b = String(validating: right, as: UTF8.self) else { return false }
        return a.lowercased() == b.lowercased()
    }

    /// `YYYYMMDD-HHMMSS` with a real date.
    static func isStamp(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count == 15 else { return false }
        let digits = Array(bytes)
        guard digits[8] == 0x2D, digits[..<8].allSatisfy(ByteScanning.isDigit),
              digits[9...].allSatisfy(ByteScanning.isDigit) else { return false }
        let dashed = Array(digits[0..<4]) + [0x2D] + Array(digits[4..<6]) + [0x2D] + Array(digits[6..<8])
        return TodoDate(bytes: dashed) != nil
    }

    /// `YYYY-MM-DD-HH-MM-SS` (strftime `%Y-%m-%d-%H-%M-%S`) with a real date and time.
    static func isSeafileClientStamp(_ bytes: ArraySlice<UInt8>) -> Bool {
        let stamp = Array(bytes)
        guard stamp.count == 19, TodoDate(bytes: stamp[..<10]) != nil,
              stamp[10] == 0x2D, stamp[13] == 0x2D, stamp[16] == 0x2D else { return false }
        return isClock(hours: stamp[11..<13], minutes: stamp[14..<16], seconds: stamp[17..<19])
    }

    /// `YYYY-Mon-D-HH-MM-SS` (Go's `2006-Jan-2-15-04-05`: the day not padded) with a real date and time.
    static func isSeafileServerStamp(_ bytes: ArraySlice<UInt8>) -> Bool {
        let parts = bytes.split(separator: 0x2D, omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0].count == 4, parts[0].allSatisfy(ByteScanning.isDigit),
              let month = monthNumber(parts[1]), (1...2).contains(parts[2].count),
              parts[2].allSatisfy(ByteScanning.isDigit), parts[2].first != 0x30 else { return false }
        let day = parts[2].count == 1 ? [0x30] + Array(parts[2]) : Array(parts[2])
        guard TodoDate(bytes: Array(parts[0]) + [0x2D] + month + [0x2D] + day) != nil else { return false }
        return isClock(hours: parts[3], minutes: parts[4], seconds: parts[5])
    }

    /// `Mon-DD-HHMM-YYYY` (Synology Drive) with a real date and time.
    static func isSynologyStamp(_ bytes: ArraySlice<UInt8>) -> Bool {
        let stamp = Array(bytes)
        guard stamp.count == 16, stamp[3] == 0x2D, stamp[6] == 0x2D, stamp[11] == 0x2D,
              let month = monthNumber(stamp[0..<3]), stamp[4..<6].allSatisfy(ByteScanning.isDigit),
              stamp[12..<16].allSatisfy(ByteScanning.isDigit),
              TodoDate(bytes: Array(stamp[12..<16]) + [0x2D] + month + [0x2D] + Array(stamp[4..<6])) != nil else { return false }
        return isClock(hours: stamp[7..<9], minutes: stamp[9..<11], seconds: nil)
    }

    /// Two-digit hours 00–23, minutes 00–59 and seconds 00–60 (a leap second).
    static func isClock(hours: ArraySlice<UInt8>, minutes: ArraySlice<UInt8>, seconds: ArraySlice<UInt8>?) -> Bool {
        func value(_ digits: ArraySlice<UInt8>) -> Int? {
            guard digits.count == 2, digits.allSatisfy(ByteScanning.isDigit) else { return nil }
            return Int(digits[digits.startIndex] - 0x30) * 10 + Int(digits[digits.startIndex + 1] - 0x30)
        }
        guard let hour = value(hours), hour < 24, let minute = value(minutes), minute < 60 else { return false }
        guard let seconds else { return true }
        guard let second = value(seconds) else { return false }
        return second <= 60
    }

    /// `Jan`…`Dec` (English, capitalised as Go and Synology write them) as two ASCII digits.
    static func monthNumber(_ bytes: ArraySlice<UInt8>) -> [UInt8]? {
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard let index = months.firstIndex(where: { $0.utf8.elementsEqual(bytes) }) else { return nil }
        let number = index + 1
        return [UInt8(0x30 + number / 10), UInt8(0x30 + number % 10)]
    }

    /// Syncthing short device ids: uppercase base-32 letters and digits.
    static func isDeviceIDCharacter(_ byte: UInt8) -> Bool {
        ByteScanning.isUppercaseLetter(byte) || ByteScanning.isDigit(byte)
    }

    /// Host name characters (RFC 1123 labels and dots; `_`, which some systems allow).
    static func isHostNameCharacter(_ byte: UInt8) -> Bool {
        ByteScanning.isDigit(byte) || ByteScanning.isUppercaseLetter(byte) || (byte &- 0x61 < 26)
            || byte == 0x2D || byte == 0x2E || byte == 0x5F
    }
}

extension Array where Element == UInt8 {
    /// The rest after `prefix`, or nil when the array does not start with it.
    fileprivate func dropPrefix(_ prefix: String) -> [UInt8]? {
        dropPrefix(Array(prefix.utf8))
    }

    /// The rest after `prefix`, or nil when the array does not start with it.
    fileprivate func dropPrefix(_ prefix: [UInt8]) -> [UInt8]? {
        starts(with: prefix) ? Array(dropFirst(prefix.count)) : nil
    }
}

extension ArraySlice where Element == UInt8 {
    /// Without a trailing ` (N)` (N decimal digits), or nil when there is none.
    fileprivate func droppingCopyNumber() -> ArraySlice<UInt8>? {
        guard last == 0x29 else { return nil }
        var index = endIndex - 1
        var digits = 0
        while index > startIndex, ByteScanning.isDigit(self[index - 1]) { index -= 1; digits += 1 }
        guard digits > 0, index - 2 >= startIndex, self[index - 1] == 0x28, self[index - 2] == 0x20 else { return nil }
        return self[startIndex..<(index - 2)]
    }
}
