package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/protocol"
)

// LineVersion is the version of the line protocol this package speaks, sent as "arena 1".
const LineVersion = 1

// maxPV is the longest principal variation kept from an info line: the referee refuses
// longer ones.
const maxPV = 256

// lineProtocol registers the line protocol: every game, no settings.
var lineProtocol = Protocol{Name: "line", New: func(Settings) Dialect { return NewLine() }}

// NewLine returns the Dialect of Arena's own line protocol, version 1, as docs/engines.md
// describes it.
//
// What the bridge accepts from the engine, beyond the exact spelling of the spec: any run
// of white space separates words and surrounds a line; the keywords "ready", "info" and
// "resign" are taken in any case, as moves are; a move is read with the position's
// ParseMove (so "D3" is "d3") and must be alone on its line. Empty lines and lines whose
// first word starts with "#" are skipped everywhere; "info" lines are skipped while waiting
// for "ready". In info lines the keys depth, nodes, score and pv are read, any other word
// is skipped, and a value that does not parse is ignored rather than held against the move.
//
// The time line gives the engine the time it really has: the move time less what the
// bridge keeps back for the reply's way to the referee (the turn's deadline), and the
// remaining time less the same amount.
//
// An engine that sends "feature fence" before "ready" gets fenced turns: each turn's go is
// preceded by "ping N" (N counting up from 1), which the engine answers "pong N". Whatever
// it wrote before that pong answers nothing being asked now and is read away; after it,
// the answer is the line "move M" (or "resign"), and any other line is stray output,
// skipped and logged, never judged. That is the fence: stale output of an earlier turn and
// a stray debug line cost nothing.
//
// An engine without the fence answers with the bare move, and every line that is not
// info or a comment is its answer. An answer that comes after its turn ran out of time
// is not taken for the next turn's: the dialect counts the answers still owed to earlier
// go commands and drops that many before it reads the current one, as an engine answers
// its go commands in order. An answer that was no move at all (a stray line) is taken to
// be followed by the real one, which Settle reads away.
func NewLine() Dialect { return &lineDialect{} }

type lineDialect struct {
	// fenced is set when the engine asked for fenced turns with "feature fence".
	fenced bool
	// ping is the number of the last "ping N" sent to a fenced engine.
	ping int
	// stale is what a fenced engine sent before the pong of the turns since takeStale.
	stale Stale
	// owed counts the go commands whose answers have not been read: more than 1 while the
	// current turn waits, when earlier turns ran out of time. Engines without the fence only.
	owed int
	// junk is set when the last answer judged was no move at all, from an engine without
	// the fence: its real answer may still follow. Settle waits junkWait for it, and the
	// bridge's fence before the next turn takes it (expected) if it comes later.
	junk bool
}

// junkWait is how long Settle waits for the real answer after an answer that was no move
// at all (a stray debug line): long enough for the usual "debug line, then the move", short
// enough that the engine's next game, waiting meanwhile, keeps its time.
const junkWait = 100 * time.Millisecond

// lineFeatureFence is the feature an engine asks for to get fenced turns.
const lineFeatureFence = "fence"

func (d *lineDialect) Name() string { return "line" }

// Start sends "arena 1" and waits for "ready", taking the name and version that follow it.
func (d *lineDialect) Start(ctx context.Context, c LineConn) (Identity, error) {
	var tr transcript
	if err := c.Send("arena " + strconv.Itoa(LineVersion)); err != nil {
		return Identity{}, tr.fail("", err, "could not send the handshake: %v", err)
	}
	for {
		line, err := c.Recv(ctx)
		if err != nil {
			return Identity{}, tr.recvFail(line, err, `"ready"`)
		}
		tr.add(line)
		words := strings.Fields(line)
		if skipLine(words) || strings.EqualFold(words[0], "info") {
			continue
		}
		if strings.EqualFold(words[0], "feature") {
			// Features this bridge does not know are skipped: an engine may offer more.
			for _, f := range words[1:] {
				d.fenced = d.fenced || strings.EqualFold(f, lineFeatureFence)
			}
			continue
		}
		if !strings.EqualFold(words[0], "ready") {
			return Identity{}, tr.fail(line, ErrProtocol, `the engine must answer "arena 1" with "ready" (optionally followed by its name and version)`)
		}
		var id Identity
		if len(words) > 1 {
			id.Name = words[1]
		}
		if len(words) > 2 {
			id.Version = strings.Join(words[2:], " ")
		}
		return id, nil
	}
}

