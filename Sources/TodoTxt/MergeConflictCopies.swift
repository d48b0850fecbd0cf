/// The sync client that named a conflict copy.
public enum ConflictCopyScheme: String, Sendable, Hashable, CaseIterable {
    /// `todo (Ann's conflicted copy 2026-11-29).txt`, `todo (conflicted copy 2026-11-29).txt`, with
    /// an optional number: `todo (conflicted copy 2026-11-29 (1)).txt` or `… 2026-11-29) (1).txt`.
    case dropbox
    /// `todo.sync-conflict-20261129-101500-ABCDEFG.txt` (older versions omit the device id).
    case syncthing
    /// Nextcloud and newer ownCloud desktop clients: `todo (conflicted copy 2026-11-29 101500).txt`
    /// (a user name may precede the date: `todo (conflicted copy Ann 2026-11-29 101500).txt`).
    case nextcloud
    /// Older ownCloud/Nextcloud clients: `todo_conflict-20261129-101500.txt`.
    case owncloud
}

/// A file in a directory listing recognised as a sync client's conflict copy of a todo file.
public struct ConflictCopy: Sendable, Hashable {
    /// The copy's file name, as listed.
    public let name: String
    /// Which client's naming it follows.
    public let scheme: ConflictCopyScheme
    /// The date (and time) in the name, as written there: `2026-11-29`, `2026-11-29 101500`,
    /// `20261129-101500`.
    public let stamp: String
    /// Who or which device made it, when the name says: `Ann` (Dropbox, Nextcloud), `ABCDEFG`
    /// (Syncthing's short device id).
    public let origin: String?
}

/// Recognises conflict copies by name (sync.md section 2). Pure: the caller lists the directory.
public enum ConflictCopies {
    /// The names in `listing` that are conflict copies of `fileName` (a bare name such as `todo.txt`,
    /// not a path), sorted by name. The file itself and unrelated names are never included; matching
    /// is exact and case-sensitive on the file's stem and extension (the part from its last dot).
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
        let stem = file[..<dot], ext = file[dot...]
        guard name.count > file.count, name.starts(with: stem), name.reversed().starts(with: ext.reversed()) else {
            return nil
        }
        let middle = Array(name[stem.count..<(name.count - ext.count)])
        func copy(_ scheme: ConflictCopyScheme, _ stamp: [UInt8], _ origin: [UInt8]?) -> ConflictCopy {
            ConflictCopy(name: candidate, scheme: scheme, stamp: String(decoding: stamp, as: UTF8.self),
                         origin: origin.map { String(decoding: $0, as: UTF8.self) })
        }
        if let rest = middle.dropPrefix(".sync-conflict-"), rest.count >= 15, isStamp(rest[..<15]) {
            let tail = rest.dropFirst(15)
            if tail.isEmpty { return copy(.syncthing, Array(rest[..<15]), nil) }
            if tail.count == 8, tail.first == 0x2D, tail.dropFirst().allSatisfy(isDeviceIDCharacter) {
                return copy(.syncthing, Array(rest[..<15]), Array(tail.dropFirst()))
            }
            return nil
        }
        if let rest = middle.dropPrefix("_conflict-"), rest.count == 15, isStamp(rest[...]) {
            return copy(.owncloud, rest, nil)
        }
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
                if user.isEmpty { return copy(.nextcloud, Array(stamp), nil) }
                if user.count > 1, user.last == 0x20 { return copy(.nextcloud, Array(stamp), Array(user.dropLast())) }
                return nil
            }
        }
        // Dropbox: `[Who's ]conflicted copy YYYY-MM-DD`.
        let marker = Array("conflicted copy ".utf8)
        guard words.count >= marker.count + 10, TodoDate(bytes: words.suffix(10)) != nil,
              words[(words.count - 10 - marker.count)..<(words.count - 10)].elementsEqual(marker) else { return nil }
        let date = Array(words.suffix(10))
        let who = words[..<(words.count - 10 - marker.count)]
        if who.isEmpty { return copy(.dropbox, date, nil) }
        for possessive in ["'s ", "\u{2019}s "] {
            let suffix = Array(possessive.utf8)
            if who.count > suffix.count, who.reversed().starts(with: suffix.reversed()) {
                return copy(.dropbox, date, Array(who.dropLast(suffix.count)))
            }
        }
        return nil
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

    /// Syncthing short device ids: uppercase base-32 letters and digits.
    static func isDeviceIDCharacter(_ byte: UInt8) -> Bool {
        ByteScanning.isUppercaseLetter(byte) || ByteScanning.isDigit(byte)
    }
}

extension Array where Element == UInt8 {
    /// The rest after `prefix`, or nil when the array does not start with it.
    fileprivate func dropPrefix(_ prefix: String) -> [UInt8]? {
        let bytes = Array(prefix.utf8)
        return starts(with: bytes) ? Array(dropFirst(bytes.count)) : nil
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
