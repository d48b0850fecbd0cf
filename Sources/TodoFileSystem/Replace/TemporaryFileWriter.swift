// The writer of `FileSystem.replace`'s temporary file.

import TodoTxt

/// Writes a temporary file front to back and starts its write-back every `writebackStride` bytes,
/// so that by the time of the `fsync` the disk has already done most of the work.
struct TemporaryFileWriter {
    let system: System
    let descriptor: FileDescriptor
    /// Bytes written so far.
    private(set) var count: Int64 = 0
    /// The last byte written, `nil` before the first.
    private(set) var lastByte: UInt8?
    /// Where the range not yet handed to write-back starts.
    private var writebackStart: Int64 = 0

    /// How much is written between two write-back starts: big enough that the calls cost next to
    /// nothing, small enough that the disk starts early.
    static let writebackStride = 4 << 20

    init(system: System, descriptor: FileDescriptor) {
        self.system = system
        self.descriptor = descriptor
    }

    /// Appends `content`, taking pieces from `old`.
    mutating func append(_ content: ReplacementContent, old: [UInt8]) throws(Errno) {
        switch content {
        case .bytes(let bytes):
            try append(bytes)
        case .pieces(let pieces):
            let result = old.withUnsafeBytes { source in
                Result { () throws(Errno) in try appendPieces(pieces, of: source) }
            }
            try result.get()
        case .gathered(let sources, let pieces):
            try appendGathered(pieces, of: sources)
        }
    }

    /// Hands the pieces of `sources` to `writev` straight from those buffers, as `appendPieces` does
    /// for the old content's.
    private mutating func appendGathered(_ pieces: [BytePiece], of sources: [[UInt8]]) throws(Errno) {
        var buffers: [UnsafeRawBufferPointer] = []
        buffers.reserveCapacity(sources.count)
        let result = Self.withBuffers(sources[...], &buffers) { buffers in
            Result { () throws(Errno) in
                try appendRuns(pieces.lazy.map { UnsafeRawBufferPointer(rebasing: buffers[Int($0.source)][$0.range]) })
            }
        }
        try result.get()
    }

    /// Calls `body` with a raw view of every buffer of `sources`, all valid at once.
    private static func withBuffers<R>(_ sources: ArraySlice<[UInt8]>, _ views: inout [UnsafeRawBufferPointer],
                                       _ body: ([UnsafeRawBufferPointer]) -> R) -> R {
        guard let first = sources.first else { return body(views) }
        return first.withUnsafeBytes { raw in
            views.append(raw)
            return withBuffers(sources.dropFirst(), &views, body)
        }
    }

    /// Appends `bytes`.
    mutating func append(_ bytes: [UInt8]) throws(Errno) {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(Errno) in try append(raw) } }
        try result.get()
    }

    /// Hands the pieces to `writev` straight from `source`, a stride's worth at a time: the kernel
    /// copies each piece into the page cache once, with no staging copy in between
    /// (docs/notes/file-layer.md).
    private mutating func appendPieces(_ pieces: [Range<Int>], of source: UnsafeRawBufferPointer) throws(Errno) {
        try appendRuns(pieces.lazy.map { UnsafeRawBufferPointer(rebasing: source[$0]) })
    }

    /// Writes `runs` in order with gathering writes, a stride's worth at a time.
    private mutating func appendRuns(_ runs: some Sequence<UnsafeRawBufferPointer>) throws(Errno) {
        var batch: [UnsafeRawBufferPointer] = []
        var batchBytes = 0
        for run in runs {
            var rest = run
            while !rest.isEmpty {
                let room = Self.writebackStride - Int(count - writebackStart) - batchBytes
                let taken = min(rest.count, room)
                batch.append(UnsafeRawBufferPointer(rebasing: rest[..<taken]))
                batchBytes += taken
                rest = UnsafeRawBufferPointer(rebasing: rest[taken...])
                if taken == room { try flush(&batch, bytes: &batchBytes) }
            }
        }
        try flush(&batch, bytes: &batchBytes)
    }

    /// Writes the gathered buffers and starts write-back once a stride is complete.
    private mutating func flush(_ batch: inout [UnsafeRawBufferPointer], bytes: inout Int) throws(Errno) {
        guard let last = batch.last?.last else { return }
        try system.writeAll(descriptor, buffers: batch)
        count += Int64(bytes)
        lastByte = last
        batch.removeAll(keepingCapacity: true)
        bytes = 0
        if count - writebackStart >= Int64(Self.writebackStride) { try startWriteback() }
    }

    /// Writes `raw` completely, a stride at most per `write`, starting write-back after each stride.
    mutating func append(_ raw: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < raw.count {
            let end = min(raw.count, offset + Self.writebackStride - Int(count - writebackStart))
            try system.writeAll(descriptor, UnsafeRawBufferPointer(rebasing: raw[offset..<end]))
            count += Int64(end - offset)
            lastByte = raw[end - 1]
            offset = end
            if count - writebackStart >= Int64(Self.writebackStride) { try startWriteback() }
        }
    }

    /// Starts write-back of everything written since the last start.
    mutating func startWriteback() throws(Errno) {
        guard count > writebackStart else { return }
        try system.startWriteback(descriptor, offset: writebackStart, count: count - writebackStart)
        writebackStart = count
    }
}