// NewGame sends "newgame GAME SEAT", with the seat's name.
func (d *lineDialect) NewGame(ctx context.Context, c LineConn, g game.Game, seat game.Seat) error {
	seats := g.Seats()
	if seat < 0 || int(seat) >= len(seats) {
		return fmt.Errorf("engine: seat %d is not a seat of %s", seat, g.Name())
	}
	return c.Send("newgame " + g.Name() + " " + seats[seat])
}

// Move sends position, moves, legal, time (and, to a fenced engine, ping) and go, then
// reads the answer: info lines are kept as the move's search info, and the first other
// line (not empty, not a comment) is judged. For a fenced engine, the lines before the
// turn's pong are read away (see takeStale), and after it only "move M" or "resign" is an
// answer: any other line is stray, and read away too.
func (d *lineDialect) Move(ctx context.Context, c LineConn, t agent.Turn) (agent.Decision, error) {
	var (
		no   agent.Decision
		tr   transcript
		info protocol.SearchInfo
	)
	if t.State == nil || len(t.Legal) == 0 {
		return no, errors.New("engine: a turn without a position or legal moves")
	}
	legal := make([]string, len(t.Legal))
	for i, m := range t.Legal {
		legal[i] = t.State.MoveString(m)
	}
	move, remaining, inc := lineClock(ctx, t)
	cmds := []string{
		"position " + t.State.String(),
		strings.TrimSpace("moves " + strings.Join(t.Moves, " ")),
		"legal " + strings.Join(legal, " "),
		fmt.Sprintf("time %d %d %d", move, remaining, inc),
	}
	pong := ""
	if d.fenced {
		d.ping++
		cmds = append(cmds, "ping "+strconv.Itoa(d.ping))
		pong = "pong " + strconv.Itoa(d.ping)
	}
	for _, cmd := range append(cmds, "go") {
		if err := c.Send(cmd); err != nil {
			return no, tr.fail("", err, "could not send the turn: %v", err)
		}
	}
	if !d.fenced {
		d.owed++
		d.junk = false // past the fence: a line now is this turn's answer
	}
	for {
		line, err := c.Recv(ctx)
		if err != nil && !errors.Is(err, ErrLineTooLong) {
			if pong != "" {
				return no, tr.recvFail(line, err, fmt.Sprintf("%q", pong))
			}
			return no, tr.recvFail(line, err, "move")
		}
		tooLong := err != nil
		if pong != "" {
			// Before the fence: nothing of this turn's yet.
			if !tooLong && strings.Join(strings.Fields(line), " ") == pong {
				pong = ""
			} else {
				d.stale.add(line)
			}
			continue
		}
		tr.add(line)
		words := strings.Fields(line)
		switch {
		case len(words) == 0 && !tooLong, len(words) > 0 && strings.HasPrefix(words[0], "#"):
			continue
		case len(words) > 0 && strings.EqualFold(words[0], "info"):
			if !tooLong { // an overlong info line is dropped whole
				parseInfo(&info, words[1:], t.State)
			}
			continue
		}
		if d.fenced {
			switch {
			case tooLong || !(strings.EqualFold(words[0], "move") || strings.EqualFold(words[0], "resign")):
				d.stale.add(line) // stray output: never an answer
				continue
			case strings.EqualFold(words[0], "move"):
				if len(words) == 1 {
					return no, tr.fail(line, fmt.Errorf("%w: no move after the word move", game.ErrBadMove), "not a move: the word move must be followed by the move")
				}
				words = words[1:]
			}
			return judgeLine(t, line, words, info, tr)
		}
		if d.owed > 1 {
			// The late answer to an earlier turn; what the engine said about that search
			// goes with it.
			d.owed--
			info = protocol.SearchInfo{}
			continue
		}
		d.owed = 0
		if tooLong {
			d.junk = true
			return no, tr.fail(line+"...", err, "a line longer than %d bytes", MaxLineLen)
		}
		dec, err := judgeLine(t, line, words, info, tr)
		d.junk = errors.Is(err, game.ErrBadMove) && !errors.Is(err, game.ErrIllegalMove)
		return dec, err
	}
}

// takeStale returns what a fenced engine sent outside its answers (before the pong of a
// turn, and stray lines after it) since the last call, for the bridge to log once.
func (d *lineDialect) takeStale() Stale {
	st := d.stale
	d.stale = Stale{}
	return st
}

