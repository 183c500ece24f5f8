#!/usr/bin/env bash
# Plays Magpie in the real Quarry GUI under Xvfb and takes screenshots: an end-to-end check of the
# GTP front end with the client it was written for.
#
# Usage: scripts/quarry-screenshot.sh [-o DIR] [-n MOVES] [-b MAGPIE_BINARY] [-t TIME]
#                                      [-- ENGINE_ARGS...]
#
#   -o DIR     where screenshots and logs go (default /tmp/magpie-quarry; QUARRY_SHOTS_DIR)
#   -n MOVES   how many human (Black) moves to play (default 4)
#   -b BINARY  the engine (default: this repository's target/release/magpie)
#   -t TIME    Quarry's time control for the game: `none` (default), `game=MM:SS` (per player for
#              the whole game), `move=MM:SS` (per move) or `canadian=MM:SS/MM:SS/N` (main time,
#              then periods of MM:SS for N moves); Quarry then sends time_settings and time_left
#   ENGINE_ARGS  extra engine options, e.g. `-- --level 3` or `-- --movetime 300`
#
# Needs the Debian packages quarry, xvfb, xdotool and imagemagick
# (apt-get install -y quarry xvfb xdotool imagemagick) and a built engine (cargo build --release).
#
# What it does:
#   1. starts Xvfb on a free display (Xvfb -displayfd picks it);
#   2. uses DIR/home as Quarry's home, so the user's own ~/.quarry is never touched, registers
#      Magpie there with scripts/register-quarry.sh, wrapped in a small logging script, and
#      presets Quarry's New Game dialog to Reversi, White = Magpie, Black = human;
#   3. starts Quarry (with --gtp-log), opens New Game with the keyboard (Alt+N, Alt+F, Alt+P);
#   4. finds the board's grid lines in a screenshot of the board window, then for each move asks a
#      helper Magpie for a legal Black move (`reg_genmove black` at level 2, checked against
#      `gogui-rules_legal_moves`), clicks that square and waits for Quarry's `play black ...`
#      and Magpie's answer to `genmove white`;
#   5. takes screenshots (import -window root) at the start and after each of Magpie's replies,
#      plus one of the board window alone at the end;
#   6. quits Quarry (Ctrl+Q, "Close without Saving"), checks that Magpie exited, and kills
#      every process it started, whatever happens (trap on EXIT).
#
# Results in DIR: 01-game-start.png, 02-after-move-N.png ..., 03-final-board.png (window only),
#   gtp.log           the GTP traffic as the wrapper saw it, with times: `>` what Quarry sent,
#                     `<` what Magpie answered, `!` Magpie's stderr, `#` notes
#   quarry-gtp.<PID>  Quarry's own --gtp-log of the game session (written when Quarry exits)
#   quarry.stderr, xvfb.log, home/.quarry, magpie-gtp-wrapper.sh
# Exit status 0 when every move was played (or the game ended) and no GTP command was refused.
set -euo pipefail

die() {
    echo "quarry-screenshot: error: $*" >&2
    exit 1
}
note() { echo "quarry-screenshot: $*" >&2; }

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${QUARRY_SHOTS_DIR:-/tmp/magpie-quarry}
moves=4
binary=$repo/target/release/magpie
time_control=none
while getopts "o:n:b:t:h" opt; do
    case $opt in
    o) out=$OPTARG ;;
    n) moves=$OPTARG ;;
    b) binary=$OPTARG ;;
    t) time_control=$OPTARG ;;
    h)
        sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
        exit 0
        ;;
    *) die "usage: $0 [-o DIR] [-n MOVES] [-b MAGPIE_BINARY] [-t TIME] [-- ENGINE_ARGS...]" ;;
    esac
