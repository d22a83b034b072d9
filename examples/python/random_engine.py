#!/usr/bin/env python3
"""A random Othello engine for Arena's line protocol (docs/engines.md).

Standard library only. Run it as a player through the bridge:

    arena engine --nats nats://127.0.0.1:4222 --name py --game othello -- \
        python3 examples/python/random_engine.py --seed 7

or check it before a tournament does:

    arena check-engine -- python3 examples/python/random_engine.py

It needs no knowledge of the rules: every turn tells it the legal moves, and it plays one
of them at random. Everything it is told is kept, so a smarter engine can start from here
(see greedy_engine.py beside it, which reads the position).
"""

import argparse
import random
import sys

NAME = "random-py"
VERSION = "1.0"


def send(line):
    """Writes one line to the bridge and flushes at once: the bridge waits for it."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser(description="A random engine for Arena's line protocol.")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed for the random choices (default: from the system)")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    game, seat = "", ""
    position, moves, legal = "", [], []
    while True:
        line = sys.stdin.readline()
        if not line:
            return  # the bridge closed our standard input: nothing more will come
        words = line.split()  # any run of white space separates words; "\r\n" is fine too
        if not words:
            continue
        cmd, rest = words[0], words[1:]
        if cmd == "arena":
            # "arena 1": the protocol version. Answer ready, with our name and version.
            send(f"ready {NAME} {VERSION}")
        elif cmd == "newgame":
            game, seat = (rest + ["", ""])[:2]
            print(f"{NAME}: new game of {game} as {seat}", file=sys.stderr, flush=True)
        elif cmd == "position":
            position = " ".join(rest)
        elif cmd == "moves":
            moves = rest
        elif cmd == "legal":
            legal = rest
        elif cmd == "time":
            pass  # "time MOVE REMAINING INCREMENT" in ms: a random choice needs none of it
        elif cmd == "go":
            if not legal:
                send("resign")  # cannot happen: the bridge always sends a legal list
                continue
            move = rng.choice(legal)
            send(f"info depth 0 nodes {len(legal)} pv {move}")
            send(move)
        elif cmd == "gameover":
            print(f"{NAME}: game over: {' '.join(rest)}", file=sys.stderr, flush=True)
            position, moves, legal = "", [], []
        elif cmd == "quit":
            return
        # Any other line is a command of a later version of the protocol: ignore it.


if __name__ == "__main__":
    try:
        main()
    except (KeyboardInterrupt, BrokenPipeError):
        pass
