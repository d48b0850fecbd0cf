import TodoTerminal
import TodoTxt

/// Draws `todo ui`'s whole screen as the bytes to send: the visible tasks (line number, text with
/// control characters escaped, cut to the width by display width), the selected one in reverse
/// video, and a status line at the bottom that shows a message, or the line being typed with the
/// cursor in it. Colours (priority A–C, completed, overdue, due today in bold, projects and contexts)
/// only when `usesColor`.
struct UIScreen {
    let columns: Int
    let rows: Int
    let usesColor: Bool

    /// The keys, for `?`.
    static let helpLines = [
        "j/k, arrows  move           g/G, Home/End first/last    PgUp/PgDn  a page",
        "x, space     done/not done  a             add           e, Enter   edit",
        "p then A-Z   priority       p then space  no priority   d          delete",
        "/            filter         Esc           clear filter  u          undo",
        "s            sort           v             a saved view  ?          these keys",
        "n            note (editor)  o             open URL/note",
        "t            start/stop tracking time (the tracked task shows its minutes)",
        "q, Ctrl-C    quit",
        "Ctrl-Z       suspend",
        "",
        "Every change is written at once; changes made elsewhere show as they happen.",
    ]

    /// What the status line shows.
    enum Status {
        case message(String)
        case prompt(label: String, editor: LineEditor)
    }

    /// `now`: the clock's seconds, for the running timer beside a tracked task (none when nil).
    func render(_ list: TaskList, status: Status, showingHelp: Bool, today: TodoDate, now: Int? = nil) -> [UInt8] {
        let height = max(0, rows - 1)
        var out = "\u{1B}[?25l\u{1B}[H"
        var lines: [String] = []
        if showingHelp {
            lines = Self.helpLines.map { DisplayWidth.fitted($0, width: columns) }
        } else if list.rows.isEmpty {
            lines = [DisplayWidth.fitted(list.filterText.isEmpty ? "(no tasks)" : "(no task matches the filter)", width: columns)]
        } else {
            let digits = String(list.document.lineCount).count
            for row in list.top..<min(list.rows.count, list.top + height) {
                lines.append(line(list, row: row, digits: digits, today: today, now: now))
            }
        }
        for index in 0..<height {
            out += index < lines.count ? lines[index] : ""
            out += "\u{1B}[K\r\n"
        }
        var cursorColumn: Int?
        switch status {
        case .message(let text):
            // Messages name the file and quote tasks and errors: escaped like the task lines.
            out += reverse(DisplayWidth.fitted(String(decoding: TerminalText.escapingControls(Array(text.utf8)), as: UTF8.self),
                                               width: columns))
        case .prompt(let label, let editor):
            let text = label + editor.text
            out += DisplayWidth.fitted(text, width: columns)
            cursorColumn = min(columns, DisplayWidth.of(label) + editor.cursorColumn + 1)
        }
        out += "\u{1B}[K"
        if let cursorColumn {
            out += "\u{1B}[\(rows);\(cursorColumn)H\u{1B}[?25h"
        }
        return Array(out.utf8)
    }

    /// One task: `NN text`, fitted to the width, coloured and highlighted.
    /// A tracked open task shows `[25m]`, the minutes since its `tracking:`, before its text; a
    /// task waiting for an open task ends in `  [blocked]`, as `todo ls` marks it on a terminal.
    private func line(_ list: TaskList, row: Int, digits: Int, today: TodoDate, now: Int?) -> String {
        let index = list.rows[row]
        let item = list.document.item(at: index)
        let number = String(index + 1)
        var text = String(decoding: TerminalText.escapingControls(item.content), as: UTF8.self)
        if let now, !item.isCompleted, let start = item.trackingStart.value {
            text = "[\(SpentTime(minutes: start.elapsedMinutes(until: now)))] " + text
        }
        if list.blocked.contains(index) { text += "  [blocked]" }
        let plain = DisplayWidth.fitted(String(repeating: " ", count: max(0, digits - number.count)) + number + " " + text,
                                        width: columns)
        var style = ""
        if usesColor {
            if item.isCompleted {
                style = "\u{1B}[90m"
            } else if item.isOverdue(on: today) {
                style = "\u{1B}[31m"
            } else if let priority = item.priority {
                switch priority.letter {
                case UInt8(ascii: "A"): style = "\u{1B}[1;33m"
                case UInt8(ascii: "B"): style = "\u{1B}[32m"
                case UInt8(ascii: "C"): style = "\u{1B}[36m"
                default: break
                }
            }
            // Due today: bold, whatever the colour.
            if !item.isCompleted && item.due.value == today { style += "\u{1B}[1m" }
        }
        if row == list.selected { style += "\u{1B}[7m" }
        if usesColor && !item.isCompleted { return highlightingWords(plain, style: style) }
        return style.isEmpty ? plain : style + plain + "\u{1B}[0m"
    }

    /// `line` in `style`, with each `+project` in magenta and each `@context` in blue (on top of the
    /// line's style, which comes back after each word). The line is already fitted, so a word cut
    /// at the edge is coloured as far as it shows.
    private func highlightingWords(_ line: String, style: String) -> String {
        var out = style
        var first = true
        for word in line.split(separator: " ", omittingEmptySubsequences: false) {
            if !first { out += " " }
            first = false
            let colour: String? = switch word.first {
            case "+" where word.count > 1: "\u{1B}[35m"
            case "@" where word.count > 1: "\u{1B}[34m"
            default: nil
            }
            if let colour { out += colour + word + "\u{1B}[0m" + style } else { out += word }
        }
        return out + "\u{1B}[0m"
    }

    private func reverse(_ text: String) -> String { "\u{1B}[7m" + text + "\u{1B}[0m" }
}
