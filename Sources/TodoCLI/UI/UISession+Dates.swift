import TodoTxt

extension UISession {
    /// The add or edit field's text with the relative dates typed in it resolved, as `todo add`
    /// resolves them (`RelativeDateTags`; off with `TODO_RELATIVE_DATES=0`); the date tags of
    /// `kept` (the task's line before the edit) stay as they are. Nil when a value is not a date:
    /// the reason is on the status line, nothing is written, and the caller opens the field again
    /// with the text as typed, to be corrected.
    func resolvingRelativeDates(_ text: String, keeping kept: [UInt8] = []) -> String? {
        guard TodoNameActions.settings(for: invocation).relativeDates else { return text }
        do throws(RelativeDateError) {
            let resolved = try RelativeDateTags.resolving(Array(text.utf8), today: today, keeping: kept)
            return String(decoding: resolved, as: UTF8.self)
        } catch {
            message = "\(error.description); nothing saved"
            return nil
        }
    }
}
