import TodoTerminal
import TodoTxt

/// Saved views in `todo ui` (`--view NAME`, and `v`): a view's terms become the list's filter, as
/// if typed after `/`. The view's `ls` options (an order, say) are not the list's: the UI keeps
/// its own order (docs/todo-command.md, "Saved views").
extension UISession {
    /// The filter text of the view `name`: its terms, without the options `ls` declares. A missing
    /// file, an unknown name or a bad line is the error `todo view NAME` gives.
    static func viewFilter(named name: String, _ invocation: Invocation) throws(CLIError) -> String {
        let view = try ViewsFile.view(named: name, path: ViewsFile.path(invocation.environment), invocation)
        guard let list = ActionTable.find("list") else { return view.words.joined(separator: " ") }
        return ViewsFile.split(view.words, list).terms.joined(separator: " ")
    }

    /// `v`: asks for a view's name; the prompt lists the names (read now, so a view saved while the
    /// UI runs is offered). A missing or bad file says so on the status line instead.
    func startChoosingView() {
        let path = ViewsFile.path(invocation.environment)
        do throws(CLIError) {
            guard let views = try ViewsFile.load(path, invocation), !views.views.isEmpty else {
                message = "no views: \(path) holds none (one view a line: NAME = TERMS)"
                return
            }
            viewNames = views.views.map(\.name)
            mode = .choosingView(LineEditor())
        } catch {
            message = error.text
        }
    }

    /// The view prompt, naming the views there are.
    var viewPromptLabel: String { "view (\(viewNames.joined(separator: ", "))): " }

    /// Keys while a view's name is typed: Enter filters by it (an empty name clears the filter),
    /// Escape goes back to the list as it was.
    func handleChoosingView(_ key: Key, _ editor: LineEditor) {
        var editor = editor
        switch key {
        case .enter:
            mode = .list
            let name = editor.text.trimmingSpaces
            guard !name.isEmpty else {
                list.setFilter("")
                return
            }
            do throws(CLIError) {
                list.setFilter(try Self.viewFilter(named: name, invocation))
                list.moveToFirst()
                message = "view \(name)"
            } catch {
                message = error.text
            }
        case .escape:
            mode = .list
        default:
            _ = editor.handle(key)
            mode = .choosingView(editor)
        }
    }
}

extension String {
    /// Without spaces at either end.
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
