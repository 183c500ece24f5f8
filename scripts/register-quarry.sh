#!/usr/bin/env bash
# Registers Magpie as a Reversi (Othello) GTP engine in the Quarry GUI's configuration.
#
# Usage: scripts/register-quarry.sh [-h|--help] [--] [MAGPIE_BINARY] [ENGINE_ARGS...]
#
#   -h, --help     print this text and exit.
#   MAGPIE_BINARY  the engine to register (default: this repository's target/release/magpie,
#                  built by `cargo build --release`); it is resolved to an absolute path.
#   ENGINE_ARGS    extra options for the engine, e.g. `--level 5` or `--movetime 500`.
#
# Any other first argument that starts with `-` is refused with exit status 2: the engine's
# options come after MAGPIE_BINARY (`--` first allows a binary whose name starts with `-`).
# Other failures exit with status 1.
#
# The engine's command line in Quarry becomes `MAGPIE_BINARY --protocol gtp ENGINE_ARGS...`.
# The script runs it once, as Quarry's own "Add engine" dialog does, to ask its name, version and
# games (protocol_version, name, version, list_games), and then writes a section like this one
# into Quarry's configuration file, ~/.quarry (QUARRY_CONFIG=FILE to use another file):
#
#   [GTP Engine "Magpie 0.10.0"]
#   Screen name format	= "%n %v"
#   Name			= "Magpie"
#   Version			= "0.10.0"
#   Command line		= "/abs/path/magpie --protocol gtp"
#   Supported games		= "Reversi"
#
# That is the format Quarry 0.2.0 itself writes (see /usr/share/quarry/quarry.cfg for the site
# engines). Running the script again with the same command line updates that section in place
# instead of adding a second one; a different command line (other binary or other options) is a
# different engine, added next to it, shown as "Magpie 0.10.0 <options>". Other engines and
# settings are kept as they are. A missing ~/.quarry is created with just this section: Quarry
# fills in its defaults and the site engines when it starts.
#
# Quarry rewrites ~/.quarry when it exits, so quit Quarry before running this script.
# Then in Quarry: New Game, Game "Reversi", choose Computer "Magpie 0.10.0" as a player.
set -euo pipefail

die() {
    echo "register-quarry: $*" >&2
    exit 1
}

case ${1-} in
-h | --help)
    sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
    exit 0
    ;;
--) shift ;;
-?*)
    echo "register-quarry: unknown option '$1' (-h for help; engine options go after the binary)" >&2
    exit 2
    ;;
