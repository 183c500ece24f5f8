#!/usr/bin/env bash
# Runs a sharded magpie step (datagen, wthor-samples) as N shards under GNU parallel, on this machine
# or over ssh hosts, then merges the shards' files into one, in shard order. A shard's file is the
# same wherever and with whatever threads it runs, so the merged file holds the same records as one
# unsharded run (in another order).
#
# Usage: scripts/shards.sh [-j JOBS] [-S SSHLOGINS] [-m MAGPIE] N OUT -- SUBCOMMAND ARGS...
#
#   N            the number of shards: shard I runs `magpie SUBCOMMAND ARGS --shard I/N`
#   OUT          the merged samples file; the shards write OUT's name + .shard-I in the current
#                folder, removed once merged (kept if a shard fails, for a look)
#   -j JOBS      shards at once on each machine [the number of cores]
#   -S SSHLOGINS GNU parallel's --sshlogin: hosts to run the shards on, e.g. 2/alpha,2/beta
#                (magpie on each host's PATH, the input files at the same paths there); their
#                files are brought back with --return
#   -m MAGPIE    the magpie binary [magpie on the PATH, else target/release/magpie]
#
# Example, 8 shards of 10,000 self-play games, two at a time here:
#   scripts/shards.sh -j 2 8 sp.bin -- datagen --games 10000 --depth 10 --exact-empties 20 --seed 3
set -euo pipefail

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed -n 's/^# \{0,1\}//p'
}

jobs=
logins=
magpie=
while getopts ":j:S:m:h" opt; do
  case $opt in
    j) jobs=$OPTARG ;;
    S) logins=$OPTARG ;;
    m) magpie=$OPTARG ;;
    h) usage; exit 0 ;;
    :) echo "error: -$OPTARG needs a value (-h for help)" >&2; exit 2 ;;
    *) echo "error: unknown option -$OPTARG (-h for help)" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -lt 4 ] || [ "$3" != "--" ]; then
  echo "error: expected N OUT -- SUBCOMMAND ARGS... (-h for help)" >&2
  exit 2
fi
shards=$1
out=$2
shift 3
case $shards in
  ''|*[!0-9]*|0) echo "error: N '$shards' is not a number of shards, 1 or more" >&2; exit 2 ;;
esac
if [ -n "$jobs" ]; then
  case $jobs in
    ''|*[!0-9]*|0) echo "error: -j '$jobs' is not a number of jobs, 1 or more" >&2; exit 2 ;;
  esac
fi
if ! command -v parallel >/dev/null 2>&1; then
  echo "error: GNU parallel is not installed (Debian: apt-get install parallel)" >&2
  exit 2
fi
if [ -z "$magpie" ]; then
  if command -v magpie >/dev/null 2>&1; then
    magpie=magpie
  else
    magpie=$(cd "$(dirname "$0")/.." && pwd)/target/release/magpie
  fi
fi
if [ -z "$logins" ] && ! "$magpie" --version >/dev/null 2>&1; then
  echo "error: magpie binary $magpie does not run: build it (cargo build --release) or give -m" >&2
  exit 2
fi
out_dir=$(dirname "$out")
if [ ! -d "$out_dir" ]; then
  echo "error: OUT $out: no folder $out_dir" >&2
  exit 2
fi

piece=$(basename "$out").shard-
options=(--halt never)
[ -n "$jobs" ] && options+=(-j "$jobs")
if [ -n "$logins" ]; then
  # Each shard runs in a fresh folder on its host; its file comes back here.
  options+=(-S "$logins" --workdir ... --return "$piece{}" --cleanup)
fi
status=0
parallel "${options[@]}" "$magpie" "$@" --shard "{}/$shards" --out "$piece{}" --no-progress \
  ::: $(seq 0 $((shards - 1))) || status=$?
if [ "$status" -ne 0 ]; then
  echo "error: $status of $shards shards failed; their files are left as $piece*" >&2
  exit 1
fi
pieces=()
for i in $(seq 0 $((shards - 1))); do
  pieces+=("$piece$i")
done
cat "${pieces[@]}" > "$out"
rm -f "${pieces[@]}"
echo "merged $shards shards into $out ($(wc -c < "$out") bytes)"
