#!/usr/bin/env python3
"""Measures Magpie's responsiveness over pipes, as a client sees it.

- stop latency: from writing `stop` during `go infinite` to reading `bestmove`;
- movetime overshoot: from writing `go movetime 100` to reading `bestmove`, minus 100 ms;
- nodes per second in the middle game (from the engine's own info lines).

Usage: scripts/latency.py [path/to/magpie] [--runs 100] [--overhead MS]
Build first: cargo build --release. Needs only python3.
"""

import argparse
import random
import statistics
import subprocess
import time


class Engine:
    def __init__(self, path):
        self.proc = subprocess.Popen(
            [path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def send(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("engine exited")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def close(self):
        self.send("quit")
        self.proc.wait(timeout=10)


def midgame_positions(engine, count, rng):
    """Random games from the start, cut between 20 and 40 discs played."""
    positions = []
    while len(positions) < count:
        moves = []
        target = rng.randint(20, 40)
        while len(moves) < target:
            engine.send("position startpos moves " + " ".join(moves))
            engine.send("moves")
            legal = engine.until("moves ")[-1].split()[1:]
            if legal == ["none"]:
                break
            moves.append(rng.choice(legal))
        if len(moves) == target:
            positions.append("position startpos moves " + " ".join(moves))
    return positions


def summary(name, values):
    values = sorted(values)
    print(
        f"{name}: median {statistics.median(values):.2f} ms, max {values[-1]:.2f} ms, "
        f"min {values[0]:.2f} ms over {len(values)}"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("magpie", nargs="?", default="target/release/magpie")
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--overhead", type=int, default=None, help="MoveOverhead to set, ms")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    engine = Engine(args.magpie)
    engine.send("ugi")
    engine.until("ugiok")
    if args.overhead is not None:
        engine.send(f"setoption name MoveOverhead value {args.overhead}")
    engine.send("isready")
    engine.until("readyok")
    positions = midgame_positions(engine, args.runs, rng)

    stops = []
    for pos in positions:
        engine.send(pos)
        engine.send("go infinite")
        time.sleep(rng.uniform(0.02, 0.1))
        start = time.perf_counter()
        engine.send("stop")
        engine.until("bestmove")
        stops.append((time.perf_counter() - start) * 1000)
    summary("stop latency", stops)

    overshoot = []
    nps = []
    for pos in positions:
        engine.send(pos)
        engine.send("isready")
        engine.until("readyok")
        start = time.perf_counter()
        engine.send("go movetime 100")
        lines = engine.until("bestmove")
        overshoot.append((time.perf_counter() - start) * 1000 - 100)
        infos = [l.split() for l in lines if l.startswith("info depth")]
        if infos:
            last = infos[-1]
            nps.append(int(last[last.index("nps") + 1]))
    summary("movetime 100 overshoot", overshoot)
    print(f"middle-game nps: median {int(statistics.median(nps))}, over {len(nps)} searches of 100 ms")
    engine.close()


if __name__ == "__main__":
    main()