esac

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
binary=${1:-$repo/target/release/magpie}
[[ $# -gt 0 ]] && shift
extra_args=("$@")

[[ -e $binary ]] || die "no engine at $binary (build it with: cargo build --release)"
binary=$(realpath -s -- "$binary")
[[ -f $binary && -x $binary ]] || die "$binary is not an executable file"

config=${QUARRY_CONFIG:-$HOME/.quarry}

if pgrep -x quarry >/dev/null 2>&1; then
    echo "register-quarry: warning: Quarry is running; it overwrites $config when it exits," \
        "so quit it and run this script again if Magpie does not show up" >&2
fi

# Ask the engine what Quarry asks it. Each answer starts with `=` or `?`.
errors=$(mktemp)
trap 'rm -f -- "$errors"' EXIT
answers=$(printf 'protocol_version\nname\nversion\nlist_games\nquit\n' |
    timeout 30 "$binary" --protocol gtp "${extra_args[@]}" 2>"$errors") ||
    die "'$binary --protocol gtp ${extra_args[*]}' did not answer GTP: $(head -c 2000 "$errors")"
rm -f -- "$errors"
answer() { # answer N: the first line of the N-th answer, without its `= `
    awk -v n="$1" '/^[=?]/ { k++ } k == n && /^[=?]/ { print; exit }' <<<"$answers" |
        sed -E 's/^[=?][0-9]* ?//'
}
first_mark=$(awk '/^[=?]/ { printf "%s", substr($0, 1, 1) }' <<<"$answers" | cut -c1-4)
[[ $first_mark == "====" ]] || die "the engine refused one of protocol_version, name, version, list_games:
$answers"
[[ $(answer 1) == 2 ]] || die "the engine does not speak GTP version 2"
name=$(answer 2)
version=$(answer 3)
games=$(awk '/^[=?]/ { k++ } k == 4' <<<"$answers" | sed -E 's/^=[0-9]* ?//')
grep -qiE '^[[:space:]]*(othello|reversi)[[:space:]]*$' <<<"$games" ||
    die "the engine's list_games does not name Othello: $games"
[[ -n $name ]] || die "the engine answered an empty name"

# Quarry splits the command line like a shell (g_shell_parse_argv): quote what needs it.
shell_word() {
    if [[ $1 =~ ^[A-Za-z0-9_./:=@%+,-]+$ ]]; then
        printf '%s' "$1"
    else
        printf "'%s'" "${1//\'/\'\\\'\'}"
    fi
}
command_line=$(shell_word "$binary")
for word in --protocol gtp "${extra_args[@]}"; do
    command_line+=" $(shell_word "$word")"
done

# Screen name: Quarry replaces %n and %v with the engine's name and version; %% is a percent sign.
screen_format="%n %v"
screen_name="$name $version"
if [[ ${#extra_args[@]} -gt 0 ]]; then
    screen_format+=" ${extra_args[*]//%/%%}"
    screen_name+=" ${extra_args[*]}"
fi

# Quarry's configuration strings are in double quotes, with \ and " escaped by a backslash.
quote() {
    local s=${1//\\/\\\\}
    printf '"%s"' "${s//\"/\\\"}"
}

section="[GTP Engine $(quote "$screen_name")]
Screen name format	= $(quote "$screen_format")
Name			= $(quote "$name")
Version			= $(quote "$version")
Command line		= $(quote "$command_line")
Supported games		= \"Reversi\"
"

header='# This is Quarry configuration file.
#
# You probably don'"'"'t really want to edit it directly as you can tweak
# all the settings from Quarry itself.  However, editing the file is
# absolutely OK, just make sure that its general format is preserved.
'

mkdir -p -- "$(dirname -- "$config")"
tmp=$(mktemp "$config.XXXXXX")
trap 'rm -f -- "$tmp"' EXIT

if [[ -s $config ]]; then
    # Split the file into blocks (the text before the first section, then one block per
    # section); replace the first GTP Engine section with the same command line, or else insert
    # the new section after the last GTP Engine section (or at the top when there is none).
    QR_SECTION=$section QR_COMMAND=$(quote "$command_line") awk '
        function value(line) { sub(/^[^=]*=[ \t]*/, "", line); sub(/[ \t\r]+$/, "", line); return line }
        BEGIN { n = 0; engine[0] = 0; lines[0] = 0 }
        /^\[/ { n++; engine[n] = ($0 ~ /^\[GTP Engine /); lines[n] = 0 }
        {
            lines[n]++; text[n, lines[n]] = $0
            if (engine[n] && $0 ~ /^Command line[ \t]*=/ && value($0) == ENVIRON["QR_COMMAND"]) same[n] = 1
        }
        function emit(b,    i) { for (i = 1; i <= lines[b]; i++) print text[b, i] }
        function ensure_gap(b) { if (lines[b] > 0 && text[b, lines[b]] != "") print "" }
        END {
            target = -1; last_engine = 0
            for (b = 1; b <= n; b++) {
                if (same[b] && target < 0) target = b
                if (engine[b]) last_engine = b
            }
            for (b = 0; b <= n; b++) {
                if (b == target) { printf "%s", ENVIRON["QR_SECTION"]; if (b < n) print ""; continue }
                emit(b)
                if (target < 0 && b == last_engine) { ensure_gap(b); printf "%s", ENVIRON["QR_SECTION"]; if (b < n) print "" }
            }
            if (target < 0) action = "added"; else action = "updated"
            print action > "/dev/stderr"
        }
    ' "$config" >"$tmp" 2>"$tmp.action"
    action=$(cat "$tmp.action")
    rm -f -- "$tmp.action"
    chmod --reference="$config" "$tmp"
else
    printf '%s\n%s' "$header" "$section" >"$tmp"
    chmod 644 "$tmp"
    action="added (new configuration file)"
fi
mv -f -- "$tmp" "$config"
trap - EXIT

echo "register-quarry: $action $name $version in $config"
echo "command line: $command_line"
echo "screen name: $screen_name"
