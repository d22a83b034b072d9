// Command fakegtp is an Othello engine speaking GTP, for the tests of the engine bridge and
// of arena check-engine. It behaves like the GTP engines found in the wild: it echoes
// command ids, answers name, version, protocol_version, list_commands (on several lines)
// and list_games, writes its moves in upper case, and plays a random legal move (seeded,
// so games repeat). It knows known_command, showboard ("Next move: Black" above the board),
// time_settings and time_left. On request it misbehaves.
//
// Usage:
//
//	fakegtp [--fault MODE] [--from N] [--start-delay DUR] [--move-delay DUR] [--seed N]
//	        [--lower] [--no-list-games] [--name NAME] [--pass play|self|refuse]
//
// --start-delay makes it wait before reading its first command (a slow start); --move-delay
// is how long it thinks before each answer to genmove, less when the clock says so: after
// "time_left COLOUR SECONDS STONES" it thinks at most SECONDS divided by STONES, or, in
// main time (STONES 0), by half the empty squares.
//
// --pass says what it does with passes: "play" (the default) takes "play COLOUR pass" when
// that side has no move; "self" acts like GRhino: it refuses "play COLOUR pass" with "?
// syntax error", its board skips by itself a side that has no move, and it answers "pass"
// to a genmove of the side not to move; "refuse" refuses the pass the same way but its
// board does not skip, so it cannot follow a game with a pass.
//
// The fault applies from its Nth genmove on (--from, counting from 0); before that it
// plays well. The modes are:
//
//	none         play well
//	illegal      answer a square already taken
//	badmove      answer "= Z9", which is no move at all
//	refuse       answer "? cannot generate a move"
//	garbage      print a line that is no GTP answer, then answer correctly
//	hang         never answer, and read nothing more
//	crash        exit with status 3 without answering
//	ignore-quit  play well, but answer quit and keep running, ignoring SIGTERM too
//	ignore-clock think --move-delay whatever time_left says
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
)

