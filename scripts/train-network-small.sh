#!/usr/bin/env bash
# The network evaluation's pipeline at a small scale, in a few minutes on two cores: one WTHOR
# file's tournament positions and a little self-play to fit to, self-play of another seed held out
# whole (positions neither the network nor the built-in weights were fitted to), the fit, the fit
# measured by bands of empties against the weights, Multi-ProbCut fitted for the network's
# searches, and the accuracy of depth-limited searches on Edax's hard-20 set with and without the
# network. Every step is a `magpie` subcommand, seeded, so a run gives the same files every time.
# docs/evaluation.md has the full-scale commands.
#
# Usage: scripts/train-network-small.sh [-h] WTHOR_FILE OUT_DIR
#
# WTHOR_FILE is one WTH_<year>.wtb file of the French Othello Federation's database; OUT_DIR is made
# if needed and receives wthor.bin, selfplay.bin, heldout.bin, net.bin (with its checkpoint
# net.ckpt) and weights-net.bin (the built-in weights with the cuts fitted for the network). The
# scale is set by these variables (defaults in brackets):
#   MAGPIE            the magpie binary [magpie on the PATH, else target/release/magpie]
#   THREADS           threads of every step [2]
#   EXACT_EMPTIES     positions solved from this many empties down [14]
#   DEPTH             depth of the searches that score the other positions [6]
#   SELFPLAY_GAMES    self-play games fitted [4000]
#   HELDOUT_GAMES     self-play games held out [500]
#   EPOCHS            the fit's epochs at most [20]
#   PROBCUT_POSITIONS positions searched for the network's ProbCut fits [2000]
#   SOLVE_POSITIONS   positions solved for the selective solves' fits [500]
#   ACCURACY_DEPTH    depth of the accuracy searches [10]
#   SEED              the seed of self-play (the held-out games: SEED + 1000) and of the fit [1]
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
games=${SELFPLAY_GAMES:-4000}
heldout_games=${HELDOUT_GAMES:-500}
epochs=${EPOCHS:-20}
probcut_positions=${PROBCUT_POSITIONS:-2000}
solve_positions=${SOLVE_POSITIONS:-500}
accuracy_depth=${ACCURACY_DEPTH:-10}
seed=${SEED:-1}
hard=$here/tests/data/hard-20.obf
mkdir -p "$out"

step() {
  echo "== $*" >&2
}

step "1/6 tournament positions: $wthor"
"$MAGPIE" wthor-samples --wthor "$wthor" --exact-empties "$exact" --depth "$depth" \
  --out "$out/wthor.bin" --threads "$threads" --no-progress

step "2/6 self-play: $games games fitted, $heldout_games held out"
"$MAGPIE" datagen --games "$games" --depth "$depth" --exact-empties "$exact" --seed "$seed" \
  --random-rate 10 --out "$out/selfplay.bin" --threads "$threads" --no-progress
"$MAGPIE" datagen --games "$heldout_games" --depth "$depth" --exact-empties "$exact" --seed $((seed + 1000)) \
  --random-rate 10 --out "$out/heldout.bin" --threads "$threads" --no-progress

step "3/6 fit, at most $epochs epochs"
"$MAGPIE" train-network "$out/wthor.bin" "$out/selfplay.bin" --held-out "$out/heldout.bin" \
  --epochs "$epochs" --seed "$seed" --checkpoint "$out/net.ckpt" --out "$out/net.bin" \
  --threads "$threads" --no-progress

step "4/6 Multi-ProbCut fitted for the network's searches"
"$MAGPIE" probcut "$out/wthor.bin" --network "$out/net.bin" --positions "$probcut_positions" \
  --max-depth 8 --solve-positions "$solve_positions" --solve-max-empties 16 --seed "$seed" \
  --out "$out/weights-net.bin" --threads "$threads" --no-progress

step "5/6 accuracy at depth $accuracy_depth on hard-20: the built-in weights"
"$MAGPIE" accuracy "$hard" --depth "$accuracy_depth" --threads "$threads" --no-progress | tail -n 2

step "6/6 accuracy at depth $accuracy_depth on hard-20: the network"
"$MAGPIE" accuracy "$hard" --depth "$accuracy_depth" --weights "$out/weights-net.bin" --network "$out/net.bin" \
  --threads "$threads" --no-progress | tail -n 2
