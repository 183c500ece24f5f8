#!/usr/bin/env bash
# The whole training pipeline at a small scale, in about two minutes on two cores: one WTHOR file's
# tournament positions (solved near the end, scored by a shallow search before), a little
# self-play, a fit, Multi-ProbCut fits, and a move chosen with the new weights. Every step is a
# `magpie` subcommand, seeded, so a run gives the same files every time. docs/evaluation.md has the
# full-scale pipeline.
#
# Usage: scripts/train-small.sh [-h] WTHOR_FILE OUT_DIR
#
# WTHOR_FILE is one WTH_<year>.wtb file of the French Othello Federation's database
# (https://www.ffothello.org/informatique/la-base-wthor/); OUT_DIR is made if needed and receives
# wthor.bin, selfplay.bin, weights.bin and weights-probcut.bin. The scale is set by these variables
# (defaults in brackets):
#   MAGPIE            the magpie binary [magpie on the PATH, else target/release/magpie]
#   THREADS           threads of every step [2]
#   EXACT_EMPTIES     tournament and self-play positions solved from this many empties down [14]
#   DEPTH             depth of the searches that score the other positions [6]
#   SELFPLAY_GAMES    self-play games [2000]
#   ITERATIONS        the fit's conjugate-gradient iterations [60]
#   PROBCUT_POSITIONS positions searched for the ProbCut fits [3000]
#   SOLVE_POSITIONS   positions solved for the selective solves' fits [1000]
#   SEED              the seed of self-play and of the ProbCut draws [1]
set -euo pipefail

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed -n 's/^# \{0,1\}//p'
}

if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
  usage
  exit 0
fi
if [ $# -ne 2 ]; then
  echo "error: expected WTHOR_FILE OUT_DIR, got $# arguments (-h for help)" >&2
  exit 2
fi
wthor=$1
out=$2
if [ ! -f "$wthor" ]; then
  echo "error: WTHOR_FILE $wthor: no such file" >&2
  exit 2
fi

here=$(cd "$(dirname "$0")/.." && pwd)
if [ -z "${MAGPIE:-}" ]; then
  if command -v magpie >/dev/null 2>&1; then
    MAGPIE=magpie
  else
    MAGPIE=$here/target/release/magpie
  fi
fi
if ! "$MAGPIE" --version >/dev/null 2>&1; then
  echo "error: MAGPIE $MAGPIE does not run: build it (cargo build --release) or set MAGPIE" >&2
  exit 2
fi

threads=${THREADS:-2}
exact=${EXACT_EMPTIES:-14}
depth=${DEPTH:-6}
games=${SELFPLAY_GAMES:-2000}
iterations=${ITERATIONS:-60}
probcut_positions=${PROBCUT_POSITIONS:-3000}
solve_positions=${SOLVE_POSITIONS:-1000}
seed=${SEED:-1}
mkdir -p "$out"

step() {
  echo "== $*" >&2
}

step "1/5 tournament positions: $wthor"
"$MAGPIE" wthor-samples --wthor "$wthor" --exact-empties "$exact" --depth "$depth" \
  --out "$out/wthor.bin" --threads "$threads" --no-progress

step "2/5 self-play: $games games"
"$MAGPIE" datagen --games "$games" --depth "$depth" --exact-empties "$exact" --seed "$seed" \
  --out "$out/selfplay.bin" --threads "$threads" --no-progress

step "3/5 fit"
"$MAGPIE" train "$out/wthor.bin" "$out/selfplay.bin" --iterations "$iterations" \
  --out "$out/weights.bin" --threads "$threads" --no-progress

step "4/5 Multi-ProbCut fits"
"$MAGPIE" probcut "$out/wthor.bin" --weights "$out/weights.bin" --positions "$probcut_positions" \
  --max-depth 8 --solve-positions "$solve_positions" --solve-max-empties 16 --seed "$seed" \
  --out "$out/weights-probcut.bin" --threads "$threads" --no-progress

step "5/5 a move with the new weights"
"$MAGPIE" bestmove --weights "$out/weights-probcut.bin" --moves f5d6c3 --depth 8
