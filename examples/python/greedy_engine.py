#!/usr/bin/env python3
"""A greedy Othello engine for Arena's line protocol (docs/engines.md).

Standard library only. It reads the position and plays the legal move that turns over the
most discs (a corner first when one is legal), choosing at random among equals. It is a
step up from random_engine.py and an example of reading Arena's Othello notation:

    position ---------------------------OX------XO--------------------------- X

is the board row by row from a1 (a1, b1, ..., h1, a2, ...), X black, O white, - empty,
then the side to move. The same code reads the 6x6 and 4x4 boards (othello:size=6).

    arena engine --nats nats://127.0.0.1:4222 --name greedy --game othello -- \
        python3 examples/python/greedy_engine.py
"""

import argparse
import math
import random
import sys

NAME = "greedy-py"
VERSION = "1.0"
DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def parse_position(words):
    """Returns (board, n, side) from the words after "position", or None if malformed."""
    if len(words) != 2:
        return None
    board, side = words
    n = math.isqrt(len(board))
    if n * n != len(board) or side not in ("X", "O"):
        return None
    return board, n, side


def flips(board, n, side, move):
    """How many discs placing side's disc on move ("d3") turns over; 0 for pass or junk."""
    if len(move) < 2 or not move[1:].isdigit():
        return 0
    col, row = ord(move[0]) - ord("a"), int(move[1:]) - 1
    if not (0 <= col < n and 0 <= row < n):
        return 0
    other = "O" if side == "X" else "X"
    total = 0
    for dr, dc in DIRECTIONS:
        r, c, run = row + dr, col + dc, 0
        while 0 <= r < n and 0 <= c < n and board[r * n + c] == other:
            r, c, run = r + dr, c + dc, run + 1
        if run and 0 <= r < n and 0 <= c < n and board[r * n + c] == side:
            total += run
    return total


def choose(rng, pos, legal):
    """The move to play and its score (discs turned over)."""
    if pos is None:
        return rng.choice(legal), 0  # a position we cannot read: still answer legally
    board, n, side = pos
    last = chr(ord("a") + n - 1)
    corners = {"a1", f"{last}1", f"a{n}", f"{last}{n}"}
    scored = [(m in corners, flips(board, n, side, m), m) for m in legal]
    best = max((corner, f) for corner, f, _ in scored)
    move = rng.choice([m for corner, f, m in scored if (corner, f) == best])
    return move, best[1]


def main():
    parser = argparse.ArgumentParser(description="A greedy Othello engine for Arena's line protocol.")
    parser.add_argument("--seed", type=int, default=None, help="seed for breaking ties")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    pos, legal = None, []
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        words = line.split()
        if not words:
            continue
        cmd, rest = words[0], words[1:]
        if cmd == "arena":
            send(f"ready {NAME} {VERSION}")
        elif cmd == "position":
            pos = parse_position(rest)
        elif cmd == "legal":
            legal = rest
        elif cmd == "go":
            if not legal:
                send("resign")
                continue
            move, score = choose(rng, pos, legal)
            send(f"info depth 1 nodes {len(legal)} score {score} pv {move}")
            send(move)
        elif cmd == "quit":
            return
        # newgame, moves, time, gameover and unknown lines need no answer.


if __name__ == "__main__":
    try:
        main()
    except (KeyboardInterrupt, BrokenPipeError):
        pass
