import TodoFileSystem
import TodoTxt

extension MergeWorkers {
    /// `second` on a thread of its own (`BackgroundJob`) while `first` runs on the calling thread;
    /// both on the calling thread when the system refuses a thread. Returns only after the job is
    /// joined, which is what makes handing the non-escaping `second` to it sound: it never runs
    /// past this call (docs/notes/speed-commands.md, "Round four").
    static let twoThreads = MergeWorkers { first, second in
        withoutActuallyEscaping(second) { second in
            let piece = HandedOverPiece(run: second)
            let job = BackgroundJob.start { _ in
                piece.run()
                return true
            }
            first()
            if let job { _ = job.join() } else { second() }
        }
    }
}

/// A closure handed to one other thread, which alone calls it, and joined before the closure's
/// lifetime ends (`MergeWorkers.twoThreads`): that discipline, not the type system, makes it safe
/// to send.
private struct HandedOverPiece: @unchecked Sendable {
    let run: () -> Void
}
