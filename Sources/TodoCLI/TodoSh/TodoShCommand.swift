/// The program under the name `todo.sh`: a drop-in replacement for todo.txt-cli's todo.sh
/// (todosh.md).
enum TodoShCommand {
    static func run(_ arguments: [String], _ invocation: inout Invocation) throws(CLIError) -> Int32 {
        try TodoCommand.dispatch(arguments, &invocation)
    }
}
