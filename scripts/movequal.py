#!/usr/bin/env python3
"""Move quality at a fixed time a move: which of several engine settings picks the better moves,
as an outside engine judges them. Far fewer positions than games tell two settings apart, at the
cost of trusting the judge.

The positions are those of the GGF games (from the standard start) at the given numbers of empty
squares. Each variant, a UGI engine command, picks its move in each position with `uginewgame`,
`position startpos moves …` and `go movetime T`, one position after another (run it on an
otherwise idle machine: the moves depend on the time). Then the judge, an NBoard engine at a
fixed depth (NTest: it stops its search on any input, so nothing is sent while it thinks), values
the position after each distinct move; a position where every variant picked the same move is not
judged and counts 0 for all. The output gives, per variant, the mean value of its moves against
the first variant's, in discs, with its standard error over the positions, and how often it
picked the first variant's move.

Usage: scripts/movequal.py GGF... --variant NAME=CMD [--variant NAME=CMD ...]
                           --judge "./ntest x" [--judge-dir DIR] [--depth 20]
                           [--points 46,42,38,34] [--games 80] [--movetime 180] [--save FILE]
       scripts/movequal.py --moves-from FILE --judge CMD [--judge-dir DIR] [--depth D]
The second form judges again the moves a run saved (`--save`), with another judge or depth: no
variant plays, so two judges can be compared on the same moves.
Needs only python3 (and phases.py beside it).
"""

import argparse
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from phases import MOVE, TAG, Engine, Judge, games  # noqa: E402


class UgiEngine(Engine):
    """A UGI engine."""

    def __init__(self, command):
        super().__init__(command)
        self.send("ugi")
        self.until("ugiok")

    def best_move(self, moves, movetime):
        self.send("uginewgame")
        self.send("isready")
        self.until("readyok")
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send(f"go movetime {movetime}")
        return self.until("bestmove").split()[1].upper()

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def positions(paths, points, limit):
    """(GGF header, [(mover, move)] up to the point) for each point of the first `limit` games
    that start from the standard position."""
    found = []
    count = 0
    for text in games(paths):
        tags = dict(TAG.findall(text))
        if tags.get("BO", "").count("-") != 60:
            continue
        count += 1
        if count > limit:
            break
        moves = [(mover, move.split("/")[0].upper()) for mover, move in MOVE.findall(text)]
        first = MOVE.search(text)
        header = re.sub(r"RE\[[^\]]*\]", "", text[: first.start()].replace(";)", ""))
        for point in points:
            played, prefix = 0, []
            for mover, move in moves:
                if 60 - played <= point:
                    break
                prefix.append((mover, move))
                if not move.startswith("PA"):
                    played += 1
            if 60 - played == point:
                found.append((header, prefix))
    return found


def play(variants, found, movetime):
    """Each variant's move in each position."""
    chosen = {}
    for name, command in variants:
        engine = UgiEngine(command)
        chosen[name] = [
            engine.best_move(["pass" if m.startswith("PA") else m.lower() for _, m in prefix], movetime)
            for _, prefix in found
        ]
        engine.close()
        print(f"{name}: {len(found)} moves", file=sys.stderr)
    return chosen


