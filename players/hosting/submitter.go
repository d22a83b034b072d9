package hosting

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/auth"
	"github.com/arenaref/arena/bus"
	"github.com/arenaref/arena/players/engine"
	"github.com/arenaref/arena/players/hosting/archive"
	"github.com/arenaref/arena/protocol"
)

const (
	// SubmitTimeout bounds a submission's request: the referee checks the archive first.
	SubmitTimeout = 30 * time.Second
	// StatusTimeout bounds a status request.
	StatusTimeout = 15 * time.Second
	// RunningWait is how long Wait waits, once the engine is built, to see it start
	// running (or fail to).
	RunningWait = 20 * time.Second
)

// ReadArchive reads the engine archive at path and checks it as its host will: it unpacks
// it into a temporary directory and reads its manifest there. A refusal says what is
// wrong with the archive.
func ReadArchive(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Size() > protocol.MaxArchiveSize {
		return nil, fmt.Errorf("%s is %d bytes, more than the limit of %d (8 MiB): leave out what the build makes, and data the engine does not need", path, st.Size(), protocol.MaxArchiveSize)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "arena-submit-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, "engine")
	if _, err := archive.Unpack(data, dir, archive.DefaultLimits); err != nil {
		return nil, refusedArchive(path, err)
	}
	m, err := archive.ReadManifest(dir, engine.Names())
	if err == nil {
		err = CheckEngineManifest(m)
	}
	if err != nil {
		return nil, refusedArchive(path, err)
	}
	return data, nil
}

func refusedArchive(path string, err error) error {
	return fmt.Errorf("%s is refused: %s", path, strings.TrimPrefix(err.Error(), archive.ErrRefused.Error()+": "))
}

// Submitter is a player's side of the submission service (Engines.Serve): it submits the
// player's engines, follows their states and asks for their status. Its errors say what
// to do: start a referee, use the player's own credentials, raise the server's
// max_payload.
type Submitter struct {
	url, player string
	nc          *nats.Conn
	refused     context.Context // cancelled with the permission violation that refused a request
	refuse      context.CancelCauseFunc
	events      *nats.Subscription
}

// NewSubmitter connects to the NATS server at url with opts, the credentials cred (nil
// without), as player.
func NewSubmitter(url, player string, opts []nats.Option, cred *auth.File) (*Submitter, error) {
	s := &Submitter{url: url, player: player}
	// A request the server's permissions refuse is never answered: stop waiting at once.
	s.refused, s.refuse = context.WithCancelCause(context.Background())
	opts = append([]nats.Option{nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		if errors.Is(err, nats.ErrPermissionViolation) {
			s.refuse(err)
		}
	})}, opts...)
	nc, err := bus.Connect(url, "arena-submit-engine", zerolog.Nop(), opts...)
	if err != nil {
		s.refuse(nil)
		return nil, auth.ExplainConnect(url, err, cred)
	}
	s.nc = nc
	return s, nil
}

// Close closes the connection.
func (s *Submitter) Close() {
	s.nc.Close()
	s.refuse(nil)
}

// withRefusal returns ctx, also cancelled when the server refuses a request.
func (s *Submitter) withRefusal(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(ctx)
	stop := context.AfterFunc(s.refused, func() { cancel(context.Cause(s.refused)) })
	return ctx, func() { stop(); cancel(nil) }
}

// explain says why err happened when the reason is the server's permissions or the
// referee's absence.
func (s *Submitter) explain(err error) error {
	switch cause := context.Cause(s.refused); {
	case err == nil:
	case errors.Is(cause, nats.ErrPermissionViolation):
		return fmt.Errorf("the server does not let these credentials use %s's engine subjects (%v): a player submits its own engine only", s.player, cause)
	case errors.Is(err, nats.ErrNoResponders):
		return fmt.Errorf("no referee is running on %s (start one with: arena referee --nats %s --db FILE)", s.url, s.url)
	}
	return err
}

