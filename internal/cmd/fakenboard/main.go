// Command fakenboard is an Othello engine speaking the NBoard protocol (version 1), for the
// tests of the engine bridge and of arena check-engine. It behaves like NBoard engines do:
// it names itself with "set myname" after "nboard 1", answers "ping N" with "pong N", reads
// the game from "set game" (GGF), keeps up with "move", and answers "go" with status and
// nodestats lines and then "=== MOVE/EVAL/TIME", the move in upper case and PA for a pass.
// It plays a random legal move (seeded, so games repeat). On request it misbehaves.
//
// With --edax it talks as Edax (4.4) does instead: it says nothing to "nboard 1", names
// itself "set myname EdaxN" after "set depth N", and answers go with "status Edax is
// thinking", "nodestats NODES TIME", the answer "=== MOVE EVAL TIME" with the move in lower
// case (pa for a pass), the evaluation with two decimals and the time with one
// ("=== h7 64.00 0.0"), and then "status Edax is waiting". Its evaluation is the disc count
// of the side to move less the opponent's, before the move, plus 0.25 (never 0), and its
// node count 1000 times the number of legal moves, so that a test can check what was
// recorded.
//
// Usage:
//
//	fakenboard [--edax] [--fault MODE] [--from N] [--start-delay DUR] [--move-delay DUR] [--seed N]
//
// --start-delay makes it wait before reading its first command (a slow start); --move-delay
// before each answer to go, whatever the clock: NBoard tells an engine of none. The fault
// applies from its Nth go on (--from, counting from 0), except no-pass, which applies
// throughout. The modes are:
//
//	none         play well
//	illegal      answer a square already taken
//	badmove      answer "=== Z9"
//	garbage      answer "bestmove d3" instead of "=== D3"
//	hang         never answer, and read nothing more
//	crash        exit with status 3 without answering
//	ignore-quit  play well, but keep running after quit, ignoring SIGTERM too
//	late-status  play well, and 300ms after each answer say "status idle" unasked, as
//	             an engine may between turns
//	no-pass      not know PA: it reads a "set game" only up to its first pass (saying so
//	             on standard error), so that it answers for the side that passed
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
)

