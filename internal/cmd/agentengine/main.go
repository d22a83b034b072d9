// Command agentengine is a built-in agent behind Arena's line protocol (docs/engines.md):
// an external engine of known strength for tests. A test can run the same agent as a
// built-in player, through `arena engine` as an outside program, and in a sandbox as a
// submitted engine, and know that the three play alike.
//
// Usage:
//
//	agentengine [--seed N] [--version V] AGENT[:key=value...]
//
// for instance `agentengine --version 2 minimax:depth=2:blunder=0.3`. It answers "arena 1"
// with "ready agentengine V", plays every "go" with the agent, and exits at "quit" or the
// end of its input. It plays Othello, checkers and the other games registered below.
//
// Exit status: 0 after quit or the end of input, 2 for a usage error, 1 for anything the
// bridge sent that it cannot read.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	_ "github.com/arenaref/arena/games/checkers"
	_ "github.com/arenaref/arena/games/othello"
	_ "github.com/arenaref/arena/players/agents/heuristic"
	_ "github.com/arenaref/arena/players/agents/minimax"
	_ "github.com/arenaref/arena/players/agents/random"
)

func main() {
	fs := flag.NewFlagSet("agentengine", flag.ContinueOnError)
	seed := fs.Int64("seed", 1, "the agent's seed")
	version := fs.String("version", "1", "the version it reports after ready")
	if err := fs.Parse(os.Args[1:]); err != nil || fs.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: agentengine [--seed N] [--version V] AGENT[:key=value...]")
		os.Exit(2)
	}
	name, params, err := parseAgent(fs.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "agentengine:", err)
		os.Exit(2)
	}
	a, err := agent.New(name, agent.Config{Seed: *seed, Params: params})
	if err != nil {
		fmt.Fprintln(os.Stderr, "agentengine:", err)
		os.Exit(2)
	}
	if err := serve(os.Stdin, os.Stdout, a, *version); err != nil {
		fmt.Fprintln(os.Stderr, "agentengine:", err)
		os.Exit(1)
	}
}

// parseAgent reads AGENT[:key=value...].
func parseAgent(spec string) (string, map[string]string, error) {
	parts := strings.Split(spec, ":")
	params := map[string]string{}
	for _, kv := range parts[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return "", nil, fmt.Errorf("%q is not key=value", kv)
		}
		params[k] = v
	}
	return parts[0], params, nil
}

// serve speaks the line protocol on in and out until quit or the end of in.
func serve(in io.Reader, out io.Writer, a agent.Agent, version string) error {
	w := bufio.NewWriter(out)
	say := func(line string) error {
		if _, err := w.WriteString(line + "\n"); err != nil {
			return err
		}
		return w.Flush()
	}
	var (
		g        game.Game
		seat     game.Seat
		state    game.State
		moveTime time.Duration
		moves    []string
	)
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		words := strings.Fields(sc.Text())
		if len(words) == 0 {
			continue
		}
		var err error
		switch words[0] {
		case "arena":
			err = say("ready agentengine " + version)
		case "newgame":
			if len(words) < 3 {
				return fmt.Errorf("newgame without a game and seat: %q", sc.Text())
			}
			if g, err = game.Lookup(words[1]); err != nil {
				return err
			}
			seat = -1
			for i, name := range g.Seats() {
				if name == words[2] {
					seat = game.Seat(i)
				}
			}
			if seat < 0 {
				return fmt.Errorf("newgame: %s has no seat %q", g.Name(), words[2])
			}
		case "position":
			if g == nil {
				return fmt.Errorf("position before newgame")
			}
			state, err = g.ParseState(strings.TrimSpace(strings.TrimPrefix(sc.Text(), "position")))
		case "moves":
			moves = words[1:]
		case "time":
			if len(words) > 1 {
				var ms int64
				fmt.Sscan(words[1], &ms)
				moveTime = time.Duration(ms) * time.Millisecond
			}
		case "go":
			if state == nil {
				return fmt.Errorf("go without a position")
			}
			legal := state.LegalMoves(seat, nil)
			turn := agent.Turn{Game: g, State: state, Seat: seat, Legal: legal, Moves: moves}
			if moveTime > 0 {
				turn.Deadline = time.Now().Add(moveTime * 8 / 10)
			}
			d, cerr := a.Choose(context.Background(), turn)
			if cerr != nil {
				return cerr
			}
			err = say(state.MoveString(d.Move))
		case "quit":
			return nil
		}
		if err != nil {
			return err
		}
	}
	return sc.Err()
}
