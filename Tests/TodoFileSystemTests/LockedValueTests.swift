import Dispatch
import Testing
@testable import TodoFileSystem

/// `LockedValue`, the value behind a mutex used where `Synchronization.Mutex` is not available:
/// one thread at a time, typed errors passed through, the lock released after a throw.
@Suite struct LockedValueTests {
    @Test func concurrentIncrementsAreNeverLost() {
        let counter = LockedValue(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    struct Refusal: Error, Equatable { let reason: String }

    @Test func aThrowingBodyPassesItsErrorThroughAndReleasesTheLock() {
        let value = LockedValue("kept")
        #expect(throws: Refusal(reason: "no")) {
            try value.withLock { (text: inout String) throws(Refusal) -> Void in throw Refusal(reason: "no") }
        }
        // Taking the lock again returns: the throw released it.
        #expect(value.withLock { $0 } == "kept")
    }
}
