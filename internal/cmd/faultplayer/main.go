// Command faultplayer is an Arena player that misbehaves on purpose. It exists for the
// integration tests of the referee: it speaks protocol v1 over NATS like any player (it
// subscribes, says hello, keeps the heartbeat, answers roll calls), plays the first legal
// move of each turn request, and commits one chosen fault once the fault applies.
//
// Usage:
//
//	faultplayer --nats URL --name NAME --fault MODE [--from-ply N] [--seat S] [--down DUR]
//
// The fault applies to turns at ply N or later (--from-ply, default 0) in games where the
// player has seat S (--seat: "any", the default, a seat number such as 1, or a seat name
// such as "white"). Before that the player plays normally. The modes are:
//
//	none                      always play the first legal move
//	hang                      never answer
//	slow=DUR                  answer correctly after sleeping DUR
//	garbage                   answer with bytes that are not JSON
//	oversize                  answer with a well-formed reply padded with blanks to 200 KiB,
//	                          over the protocol's 64 KiB limit
//	illegal                   answer a well-formed move that is not legal (in Othello a
//	                          square already taken, otherwise "z9")
//	stale                     answer first with a wrong ply (ply-1, or 1 at ply 0), then
//	                          5ms later with the right reply
//	stale-only                answer only with a wrong ply, never with the right one
//	crash                     exit at once with status 3 on receiving the turn, unanswered
//	disconnect-between-games  play normally, but after every game_end notice close the NATS
//	                          connection, stay away for --down (default 500ms), then
//	                          connect again and say hello again
//
// Standard output carries one line per event, for tests to follow:
//
//	connect N           the Nth connection is subscribed and about to say hello
//	turn GAME_ID PLY    a turn request arrived (printed before it is answered, or not)
//	end GAME_ID REASON  a game_end notice arrived
//
// The log goes to standard error as JSON lines. The program stops on SIGINT or SIGTERM with
// status 0; a usage error exits with status 2, a failure with 1.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/auth"
	"github.com/arenaref/arena/protocol"
)

// Fault modes.
const (
	modeNone       = "none"
	modeHang       = "hang"
	modeSlow       = "slow"
	modeGarbage    = "garbage"
	modeOversize   = "oversize"
	modeIllegal    = "illegal"
	modeStale      = "stale"
	modeStaleOnly  = "stale-only"
	modeCrash      = "crash"
	modeDisconnect = "disconnect-between-games"
)

// crashStatus is the exit status of the crash mode, so that a test can tell the crash it
// asked for from any other exit.
const crashStatus = 3

// oversizeBytes is the size of an oversize reply: well over protocol.MaxMessageSize and
// well under the NATS server's default payload limit (1 MiB), so it reaches the referee.
const oversizeBytes = 200 << 10

// staleGap is the time between the stale reply and the right one in the stale mode.
const staleGap = 5 * time.Millisecond

// config is the parsed command line.
type config struct {
	url     string
	name    string
	fault   string        // as given, for the hello and the log
	mode    string        // one of the mode constants
	slow    time.Duration // the sleep of the slow mode
	fromPly int
	seat    string // "any", a seat number or a seat name
	down    time.Duration
	level   zerolog.Level
	creds   []nats.Option // from --credentials, on a secured bus
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run parses args and plays until ctx ends. It returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parseArgs(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintf(stderr, "faultplayer: %v\n", err)
		return 2
	}
	log := zerolog.New(stderr).Level(cfg.level).With().Timestamp().Str("player", cfg.name).Str("fault", cfg.fault).Logger()
	out := &lines{w: stdout}
	if err := play(ctx, cfg, out, log); err != nil {
		log.Error().Err(err).Msg("stopped")
		fmt.Fprintf(stderr, "faultplayer: %v\n", err)
		return 1
	}
	log.Info().Msg("stopped")
	return 0
}

