/// `todo undo NR...` (alias `undone`): marks completed tasks open again, restoring the priority
/// kept in `pri:` (docs/todo-command.md). A task that is not done is a soft error: reported, the others
/// still processed, exit 1 at the end (todo.sh's rule for "already done").
enum UndoAction {
    static let spec = ActionSpec(
        name: "undo", aliases: ["undone"], arguments: "NR|UID...",
        summary: "Mark completed tasks open again (restores the priority kept as pri:).",
        completes: .tasks,
        group: .tasks, notes: ActionTable.addressDetails,
        words: { invocation, arguments throws(CLIError) in try TaskActions.undo(arguments, &invocation) })
}
