import TodoFileSystem
import TodoTxt

extension ExportAction {
    /// Content bytes of the file per range of lines the two threads take turns at: large enough that
    /// handing a range over costs little beside converting it, small enough that the two ranges'
    /// output held at once stays a small part of the file's memory.
    static let jsonRangeBytes = 1 << 19

    /// `todo export` (JSON): every line of `document` as JSON Lines, handed to `emit` in order, in
    /// pieces (`JSONLinesExport.write`), the same bytes as `TodoDocument.exportJSONLines()`.
    ///
    /// The export costs many times the reading of the file, and lines convert independently once
    /// the open uids are known (`JSONLinesExport.init` reads them first), so a file of more than
    /// two ranges of `rangeBytes` is converted on two threads: ranges of lines go alternately to
    /// this thread, which writes its own as it makes them, and to a second one, whose range is held
    /// until this thread has written the range before it. At most one range's output is held, so
    /// memory grows by about that, whatever the file's size. A smaller file is converted on this
    /// thread alone: starting a thread would cost more than it saves. `emit` runs on this thread only.
    static func writeJSONLines(_ document: TodoDocument, rangeBytes: Int = jsonRangeBytes, _ emit: ([UInt8]) -> Void) {
        let export = JSONLinesExport(document)
        let ranges = export.ranges(ofBytes: rangeBytes)
        guard ranges.count > 2 else {
            export.write(lines: 0..<export.lineCount, emit)
            return
        }
        var held: [[UInt8]] = []
        var next = 0
        while next < ranges.count {
            // The range after this thread's, on a thread of its own (`BackgroundJob`, as the file
            // layer's early checks run); made here when no thread can be started.
            let other: BackgroundJob<[[UInt8]]>? = next + 1 < ranges.count ? BackgroundJob.start { [range = ranges[next + 1]] _ in
                var pieces: [[UInt8]] = []
                export.write(lines: range) { pieces.append($0) }
                return pieces
            } : nil
            for piece in held { emit(piece) }
            export.write(lines: ranges[next], emit)
            if let other {
                held = other.join()
            } else if next + 1 < ranges.count {
                held = []
                export.write(lines: ranges[next + 1]) { held.append($0) }
            } else {
                held = []
            }
            next += 2
        }
        for piece in held { emit(piece) }
    }
}
