/// Path arithmetic on strings, byte-based so that any file name survives (no Foundation, no
/// normalisation). Only used on paths that `realpath` has already made absolute and canonical.
enum PathName {
    /// The part after the last `/`; the whole path if there is none.
    static func lastComponent(of path: String) -> String {
        let bytes = Array(path.utf8)
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return path }
        return String(decoding: bytes[(slash + 1)...], as: UTF8.self)
    }

    /// Everything before the last `/` (`/` for a top-level entry, `.` if there is no slash).
    static func directory(of path: String) -> String {
        let bytes = Array(path.utf8)
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        if slash == 0 { return "/" }
        return String(decoding: bytes[..<slash], as: UTF8.self)
    }

    /// `directory/name`, without doubling the slash after `/`.
    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
