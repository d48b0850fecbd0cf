// Extended attributes (ACLs among them) for the live system calls: the platform's calls and names.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("TodoFileSystem supports Linux (Glibc) and Darwin only")
#endif
import CTodoSystem

// MARK: - extended attributes

/// Runs `body` with `name` as a NUL-terminated C string. `EINVAL` for a name holding a NUL byte,
/// which C would cut short (and so read or write another attribute).
func withCName<T>(
    _ name: ExtendedAttributeName, _ body: (UnsafePointer<CChar>) -> Result<T, Errno>
) -> Result<T, Errno> {
    guard !name.bytes.contains(0) else { return .failure(.invalidArgument) }
    let cString = name.bytes.map { CChar(bitPattern: $0) } + [0]
    return cString.withUnsafeBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return .failure(.invalidArgument) }
        return body(base)
    }
}

#if canImport(Glibc)
/// glibc's `flistxattr`, `fgetxattr` and `fsetxattr`, looked up once with `dlsym`: Swift's Glibc
/// module does not import `<sys/xattr.h>`. The types are the C prototypes, so the calls use the C
/// calling convention. A missing function (a C library without them, a static binary without
/// `dlopen`) makes its call fail with `ENOTSUP`, which the file layer reads as "no extended
/// attributes here", exactly as on a file system without them.
///
/// `@unchecked Sendable`: the members are immutable pointers to reentrant C functions.
private struct AttributeFunctions: @unchecked Sendable {
    typealias List = @convention(c) (Int32, UnsafeMutableRawPointer?, Int) -> Int
    typealias Get = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int
    typealias Put = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32) -> Int32

    let list: List?
    let get: Get?
    let put: Put?

    /// Resolved on first use; the handle of the program itself sees every loaded library's symbols.
    static let shared: AttributeFunctions = {
        guard let program = dlopen(nil, RTLD_NOW) else { return AttributeFunctions(list: nil, get: nil, put: nil) }
        return AttributeFunctions(
            list: dlsym(program, "flistxattr").map { unsafeBitCast($0, to: List.self) },
            get: dlsym(program, "fgetxattr").map { unsafeBitCast($0, to: Get.self) },
            put: dlsym(program, "fsetxattr").map { unsafeBitCast($0, to: Put.self) })
    }()
}
#endif

#if canImport(Glibc)
/// What a missing attribute function answers: -1 with `errno` ENOTSUP, as the C library does on a
/// file system without extended attributes.
private func attributesNotSupported<Result: SignedInteger>() -> Result {
    errno = ENOTSUP
    return -1
}
#endif

/// `flistxattr`; an empty buffer asks for the size of the name list.
@inline(__always) func platformFlistxattr(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    #if canImport(Glibc)
    guard let list = AttributeFunctions.shared.list else { return attributesNotSupported() }
    return list(fd, buffer.baseAddress, buffer.count)
    #else
    return flistxattr(fd, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), buffer.count, 0)
    #endif
}

/// `fgetxattr`; an empty buffer asks for the size of the value. Darwin: position 0 (it only
/// matters for the resource fork, which is read whole), options 0.
@inline(__always) func platformFgetxattr(
    _ fd: Int32, _ name: UnsafePointer<CChar>, _ buffer: UnsafeMutableRawBufferPointer
) -> Int {
    #if canImport(Glibc)
    guard let get = AttributeFunctions.shared.get else { return attributesNotSupported() }
    return get(fd, name, buffer.baseAddress, buffer.count)
    #else
    return fgetxattr(fd, name, buffer.baseAddress, buffer.count, 0, 0)
    #endif
}

/// `fsetxattr` with no flags (create or replace). Darwin: position 0, options 0.
@inline(__always) func platformFsetxattr(
    _ fd: Int32, _ name: UnsafePointer<CChar>, _ value: UnsafeRawBufferPointer
) -> Int32 {
    #if canImport(Glibc)
    guard let put = AttributeFunctions.shared.put else { return attributesNotSupported() }
    return put(fd, name, value.baseAddress, value.count, 0)
    #else
    return fsetxattr(fd, name, value.baseAddress, value.count, 0, 0)
    #endif
}

extension ExtendedAttributeName {
    /// Whether the attribute decides who may open the file, so that a new file without it would
    /// let other people in or keep them out: Linux's POSIX access ACL. Darwin keeps ACLs outside
    /// the extended attributes, so no Darwin attribute does.
    var carriesPermissions: Bool {
        #if canImport(Glibc)
        self == .posixAccessACL
        #else
        false
        #endif
    }

    /// Whether the attribute belongs on a regular file: all but Linux's default ACL, which only a
    /// directory has (the kernel refuses it on a file).
    var belongsOnRegularFile: Bool {
        #if canImport(Glibc)
        self != .posixDefaultACL
        #else
        true
        #endif
    }
}