// expected reports whether line, read at the fence before a turn, is the real answer that
// may follow an answer that was no move at all (see junk): the one line after it that is
// not chatter. It is read away then without the engine being taken to write out of turn.
func (d *lineDialect) expected(line string) bool {
	if !d.junk || d.chatter(line) {
		return false
	}
	d.junk = false
	return true
}

// chatter reports whether line is one the engine may send at any time without it being
// taken for anything: empty, a comment, or info. The bridge's fence reads such lines away
// without calling them stale, or restarting an engine without the fence for them.
func (d *lineDialect) chatter(line string) bool {
	words := strings.Fields(line)
	return skipLine(words) || strings.EqualFold(words[0], "info")
}

// unfenced reports whether the engine has no fence: output it sent between turns cannot
// be told from its next answer, so the bridge restarts it rather than risk that.
func (d *lineDialect) unfenced() bool { return !d.fenced }

// judgeLine reads the engine's answer: a legal move, alone on its line, or resign.
func judgeLine(t agent.Turn, line string, words []string, info protocol.SearchInfo, tr transcript) (agent.Decision, error) {
	var no agent.Decision
	if strings.EqualFold(words[0], "resign") && len(words) == 1 {
		return agent.Decision{Resign: true, Info: info}, nil
	}
	if len(words) > 1 {
		return no, tr.fail(line, fmt.Errorf("%w: more than one word", game.ErrBadMove),
			"not a move: the answer must be one move (or resign) alone on its line")
	}
	m, err := t.State.ParseMove(words[0])
	if err != nil {
		if !errors.Is(err, game.ErrBadMove) {
			err = fmt.Errorf("%w: %v", game.ErrBadMove, err)
		}
		return no, tr.fail(line, err, "not a move in %s notation (%v)", t.Game.Name(), err)
	}
	if !slices.Contains(t.Legal, m) {
		legal := make([]string, len(t.Legal))
		for i, l := range t.Legal {
			legal[i] = t.State.MoveString(l)
		}
		return no, tr.fail(line, game.ErrIllegalMove, "%s is not a legal move here; the legal moves are %s",
			t.State.MoveString(m), strings.Join(legal, " "))
	}
	return agent.Decision{Move: m, Info: info}, nil
}

// settleQuiet is how long an engine without the fence must stay silent, once it has
// given the answers it owed, for Settle to take it as having stopped talking.
const settleQuiet = 30 * time.Millisecond

// Settle brings the engine back in step after a turn that went wrong. A fenced engine is
// sent "ping N" and must answer "pong N"; what comes before is read away. An engine
// without the fence has no ping: Settle reads away the answers still owed to go commands
// that ran out of time (and, after an answer that was no move at all, the real answer
// when it comes within ctx), then the engine must stay quiet for settleQuiet. One that
// goes on writing is talking out of turn, and is unresponsive, as is one still thinking
// when ctx ends.
func (d *lineDialect) Settle(ctx context.Context, c LineConn) (Stale, error) {
	var st Stale
	if d.fenced {
		d.ping++
		pong := "pong " + strconv.Itoa(d.ping)
		if err := c.Send("ping " + strconv.Itoa(d.ping)); err != nil {
			return st, err
		}
		for {
			line, err := c.Recv(ctx)
			switch {
			case err == nil && strings.Join(strings.Fields(line), " ") == pong:
				return st, nil
			case err == nil, errors.Is(err, ErrLineTooLong):
				st.add(line)
			default:
				return st, fmt.Errorf("no %q: %w", pong, err)
			}
		}
	}
	for d.owed > 0 || d.junk {
		wait, cancel := ctx, context.CancelFunc(func() {})
		if d.owed == 0 {
			wait, cancel = context.WithTimeout(ctx, junkWait)
		}
		line, err := c.Recv(wait)
		cancel()
		if err != nil && !errors.Is(err, ErrLineTooLong) {
			if d.owed == 0 && errors.Is(err, context.DeadlineExceeded) {
				return st, nil // the real answer did not come yet: the fence takes it if it does
			}
			return st, fmt.Errorf("no answer to the go that ran out of time: %w", err)
		}
		st.add(line)
		if words := strings.Fields(line); err == nil && (skipLine(words) || strings.EqualFold(words[0], "info")) {
			continue
		}
		if d.owed > 0 {
			d.owed--
		} else {
			d.junk = false
		}
	}
	return st, quiet(ctx, c, &st)
}

