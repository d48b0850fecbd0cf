/// A priority is encoded as its letter (`"A"`); decoding refuses anything but one letter A–Z.
extension Priority: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let priority = Priority(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a priority (A-Z)")
        }
        self = priority
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
