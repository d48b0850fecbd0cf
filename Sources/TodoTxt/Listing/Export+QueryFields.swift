extension JSONWriter {
    /// The export's fields for typed queries (docs/format.md section 7), after `uid`, the same on
    /// the byte path and the String path: `"due"` and `"threshold"`, the first `due:`/`t:` value
    /// when it is a valid date, else null (an invalid value is null, as a query treats it);
    /// `"effective_priority"`, the `(A)` header or, for a completed task without one, the `pri:`
    /// it kept, else null. Every value is ASCII, so both paths write the same bytes.
    mutating func writeQueryFields(_ fields: QueryFields) {
        raw(",\"due\":")
        optional(fields.due?.description)
        raw(",\"threshold\":")
        optional(fields.threshold?.description)
        raw(",\"effective_priority\":")
        if let priority = fields.priority { bytes += [0x22, priority.letter, 0x22] } else { raw("null") }
    }
}