def saved_moves(path, parser):
    """The positions and each variant's moves of a file written by --save."""
    try:
        with open(path, encoding="utf-8") as f:
            saved = json.load(f)
        found = [(header, [tuple(m) for m in prefix]) for header, prefix in saved["positions"]]
        chosen = saved["moves"]
        if not isinstance(chosen, dict) or not chosen:
            raise ValueError("no variant's moves")
        def pair(m):
            return len(m) == 2 and all(isinstance(x, str) for x in m)

        if any(not isinstance(header, str) or not all(map(pair, prefix)) for header, prefix in found):
            raise ValueError("a position is not a header and (mover, move) pairs")
        for name, moves in chosen.items():
            if not isinstance(moves, list) or len(moves) != len(found) or not all(isinstance(m, str) for m in moves):
                raise ValueError(f"the moves of '{name}' do not match the positions")
    except OSError as e:
        parser.error(f"{path}: {e.strerror}")
    except (ValueError, KeyError, TypeError) as e:
        parser.error(f"{path}: not a file written by --save ({e})")
    return found, chosen


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ggf", nargs="*")
    parser.add_argument("--variant", action="append", default=[], help="NAME=COMMAND, a UGI engine")
    parser.add_argument("--moves-from", default=None, help="judge the positions and moves saved by --save")
    parser.add_argument("--judge", required=True, help="the judge's command, an NBoard engine")
    parser.add_argument("--judge-dir", default=None, help="the folder the judge runs in")
    parser.add_argument("--depth", type=int, default=20, help="the judge's set depth")
    parser.add_argument("--points", default="46,42,38,34", help="numbers of empties, comma-separated")
    parser.add_argument("--games", type=int, default=80, help="positions from this many games")
    parser.add_argument("--movetime", type=int, default=180, help="each variant's time a move, ms")
    parser.add_argument("--save", default=None, help="write the moves and values to this JSON file")
    args = parser.parse_args()
    if args.moves_from and (args.ggf or args.variant):
        parser.error("--moves-from takes neither GGF files nor --variant")
    if not args.moves_from and (not args.ggf or not args.variant):
        parser.error("give GGF files and at least one --variant (or --moves-from)")
    variants = []
    for spec in args.variant:
        name, sep, command = spec.partition("=")
        if not sep or not name or not command:
            parser.error(f"--variant: '{spec}' is not NAME=COMMAND")
        variants.append((name, command))
    try:
        points = [int(p) for p in args.points.split(",")]
    except ValueError:
        parser.error(f"--points: '{args.points}' is not a list of numbers")
    for name, value in (("--games", args.games), ("--movetime", args.movetime), ("--depth", args.depth)):
        if value < 1:
            parser.error(f"{name}: '{value}' is not a positive number")
    if args.moves_from:
        found, chosen = saved_moves(args.moves_from, parser)
        variants = [(name, None) for name in chosen]
        what = f"the moves of {args.moves_from}"
    else:
        try:
            found = positions(args.ggf, points, args.games)
        except OSError as e:
            parser.error(f"{e.filename}: {e.strerror}")
        if not found:
            parser.error("no position at those empties in the games")
        chosen = play(variants, found, args.movetime)
        what = f"{args.points} empties, {args.movetime} ms a move"

    judge = Judge(args.judge, args.judge_dir, args.depth)
    judged = {}
    values = {name: [] for name, _ in variants}
    for i, (header, prefix) in enumerate(found):
        picks = {chosen[name][i] for name, _ in variants}
        if len(picks) == 1:
            for name, _ in variants:
                values[name].append(0.0)
            continue
        to_move = "W" if prefix and prefix[-1][0] == "B" else "B"
        game = header + "".join(f"{c}[{m}]" for c, m in prefix)
        # In a fixed order: the judge's table carries over from one search to the next, so its
        # values depend on the order it sees the moves in.
        for move in sorted(picks):
            if (i, move) not in judged:
                # The judge values the position after the move for the opponent.
                value = None if move.startswith("PA") else judge.value(game + f"{to_move}[{move}];)")
                judged[(i, move)] = None if value is None else -value
        for name, _ in variants:
            values[name].append(judged[(i, chosen[name][i])])
    judge.close()

    usable = [i for i in range(len(found)) if all(values[name][i] is not None for name, _ in variants)]
    if not usable:
        print("no position could be judged for every variant", file=sys.stderr)
        return 1
    base = variants[0][0]
    print(f"{len(found)} positions ({len(usable)} judged for every variant) at {what}; "
          f"judge '{args.judge}' at depth {args.depth}")
    print(f"{'variant':>12} {'vs ' + base:>10} {'±':>6} {'same move':>10}")
    for name, _ in variants:
        diffs = [values[name][i] - values[base][i] for i in usable]
        error = statistics.stdev(diffs) / len(diffs) ** 0.5 if len(diffs) > 1 else 0.0
        same = sum(1 for i in usable if chosen[name][i] == chosen[base][i])
        print(f"{name:>12} {statistics.fmean(diffs):+10.3f} {error:6.3f} {same:>5}/{len(usable)}")
    if args.save:
        try:
            with open(args.save, "w", encoding="utf-8") as f:
                json.dump({"positions": [[h, p] for h, p in found], "moves": chosen, "values": values}, f)
        except OSError as e:
            print(f"error: --save: {args.save}: {e.strerror}", file=sys.stderr)
            return 2


if __name__ == "__main__":
    sys.exit(main())