func main() {
	fault := flag.String("fault", "none", "how to misbehave: none, illegal, badmove, refuse, garbage, hang, crash, ignore-quit, ignore-clock")
	from := flag.Int("from", 0, "the first genmove (from 0) the fault applies to")
	startDelay := flag.Duration("start-delay", 0, "wait this long before reading the first command")
	moveDelay := flag.Duration("move-delay", 0, "wait this long before answering genmove")
	seed := flag.Uint64("seed", 1, "seed of the random moves")
	lower := flag.Bool("lower", false, "write moves in lower case")
	noGames := flag.Bool("no-list-games", false, "refuse list_games")
	name := flag.String("name", "FakeGTP", "the name answered to name")
	passes := flag.String("pass", "play", "what it does with passes: play, self (like GRhino) or refuse")
	flag.Parse()
	switch *fault {
	case "none", "illegal", "badmove", "refuse", "garbage", "hang", "crash", "ignore-quit", "ignore-clock":
	default:
		fmt.Fprintf(os.Stderr, "fakegtp: unknown --fault %q\n", *fault)
		os.Exit(2)
	}
	switch *passes {
	case "play", "self", "refuse":
	default:
		fmt.Fprintf(os.Stderr, "fakegtp: unknown --pass %q\n", *passes)
		os.Exit(2)
	}
	if *fault == "ignore-quit" {
		signal.Ignore(syscall.SIGTERM, syscall.SIGINT)
	}
	time.Sleep(*startDelay)

	rng := rand.New(rand.NewPCG(*seed, 0))
	g := othello.New()
	st := g.NewState()
	genmoves := 0
	// skip plays the pass of a side with no move, for --pass self.
	skip := func() {
		if *passes != "self" {
			return
		}
		for !st.IsTerminal() {
			legal := st.LegalMoves(st.ToMove(), nil)
			if len(legal) != 1 || legal[0] != othello.Pass {
				return
			}
			_ = st.Play(othello.Pass)
		}
	}
	var clock struct {
		told         bool // time_left came since the last genmove
		secs, stones int
	}
	out := bufio.NewWriter(os.Stdout)
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		fields := strings.Fields(in.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		id := ""
		if _, err := strconv.Atoi(fields[0]); err == nil {
			id, fields = fields[0], fields[1:]
		}
		if len(fields) == 0 {
			continue
		}
		answer := func(ok bool, lines ...string) {
			mark := "="
			if !ok {
				mark = "?"
			}
			text := strings.Join(lines, "\n")
			fmt.Fprintf(out, "%s%s %s\n\n", mark, id, text)
			out.Flush()
		}
		switch fields[0] {
		case "protocol_version":
			answer(true, "2")
		case "name":
			answer(true, *name)
		case "version":
			answer(true, "1.0")
		case "list_commands":
			answer(true, knownCommands...)
		case "known_command":
			answer(true, strconv.FormatBool(len(fields) == 2 && slices.Contains(knownCommands, fields[1])))
		case "showboard":
			answer(true, "Next move: "+titled(g.Seats()[max(st.ToMove(), 0)]), st.String())
		case "time_settings":
			answer(true) // time_left says all it goes by
		case "time_left":
			secs, stones := 0, 0
			if len(fields) == 4 {
				secs, _ = strconv.Atoi(fields[2])
				stones, _ = strconv.Atoi(fields[3])
			}
			clock.told, clock.secs, clock.stones = true, secs, stones
			answer(true)
		case "list_games":
			if *noGames {
				answer(false, "unknown command")
			} else {
				answer(true, "Othello")
			}
		case "boardsize":
			n := 0
			if len(fields) > 1 {
				n, _ = strconv.Atoi(fields[1])
			}
			ng, err := othello.NewSize(n)
			if err != nil {
				answer(false, "unacceptable size")
				continue
			}
			g, st = ng, ng.NewState()
			answer(true)
		case "clear_board":
			st = g.NewState()
			answer(true)
		case "play":
			if len(fields) == 3 && strings.EqualFold(fields[2], "pass") && *passes != "play" {
				answer(false, "syntax error")
				continue
			}
			if len(fields) != 3 || !toMove(g, st, fields[1]) {
				answer(false, "illegal move")
				continue
			}
			m, err := st.ParseMove(fields[2])
			if err != nil || st.Play(m) != nil {
				answer(false, "illegal move")
				continue
			}
			skip()
			answer(true)
		case "genmove":
			if len(fields) == 2 && *passes == "self" && !toMove(g, st, fields[1]) {
				answer(true, "pass") // as GRhino does: the side not to move passes
				continue
			}
			if len(fields) != 2 || !toMove(g, st, fields[1]) {
				answer(false, "not that colour's turn")
				continue
			}
			faulty := genmoves >= *from
			genmoves++
			think := *moveDelay
			if clock.told && !(faulty && *fault == "ignore-clock") {
				think = min(think, budget(st, clock.secs, clock.stones))
			}
			clock.told = false
			time.Sleep(think)
			legal := st.LegalMoves(st.ToMove(), nil)
			m := legal[rng.IntN(len(legal))]
			text := st.MoveString(m)
			if !*lower {
				text = strings.ToUpper(text)
			}
			if faulty {
				switch *fault {
				case "illegal":
					answer(true, taken(st))
					continue
				case "badmove":
					answer(true, "Z9")
					continue
				case "refuse":
					answer(false, "cannot generate a move")
					continue
				case "garbage":
					fmt.Fprintf(out, "thinking... best so far %s\n", text)
				case "hang":
					forever()
				case "crash":
					os.Exit(3)
				}
			}
			if err := st.Play(m); err != nil {
				panic(err)
			}
			skip()
			answer(true, text)
		case "quit":
			answer(true)
			if *fault == "ignore-quit" {
				forever()
			}
			return
		default:
			answer(false, "unknown command")
		}
	}
	if *fault == "ignore-quit" {
		forever()
	}
}

// knownCommands are the commands it answers, as list_commands lists them.
var knownCommands = []string{"protocol_version", "name", "version", "known_command", "list_commands", "list_games",
	"boardsize", "clear_board", "play", "genmove", "showboard", "time_settings", "time_left", "quit"}

// budget is the longest it thinks with secs seconds left for stones moves, or in main time
// (stones 0) for the rest of the game, which it reckons at half the empty squares.
func budget(st game.State, secs, stones int) time.Duration {
	if stones <= 0 {
		stones = max(strings.Count(st.String(), "-")/2, 1)
	}
	return time.Duration(secs) * time.Second / time.Duration(stones)
}

// titled writes a colour as showboard does: "Black".
func titled(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

// toMove reports whether colour is the side to move.
func toMove(g game.Game, st game.State, colour string) bool {
	seat := st.ToMove()
	return seat >= 0 && strings.EqualFold(colour, g.Seats()[seat])
}

// taken returns a square holding a disc: never a legal move.
func taken(st game.State) string {
	pos := st.String()
	n := 0
	for n*n+2 < len(pos) {
		n++
	}
	for i := range n * n {
		if pos[i] != '-' {
			return strings.ToUpper(othello.MoveString(othello.Square(i%n, i/n)))
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
