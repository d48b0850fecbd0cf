import Foundation

/// A fresh directory from `mkdtemp` (unique per call, mode 0700), the one temporary-directory
/// helper of every test target. Removed with everything in it when the value goes away; the
/// end-to-end tests, which keep their directories for a look after a failure, use `makePath`.
public final class TemporaryDirectory: @unchecked Sendable {
    /// The directory's path, symlinks in the temporary directory's own path resolved.
    public let path: String

    /// A fresh directory named `LABEL-XXXXXX` in the system's temporary directory.
    public init(_ label: String = "todo-test") {
        path = TemporaryDirectory.makePath(label)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// The path of `name` inside the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// A fresh directory that is not removed afterwards; its path.
    public static func makePath(_ label: String = "todo-test") -> String {
        let parent = URL(fileURLWithPath: NSTemporaryDirectory()).resolvingSymlinksInPath().path
        var template = Array("\(parent)/\(label)-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer -> String? in
            guard let base = buffer.baseAddress, let result = mkdtemp(base) else { return nil }
            return String(cString: result)
        }
        if let made { return made }
        // mkdtemp failed (a full /tmp): a unique name instead, created as a test would need it.
        let fallback = parent + "/\(label)-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: fallback, withIntermediateDirectories: true)
        return fallback
    }
}
