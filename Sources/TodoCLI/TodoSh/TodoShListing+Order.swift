import TodoTxt

// `--sort KEYS` and `--group FIELD` of the `todo` name's listings (docs/todo-command.md, "Ordering
// and grouping a listing"): the options, declared once here for `ls`, `lsa`, `lsp` and `lf`, and the
// order they give. The comparison itself is the library's (`ListingRecord`, `ListingGroup`).
extension TodoShListing {
    /// `--sort KEYS`.
    static let sortOption = ActionOption.valued(
        "--sort", value: "KEYS", values: ListingSortKey.Field.allCases.map(\.rawValue),
        meaning: "order the tasks shown by KEYS, comma-separated, from due, priority,",
        "created, completed, threshold, project, context, text, line; -KEY reverses",
        "one; tasks without a key come last; each keeps its line number.")

    /// `--group FIELD`.
    static let groupOption = ActionOption.valued(
        "--group", value: "FIELD", values: ListingGroup.allCases.map(\.rawValue),
        meaning: "a heading per project, context, priority or due date, its tasks under",
        "it (a task in several projects under each; tasks without one last).")

    /// The options every listing of tasks declares.
    static let orderOptions = [sortOption, groupOption]

    /// Sets what `--sort` and `--group` ask for on `invocation`; a value that is none of the keys is
    /// a usage error ending in `usage`.
    static func applyOrderOptions(_ parsed: ParsedArguments, usage: String, to invocation: inout Invocation) throws(CLIError) {
        if let list = parsed.values["--sort"] {
            guard let keys = ListingSortKey.parseList(list) else {
                let known = ListingSortKey.Field.allCases.map(\.rawValue).joined(separator: ",")
                throw .usage("--sort takes a comma-separated list of \(known) (-KEY reverses one), not '\(list)'; usage: \(usage)")
            }
            invocation.listingSort = keys
        }
        if let name = parsed.values["--group"] {
            guard let group = ListingGroup(rawValue: name) else {
                let known = ListingGroup.allCases.map(\.rawValue).joined(separator: ", ")
                throw .usage("--group takes one of \(known), not '\(name)'; usage: \(usage)")
            }
            invocation.listingGroup = group
        }
    }

    /// The listing's sections when `--sort` or `--group` was given (nil otherwise: the usual
    /// order): each an optional heading line and positions into `entries`. Ties keep the usual
    /// listing order, so `--sort due` lists the tasks of one day as `ls` would.
    static func orderedSections(_ entries: [Entry], _ bytes: [UInt8], _ settings: TodoShSettings)
        -> [(heading: [UInt8]?, order: [Int])]? {
        guard !settings.listingSort.isEmpty || settings.listingGroup != nil else { return nil }
        let usual = sortedDefault(entries, bytes)
        let records = usual.map { index in
            let entry = entries[index]
            return ListingRecord(bytes[entry.start..<(entry.start + entry.length)], line: entry.filterNumber)
        }
        let sorted = ListingRecord.order(records, by: settings.listingSort)
        guard let group = settings.listingGroup else { return [(nil, sorted.map { usual[$0] })] }
        return group.sections(records, order: sorted).map { section in
            (settings.escapeControls ? TerminalText.escapingControls(section.heading) : section.heading,
             section.members.map { usual[$0] })
        }
    }
}
