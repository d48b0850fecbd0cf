// The C library's basic regular expressions, as the filter target's in-process reference.
import TodoTxt
#if canImport(Glibc)
import Glibc

/// A pattern compiled by the C library's `regcomp` as a case-insensitive *basic* regular expression
/// in the C.UTF-8 locale: the syntax and the multibyte reading GNU grep uses for `grep -i` in a
/// UTF-8 locale.
///
/// A class because it owns the compiled `regex_t` and the locale, which `deinit` frees. The locale is
/// set for the calling thread only (`uselocale`) around each C call and restored after, so the
/// process's own locale never changes.
final class ReferenceRegex {
    private var compiled = regex_t()
    private let locale: locale_t
    /// Whether `regcomp` accepted the pattern.
    let isValid: Bool
    /// Whether `regcomp` refused it only for a repetition with nothing before it (`.**`, `\{1\}`
    /// first), which its POSIX syntax forbids and grep's syntax reads as literal text.
    let refusedOnlyForPOSIX: Bool
    /// Whether its match answers can stand for grep's: not when the pattern escapes an ordinary
    /// letter (`\u`), which this matcher, ignoring case, matches to nothing and grep to the letter.
    let answersLikeGrep: Bool

    /// Nil when the C.UTF-8 locale is not installed (no reference to compare with).
    init?(_ pattern: [UInt8]) {
        guard let locale = newlocale((1 << LC_CTYPE) | (1 << LC_COLLATE), "C.UTF-8", nil) else { return nil }
        self.locale = locale
        let previous = uselocale(locale)
        // Compiled into a local: `regex_t` is a plain C struct, so moving it after `regcomp` is safe.
        var regex = regex_t()
        let status = (pattern + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { regcomp(&regex, $0.baseAddress, REG_ICASE | REG_NOSUB) }
        }
        uselocale(previous)
        compiled = regex
        isValid = status == 0
        refusedOnlyForPOSIX = status == Int32(_REG_BADRPT.rawValue)
        var escapesALetter = false
        for (offset, byte) in pattern.enumerated() where byte == 0x5C && offset + 1 < pattern.count {
            let next = pattern[offset + 1] | 0x20
            if next >= 0x61, next <= 0x7A, !"wsb".utf8.contains(next) { escapesALetter = true }
        }
        answersLikeGrep = !escapesALetter
    }

    deinit {
        if isValid { regfree(&compiled) }
        freelocale(locale)
    }

    /// Whether the pattern matches somewhere in `line`; nil when the line holds a NUL byte, which a
    /// C string cannot carry.
    func matches(_ line: [UInt8]) -> Bool? {
        guard isValid, !line.contains(0) else { return nil }
        let previous = uselocale(locale)
        defer { uselocale(previous) }
        let status = (line + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { regexec(&compiled, $0.baseAddress, 0, nil, 0) }
        }
        return status == 0
    }
}
#else
/// No C library reference on this platform: its `regcomp` is not GNU's, so the filter target checks
/// only the engine's own consistency here.
final class ReferenceRegex {
    let isValid = false
    let refusedOnlyForPOSIX = false
    let answersLikeGrep = false
    init?(_ pattern: [UInt8]) { return nil }
    func matches(_ line: [UInt8]) -> Bool? { nil }
}
#endif

/// Whether the C library (in C.UTF-8) and the engine put every character of a text in the same
/// classes. Each follows its own Unicode version: Debian 12's C library knows Unicode 14, Swift's
/// standard library a later one, in which 38 combining letters (U+0363…) became alphabetic and
/// thousands of characters were assigned. On a text holding such a character grep and the engine
/// may rightly differ (`\bsun` after U+0363), so the checks compare only texts where they agree.
///
/// The C library is asked through `regcomp` (`^[[:alpha:]]$`, case not ignored) because the Glibc
/// module does not import `wctype`. Compiled once; `regexec` on a compiled pattern is thread-safe.
final class CharacterTables: @unchecked Sendable {
    static let classNames = ["alpha", "alnum", "upper", "lower", "space", "blank", "punct", "print", "graph", "cntrl"]
    #if canImport(Glibc)
    private static let shared = CharacterTables()
    private let locale: locale_t?
    /// One compiled pattern per class name; never freed (one set for the process's life). A raw
    /// buffer, so that concurrent readers need no exclusive access.
    private let classes = UnsafeMutablePointer<regex_t>.allocate(capacity: CharacterTables.classNames.count)
    private var compiledCount = 0

    private init() {
        locale = newlocale(1 << LC_CTYPE, "C.UTF-8", nil)
        guard let locale else { return }
        let previous = uselocale(locale)
        defer { uselocale(previous) }
        for name in Self.classNames {
            (classes + compiledCount).initialize(to: regex_t())
            let status = Array("^[[:\(name):]]$".utf8CString).withUnsafeBufferPointer {
                regcomp(classes + compiledCount, $0.baseAddress, REG_NOSUB)
            }
            guard status == 0 else { return }
            compiledCount += 1
        }
    }

    static func agree(_ bytes: [UInt8]) -> Bool {
        guard bytes.contains(where: { $0 >= 0x80 }), let locale = shared.locale,
              shared.compiledCount == classNames.count else { return true }
        let previous = uselocale(locale)
        defer { uselocale(previous) }
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars where scalar.value >= 0x80 {
            let encoded = Array(String(scalar).utf8CString)
            for (index, name) in classNames.enumerated() {
                let inC = encoded.withUnsafeBufferPointer { regexec(shared.classes + index, $0.baseAddress, 0, nil, 0) } == 0
                if inC != BasicRegex.inClass(name, scalar.value) { return false }
            }
        }
        return true
    }
    #else
    static func agree(_ bytes: [UInt8]) -> Bool { true }
    #endif
}
