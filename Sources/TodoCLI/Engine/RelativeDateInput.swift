import TodoTxt

/// Relative dates in the text of an add or an edit (`todo add "pay rent due:tomorrow"`): the
/// library's rule (`RelativeDateTags`) applied to what the user typed in this command, with the
/// `todo` name's settings (`TodoShSettings.relativeDates`: on under `todo`, off with
/// `TODO_RELATIVE_DATES=0`, never under `todo.sh`). Only the typed text is resolved, never the
/// rest of the line it joins (docs/todo-command.md, "Dates relative to today").
enum RelativeDateInput {
    /// `text` with its relative date values resolved to today's reading, or `text` as it is when
    /// relative dates are off. A value that is not a date is a usage error of `action` naming it
    /// (with a close spelling when there is one), so nothing is written.
    static func resolve(_ text: [UInt8], action: String, _ invocation: Invocation) throws(CLIError) -> [UInt8] {
        guard TodoNameActions.settings(for: invocation).relativeDates else { return text }
        do throws(RelativeDateError) {
            return try RelativeDateTags.resolving(text, today: invocation.clock.today)
        } catch {
            throw TaskActions.usageError(error.description, action, invocation)
        }
    }
}