func parseArgs(args []string, stderr io.Writer) (config, error) {
	var cfg config
	fs := flag.NewFlagSet("faultplayer", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&cfg.url, "nats", nats.DefaultURL, "NATS server URL")
	fs.StringVar(&cfg.name, "name", "", "player name (required)")
	credPath := fs.String("credentials", "", "credentials file for a secured server (arena credentials add)")
	fs.StringVar(&cfg.fault, "fault", modeNone, "fault mode: none, hang, slow=DUR, garbage, oversize, illegal, stale, stale-only, crash, disconnect-between-games")
	fs.IntVar(&cfg.fromPly, "from-ply", 0, "commit the fault from this ply on; play normally before")
	fs.StringVar(&cfg.seat, "seat", "any", `commit the fault only when playing this seat: "any", a seat number or a seat name`)
	fs.DurationVar(&cfg.down, "down", 500*time.Millisecond, "disconnect-between-games: how long to stay away")
	level := fs.String("log-level", "info", "log level: debug, info, warn, error")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	if !protocol.ValidName(cfg.name) {
		return cfg, fmt.Errorf("--name %q: want 1-64 of A-Z a-z 0-9 - _", cfg.name)
	}
	if cfg.fromPly < 0 || cfg.down < 0 {
		return cfg, errors.New("--from-ply and --down must not be negative")
	}
	if cfg.seat == "" {
		return cfg, errors.New(`--seat must not be empty (use "any")`)
	}
	if *credPath != "" {
		f, err := auth.ReadFile(*credPath)
		if err != nil {
			return cfg, err
		}
		if cfg.creds, err = f.Options(); err != nil {
			return cfg, err
		}
	}
	lvl, err := zerolog.ParseLevel(strings.ToLower(*level))
	if err != nil || *level == "" {
		return cfg, fmt.Errorf("--log-level %q: want debug, info, warn or error", *level)
	}
	cfg.level = lvl
	mode, arg, hasArg := strings.Cut(cfg.fault, "=")
	switch mode {
	case modeSlow:
		d, err := time.ParseDuration(arg)
		if !hasArg || err != nil || d < 0 {
			return cfg, fmt.Errorf("--fault %q: want slow=DURATION, such as slow=300ms", cfg.fault)
		}
		cfg.slow = d
	case modeNone, modeHang, modeGarbage, modeOversize, modeIllegal, modeStale, modeStaleOnly, modeCrash, modeDisconnect:
		if hasArg {
			return cfg, fmt.Errorf("--fault %q: mode %s takes no value", cfg.fault, mode)
		}
	default:
		return cfg, fmt.Errorf("--fault %q: unknown mode", cfg.fault)
	}
	cfg.mode = mode
	return cfg, nil
}

// lines writes whole lines to the standard output, one writer at a time.
type lines struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lines) printf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, format+"\n", args...)
}

// play runs sessions, one per NATS connection, until ctx ends. Only the
// disconnect-between-games mode ever starts a second session.
func play(ctx context.Context, cfg config, out *lines, log zerolog.Logger) error {
	for n := 1; ; n++ {
		again, err := session(ctx, cfg, n, out, log.With().Int("session", n).Logger())
		if err != nil || !again {
			return err
		}
		log.Info().Dur("down", cfg.down).Msg("disconnected on purpose; staying away")
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(cfg.down):
		}
	}
}

// conn is one session: a NATS connection with its subscriptions.
type conn struct {
	cfg     config
	nc      *nats.Conn
	out     *lines
	log     zerolog.Logger
	leaving atomic.Bool   // set when the session is being ended on purpose
	left    chan struct{} // closed once the connection was closed on purpose
	wake    chan struct{} // a roll call asks for a hello now
}

