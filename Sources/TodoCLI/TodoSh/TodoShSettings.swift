import TodoTxt

/// Every default and switch the shared actions consult: one value per setting, and the rules (`NameRules`) that differ under the name `todo`.
///
/// `todo.sh` fills it from options, environment and the config script (docs/todosh.md section 1); the `todo`
/// name can fill the same value with its own defaults (docs/todo-command.md: creation date and uid on add, `do`
/// keeping `pri:` and not auto-archiving) and call the same action functions.
struct TodoShSettings: Sendable {
    // MARK: Switches (flag > environment > config > default)

    /// `TODOTXT_VERBOSE`: 0 quiet, 1 messages, 2 debug.
    var verbose = 1
    /// `-p`: no colours at all.
    var plain = false
    /// `-f`: no confirmation or interactive input.
    var force = false
    /// `-N`/`-n`: deleting leaves a blank line (true) or squeezes blank lines (false).
    var preserveLineNumbers = true
    /// `-A`/`-a`: `do` runs `archive` afterwards.
    var autoArchive = true
    /// `-t`/`-T`: `add` inserts today's date.
    var dateOnAdd = false
    /// `TODOTXT_PRIORITY_ON_ADD`: a priority letter given to new tasks without one, or empty.
    var priorityOnAdd = ""
    /// `-x`: skip `TODOTXT_FINAL_FILTER`.
    var disableFilter = false
    /// `TODOTXT_DEFAULT_ACTION`: run when no action is given.
    var defaultAction = ""
    /// `TODOTXT_SORT_COMMAND`.
    var sortCommand = TodoShSettings.defaultSortCommand
    /// `TODOTXT_FINAL_FILTER`.
    var finalFilter = "cat"
    /// How long a writer waits for the file's writers' lock (`TODO_LOCK_TIMEOUT`).
    var lockTimeout: Duration = .seconds(5)

    // MARK: List display

    var hideContexts = false
    var hideProjects = false
    var hidePriorities = false
    /// `HIDE_CUSTOM_SUBSTITUTION`: a BRE removed from list output.
    var hideCustomSubstitution = ""

    // MARK: Files

    var todoDirectory = ""
    var todoFile = ""
    var doneFile = ""
    var reportFile = ""
    var actionsDirectory = ""

    // MARK: From the config

    /// `SENTENCE_DELIMITERS` for `append`.
    var sentenceDelimiters = ",.:;"
    /// `TODOTXT_SIGIL_BEFORE_PATTERN`, `…_AFTER_PATTERN`, `…_VALID_PATTERN` for listcon/listproj.
    var sigilBeforePattern = ""
    var sigilAfterPattern = ""
    var sigilValidPattern = ".*"
    /// `TODOTXT_SOURCEVAR`: shell words naming the files listcon/listproj read.
    var sourceVariable = ""
    /// Every variable the config left behind (colour names, `PRI_*`, `COLOR_*`, user variables).
    var variables: [String: String] = [:]
    /// The environment an add-on, sort command or final filter sees (exported variables).
    var exportedEnvironment: [String: String] = [:]

    // MARK: What differs under the name `todo`

    /// What the engine does differently under the name `todo` (todo.sh's exact behaviour by default).
    var rules = NameRules.todoSh
    /// `add` appends a fresh `uid:` (the `todo` name; `TODOTXT_UID_ON_ADD=0` turns it off).
    var uidOnAdd = false
    /// Listings show tasks hidden by `h:1` or a future `t:` (`-a`/`--all` under `todo`).
    var showHidden = true
    /// Listings hide `h:1` and future-threshold tasks, highlight overdue `due:` and escape control
    /// characters on a terminal (the `todo` name's listing rules, docs/todo-command.md).
    var modernListing = false
    /// Escape control characters in task text (output is a terminal).
    var escapeControls = false
    /// A search term without regex metacharacters matches as plain text, ignoring case and
    /// diacritics (`cafe` finds `Café`).
    var plainTextTerms = false
    /// `--sort KEYS` of a listing (the `todo` name): the order of the tasks shown; empty: the usual.
    var listingSort: [ListingSortKey] = []
    /// `--group FIELD` of a listing: a heading per value, the tasks under it.
    var listingGroup: ListingGroup?
    /// Date tags typed as relative dates are written as the day they name (`rules.resolvesRelativeDates`,
    /// unless `TODO_RELATIVE_DATES=0`).
    var relativeDates = false

    /// todo.sh's behaviour, or the `todo` name's.

    static let defaultSortCommand = "env LC_COLLATE=C sort -f -k2"

    /// The colour value `name`, as the config left it (empty when undefined).
    func color(_ name: String) -> String { variables[name] ?? "" }
}
