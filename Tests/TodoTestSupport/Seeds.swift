import Foundation

/// SplitMix64: a small, fast, seedable generator (Steele, Lea, Flood 2014), so that property tests
/// are reproducible from their printed seed. One copy, shared by every test target.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose whole sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The seed for a property or soak test: `TODO_PROPERTY_SEED`, else a fresh one. Always printed
/// with the test's name, so that a failure can be replayed.
public func propertySeed(_ name: String = #function) -> UInt64 {
    let seed = ProcessInfo.processInfo.environment["TODO_PROPERTY_SEED"].flatMap(UInt64.init)
        ?? UInt64.random(in: 1...UInt64.max)
    print("\(name): seed \(seed) (rerun with TODO_PROPERTY_SEED=\(seed))")
    return seed
}