// quiet waits settleQuiet for the engine to stay silent. A line in that time is output
// out of turn: it is added to st, and quiet fails, as it does when ctx ends first.
func quiet(ctx context.Context, c LineConn, st *Stale) error {
	wait, cancel := context.WithTimeout(ctx, settleQuiet)
	line, err := c.Recv(wait)
	cancel()
	switch {
	case err == nil, errors.Is(err, ErrLineTooLong):
		st.add(line)
		return fmt.Errorf("the engine went on writing after its answer (%q): it is restarted, since without the fence its next line could not be told from an answer", clipQuote(line))
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		return nil
	case ctx.Err() != nil:
		return fmt.Errorf("the engine was still busy when its grace ended: %w", ctx.Err())
	}
	return err
}

// GameOver sends "gameover RESULT REASON".
func (d *lineDialect) GameOver(ctx context.Context, c LineConn, n protocol.GameNotice) error {
	return c.Send("gameover " + lineWord(n.Result, "*") + " " + lineWord(n.Reason, "unknown"))
}

// Quit sends "quit"; the engine answers nothing.
func (d *lineDialect) Quit(ctx context.Context, c LineConn) error { return c.Send("quit") }

// lineWord makes s one word of a command, or def when s is empty.
func lineWord(s, def string) string {
	if s = strings.Join(strings.Fields(s), "_"); s == "" {
		return def
	}
	return s
}

// skipLine reports whether a line of these words is to be ignored: empty, or a comment.
func skipLine(words []string) bool {
	return len(words) == 0 || strings.HasPrefix(words[0], "#")
}

// recvFail is the AnswerError for a Recv that failed while waiting for want (a noun:
// "move", `"ready"`).
func (t transcript) recvFail(line string, err error, want string) *AnswerError {
	switch {
	case errors.Is(err, ErrLineTooLong):
		return t.fail(line+"...", err, "a line longer than %d bytes", MaxLineLen)
	case errors.Is(err, context.DeadlineExceeded) && len(t) == 0:
		return t.fail("", err, "no %s in time (%s; if the engine prints an answer, it may not flush its output: to a pipe, standard output is block-buffered, so flush after each line, as with Python's print(..., flush=True) or C's fflush(stdout))", want, t.silence())
	case errors.Is(err, context.DeadlineExceeded):
		return t.fail("", err, "no %s in time (%s)", want, t.silence())
	case errors.Is(err, ErrExited):
		how := ""
		if ee := (*exitError)(nil); errors.As(err, &ee) && ee.how != "" {
			how = " (" + ee.how + ")"
		}
		return t.fail("", err, "the engine exited%s with no %s; %s", how, want, t.silence())
	}
	return t.fail("", err, "no %s: %v", want, err)
}

// lineClock returns the time line's values in milliseconds: the time until the turn's
// deadline (or ctx's, if earlier), never more than the move time; the remaining time less
// what the bridge keeps back, never less than the move's; and the increment.
func lineClock(ctx context.Context, t agent.Turn) (move, remaining, inc int64) {
	move = t.Clock.MoveMS
	deadline := t.Deadline
	if d, ok := ctx.Deadline(); ok && (deadline.IsZero() || d.Before(deadline)) {
		deadline = d
	}
	if !deadline.IsZero() {
		if left := time.Until(deadline).Milliseconds(); move <= 0 || left < move {
			move = max(left, 1)
		}
	}
	remaining = max(t.Clock.RemainingMS-(t.Clock.MoveMS-move), move)
	return move, remaining, max(t.Clock.IncrementMS, 0)
}

// parseInfo reads the words after "info" into info: later lines override what earlier
// ones said. pv takes the rest of the line; unknown words and bad values are skipped.
func parseInfo(info *protocol.SearchInfo, words []string, st game.State) {
	for i := 0; i < len(words); i++ {
		key := strings.ToLower(words[i])
		if key == "pv" {
			pv := words[i+1:]
			pv = pv[:min(len(pv), maxPV)]
			info.PV = make([]string, len(pv))
			for j, w := range pv {
				info.PV[j] = w
				if m, err := st.ParseMove(w); err == nil {
					info.PV[j] = st.MoveString(m)
				}
			}
			return
		}
		if i+1 == len(words) {
			return
		}
		v := words[i+1]
		switch key {
		case "depth":
			if n, err := strconv.Atoi(v); err == nil && n >= 0 {
				info.Depth, i = n, i+1
			}
		case "nodes":
			if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
				info.Nodes, i = n, i+1
			}
		case "score":
			if f, err := strconv.ParseFloat(v, 64); err == nil && !math.IsNaN(f) && !math.IsInf(f, 0) {
				info.Score, i = f, i+1
			}
		}
	}
}
