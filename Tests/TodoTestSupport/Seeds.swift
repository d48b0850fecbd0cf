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

/// Seed and size of a property or soak test, the one seed mechanism of every test target:
/// `TODO_PROPERTY_SEED` and `TODO_PROPERTY_COUNT` override the defaults. Without a default seed a
/// fresh one is drawn each run. The seed is always printed with the test's name, so that a failure
/// can be replayed.
public struct PropertySettings: Sendable {
    public let seed: UInt64
    public let count: Int

    public init(defaultSeed: UInt64? = nil, defaultCount: Int, name: String = #function) {
        let environment = ProcessInfo.processInfo.environment
        seed = environment["TODO_PROPERTY_SEED"].flatMap(UInt64.init) ?? defaultSeed ?? UInt64.random(in: 1...UInt64.max)
        count = environment["TODO_PROPERTY_COUNT"].flatMap(Int.init) ?? defaultCount
        print("\(name): seed \(seed) (rerun with TODO_PROPERTY_SEED=\(seed))")
    }
}

/// The seed for a test that needs no count: `PropertySettings`' seed, fresh unless
/// `TODO_PROPERTY_SEED` is set, printed with the test's name.
public func propertySeed(_ name: String = #function) -> UInt64 {
    PropertySettings(defaultCount: 0, name: name).seed
}
