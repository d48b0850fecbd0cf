// Extended attributes on the way from the old file to its replacement (issue 12).
//
// `FileSystem.replace` writes a new inode and renames it over the old one, so whatever the old inode
// carried beyond its bytes, mode and owner is lost unless copied: a POSIX ACL (named users and
// groups, and the mask, without which the group class gets the ACL mask's bits back as plain group
// bits), `user.*` attributes (desktop metadata, backup tags), SELinux labels, Darwin's Finder info
// and quarantine flags. This file copies them, through the seam like every other call.

extension FileSystem {
    /// How many times a size-then-read pair is retried when the list or value grows in between
    /// (`ERANGE`). Another process would have to change the attribute that often in a few
    /// microseconds; past that the error stands.
    static let attributeReadAttempts = 8

    /// Copies every extended attribute of the old file (`source`) to the temporary file
    /// (`destination`), before the rename, so the replacement keeps them (step 4 of `replace`).
    ///
    /// Must run after `fchown` and `fchmod`: on Linux `chmod` rewrites an ACL's mask entry, so an
    /// ACL set first would come out with the mask turned into the old group bits. The attributes
    /// become durable with the temporary file's `fsync`, which follows.
    ///
    /// What is copied and what a failure means:
    /// - A file system without extended attributes (`flistxattr` fails with `ENOTSUP`): nothing to
    ///   copy, nothing refused.
    /// - The POSIX access ACL (`ExtendedAttributeName.carriesPermissions`): any failure to read or
    ///   set it throws, since the new file would otherwise grant other access than the old one;
    ///   the caller then removes the temporary file, and the target is untouched.
    /// - Linux's default ACL is skipped: only directories have one.
    /// - Any other attribute (`user.*`, `security.*`, `trusted.*`, every Darwin attribute) is
    ///   skipped silently when the kernel will not let this process read or set it (`EPERM`,
    ///   `EACCES`, `ENOTSUP`: a label only a privileged process may set, `trusted.*` for a
    ///   non-root user), so that the replacement refuses nothing it did before. Any other failure
    ///   (`EIO`, `ENOSPC`) throws rather than drop the attribute unnoticed.
    /// - An attribute removed between the listing and its read is not copied.
    ///
    /// Attributes the temporary file got on its own (from a directory's default ACL, or the
    /// security module's label for a new file) are overwritten where the old file has the same
    /// name, and otherwise kept.
    func copyExtendedAttributes(
        from source: FileDescriptor, to destination: FileDescriptor, path: String
    ) throws(FileSystemError) {
        let names: [ExtendedAttributeName]
        do {
            names = try system.attributeNames(of: source)
        } catch where error == .notSupported || error == .unsupported {
            return
        } catch {
            throw .failed(.inspect, path: path, error)
        }
        for name in names where name.belongsOnRegularFile {
            try copyAttribute(name, from: source, to: destination, path: path)
        }
    }

    /// Copies one attribute, applying the failure rules of `copyExtendedAttributes`.
    private func copyAttribute(
        _ name: ExtendedAttributeName, from source: FileDescriptor, to destination: FileDescriptor, path: String
    ) throws(FileSystemError) {
        let value: [UInt8]
        do {
            value = try system.attributeValue(name, of: source)
        } catch where error == .noSuchAttribute {
            return
        } catch where !name.carriesPermissions && FileSystem.attributeRefusals.contains(error) {
            return
        } catch {
            throw FileSystem.attributeNotCopied(name, path: path, reading: true, error)
        }
        do {
            try system.setAttribute(name, of: destination, to: value)
        } catch where !name.carriesPermissions && FileSystem.attributeRefusals.contains(error) {
            return
        } catch {
            throw FileSystem.attributeNotCopied(name, path: path, reading: false, error)
        }
    }

    /// The errors that mean "this process may not (or this file system cannot) have that attribute",
    /// as opposed to a failure of the system.
    static let attributeRefusals: Set<Errno> = [.notPermitted, .permissionDenied, .notSupported, .unsupported]

    /// The one-line error for an attribute that could not be copied:
    /// `cannot write /x/todo.txt: its extended attribute system.posix_acl_access (the POSIX ACL)
    /// could not be copied to the new file (Operation not supported); nothing was written`.
    ///
    /// `readOnly` is the existing case whose message fits ("cannot write PATH: REASON") and whose
    /// promise holds (nothing was written); the errno is in the reason.
    static func attributeNotCopied(
        _ name: ExtendedAttributeName, path: String, reading: Bool, _ error: Errno
    ) -> FileSystemError {
        let what = name.carriesPermissions ? "\(name) (the POSIX ACL)" : "\(name)"
        let step = reading ? "could not be read" : "could not be copied to the new file"
        return .readOnly(path: path, reason: "its extended attribute \(what) \(step) (\(error.message)); nothing was written")
    }
}

extension System {
    /// The names of the file's extended attributes, in the order the file system lists them.
    /// Asks for the size, then reads; a list that grew in between (`ERANGE`) is asked for again.
    func attributeNames(of fd: FileDescriptor) throws(Errno) -> [ExtendedAttributeName] {
        let list = try sizedRead { buffer throws(Errno) in try flistxattr(fd, into: buffer) }
        // Each name ends in a NUL; empty pieces (none expected) are dropped.
        return list.split(separator: 0, omittingEmptySubsequences: true).map { ExtendedAttributeName(bytes: Array($0)) }
    }

    /// The value of one extended attribute, byte for byte (possibly empty).
    func attributeValue(_ name: ExtendedAttributeName, of fd: FileDescriptor) throws(Errno) -> [UInt8] {
        try sizedRead { buffer throws(Errno) in try fgetxattr(fd, name, into: buffer) }
    }

    /// Sets one extended attribute, creating or replacing it.
    func setAttribute(_ name: ExtendedAttributeName, of fd: FileDescriptor, to value: [UInt8]) throws(Errno) {
        // Never a null pointer, even for an empty value: Linux accepts one, other kernels need not.
        let storage = value.isEmpty ? [0] : value
        let result = storage.withUnsafeBytes { raw in
            Result { () throws(Errno) in try fsetxattr(fd, name, UnsafeRawBufferPointer(rebasing: raw[..<value.count])) }
        }
        try result.get()
    }

    /// The xattr calls' protocol: `read` with an empty buffer returns the size needed; with a
    /// buffer, the size written, or `ERANGE` if the data outgrew it meanwhile, in which case the
    /// size is asked again (at most `FileSystem.attributeReadAttempts` times).
    private func sizedRead(
        _ read: (UnsafeMutableRawBufferPointer) throws(Errno) -> Int
    ) throws(Errno) -> [UInt8] {
        var lastError = Errno.outOfRange
        for _ in 0..<FileSystem.attributeReadAttempts {
            let size = try read(UnsafeMutableRawBufferPointer(start: nil, count: 0))
            if size <= 0 { return [] }
            var failure: Errno?
            let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
                do throws(Errno) {
                    initialized = min(size, max(0, try read(UnsafeMutableRawBufferPointer(buffer))))
                } catch {
                    failure = error
                    initialized = 0
                }
            }
            guard let failure else { return bytes }
            guard failure == .outOfRange else { throw failure }
            lastError = failure
        }
        throw lastError
    }
}