// Submit sends data, the archive read from path, as the player's next version, and
// returns the referee's acceptance. From the first submission on, Wait follows the
// states of the player's submissions.
func (s *Submitter) Submit(ctx context.Context, path string, data []byte) (protocol.EngineReply, error) {
	if limit := s.nc.MaxPayload(); int64(len(data))+ArchiveRoom > limit {
		return protocol.EngineReply{}, fmt.Errorf("the NATS server at %s takes messages of at most %d bytes (its max_payload), and %s is %d bytes: set max_payload: %d in the server's configuration (arena credentials export writes it)",
			s.url, limit, path, len(data), protocol.MaxArchiveSize+ArchiveRoom)
	}
	if s.events == nil { // subscribed before the first submission, so that no state is missed
		events, err := s.nc.SubscribeSync(protocol.EngineEventSubject(s.player))
		if err != nil {
			return protocol.EngineReply{}, err
		}
		s.events = events
	}
	if err := s.nc.Flush(); err != nil {
		return protocol.EngineReply{}, s.explain(err)
	}
	msg := nats.NewMsg(protocol.EngineSubmitSubject(s.player))
	msg.Data = data
	if base := filepath.Base(path); protocol.CheckArchiveName(base) == nil {
		msg.Header.Set(protocol.HeaderArchiveName, base)
	}
	ctx, cancel := s.withRefusal(ctx)
	defer cancel()
	rctx, cancelRequest := context.WithTimeout(ctx, SubmitTimeout)
	answer, err := s.nc.RequestMsgWithContext(rctx, msg)
	cancelRequest()
	if err != nil {
		return protocol.EngineReply{}, s.explain(fmt.Errorf("submit to the referee on %s: %w", s.url, err))
	}
	r, err := protocol.DecodeEngineReply(answer.Data)
	var re *protocol.ReplyError
	switch {
	case errors.As(err, &re):
		return protocol.EngineReply{}, fmt.Errorf("the referee refused %s: %s (%s)", path, re.Message, re.Code)
	case err != nil:
		return protocol.EngineReply{}, fmt.Errorf("the referee's answer: %w", err)
	case r.Type != protocol.TypeEngineSubmitted:
		return protocol.EngineReply{}, fmt.Errorf("the referee answered %s, not %s", r.Type, protocol.TypeEngineSubmitted)
	}
	return r, nil
}

// Wait follows the states of the submitted version of name as they come, calling show with each,
// until it is running or failed (an error naming the failure, after show has the log), or
// built and not started within RunningWait, or wait has passed (an error).
func (s *Submitter) Wait(ctx context.Context, name, version string, wait time.Duration, show func(protocol.EngineEvent)) error {
	if s.events == nil {
		return errors.New("wait before a submission")
	}
	ctx, cancel := s.withRefusal(ctx)
	defer cancel()
	ctx, cancelWait := context.WithTimeout(ctx, wait)
	defer cancelWait()
	last := protocol.EngineSubmitted
	var built time.Time
	for {
		m, err := nextEvent(ctx, s.events, built)
		switch {
		case err == nil:
		case !built.IsZero() && ctx.Err() == nil:
			return nil // built, and the host has not started it (a newer version may have come)
		case errors.Is(context.Cause(ctx), context.DeadlineExceeded):
			return fmt.Errorf("still %s after %v: is a host running? (arena host); arena submit-engine --status shows how it goes on", last, wait)
		default:
			return s.explain(err)
		}
		ev, err := protocol.DecodeEngineEvent(m.Data)
		if err != nil || ev.Version != version {
			continue
		}
		last = ev.State
		show(ev)
		switch ev.State {
		case protocol.EngineBuildFailed, protocol.EngineRunFailed:
			return fmt.Errorf("%s %s: %s", name, version, strings.ReplaceAll(ev.State, "_", " "))
		case protocol.EngineBuilt:
			built = time.Now()
		case protocol.EngineRunning:
			return nil
		}
	}
}

// nextEvent waits for the next state, until ctx ends, or RunningWait after built.
func nextEvent(ctx context.Context, events *nats.Subscription, built time.Time) (*nats.Msg, error) {
	if !built.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, built.Add(RunningWait))
		defer cancel()
	}
	return events.NextMsgWithContext(ctx)
}

// Status returns the player's submissions, newest first.
func (s *Submitter) Status(ctx context.Context) ([]protocol.EngineSubmission, error) {
	ctx, cancel := s.withRefusal(ctx)
	defer cancel()
	ctx, cancelStatus := context.WithTimeout(ctx, StatusTimeout)
	defer cancelStatus()
	m, err := s.nc.RequestWithContext(ctx, protocol.EngineStatusSubject(s.player), protocol.Encode(protocol.EngineRequest{V: protocol.Version, Type: protocol.TypeEngineStatus}))
	if err != nil {
		return nil, s.explain(fmt.Errorf("ask the referee: %w", err))
	}
	r, err := protocol.DecodeEngineReply(m.Data)
	if err != nil {
		return nil, fmt.Errorf("the referee's answer: %w", err)
	}
	return r.Submissions, nil
}