func main() {
	fault := flag.String("fault", "none", "how to misbehave: none, illegal, badmove, garbage, hang, crash, ignore-quit, no-pass")
	from := flag.Int("from", 0, "the first go (from 0) the fault applies to")
	startDelay := flag.Duration("start-delay", 0, "wait this long before reading the first command")
	moveDelay := flag.Duration("move-delay", 0, "wait this long before answering go")
	seed := flag.Uint64("seed", 1, "seed of the random moves")
	edax := flag.Bool("edax", false, "talk as Edax does: \"=== h7 64.00 0.0\", status lines before and after")
	flag.Parse()
	switch *fault {
	case "none", "illegal", "badmove", "garbage", "hang", "crash", "ignore-quit", "no-pass", "late-status":
	default:
		fmt.Fprintf(os.Stderr, "fakenboard: unknown --fault %q\n", *fault)
		os.Exit(2)
	}
	if *fault == "ignore-quit" {
		signal.Ignore(syscall.SIGTERM, syscall.SIGINT)
	}
	time.Sleep(*startDelay)

	rng := rand.New(rand.NewPCG(*seed, 0))
	var st game.State = othello.New().NewState()
	gos := 0
	out := bufio.NewWriter(os.Stdout)
	var sayMu sync.Mutex // late-status says from a goroutine too
	say := func(lines ...string) {
		sayMu.Lock()
		defer sayMu.Unlock()
		for _, l := range lines {
			fmt.Fprintln(out, l)
		}
		out.Flush()
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	for in.Scan() {
		cmd, arg, _ := strings.Cut(strings.TrimSpace(in.Text()), " ")
		switch cmd {
		case "nboard":
			if !*edax {
				say("set myname FakeNBoard")
			}
		case "set":
			what, val, _ := strings.Cut(arg, " ")
			if what == "depth" && *edax {
				say("set myname Edax" + val)
			}
			if what == "game" {
				s, err := parseGGF(val, *fault != "no-pass")
				if err != nil {
					fmt.Fprintln(os.Stderr, "fakenboard:", err)
				}
				if s != nil {
					st = s
				}
			}
		case "move":
			text, _, _ := strings.Cut(arg, "/")
			if m, err := parseMove(st, text); err == nil {
				_ = st.Play(m)
			}
		case "ping":
			say("pong " + arg)
		case "go":
			time.Sleep(*moveDelay)
			faulty := gos >= *from
			gos++
			legal := st.LegalMoves(st.ToMove(), nil)
			if *edax {
				say("status Edax is thinking", fmt.Sprintf("nodestats %d 0.01", 1000*len(legal)))
			} else {
				say("status thinking", "nodestats 1234 0.01")
			}
			if len(legal) == 0 {
				say("status the game is over")
				continue
			}
			m := legal[rng.IntN(len(legal))]
			text := strings.ToUpper(st.MoveString(m))
			if m == othello.Pass {
				text = "PA"
			}
			if faulty {
				switch *fault {
				case "illegal":
					text = taken(st)
				case "badmove":
					text = "Z9"
				case "garbage":
					say("bestmove " + strings.ToLower(text))
					continue
				case "hang":
					forever()
				case "crash":
					os.Exit(3)
				}
			}
			if *fault == "late-status" {
				time.AfterFunc(300*time.Millisecond, func() { say("status idle") })
			}
			if *edax {
				say(fmt.Sprintf("=== %s %.2f 0.0", strings.ToLower(text), discLead(st)+0.25), "status Edax is waiting")
				continue
			}
			say("=== " + text + "/0.50/0.01")
		case "quit":
			if *fault == "ignore-quit" {
				forever()
			}
			return
		}
	}
	if *fault == "ignore-quit" {
		forever()
	}
}

func parseMove(st game.State, text string) (game.Move, error) {
	if strings.EqualFold(text, "PA") {
		text = "pass"
	}
	return st.ParseMove(text)
}

// parseGGF reads the start position (BO) and the moves (B, W) of an Othello game in GGF;
// the other properties are skipped. Unless passes is set, it stops at a pass (PA) with an
// error, returning the position before it.
func parseGGF(s string, passes bool) (game.State, error) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "(;") || !strings.HasSuffix(s, ";)") {
		return nil, errors.New("set game: not a GGF game")
	}
	s = s[2 : len(s)-2]
	var st game.State
	for s != "" {
		open := strings.IndexByte(s, '[')
		end := strings.IndexByte(s, ']')
		if open < 0 || end < open {
			return nil, fmt.Errorf("set game: bad property at %q", s)
		}
		tag, val := strings.TrimSpace(s[:open]), s[open+1:end]
		s = s[end+1:]
		switch tag {
		case "BO":
			var b strings.Builder
			fields := strings.Fields(val)
			if len(fields) < 2 || fields[0] != "8" {
				return nil, fmt.Errorf("set game: BO[%s] is not an 8x8 board", val)
			}
			for _, c := range fields[1:] {
				b.WriteString(c)
			}
			squares := b.String()
			if len(squares) != 65 {
				return nil, fmt.Errorf("set game: BO[%s] is not an 8x8 board", val)
			}
			pos := strings.NewReplacer("*", "X").Replace(squares[:64] + " " + squares[64:])
			p, err := othello.Parse(pos)
			if err != nil {
				return nil, err
			}
			st = p
		case "B", "W":
			if st == nil {
				return nil, errors.New("set game: a move before BO")
			}
			text, _, _ := strings.Cut(val, "/")
			if !passes && strings.EqualFold(text, "PA") {
				return st, fmt.Errorf("set game: %s[%s]: not a square; the game is read up to it", tag, val)
			}
			m, err := parseMove(st, text)
			if err != nil {
				return nil, err
			}
			if err := st.Play(m); err != nil {
				return nil, fmt.Errorf("set game: %s[%s]: %w", tag, val, err)
			}
		}
	}
	if st == nil {
		return nil, errors.New("set game: no BO")
	}
	return st, nil
}

// discLead is the disc count of the side to move less the opponent's.
func discLead(st game.State) float64 {
	pos := st.String()
	mine, theirs := byte('X'), byte('O')
	if st.ToMove() == othello.White {
		mine, theirs = theirs, mine
	}
	return float64(strings.Count(pos[:64], string(mine)) - strings.Count(pos[:64], string(theirs)))
}

// taken returns a square holding a disc: never a legal move.
func taken(st game.State) string {
	pos := st.String()
	for i := range 64 {
		if pos[i] != '-' {
			return strings.ToUpper(othello.MoveString(game.Move(i)))
		}
	}
	return "A1"
}

// forever blocks for good. (An empty select would not: with no other goroutine the runtime
// would call it a deadlock and exit.)
func forever() {
	for {
		time.Sleep(time.Hour)
	}
}
