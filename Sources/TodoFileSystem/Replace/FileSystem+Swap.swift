// Steps 4 and 6 of `FileSystem.replace`: the temporary file beside the target, and the rename or name swap that puts it in place.

extension FileSystem {
    /// Step 4: an exclusive, hidden temporary file beside the target. Sync clients and editors
    /// ignore dot-files ending in `.tmp`. Existing targets get mode 0600 until `fchmod`; a new file
    /// is created with 0666 so that the umask and default ACLs apply as for any new file.
    func createTemporaryFile(beside target: ResolvedPath, existing: Bool) throws(FileSystemError) -> (String, FileDescriptor) {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var lastError = Errno.fileExists
        for _ in 0..<16 {
            var bits = system.random()
            var suffix: [UInt8] = []
            for _ in 0..<6 {
                suffix.append(alphabet[Int(bits % UInt64(alphabet.count))])
                bits /= UInt64(alphabet.count)
            }
            let name = "." + target.name + "." + String(decoding: suffix, as: UTF8.self) + ".tmp"
            let path = PathName.join(target.directory, name)
            do {
                return (path, try system.createExclusive(path, permissions: existing ? 0o600 : 0o666))
            } catch where error == .fileExists {
                lastError = error
            } catch where error == .permissionDenied || error == .readOnlyFileSystem || error == .notPermitted {
                throw .readOnly(path: target.path, reason: "its directory \(target.directory) is not writable (\(error.message))")
            } catch {
                throw .failed(.createTemporaryFile, path: target.path, error)
            }
        }
        throw .failed(.createTemporaryFile, path: target.path, lastError)
    }

    /// How the new file took the target's place.
    enum SwapOutcome {
        /// A plain rename (the file system cannot swap names).
        case renamed
        /// The names were swapped and the old file, now under the temporary name, is the file
        /// that was compared.
        case swapped
        /// The file that came out was another one (an editor saved by renaming its own file over
        /// the target after the comparison): the swap was undone.
        case undone
        /// Undoing the swap failed; the other program's file is under the temporary name.
        case undoFailed(Errno)
    }

    /// Step 6 for an existing file: swaps the names of the temporary file and the target
    /// (`renameExchange`), so that the file coming out can be checked. It must be the file that
    /// was read and compared (same device and inode; late appends to it are copied afterwards).
    /// Anything else is a save that landed between the comparison and this instant, which a plain
    /// rename would have thrown away: the swap is undone and the edit starts over on that file.
    /// Where the file system cannot swap (`EINVAL`, `ENOSYS`, `ENOTSUP`), a plain rename, with the
    /// instant-wide window the comparison leaves (docs/notes/file-layer.md).
    func swapIn(_ temporaryPath: String, _ targetPath: String, expected: FileIdentity) throws(Errno) -> SwapOutcome {
        do {
            try system.renameExchange(temporaryPath, targetPath)
        } catch where [.invalidArgument, .notImplemented, .notSupported, .unsupported].contains(error) {
            try system.rename(temporaryPath, targetPath)
            return .renamed
        }
        guard let displaced = try? system.lstat(temporaryPath), !displaced.identity.isSameFile(as: expected) else {
            return .swapped
        }
        do {
            try system.renameExchange(temporaryPath, targetPath)
            return .undone
        } catch {
            // Put the other program's file back by a plain rename (ours goes); if even that fails,
            // it stays under the temporary name, which the error names.
            do { try system.rename(temporaryPath, targetPath) } catch { return .undoFailed(error) }
            return .undone
        }
    }

    /// Step 6 when the target did not exist: a rename that refuses to replace a file created since the
    /// check (`EEXIST`), so such a file is never overwritten; `false` then, and the attempt starts
    /// over on that file's content. Where the file system cannot refuse (`EINVAL`, `ENOSYS`,
    /// `ENOTSUP`: some network and FUSE file systems), a plain rename, right after the re-check.
    func renameCreating(_ from: String, _ to: String) throws(Errno) -> Bool {
        do {
            try system.renameNoReplace(from, to)
            return true
        } catch where error == .fileExists {
            return false
        } catch where [.invalidArgument, .notImplemented, .notSupported].contains(error) {
            try system.rename(from, to)
            return true
        }
    }
}