done
shift $((OPTIND - 1))
engine_args=("$@")
[[ $moves =~ ^[0-9]+$ ]] || die "-n wants a number of moves"
# Quarry's "New Reversi Game Parameters": Time control type 0 none, 1 game, 2 move, 3 Canadian.
mmss='[0-9]{2}:[0-9]{2}'
case $time_control in
none) time_preset="Time control type	= 0" ;;
game=*)
    [[ ${time_control#game=} =~ ^$mmss$ ]] || die "-t game=MM:SS"
    time_preset="Time control type	= 1
Time limit for game	= ${time_control#game=}" ;;
move=*)
    [[ ${time_control#move=} =~ ^$mmss$ ]] || die "-t move=MM:SS"
    time_preset="Time control type	= 2
Time limit for move	= ${time_control#move=}" ;;
canadian=*)
    IFS=/ read -r main period stones <<<"${time_control#canadian=}"
    [[ $main =~ ^$mmss$ && $period =~ ^$mmss$ && $stones =~ ^[0-9]+$ ]] ||
        die "-t canadian=MM:SS/MM:SS/N"
    time_preset="Time control type	= 3
Main time		= $main
Overtime period length	= $period
Moves per overtime	= $stones" ;;
*) die "-t wants none, game=MM:SS, move=MM:SS or canadian=MM:SS/MM:SS/N" ;;
esac

quarry=$(command -v quarry || echo /usr/games/quarry)
[[ -x $quarry ]] || die "Quarry is not installed (apt-get install -y quarry)"
for tool in Xvfb xdotool import convert timeout; do
    command -v "$tool" >/dev/null || die "$tool is missing (apt-get install -y xvfb xdotool imagemagick)"
done
[[ -x $binary ]] || die "no engine at $binary (build it with: cargo build --release)"
binary=$(realpath -s -- "$binary")

mkdir -p -- "$out"
out=$(realpath -- "$out")
rm -rf -- "$out/home"
rm -f -- "$out"/0[123]-*.png "$out/gtp.log" "$out"/quarry-gtp.* "$out/quarry.stderr" "$out/xvfb.log"
mkdir -p -- "$out/home"

# ---------------------------------------------------------------- cleanup of what we start
xvfb_pid=
quarry_pid=
cleanup() {
    local status=$?
    if [[ -n $quarry_pid ]] && kill -0 "$quarry_pid" 2>/dev/null; then
        kill "$quarry_pid" 2>/dev/null || true
        for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$quarry_pid" 2>/dev/null || break; sleep 0.2; done
        kill -9 "$quarry_pid" 2>/dev/null || true
    fi
    # Engines that outlived Quarry (the wrapper logs "start pid N" and, at the end, "exited").
    if [[ -n ${MAGPIE_GTP_LOG:-} && -f $MAGPIE_GTP_LOG ]] &&
        ! grep -q 'Magpie exited with status' "$MAGPIE_GTP_LOG"; then
        local pid
        for pid in $(sed -n 's/.* # start pid \([0-9]*\):.*/\1/p' "$MAGPIE_GTP_LOG"); do
            if kill -0 "$pid" 2>/dev/null; then
                echo "quarry-screenshot: the engine (wrapper pid $pid) was still running; killing it" >&2
                pkill -P "$pid" 2>/dev/null || true
                kill "$pid" 2>/dev/null || true
            fi
        done
    fi
    if [[ -n $xvfb_pid ]]; then
        kill "$xvfb_pid" 2>/dev/null || true
        wait "$xvfb_pid" 2>/dev/null || true
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ------------------------------------------------------------------------------ Xvfb
: >"$out/xvfb.display"
Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>"$out/xvfb.display" >"$out/xvfb.log" 2>&1 &
xvfb_pid=$!
display_number=
for _ in $(seq 1 75); do
    display_number=$(tr -dc 0-9 <"$out/xvfb.display" || true)
    [[ -n $display_number ]] && break
    kill -0 "$xvfb_pid" 2>/dev/null || break
    sleep 0.2
done
rm -f -- "$out/xvfb.display"
[[ $display_number =~ ^[0-9]+$ ]] || die "Xvfb did not start: $(tail -5 "$out/xvfb.log")"
export DISPLAY=:$display_number
note "Xvfb on display $DISPLAY"

# --------------------------------------------------- engine wrapper, registration, presets
wrapper=$out/magpie-gtp-wrapper.sh
cat >"$wrapper" <<EOF
#!/usr/bin/env bash
# Written by scripts/quarry-screenshot.sh: runs Magpie and appends the GTP traffic to
# \$MAGPIE_GTP_LOG (no log when it is unset): "> " what the client sent, "< " what Magpie
# answered, "! " Magpie's stderr, "# " notes; each line with the time it passed.
magpie=$(printf '%q' "$binary")
log=\${MAGPIE_GTP_LOG:-/dev/null}
exec 3>>"\$log"
stamp() { local t=\${EPOCHREALTIME/,/.}; printf -v now '%(%H:%M:%S)T.%s' "\${t%.*}" "\${t#*.}"; now=\${now:0:12}; }
logline() { stamp; printf '%s %s %s\n' "\$now" "\$1" "\$2" >&3; }
logline '#' "start pid \$\$: \$magpie \$*"
{
    while IFS= read -r line || [[ -n \$line ]]; do
        logline '>' "\$line"
        printf '%s\n' "\$line"
    done
    logline '#' "the client closed Magpie's input"
} | "\$magpie" "\$@" 2> >(while IFS= read -r line; do logline '!' "\$line"; done) |
    while IFS= read -r line || [[ -n \$line ]]; do
        logline '<' "\$line"
        printf '%s\n' "\$line"
    done
status=\${PIPESTATUS[1]}
logline '#' "Magpie exited with status \$status"
exit "\$status"
EOF
chmod +x "$wrapper"

registered=$(HOME=$out/home "$repo/scripts/register-quarry.sh" "$wrapper" "${engine_args[@]}") ||
    die "registration failed"
screen_name=$(sed -n 's/^screen name: //p' <<<"$registered")
note "registered in $out/home/.quarry as \"$screen_name\""
quote() {
    local s=${1//\\/\\\\}
    printf '"%s"' "${s//\"/\\\"}"
}
cat >>"$out/home/.quarry" <<EOF

[New Game Parameters]
Game			= "Reversi"
White player name	= "Magpie"
White is computer	= true
Engine playing white	= $(quote "$screen_name")
Black player name	= "Human (xdotool)"
Black is computer	= false

[New Reversi Game Parameters]
Board size		= 8
$time_preset
EOF

# --------------------------------------------------------------------------- Quarry
export MAGPIE_GTP_LOG=$out/gtp.log
: >"$MAGPIE_GTP_LOG"
HOME=$out/home NO_AT_BRIDGE=1 "$quarry" --gtp-log="$out/quarry-gtp" >"$out/quarry.stderr" 2>&1 &
quarry_pid=$!

wait_window() { # wait_window REGEX SECONDS: the id of the first visible window so named
    local id
    id=$(timeout "$2" xdotool search --sync --onlyvisible --name "$1" 2>/dev/null | head -1) ||
        true
    [[ -n $id ]] || die "no window named /$1/ after $2 s (Quarry's stderr: $(tail -3 "$out/quarry.stderr"))"
    echo "$id"
}
keys() { # keys WINDOW KEY...: focus WINDOW and type the keys
    local window=$1
    shift
    xdotool windowfocus --sync "$window" key --clearmodifiers "$@"
}

control=$(wait_window '^Quarry Control Center$' 30)
keys "$control" alt+n
dialog=$(wait_window '^New Game$' 10)
keys "$dialog" alt+f
sleep 0.5
keys "$dialog" alt+p
board=$(wait_window ' vs\. ' 15)
note "board window: $(xdotool getwindowname "$board")"

# ---------------------------------------------------------------- reading the GTP log
# Pairs each command of the last engine session with the first line of its answer (answers come
# in the order of the commands), one "command<TAB>answer" a line.
pairs() {
    awk '
        / # start pid / { nc = 0; na = 0; next }
        $2 == ">" { c = substr($0, 16); sub(/#.*/, "", c); gsub(/^[ \t]+|[ \t\r]+$/, "", c); if (c != "") cmd[++nc] = c }
        $2 == "<" && ($3 ~ /^[=?]/) { ans[++na] = substr($0, 16) }
        END { for (i = 1; i <= na; i++) print cmd[i] "\t" ans[i] }
    ' "$MAGPIE_GTP_LOG"
}
# The moves played so far ("black F5", "white F6", ...), from play commands and genmove answers.
played() {
    pairs | awk -F'\t' '
        $1 ~ /^(clear_board|boardsize)/ { n = 0 }
        $1 ~ /^play / && $2 ~ /^=/ { split($1, w, " "); m[++n] = tolower(w[2]) " " toupper(w[3]) }
        $1 ~ /^genmove / && $2 ~ /^= *[A-Za-z]/ { split($1, w, " "); a = $2; sub(/^= */, "", a); m[++n] = tolower(w[2]) " " toupper(a) }
        END { for (i = 1; i <= n; i++) print m[i] }
    '
}
refusals() { pairs | awk -F'\t' '$2 ~ /^\?/'; }
pending() { # commands of the last session not answered yet
    awk '/ # start pid / { n = 0; next }
        $2 == ">" { c = substr($0, 16); sub(/#.*/, "", c); gsub(/[ \t\r]/, "", c); if (c != "") n++ }
        $2 == "<" && ($3 ~ /^[=?]/) { n-- }
        END { print n + 0 }' "$MAGPIE_GTP_LOG"
}
wait_idle() { # wait_idle SECONDS: until every command is answered and Quarry sends nothing new
    local deadline=$((SECONDS + $1)) quiet=0
    while ((quiet < 4)); do
        ((SECONDS < deadline)) || return 1
        if (($(pending) == 0)); then quiet=$((quiet + 1)); else quiet=0; fi
        sleep 0.2
    done
}
count_answered() { pairs | awk -F'\t' -v re="$1" '$1 ~ re { n++ } END { print n + 0 }'; }
wait_answered() { # wait_answered REGEX COUNT SECONDS
    local deadline=$((SECONDS + $3))
    while (($(count_answered "$1") < $2)); do
        ((SECONDS < deadline)) || return 1
        sleep 0.2
    done
}

wait_answered '^clear_board' 1 30 || die "Quarry did not set up a game with Magpie (see $MAGPIE_GTP_LOG)"
sleep 1
import -window root "$out/01-game-start.png"
note "screenshot: $out/01-game-start.png"

# ------------------------------------------------------------------ the board's geometry
# Quarry draws the Reversi grid in #cceebb; the grid lines are the rows (columns) of the board
# window where that colour covers most of the width (height). Found at the start, when no disc
# hides them.
import -window "$board" "$out/board-start.tmp.png"
read -r win_w win_h < <(convert "$out/board-start.tmp.png" -format '%w %h\n' info:)
grid_lines() { # grid_lines ROW|COL: the 9 line positions, window-relative
    local scale
    if [[ $1 == ROW ]]; then scale="1x${win_h}!"; else scale="${win_w}x1!"; fi
    convert "$out/board-start.tmp.png" -fuzz 6% -fill black +opaque '#cceebb' \
        -fill white -opaque '#cceebb' -colorspace gray -scale "$scale" -depth 8 gray:- |
        od -An -v -tu1 | tr -s ' ' '\n' | awk -v start=-1 'NF { v[n++] = $1; if ($1 > max) max = $1 }
            END {
                for (i = 0; i < n; i++) {
                    if (v[i] > max / 2) { if (start < 0 || i > last + 1) { if (start >= 0) print (start + last) / 2; start = i } last = i }
                }
                if (start >= 0) print (start + last) / 2
            }'
}
mapfile -t rows < <(grid_lines ROW)
mapfile -t cols < <(grid_lines COL)
rm -f -- "$out/board-start.tmp.png"
((${#rows[@]} == 9 && ${#cols[@]} == 9)) ||
    die "could not find Quarry's 8x8 grid (found ${#rows[@]} rows, ${#cols[@]} columns of lines)"
note "board grid: columns ${cols[0]}..${cols[8]}, rows ${rows[0]}..${rows[8]} (window pixels)"

click_square() { # click_square F5: press and release the mouse on that square of the board
    local square=${1^^} col row x y
    col=$(($(printf '%d' "'${square:0:1}") - 65))
    row=$((${square:1} - 1))
    x=$(awk -v a="${cols[col]}" -v b="${cols[col + 1]}" 'BEGIN { printf "%d", (a + b) / 2 }')
    y=$(awk -v a="${rows[row]}" -v b="${rows[row + 1]}" 'BEGIN { printf "%d", (a + b) / 2 }')
    xdotool mousemove --window "$board" "$x" "$y"
    sleep 0.2
    # A bare `click` is sometimes too quick for Quarry's board: press, wait, release.
    xdotool mousedown 1
    sleep 0.1
    xdotool mouseup 1
}

# A helper Magpie (not the one Quarry runs) picks the human's moves on a copy of the game.
helper() { # helper COMMAND...: the first line of the answer to the last command
    {
        echo "boardsize 8"
        echo "clear_board"
        played | sed 's/^/play /'
        printf '%s\n' "${@:1:$#-1}"
        echo "99 ${!#}"
        echo "quit"
    } | timeout 30 "$binary" --protocol gtp --level 2 2>/dev/null | sed -n 's/^=99 *//p; s/^?99 *\(.*\)/error: \1/p'
}

# ---------------------------------------------------------------------------- the moves
played_ok=0
game_over=0
for ((k = 1; k <= moves; k++)); do
    legal=$(helper "gogui-rules_legal_moves")
    if [[ -z $legal ]]; then
        note "the game is over after $(played | wc -l) moves"
        game_over=1
        break
    elif [[ $legal == pass || $legal == error:* ]]; then
        note "Black has no move to click (legal moves: '$legal'); stopping"
        break
    fi
    move=$(helper "reg_genmove black")
    [[ " $legal " == *" ${move^^} "* ]] || move=${legal%% *}
    plays_before=$(count_answered '^play black')
    genmoves_before=$(count_answered '^genmove')
    note "move $k: Black clicks $move (legal: $legal)"
    click_square "$move"
    if ! wait_answered '^play black' $((plays_before + 1)) 10; then
        die "Quarry sent no 'play black $move' after the click on $move (see $MAGPIE_GTP_LOG)"
    fi
    if ! wait_answered '^genmove' $((genmoves_before + 1)) 120; then
        die "no answer to genmove within 120 s after 'play black $move' (see $MAGPIE_GTP_LOG)"
    fi
    # When Black has no move after Magpie's reply, Quarry passes for Black by itself and sends
    # `genmove white` again: wait until it has nothing more to ask.
    wait_idle 300 || die "Quarry's commands are still unanswered after 300 s (see $MAGPIE_GTP_LOG)"
    replies=$(pairs | awk -F'\t' -v skip="$genmoves_before" '$1 ~ /^genmove/ && ++n > skip { a = $2; sub(/^= */, "", a); printf "%s%s", sep, a; sep = ", " }')
    reply=${replies##*, }
    if [[ $replies == *,* ]]; then
        note "move $k: Magpie answered $replies (Quarry passed for Black in between)"
    else
        note "move $k: Magpie answered $reply"
    fi
    played_ok=$k
    sleep 0.5 # let Quarry draw the reply
    import -window root "$out/02-after-move-$k.png"
    note "screenshot: $out/02-after-move-$k.png"
    [[ $reply == [A-Ha-h][1-8]* ]] || { note "Magpie did not answer a square; stopping"; break; }
done

import -window "$board" "$out/03-final-board.png"
note "screenshot: $out/03-final-board.png"
note "moves: $(played | paste -sd, | sed 's/,/, /g')"

# ----------------------------------------------------------------------------- quitting
keys "$board" ctrl+q
# Quarry asks whether to save the game: "Close without Saving" is Alt+W.
for _ in $(seq 1 50); do
    kill -0 "$quarry_pid" 2>/dev/null || break
    sleep 0.2
    save=$(xdotool search --onlyvisible --pid "$quarry_pid" 2>/dev/null |
        grep -vx -e "$board" -e "$control" | head -1) || true
    [[ -n $save ]] && keys "$save" alt+w 2>/dev/null || true
done
if kill -0 "$quarry_pid" 2>/dev/null; then
    note "Quarry did not quit by itself; killing it"
else
    wait "$quarry_pid" || true
    quarry_pid=
fi
for _ in $(seq 1 25); do
    grep -q 'Magpie exited with status' "$MAGPIE_GTP_LOG" && break
    sleep 0.2
done
note "$(grep -E '# .*(closed|exited)' "$MAGPIE_GTP_LOG" | sed 's/^[^#]*# //' | paste -sd';' | sed 's/;/; /g')"

errors=$(refusals)
if [[ -n $errors ]]; then
    note "Magpie refused some of Quarry's commands:"
    printf '%s\n' "$errors" >&2
fi
note "GTP log: $MAGPIE_GTP_LOG; screenshots in $out"
[[ -z $errors ]] && ((played_ok == moves || game_over))
