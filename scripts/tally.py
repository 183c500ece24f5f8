#!/usr/bin/env python3
"""One player's run from GGF files, tallied as `magpie match` tallies a match: wins, draws and
losses, the score and mean disc difference, the Elo with its 95% interval from the game pairs, and
each side's time a game with their ratio.

A ladder rung is often played in parts: on several openings files, or at a second clock after the
first turned out not to be equal time. Each part's report covers its own games; this tallies any
set of GGF files as one run, from what the files say. A pair is an opening (the first --plies
moves, passes counted: 10 for the ladder's files) played once with each colour; the Elo and its
interval come from the pairs' scores (0, 1/4, 1/2, 3/4 or 1), their mean and variance, as `magpie
match` computes them, and games of an opening not played with both colours count in the score but
not in the interval. The time is the sum of the times written with the moves (B[F5/0.00/1.25]).
Games where PLAYER did not play are left out. With --by-empties K, each side's seconds a game are
also shown by the empties on the board when it moved, in bins of K (K = 4: 56-59, 52-55, ...): where
each engine spends its clock.

Usage: scripts/tally.py GGF... --player magpie [--plies 10] [--by-empties 4]
Needs only python3. Exits 2 on a missing or unreadable file, a game without a readable result, or
no game of PLAYER.
"""

import argparse
import math
import os
import re
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pairs import TAG, black_discs, fail, games, points, start_empties  # noqa: E402

# A move tag with its whole value (move/eval/time), and the side that played it.
MOVE = re.compile(r"(?<![A-Z])([BW])\[([^\]]*)\]")


def seconds(field):
    """The time of a move tag's value (move/eval/time), 0 when it has none."""
    parts = field.split("/")
    try:
        return float(parts[2]) if len(parts) > 2 and parts[2] else 0.0
    except ValueError:
        return 0.0


def elo(score):
    return -400 * math.log10(1 / score - 1) if 0 < score < 1 else math.copysign(math.inf, score - 0.5)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ggf", nargs="+", metavar="GGF", help="the run's games")
    parser.add_argument("--player", required=True, help="the PB/PW name whose side the scores take")
    parser.add_argument("--plies", type=int, default=10, help="the moves that make an opening")
    parser.add_argument("--by-empties", type=int, metavar="K", help="also each side's time by empties, in bins of K")
    args = parser.parse_args()
    if args.plies < 0:
        fail(f"--plies {args.plies}: must be 0 or more")
    if args.by_empties is not None and not 1 <= args.by_empties <= 60:
        fail(f"--by-empties {args.by_empties}: must be 1 to 60")
    by_opening = defaultdict(lambda: {"B": [], "W": []})
    discs, mine, theirs, opponents = [], 0.0, 0.0, set()
    # Seconds by the bin of the empties when the move was made, for each side.
    binned = {True: defaultdict(float), False: defaultdict(float)}
    for path in args.ggf:
        for number, text in enumerate(games(path), 1):
            tags = dict(TAG.findall(text))
            if args.player not in (tags.get("PB"), tags.get("PW")):
                continue
            colour = "B" if tags.get("PB") == args.player else "W"
            opponents.add(tags.get("PW" if colour == "B" else "PB", "?"))
            black = black_discs(tags, path, number)
            own = black if colour == "B" else -black
            discs.append(own)
            moves = MOVE.findall(text)
            opening = tuple(field.split("/")[0].upper() for _, field in moves[: args.plies])
            by_opening[opening][colour].append(points(own))
            empties = start_empties(tags)
            for side, field in moves:
                spent = seconds(field)
                if side == colour:
                    mine += spent
                else:
                    theirs += spent
                if args.by_empties:
                    binned[side == colour][empties // args.by_empties] += spent
                if field.split("/")[0].upper() != "PA":
                    empties -= 1
    if not discs:
        fail(f"no game of {args.player} in {', '.join(args.ggf)}")
    n = len(discs)
    wins = sum(d > 0 for d in discs)
    draws = sum(d == 0 for d in discs)
    score = statistics.fmean(points(d) for d in discs)
    pairs = [(b + w) / 2 for sides in by_opening.values() for b, w in zip(sides["B"], sides["W"])]
    other = opponents.pop() if len(opponents) == 1 else "opponents"
    print(f"{args.player}: {n} games in {len(args.ggf)} file(s) against {other}; "
          f"{len(pairs)} pairs (an opening played with both colours)")
    print(f"W-D-L {wins}-{draws}-{n - wins - draws}, score {100 * score:.1f}%, "
          f"mean disc difference {statistics.fmean(discs):+.2f}")
    if pairs:
        mean = statistics.fmean(pairs)
        sigma = math.sqrt(statistics.pvariance(pairs, mean) / len(pairs))
        low, high = elo(mean - 1.96 * sigma), elo(mean + 1.96 * sigma)
        bounds = f"[{low:+.0f}, {high:+.0f}]" if sigma > 0 and math.isfinite(low) and math.isfinite(high) else "[-, -]"
        print(f"Elo {elo(mean):+.0f} {bounds} (95%, from the pairs' scores, as magpie match reports it)")
    ratio = f"; ratio {mine / theirs:.2f}" if theirs > 0 else ""
    print(f"seconds a game: {args.player} {mine / n:.2f}, {other} {theirs / n:.2f}{ratio} "
          f"(equal time: the ratio within 0.85 to 1.15)")
    if args.by_empties:
        k = args.by_empties
        width = max(len(args.player), len(other), 7)
        print(f"{'empties':>7}  {args.player:>{width}}  {other:>{width}}")
        for b in sorted(set(binned[True]) | set(binned[False]), reverse=True):
            low, high = b * k, min(b * k + k - 1, 60)
            span = f"{low}-{high}" if high > low else f"{low}"
            print(f"{span:>7}  {binned[True][b] / n:>{width}.3f}  {binned[False][b] / n:>{width}.3f}")


if __name__ == "__main__":
    main()
