// Command fakeengine is an engine for the tests of the engine bridge: it speaks Arena's
// line protocol (docs/engines.md) on standard input and output, plays the first legal move
// of each turn, and misbehaves on purpose in the ways --behave lists.
//
// Usage:
//
//	fakeengine [--behave B1,B2,...] [--ply N] [--delay DUR] [--name NAME] [--log FILE] [--once FILE] [--tag TOKEN]
//
// The behaviours (see the behaviours table for the full list) that concern a move strike
// at the first go whose moves line holds N or more moves (--ply, default 0), and at every
// later one. With --once they strike only once, in whichever process of the engine gets
// there first: the first to create FILE (it must not exist yet) misbehaves, every later go
// and every restarted engine plays normally. That is how a test makes one game go wrong
// and checks that the others do not. --delay is the sleep of slow-start and slow-move. --log appends every line the
// engine receives to FILE, for tests to check what it was told; lines it writes about
// itself (its pid, its child's) start with "# ". Those pids are as the engine sees them,
// which inside a pid namespace of its own are not the caller's: --tag gives the engine's
// children the arguments "--tag TOKEN" too, so that a test can find the engine and every
// child it started by their command lines (/proc/PID/cmdline), whatever namespace they run
// in. The tag changes nothing else.
//
// Exit status: 0 after quit or the end of its input, 3 for crash, 2 for a usage error.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"sort"
	"strings"
	"syscall"
	"time"
)

// behaviour is one way of misbehaving (or of being unusual while correct).
type behaviour struct {
	doc string
}

// behaviours is the table of --behave values. A test engine for another protocol can
// grow its own table the same way.
var behaviours = map[string]behaviour{
	"normal":       {"play the first legal move, with an info line before it (the default)"},
	"upper":        {"write moves in upper case (D3, PASS)"},
	"crlf":         {`end lines with "\r\n", and send empty lines and # comments around answers`},
	"slow-start":   {"sleep --delay before answering ready"},
	"slow-move":    {"from ply N, sleep --delay before answering go"},
	"crash":        {"from ply N, exit with status 3 on go, without answering"},
	"garbage":      {"from ply N, answer go with a line that is no move"},
	"illegal":      {"from ply N, answer go with d4, a square taken from the start"},
	"resign":       {"from ply N, answer go with resign"},
	"long-line":    {"from ply N, answer go with a line of 100 KiB"},
	"ignore-quit":  {"keep running after quit and the end of input, ignoring SIGTERM and SIGINT"},
	"child":        {"start a child process (in the engine's process group, holding its output) that ignores SIGTERM and sleeps"},
	"setsid-child": {"start a child process that leaves the engine's session and process group (setsid), closes its output, ignores SIGTERM and sleeps"},
	"flood":        {"from ply N, answer go with 4 MiB of 1 KiB lines that are no move, then the move"},
	"stderr":       {"write a line to standard error for every command received"},
	"stderr-flood": {"after every answer, write 256 KiB to standard error in 1 KiB lines (100 MiB in about 400 moves)"},
	"fence":        {"ask for fenced turns (feature fence), answer ping N with pong N and moves as move M"},
	"stray":        {"from ply N, answer go with a debug line, then the move 50ms later"},
	"no-flush":     {"never flush standard output, as a program writing to a pipe without flushing"},
	"burst":        {"from ply N, answer go with 4 bursts of 1 MiB of 1 KiB lines that are no move, 100ms apart, then the move"},
	"no-ready":     {"never answer arena 1"},
	"bad-ready":    {"answer arena 1 with hello instead of ready"},
}

const crashStatus = 3

type config struct {
	behave map[string]bool
	ply    int
	delay  time.Duration
	name   string
	log    string
	once   string // strike once: only the go that creates this file misbehaves
	tag    string // passed on to the children, for tests to find them
	sleep  bool   // internal: be the child (sleep forever, ignoring SIGTERM)
	setsid bool   // internal: the child also leaves the session
}

