#!/usr/bin/env bash
# Installs todo for one user (or a system, with a PREFIX it may write to):
#
#   scripts/install.sh [PREFIX]              build and install (PREFIX defaults to ~/.local)
#   scripts/install.sh --uninstall [PREFIX]  remove what an install put there
#
# What goes where (each shell's own place for completions, so nothing needs sourcing by hand):
#   PREFIX/bin/todo                                        the static release binary
#   PREFIX/bin/todo.sh                                     a link to it: the todo.sh drop-in
#   PREFIX/share/man/man1/todo.1                           the manual (also `man todo.sh`: todo.sh.1)
#   PREFIX/share/bash-completion/completions/todo, todo.sh bash (bash-completion loads it by name)
#   PREFIX/share/zsh/site-functions/_todo                  zsh, both names (the directory must be in
#                                                          $fpath: it is for /usr and /usr/local)
#   PREFIX/share/fish/vendor_completions.d/todo.fish, todo.sh.fish   fish
# One script per shell serves both names; the todo.sh files are links to the todo ones.
#
# TODO_INSTALL_BINARY=PATH installs that binary instead of building one (the tests use the debug
# build; a user never needs it).
set -euo pipefail
cd "$(dirname "$0")/.."

uninstall=false
if [[ "${1:-}" == "--uninstall" ]]; then uninstall=true; shift; fi
if [[ $# -gt 1 ]]; then echo "usage: scripts/install.sh [--uninstall] [PREFIX]" >&2; exit 2; fi
prefix="${1:-$HOME/.local}"

bin="$prefix/bin"
man="$prefix/share/man/man1"
bash_dir="$prefix/share/bash-completion/completions"
zsh_dir="$prefix/share/zsh/site-functions"
fish_dir="$prefix/share/fish/vendor_completions.d"
installed=("$bin/todo" "$bin/todo.sh" "$man/todo.1" "$man/todo.sh.1"
           "$bash_dir/todo" "$bash_dir/todo.sh" "$zsh_dir/_todo" "$fish_dir/todo.fish" "$fish_dir/todo.sh.fish")

if $uninstall; then
    for file in "${installed[@]}"; do
        if [[ -e "$file" || -L "$file" ]]; then rm -f "$file" && echo "removed $file"; fi
    done
    exit 0
fi

binary="${TODO_INSTALL_BINARY:-}"
if [[ -z "$binary" ]]; then
    swift build -c release --product todo --build-path .build-static -Xswiftc -static-executable >&2
    binary=.build-static/release/todo
fi

mkdir -p "$bin" "$man" "$bash_dir" "$zsh_dir" "$fish_dir"
# A new file renamed over the old one: a running `todo` keeps its inode.
install -m 755 "$binary" "$bin/.todo.new" && mv -f "$bin/.todo.new" "$bin/todo"
ln -sf todo "$bin/todo.sh"
"$bin/todo" __man > "$man/todo.1"
echo ".so man1/todo.1" > "$man/todo.sh.1"
"$bin/todo" completions bash > "$bash_dir/todo"
ln -sf todo "$bash_dir/todo.sh"
"$bin/todo" completions zsh > "$zsh_dir/_todo"
"$bin/todo" completions fish > "$fish_dir/todo.fish"
ln -sf todo.fish "$fish_dir/todo.sh.fish"
for file in "${installed[@]}"; do echo "installed $file"; done
case ":$PATH:" in
    *":$bin:"*) ;;
    *) echo "note: $bin is not on PATH; add it (for example in ~/.profile: PATH=\"$bin:\$PATH\")" ;;
esac
