import Testing
@testable import TodoTxt

/// `TodoDocument.presence(ofMovedTask:)`: whether a move's destination already holds the task, so
/// that a move run again after it stopped between its two writes appends nothing twice.
@Suite struct MovedTaskTests {
    func b(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func theIdenticalLineAnywhereIsTheTaskWithOrWithoutUID() {
        let destination = TodoDocument("learn the banjo\npay rent uid:r7p4cd\r\nadded later\n")
        #expect(destination.presence(ofMovedTask: b("pay rent uid:r7p4cd")) == .present(index: 1))
        #expect(destination.presence(ofMovedTask: b("learn the banjo")) == .present(index: 0))
        #expect(destination.presence(ofMovedTask: b("learn the banjo ")) == .absent)
        #expect(TodoDocument("").presence(ofMovedTask: b("learn the banjo")) == .absent)
    }

    @Test func theTasksUIDWithOtherTextIsAConflictNotTheTask() {
        let destination = TodoDocument("x 2026-01-02 pay rent uid:r7p4cd\n")
        #expect(destination.presence(ofMovedTask: b("pay rent +flat uid:r7p4cd")) == .conflicting(index: 0))
        // An identical copy further down wins over an earlier conflicting one.
        let both = TodoDocument("pay rent uid:r7p4cd\npay rent +flat uid:r7p4cd\n")
        #expect(both.presence(ofMovedTask: b("pay rent +flat uid:r7p4cd")) == .present(index: 1))
        // Simpletask's uuid: is a task's identity too, when it has no uid:.
        let simpletask = TodoDocument("call mom uuid:1b4e28ba\n")
        #expect(simpletask.presence(ofMovedTask: b("(A) call mom uuid:1b4e28ba")) == .conflicting(index: 0))
    }

    @Test func aLineThatOnlyMentionsTheUIDOrHoldsAnotherIsNoHolder() {
        let destination = TodoDocument("ask whether r7p4cd is the rent\npay rent uid:r7p4cdx\nnote uid:other r7p4cd\n")
        #expect(destination.presence(ofMovedTask: b("pay rent uid:r7p4cd")) == .absent)
        // A task without a uid matches only its identical line, never by text alone.
        #expect(TodoDocument("pay rent uid:r7p4cd\n").presence(ofMovedTask: b("pay rent")) == .absent)
    }
}
