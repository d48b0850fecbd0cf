/// A date is encoded as its todo.txt text, `YYYY-MM-DD` (a JSON string), the one form every tool
/// reads; decoding refuses anything that is not a valid date of that form.
extension TodoDate: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = TodoDate(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(text)' is not a date (YYYY-MM-DD)")
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
