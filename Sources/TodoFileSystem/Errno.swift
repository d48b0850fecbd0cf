/// A C `errno` value, typed, so that failures carry a readable name and the system's message.
///
/// Every failed call of the syscall seam (`Syscalls`) throws one. The common values have named
/// constants (`Errno.noSpace`, `Errno.ioError`, …) defined beside the platform import, because the
/// numbers differ between Linux and Darwin.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
    /// The raw C value (`ENOSPC` is 28 on Linux).
    public var rawValue: Int32

    /// Wraps a raw value; any `Int32` is accepted, unknown ones get a numeric name.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The C name, such as `"ENOSPC"`, or `"errno 123"` for values without a known name.
    public var name: String { platformName ?? "errno \(rawValue)" }

    /// The system's human-readable message, such as `"No space left on device"`.
    public var message: String { platformMessage }

    /// The message alone, because errors are shown to people as `op path: message`.
    public var description: String { message }
}
