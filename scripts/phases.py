#!/usr/bin/env python3
"""Where a player's games were won and lost: the value of each game at fixed numbers of empty
squares, from that player's side, as an NBoard engine (the judge) scores the position there.

For each game of the GGF files in which PLAYER played, and each number of empties of --points,
the game's moves up to that point are sent to the judge (`set game`, then `go` at `set depth`),
whose evaluation of the position is turned to PLAYER's side. The output gives, per point, the
mean value and how it moved since the point before, then the mean final result: a value that is
already down early means the opening lost the games, a fall between two points the phase between
them. The same judge for every game and point: NTest at a fixed depth is an outside judge (it
stops its search on any input, so nothing is sent while it thinks); Magpie at `set depth 60`
solves exactly once the empties allow.

Usage: scripts/phases.py GGF... --player magpie --judge "./ntest x" [--judge-dir DIR]
                         [--depth 20] [--points 44,36,30]
Needs only python3.
"""

import argparse
import re
import shlex
import statistics
import subprocess
import sys

MOVE = re.compile(r"(?<![A-Z])([BW])\[([^\]]*)\]")
TAG = re.compile(r"([A-Z]{2})\[([^\]]*)\]")


class Engine:
    """An engine over pipes: lines sent, and lines read until one with a given start."""

    def __init__(self, command, folder=None):
        self.proc = subprocess.Popen(
            shlex.split(command), cwd=folder, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix):
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the engine exited")
            if line.startswith(prefix):
                return line.rstrip("\n")


class Judge(Engine):
    """An NBoard engine at a fixed depth."""

    def __init__(self, command, folder, depth):
        super().__init__(command, folder)
        self.pings = 0
        self.send("nboard 2")
        self.send(f"set depth {depth}")
        self.sync()

    def sync(self):
        self.pings += 1
        self.send(f"ping {self.pings}")
        self.until(f"pong {self.pings}")

    def value(self, ggf):
        """The judge's evaluation of the game's last position, for its side to move; None when
        that side must pass or has a single move (the judge answers those without a value)."""
        self.send(f"set game {ggf}")
        self.sync()
        self.send("go")
        answer = self.until("===")  # === F5/-1.14/0.01
        move, _, rest = answer[4:].partition("/")
        value = rest.partition("/")[0]
        # A pass, or a lone move answered without a search (`=== F5//0.00`), has no value.
        if move.upper().startswith("PA") or not value:
            return None
        return float(value)

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def games(paths):
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                start = line.find("(;")
                if start >= 0:
                    yield line[start:].strip()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ggf", nargs="+")
    parser.add_argument("--player", required=True, help="the PB/PW name whose side the values take")
    parser.add_argument("--judge", required=True, help="the judge's command, an NBoard engine")
    parser.add_argument("--judge-dir", default=None, help="the folder the judge runs in")
    parser.add_argument("--depth", type=int, default=20, help="the judge's set depth")
    parser.add_argument("--points", default="44,36,30", help="numbers of empties, comma-separated")
    args = parser.parse_args()
    points = sorted({int(p) for p in args.points.split(",")}, reverse=True)
    judge = Judge(args.judge, args.judge_dir, args.depth)
    values = {p: [] for p in points}
    results = []
    for text in games(args.ggf):
        tags = dict(TAG.findall(text))
        if args.player not in (tags.get("PB"), tags.get("PW")):
            continue
        color = "B" if tags.get("PB") == args.player else "W"
        board = tags.get("BO", "")
        empties0 = board.count("-")
        moves = MOVE.findall(text)
        result = tags.get("RE", "")
        try:
            black_result = float(result.split(":")[0])
        except ValueError:
            continue
        results.append(black_result if color == "B" else -black_result)
        first = MOVE.search(text)
        header = text[: first.start() if first else len(text)]
        header = re.sub(r"RE\[[^\]]*\]", "", header.replace(";)", ""))
        for point in points:
            played, prefix = 0, []
            for mover, move in moves:
                if empties0 - played <= point:
                    break
                prefix.append(f"{mover}[{move}]")
                if not move.upper().startswith("PA"):
                    played += 1
            if empties0 - played != point:
                continue
            value = judge.value(header + "".join(prefix) + ";)")
            if value is None:
                continue
            to_move = "B" if (len(prefix) % 2 == 0) == (board.rstrip().endswith("*")) else "W"
            values[point].append(value if to_move == color else -value)
    judge.close()
    print(f"{len(results)} games of {args.player}; judge '{args.judge}' at depth {args.depth}")
    print(f"{'empties':>8} {'positions':>9} {'mean':>7} {'change':>7}")
    previous = None
    for point in points:
        v = values[point]
        if not v:
            continue
        mean = statistics.fmean(v)
        change = "" if previous is None else f"{mean - previous:+7.2f}"
        print(f"{point:>8} {len(v):>9} {mean:+7.2f} {change:>7}")
        previous = mean
    if results:
        mean = statistics.fmean(results)
        change = "" if previous is None else f"{mean - previous:+7.2f}"
        print(f"{'result':>8} {len(results):>9} {mean:+7.2f} {change:>7}")


if __name__ == "__main__":
    sys.exit(main())
