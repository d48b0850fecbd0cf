/// Where new uids get their randomness: the system generator, or, when `TODO_TEST_UID_SEED` is set
/// (end-to-end transcripts), a seeded SplitMix64 so that every run draws the same sequence. A seeded
/// run still never reuses a uid: generated values are checked unused in the todo and done files.
struct UIDRandomness: RandomNumberGenerator {
    private var state: UInt64?
    private var system = SystemRandomNumberGenerator()

    init(environment: [String: String]) {
        state = environment["TODO_TEST_UID_SEED"].flatMap { UInt64($0) }
    }

    mutating func next() -> UInt64 {
        guard var value = state else { return system.next() }
        value &+= 0x9E37_79B9_7F4A_7C15
        state = value
        var mixed = value
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