// session connects, subscribes and says hello until ctx ends (it returns false) or the
// session closes its connection on purpose after a game (it returns true).
func session(ctx context.Context, cfg config, n int, out *lines, log zerolog.Logger) (bool, error) {
	nc, err := nats.Connect(cfg.url, append(cfg.creds,
		nats.Name(cfg.name),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250*time.Millisecond),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			if err != nil {
				log.Warn().Err(err).Msg("nats disconnected")
			}
		}),
		nats.ReconnectHandler(func(*nats.Conn) { log.Info().Msg("nats reconnected") }),
	)...)
	if err != nil {
		return false, fmt.Errorf("connect to %s: %w", cfg.url, err)
	}
	defer nc.Close()
	c := &conn{cfg: cfg, nc: nc, out: out, log: log, left: make(chan struct{}), wake: make(chan struct{}, 1)}

	// Turns and notices share one subscription, so that they are handled one at a time in
	// the order they were sent: a game_end is always handled before the next game's turn.
	if _, err := nc.Subscribe("arena.v1.player."+cfg.name+".*", c.onPlayer); err != nil {
		return false, fmt.Errorf("subscribe: %w", err)
	}
	if _, err := nc.Subscribe(protocol.SubjectRollCall, c.onRollCall); err != nil {
		return false, fmt.Errorf("subscribe: %w", err)
	}
	if err := nc.Flush(); err != nil {
		return false, fmt.Errorf("flush subscriptions: %w", err)
	}
	out.printf("connect %d", n)
	log.Info().Str("nats", nc.ConnectedUrlRedacted()).Msg("connected")
	return c.announce(ctx)
}

// announce says hello, retrying every second until welcomed and then at the heartbeat
// interval, and at once on a roll call.
func (c *conn) announce(ctx context.Context) (bool, error) {
	hello := protocol.Encode(protocol.Hello{
		V: protocol.Version, Type: protocol.TypeHello, Name: c.cfg.name,
		Agent: clip("faultplayer " + c.cfg.fault), Version: "1",
	})
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return false, nil
		case <-c.left:
			return true, nil
		case <-timer.C:
		case <-c.wake:
		}
		interval := time.Second
		reply, err := c.nc.Request(protocol.HelloSubject(c.cfg.name), hello, time.Second)
		switch {
		case c.leaving.Load():
			return true, nil
		case errors.Is(err, nats.ErrConnectionClosed):
			return false, err
		case err != nil:
			c.log.Debug().Err(err).Msg("hello unanswered; retrying")
		default:
			w, err := protocol.DecodeWelcome(reply.Data)
			if err != nil {
				c.log.Warn().Err(err).Msg("malformed welcome; retrying")
				break
			}
			interval = max(time.Duration(w.HeartbeatMS)*time.Millisecond, 50*time.Millisecond)
			c.log.Debug().Str("referee", w.Referee).Msg("welcomed")
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		timer.Reset(interval)
	}
}

