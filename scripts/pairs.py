#!/usr/bin/env python3
"""Two runs of a player on the same openings, compared game by game: each game of run A is paired
with the game of run B that started from the same opening with the player on the same side.

A player's two runs against the same opponent (say Magpie before and after a change, each against
NTest at one depth on one openings file) differ by the change and by chance; pairing the games by
opening and colour removes the openings' share of the chance. The output gives the games found in
both runs, how many were the same move for move and where the others first parted, each run's
score and mean disc difference over the paired games, then B's score less A's with its standard
error and 95% interval, from the openings' differences (an opening's difference is the mean over
its paired games, so an opening with both colours counts once).

A run is one or more GGF files (`--a` and `--b`, each followed by its files). Games where PLAYER
did not play are left out; an opening is the first --plies moves of a game (passes counted), so
use the plies the openings file gave (10 for the ladder's files). An opening played more than once
with the same colour in a run is paired in the order the games come.

Usage: scripts/pairs.py --a A.ggf... --b B.ggf... --player magpie [--plies 10]
Needs only python3. Exits 2 on a missing or unreadable file, a game without a readable result, or
no games in common.
"""

import argparse
import math
import re
import statistics
import sys
from collections import defaultdict

MOVE = re.compile(r"(?<![A-Z])[BW]\[([^\]/]*)")
TAG = re.compile(r"([A-Z]{2})\[([^\]]*)\]")


def fail(message):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def games(path):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        fail(f"{path}: cannot read it: {e.strerror}")
    except UnicodeDecodeError:
        fail(f"{path}: not a text file")
    for part in text.split("(;")[1:]:
        yield "(;" + part.strip()


def black_discs(tags, path, number):
    """A game's result as Black's disc difference (RE[+4.000], RE[-2.000:r]); exits with a message
    naming the game when it is not a finite number."""
    result = tags.get("RE", "")
    try:
        black = float(result.split(":")[0])
    except ValueError:
        black = math.nan
    if not math.isfinite(black):
        fail(f"{path}: game {number}: result RE[{result}] is not a disc difference")
    return black


def start_empties(tags):
    """The empty squares of a game's starting board (BO[8 ---...O*... *]), 60 when it has none."""
    return tags.get("BO", "").count("-") or 60


def load(paths, player, plies):
    """The run's games as {(opening, colour): [(moves, disc difference for the player, empties at
    the start)]}."""
    run = defaultdict(list)
    for path in paths:
        for number, text in enumerate(games(path), 1):
            tags = dict(TAG.findall(text))
            if player not in (tags.get("PB"), tags.get("PW")):
                continue
            colour = "B" if tags.get("PB") == player else "W"
            black = black_discs(tags, path, number)
            moves = [m.upper() for m in MOVE.findall(text)]
            empties = start_empties(tags)
            run[(tuple(moves[:plies]), colour)].append((moves, black if colour == "B" else -black, empties))
    return run


def points(discs):
    return 1.0 if discs > 0 else 0.5 if discs == 0 else 0.0


def interval(diffs):
    """The mean of the differences, its standard error and 95% interval (normal)."""
    mean = statistics.fmean(diffs)
    se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else float("nan")
    return mean, se, mean - 1.96 * se, mean + 1.96 * se


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", nargs="+", required=True, metavar="GGF", help="run A's games")
    parser.add_argument("--b", nargs="+", required=True, metavar="GGF", help="run B's games")
    parser.add_argument("--player", required=True, help="the PB/PW name whose side the scores take")
    parser.add_argument("--plies", type=int, default=10, help="the moves that make an opening")
    args = parser.parse_args()
    if args.plies < 0:
        fail(f"--plies {args.plies}: must be 0 or more")
    a = load(args.a, args.player, args.plies)
    b = load(args.b, args.player, args.plies)
    pairs = []  # (opening, A's game, B's game)
    for key in a:
        for x, y in zip(a[key], b.get(key, [])):
            pairs.append((key[0], x, y))
    if not pairs:
        fail(f"no game of {args.player} starts from the same opening with the same colour in both runs")
    count_a = sum(len(v) for v in a.values())
    count_b = sum(len(v) for v in b.values())
    openings = defaultdict(list)
    same = 0
    parted = defaultdict(int)
    for opening, (moves_a, discs_a, empties), (moves_b, discs_b, _) in pairs:
        openings[opening].append((discs_a, discs_b))
        first = next((i for i, (p, q) in enumerate(zip(moves_a, moves_b)) if p != q), None)
        if first is None and len(moves_a) == len(moves_b):
            same += 1
        else:
            first = min(len(moves_a), len(moves_b)) if first is None else first
            played = sum(1 for m in moves_a[:first] if m != "PA")
            parted[(empties - played) // 4 * 4] += 1
    print(f"{args.player}: run A {count_a} games, run B {count_b}; {len(pairs)} paired "
          f"({len(openings)} openings), {same} the same move for move")
    if parted:
        print("first difference by empties: " + ", ".join(
            f"{e}-{e + 3}: {parted[e]}" for e in sorted(parted, reverse=True)))
    for name, index in (("A", 0), ("B", 1)):
        discs = [pair[index] for games_ in openings.values() for pair in games_]
        score = statistics.fmean(points(d) for d in discs)
        print(f"run {name}: score {100 * score:.1f}%, mean disc difference {statistics.fmean(discs):+.2f}")
    score_diffs = [statistics.fmean(points(y) - points(x) for x, y in g) for g in openings.values()]
    disc_diffs = [statistics.fmean(y - x for x, y in g) for g in openings.values()]
    mean, se, low, high = interval(score_diffs)
    print(f"B - A, paired by opening: {100 * mean:+.1f} points (standard error {100 * se:.1f}; "
          f"95% interval {100 * low:+.1f} to {100 * high:+.1f})")
    mean, se, low, high = interval(disc_diffs)
    print(f"B - A, discs: {mean:+.2f} (standard error {se:.2f}; 95% interval {low:+.2f} to {high:+.2f})")


if __name__ == "__main__":
    main()
