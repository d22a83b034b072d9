# A random mover speaking Arena's line protocol (docs/engines.md, "The smallest useful
# engine"), for the tests that name a real engine program in a tournament.
import random
import sys

legal = []
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "arena":
        print("ready randompy 1.0", flush=True)
    elif words[0] == "legal":
        legal = words[1:]
    elif words[0] == "go":
        print(random.choice(legal), flush=True)
    elif words[0] == "quit":
        break