func (c *conn) onRollCall(*nats.Msg) {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// onPlayer handles a message on the player's own subjects: a turn or a game notice.
func (c *conn) onPlayer(m *nats.Msg) {
	if c.leaving.Load() {
		return
	}
	switch {
	case strings.HasSuffix(m.Subject, ".turn"):
		c.onTurn(m)
	case strings.HasSuffix(m.Subject, ".game"):
		c.onNotice(m)
	}
}

func (c *conn) onNotice(m *nats.Msg) {
	n, err := protocol.DecodeGameNotice(m.Data)
	if err != nil {
		c.log.Warn().Err(err).Msg("ignoring malformed game notice")
		return
	}
	if n.Type != protocol.TypeGameEnd {
		return
	}
	c.out.printf("end %s %s", n.GameID, n.Reason)
	c.log.Info().Str("game_id", n.GameID).Str("reason", n.Reason).Str("result", n.Result).Msg("game ended")
	if c.cfg.mode != modeDisconnect {
		return
	}
	// Close here, in the handler, rather than in the hello loop: the sooner the server
	// forgets the subscriptions, the surer the next game finds the player gone.
	c.leaving.Store(true)
	c.nc.Close()
	close(c.left)
}

func (c *conn) onTurn(m *nats.Msg) {
	req, err := protocol.DecodeTurnRequest(m.Data)
	if err != nil {
		c.log.Warn().Err(err).Msg("ignoring malformed turn request")
		return
	}
	c.out.printf("turn %s %d", req.GameID, req.Ply)
	log := c.log.With().Str("game_id", req.GameID).Int("ply", req.Ply).Int("seat", req.Seat).Logger()
	if len(req.Legal) == 0 {
		log.Warn().Msg("turn request without legal moves; not answering")
		return
	}
	mode := modeNone
	if c.applies(req) {
		mode = c.cfg.mode
	}
	switch mode {
	case modeCrash:
		log.Warn().Msg("crashing on purpose")
		os.Exit(crashStatus)
	case modeHang:
		log.Info().Msg("hanging on purpose: no reply")
		return
	}
	// Answer off the subscription's goroutine, so that a slow answer holds up no other
	// game and no notice.
	go c.answer(m, req, mode, log)
}

// applies reports whether the fault applies to req.
func (c *conn) applies(req protocol.TurnRequest) bool {
	if req.Ply < c.cfg.fromPly {
		return false
	}
	switch s := c.cfg.seat; {
	case s == "any":
		return true
	case s == strconv.Itoa(req.Seat):
		return true
	default:
		return strings.EqualFold(s, req.SeatName)
	}
}

// answer sends the reply to req that mode calls for.
func (c *conn) answer(m *nats.Msg, req protocol.TurnRequest, mode string, log zerolog.Logger) {
	right := protocol.TurnReply{V: protocol.Version, Type: protocol.TypeMove, GameID: req.GameID, Ply: req.Ply, Move: req.Legal[0]}
	send := func(data []byte, what string) {
		if err := m.Respond(data); err != nil {
			log.Warn().Err(err).Str("reply", what).Msg("reply not sent")
			return
		}
		log.Debug().Str("reply", what).Int("bytes", len(data)).Msg("reply sent")
	}
	switch mode {
	case modeSlow:
		time.Sleep(c.cfg.slow)
		send(protocol.Encode(right), "slow")
	case modeGarbage:
		send([]byte("\x00\xffthis is not JSON {{{"), "garbage")
	case modeOversize:
		data := protocol.Encode(right)
		pad := make([]byte, oversizeBytes-len(data))
		for i := range pad {
			pad[i] = ' '
		}
		send(append(data, pad...), "oversize")
	case modeIllegal:
		bad := right
		bad.Move = illegalMove(req)
		send(protocol.Encode(bad), "illegal "+bad.Move)
	case modeStale:
		send(protocol.Encode(staleReply(right)), "stale")
		time.Sleep(staleGap)
		send(protocol.Encode(right), "right after stale")
	case modeStaleOnly:
		send(protocol.Encode(staleReply(right)), "stale")
	default:
		send(protocol.Encode(right), "first legal")
	}
}

// staleReply turns a reply into one for another ply: the one before, as if it were the
// late answer to the previous turn, or ply 1 at ply 0 (a ply is never negative).
func staleReply(r protocol.TurnReply) protocol.TurnReply {
	if r.Ply > 0 {
		r.Ply--
	} else {
		r.Ply = 1
	}
	return r
}

// illegalMove returns a move that the rules know but that is not legal now: in Othello the
// first square already taken, which exists from the first move to the last. In other games
// it returns "z9", which is not a move at all.
func illegalMove(req protocol.TurnRequest) string {
	name, _, _ := strings.Cut(req.Game, ":")
	if name == "othello" && len(req.Position) >= 64 {
		for i := range 64 {
			if c := req.Position[i]; c == 'X' || c == 'O' {
				return string(rune('a'+i%8)) + strconv.Itoa(i/8+1)
			}
		}
	}
	return "z9"
}

// clip shortens s to the 64 bytes a hello field may hold.
func clip(s string) string {
	if len(s) > 64 {
		return s[:64]
	}
	return s
}