func main() {
	cfg, err := parse(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "fakeengine:", err)
		os.Exit(2)
	}
	if cfg.sleep {
		signal.Ignore(syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
		if cfg.setsid {
			if _, err := syscall.Setsid(); err != nil {
				fmt.Fprintln(os.Stderr, "fakeengine: setsid:", err)
			}
		}
		sleepForever()
	}
	os.Exit(run(cfg, os.Stdin, os.Stdout, os.Stderr))
}

func parse(args []string) (config, error) {
	fs := flag.NewFlagSet("fakeengine", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	behave := fs.String("behave", "normal", "comma-separated behaviours: "+names())
	cfg := config{behave: map[string]bool{}}
	fs.IntVar(&cfg.ply, "ply", 0, "the ply from which move behaviours strike")
	fs.DurationVar(&cfg.delay, "delay", time.Second, "the sleep of slow-start and slow-move")
	fs.StringVar(&cfg.name, "name", "fakeengine", "the name sent with ready")
	fs.StringVar(&cfg.log, "log", "", "append every line received to this file")
	fs.StringVar(&cfg.once, "once", "", "misbehave only at the go that creates this file")
	fs.StringVar(&cfg.tag, "tag", "", "a word the children get as an argument too, for tests to find them")
	fs.BoolVar(&cfg.sleep, "sleep-forever", false, "internal: the child of the child behaviours")
	fs.BoolVar(&cfg.setsid, "setsid", false, "internal: the child of setsid-child")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	for _, b := range strings.Split(*behave, ",") {
		if b = strings.TrimSpace(b); b == "" {
			continue
		}
		if _, ok := behaviours[b]; !ok {
			return cfg, fmt.Errorf("unknown behaviour %q (known: %s)", b, names())
		}
		cfg.behave[b] = true
	}
	return cfg, nil
}

func names() string {
	var n []string
	for k := range behaviours {
		n = append(n, k)
	}
	sort.Strings(n)
	return strings.Join(n, ", ")
}

// run plays until quit or the end of input and returns the exit status.
func run(cfg config, stdin io.Reader, stdout, stderr io.Writer) int {
	var logf io.Writer = io.Discard
	if cfg.log != "" {
		f, err := os.OpenFile(cfg.log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			fmt.Fprintln(stderr, "fakeengine:", err)
			return 2
		}
		defer f.Close()
		logf = f
		fmt.Fprintf(f, "# pid %d\n", os.Getpid())
	}
	if cfg.behave["ignore-quit"] {
		signal.Ignore(syscall.SIGTERM, syscall.SIGINT)
	}
	if cfg.behave["child"] {
		c := exec.Command(os.Args[0], childArgs(cfg, "--sleep-forever")...)
		// It holds the engine's output open too, as a helper process of a real engine
		// might: the bridge must not wait for the end of output that never comes.
		c.Stdout, c.Stderr = os.Stdout, os.Stderr
		if err := c.Start(); err != nil {
			fmt.Fprintln(stderr, "fakeengine: child:", err)
			return 2
		}
		fmt.Fprintf(logf, "# child %d\n", c.Process.Pid)
	}
	if cfg.behave["setsid-child"] {
		// Its own session, no pipe of the engine's: nothing ties it to the engine but
		// being its child, which is lost once the engine exits.
		c := exec.Command(os.Args[0], childArgs(cfg, "--sleep-forever", "--setsid")...)
		if err := c.Start(); err != nil {
			fmt.Fprintln(stderr, "fakeengine: child:", err)
			return 2
		}
		fmt.Fprintf(logf, "# child %d\n", c.Process.Pid)
	}

	out := bufio.NewWriter(stdout)
	eol := "\n"
	if cfg.behave["crlf"] {
		eol = "\r\n"
	}
	say := func(format string, args ...any) {
		if cfg.behave["crlf"] {
			fmt.Fprintf(out, "%s# a comment%s", eol, eol)
		}
		fmt.Fprintf(out, format+eol, args...)
		if !cfg.behave["no-flush"] {
			out.Flush()
		}
	}

	var legal []string
	plies := 0
	in := bufio.NewScanner(stdin)
	in.Buffer(make([]byte, 64<<10), 1<<20)
	for in.Scan() {
		line := in.Text()
		fmt.Fprintln(logf, line)
		if cfg.behave["stderr"] {
			fmt.Fprintf(stderr, "fakeengine got %q\n", line)
		}
		words := strings.Fields(line)
		if len(words) == 0 {
			continue
		}
		switch words[0] {
		case "arena":
			switch {
			case cfg.behave["no-ready"]:
			case cfg.behave["bad-ready"]:
				say("hello")
			default:
				if cfg.behave["slow-start"] {
					time.Sleep(cfg.delay)
				}
				if cfg.behave["fence"] {
					say("feature fence")
				}
				say("ready %s 1.0", cfg.name)
			}
		case "ping":
			if cfg.behave["fence"] {
				say("pong %s", strings.Join(words[1:], " "))
			}
		case "moves":
			plies = len(words) - 1
		case "legal":
			legal = words[1:]
		case "go":
			if plies < cfg.ply || len(legal) == 0 || !strike(cfg.once) {
				say("info depth 1 nodes %d score 0.5 pv %s", len(legal), move(cfg, legal))
				say("%s", answer(cfg, legal))
				break
			}
			switch {
			case cfg.behave["stray"]:
				say("debug: thinking about %s", legal[0])
				time.Sleep(50 * time.Millisecond)
				say("%s", answer(cfg, legal))
			case cfg.behave["burst"]:
				junk := strings.Repeat("z", 1023)
				for i := range 4 {
					if i > 0 {
						time.Sleep(100 * time.Millisecond)
					}
					for range 1 << 10 {
						fmt.Fprintf(out, "%s%s", junk, eol)
					}
					out.Flush()
				}
				say("%s", answer(cfg, legal))
			case cfg.behave["crash"]:
				return crashStatus
			case cfg.behave["slow-move"]:
				time.Sleep(cfg.delay)
				say("%s", answer(cfg, legal))
			case cfg.behave["garbage"]:
				say("%s", "?? no idea")
			case cfg.behave["illegal"]:
				say("d4")
			case cfg.behave["resign"]:
				say("resign")
			case cfg.behave["long-line"]:
				say("%s", strings.Repeat("x", 100<<10))
			case cfg.behave["flood"]:
				junk := strings.Repeat("y", 1023)
				for range 4 << 10 {
					fmt.Fprintf(out, "%s%s", junk, eol)
				}
				say("%s", answer(cfg, legal))
			default:
				say("info depth 1 nodes %d score 0.5 pv %s", len(legal), move(cfg, legal))
				say("%s", answer(cfg, legal))
			}
		case "quit":
			if !cfg.behave["ignore-quit"] {
				return 0
			}
		}
		if words[0] == "go" && cfg.behave["stderr-flood"] {
			floodStderr(stderr) // after the answer, between turns
		}
	}
	if cfg.behave["ignore-quit"] {
		sleepForever()
	}
	return 0
}

// childArgs returns the arguments of a child: args, and the tag if there is one.
func childArgs(cfg config, args ...string) []string {
	if cfg.tag != "" {
		args = append(args, "--tag", cfg.tag)
	}
	return args
}

// strike reports whether a misbehaviour may strike now: always without --once, else only
// for the caller that creates the file once names.
func strike(once string) bool {
	if once == "" {
		return true
	}
	f, err := os.OpenFile(once, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// sleepForever never returns. (An empty select would be reported as a deadlock.)
func sleepForever() {
	for {
		time.Sleep(time.Hour)
	}
}

// answer is the line that answers go with the move: the move alone, or "move M" for an
// engine with the fence.
func answer(cfg config, legal []string) string {
	if cfg.behave["fence"] {
		return "move " + move(cfg, legal)
	}
	return move(cfg, legal)
}

// floodStderr writes 256 KiB to w in lines of 1 KiB.
func floodStderr(w io.Writer) {
	bw := bufio.NewWriterSize(w, 64<<10)
	line := strings.Repeat("e", 1023) + "\n"
	for range 256 {
		bw.WriteString(line)
	}
	bw.Flush()
}

func move(cfg config, legal []string) string {
	if len(legal) == 0 {
		return "pass"
	}
	if cfg.behave["upper"] {
		return strings.ToUpper(legal[0])
	}
	return legal[0]
}
