#!/usr/bin/env bash
# The strength ladder: Magpie against NTest at several time controls, each rung against the NTest
# depth that takes about as long a game, on a fixed set of openings (each played with both
# colours), then a table per rung: the score, the Elo with its 95% interval, both engines' time
# a game, their ratio and whether it is equal time (the ratio within 0.85 to 1.15). Each rung's
# games go to a GGF file and its report to a JSON file in OUT_DIR; a rung already played is
# resumed, not replayed.
#
# Usage: scripts/ladder.sh [-o OUT_DIR] [-j CONCURRENCY] [-r RUNGS] [-m MAGPIE] [-e ARG]... NTEST_DIR OPENINGS
#
#   NTEST_DIR   the folder of an NTest build (./ntest with its coefficients/ and resource/ beside it)
#   OPENINGS    one move list a line (magpie openings --wthor WTHOR/ --plies 10 --min-games 2 ...)
#   -o OUT_DIR  where the GGF and JSON files go [ladder]
#   -j N        games at once [2]
#   -r RUNGS    blank-separated TC:DEPTH:GAMES, Magpie's clock in seconds a game, NTest's depth and
#               the games [the four rungs below]
#   -m MAGPIE   the magpie binary to measure [magpie on the PATH, else target/release/magpie]
#   -e ARG      one more key=value for Magpie's --engine (e.g. -e option.Hash=256), repeatable;
#               Magpie plays from its built-in book unless -e option.OwnBook=false (the ladders
#               recorded before version 0.10.0 had no book)
#
# NTest searches to its depth whatever the time, and near the end a move at depth 23 may take over a
# minute: a move counts as hung only after 20 minutes (--timeout 1200).
# The default rungs, about 1, 5, 20 and 60 s a game for each engine with two games at once on the
# development machine (an AMD EPYC Zen 4 since 2026-11-30) on balanced openings (magpie openings
# --balanced 2), 200 games at 1 and 5 s, 100 at 20 s and 20 at 60 s (about 80 minutes there); both
# engines' time a game measured there: see docs/matches.md, "Balanced openings":
#   1.3:15:200 6:19:200 27:22:100 55:23:20
set -euo pipefail

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed -n 's/^# \{0,1\}//p'
}

out_dir=ladder
concurrency=2
rungs="1.3:15:200 6:19:200 27:22:100 55:23:20"
magpie=
extra=()
while getopts ":o:j:r:m:e:h" opt; do
  case $opt in
    o) out_dir=$OPTARG ;;
    j) concurrency=$OPTARG ;;
    r) rungs=$OPTARG ;;
    m) magpie=$OPTARG ;;
    e) extra+=("$OPTARG") ;;
    h) usage; exit 0 ;;
    :) echo "error: -$OPTARG needs a value (-h for help)" >&2; exit 2 ;;
    *) echo "error: unknown option -$OPTARG (-h for help)" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -ne 2 ]; then
  echo "error: expected NTEST_DIR OPENINGS, got $# arguments (-h for help)" >&2
  exit 2
fi
ntest_dir=$1
openings=$2
if [ ! -x "$ntest_dir/ntest" ]; then
  echo "error: NTEST_DIR $ntest_dir: no ntest program in it" >&2
  exit 2
fi
if [ ! -f "$openings" ]; then
  echo "error: OPENINGS $openings: no such file" >&2
  exit 2
fi
if [ -z "$magpie" ]; then
  if command -v magpie >/dev/null 2>&1; then
    magpie=magpie
  else
    magpie=$(cd "$(dirname "$0")/.." && pwd)/target/release/magpie
  fi
fi
mkdir -p "$out_dir"

# The value of "key": in a JSON line (the report's lines are flat but for forfeits and sprt).
field() {
  sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" <<< "$2" | head -n 1
}

summary=()
for rung in $rungs; do
  IFS=: read -r tc depth games <<< "$rung"
  if [ -z "$tc" ] || [ -z "$depth" ] || [ -z "$games" ]; then
    echo "error: rung '$rung' is not TC:DEPTH:GAMES" >&2
    exit 2
  fi
  name=tc$tc-d$depth
  echo "== $name: Magpie tc=$tc against NTest depth $depth, $games games" >&2
  "$magpie" match --engine name=magpie tc="$tc" "${extra[@]}" \
    --engine name=ntest$depth dir="$ntest_dir" cmd=./ntest arg=x proto=nboard depth="$depth" \
    --openings "$openings" --games "$games" --concurrency "$concurrency" --timeout 1200 \
    --out "$out_dir/$name.ggf" --resume --json > "$out_dir/$name.json"
  pairing=$(grep '"type":"pairing"' "$out_dir/$name.json")
  mine=$(grep '"type":"engine","name":"magpie"' "$out_dir/$name.json")
  theirs=$(grep "\"type\":\"engine\",\"name\":\"ntest$depth\"" "$out_dir/$name.json")
  summary+=("$(awk -v tc="$tc" -v d="$depth" -v g="$(field games "$pairing")" \
    -v w="$(field wins "$pairing")" -v dr="$(field draws "$pairing")" -v l="$(field losses "$pairing")" \
    -v s="$(field score "$pairing")" -v e="$(field elo "$pairing")" \
    -v lo="$(field elo_low "$pairing")" -v hi="$(field elo_high "$pairing")" \
    -v a="$(field time_per_game "$mine")" -v b="$(field time_per_game "$theirs")" '
    function num(x, f) { return (x == "null" || x == "") ? "-" : sprintf(f, x) }
    BEGIN {
      ratio = "-"; equal = "-";
      if (a != "null" && b != "null" && a > 0 && b > 0) {
        ratio = sprintf("%.2f", a / b);
        # Equal time: the ratio within 15% of 1.
        equal = (a / b >= 0.85 && a / b <= 1.15) ? "yes" : "no";
      }
      printf "%-6s %5s %5d %4d-%d-%-4d %6.1f%% %7s  [%s, %s] %8s %8s %6s  %s\n", tc, d, g, w, dr, l, 100 * s,
        num(e, "%+.0f"), num(lo, "%+.0f"), num(hi, "%+.0f"), num(a, "%.2f"), num(b, "%.2f"), ratio, equal
    }')")
done
printf '%-6s %5s %5s %-12s %7s %7s  %-12s %8s %8s %6s  %s\n' "tc" "depth" "games" "W-D-L" "score" "Elo" "[95%]" "magpie" "ntest" "ratio" "equal"
printf '%s\n' "${summary[@]}"
echo "(time: seconds a game of each engine over the rung's games; ratio: Magpie's over NTest's;"
echo " equal: the ratio within 0.85 to 1.15; if not, set the rung's clock or depth again with -r)"
