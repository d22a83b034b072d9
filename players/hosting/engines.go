package hosting

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"golang.org/x/time/rate"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/players/engine"
	"github.com/arenaref/arena/players/hosting/archive"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
)

// Limits of the referee's answers about submitted engines.
const (
	// StatusSubmissions is how many of a player's submissions an engine_status answers
	// with, newest first.
	StatusSubmissions = 20
	// ListAllSubmissions is the most submissions a host_list with all answers with.
	ListAllSubmissions = 2000
	// DefaultSubmitBurst and DefaultSubmitEvery bound how often one name may submit: so
	// many at once, then one every so often.
	DefaultSubmitBurst = 10
	DefaultSubmitEvery = 30 * time.Second
	// DefaultKeepVersions is how many of a player's newest submissions the referee keeps
	// (and the one a host runs, if older): at most 5 archives of 8 MiB a student, however
	// often they submit.
	DefaultKeepVersions = 5
	// maxLimiters bounds the names the rate limiter remembers; past it, it forgets them
	// all (an unsecured bus lets anyone invent names).
	maxLimiters = 10000
)

// EnginesConfig configures Engines.
type EnginesConfig struct {
	Store store.Submissions
	// Publish sends a message on the bus: the state changes of submissions. Its errors
	// are logged; nil publishes nothing.
	Publish func(subject string, data []byte) error
	Log     zerolog.Logger
	// SubmitBurst and SubmitEvery bound how often one name may submit; zero means
	// DefaultSubmitBurst and DefaultSubmitEvery.
	SubmitBurst int
	SubmitEvery time.Duration
	// KeepVersions is how many of a player's newest submissions are kept; older ones are
	// deleted as a new one comes, all but the newest that has not failed (a host runs
	// it). Zero means DefaultKeepVersions.
	KeepVersions int
}

// Engines answers the referee's subjects of submitted engines in protocol terms: a
// player's submissions and status requests, and a host's requests. The caller carries
// requests and answers over the bus. Every refusal is a *protocol.ReplyError, which the
// caller sends as the API's error reply.
type Engines struct {
	cfg EnginesConfig

	mu       sync.Mutex
	limiters map[string]*rate.Limiter
}

// NewEngines returns Engines on cfg.
func NewEngines(cfg EnginesConfig) *Engines {
	if cfg.SubmitBurst <= 0 {
		cfg.SubmitBurst = DefaultSubmitBurst
	}
	if cfg.SubmitEvery <= 0 {
		cfg.SubmitEvery = DefaultSubmitEvery
	}
	if cfg.KeepVersions <= 0 {
		cfg.KeepVersions = DefaultKeepVersions
	}
	return &Engines{cfg: cfg, limiters: map[string]*rate.Limiter{}}
}

func refuse(code, format string, args ...any) error {
	return &protocol.ReplyError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// checkArchive checks a submitted archive as its host will (every entry, and the
// manifest) and returns its manifest and the manifest's text, or an error wrapping
// archive.ErrRefused that says what to change.
func checkArchive(data []byte) (archive.Manifest, []byte, error) {
	text, _, err := archive.Inspect(data, archive.DefaultLimits)
	if err != nil {
		return archive.Manifest{}, nil, err
	}
	m, err := archive.ParseManifest(archive.ManifestName, text, engine.Names())
	if err == nil {
		err = CheckEngineManifest(m)
	}
	if err != nil {
		return archive.Manifest{}, nil, err
	}
	return m, text, nil
}

// CheckEngineManifest checks what a manifest says against this program: its protocol is
// registered, and its games are registered and played by the protocol (engine.Protocol).
func CheckEngineManifest(m archive.Manifest) error {
	proto, err := engine.Lookup(m.Protocol)
	if err != nil {
		return fmt.Errorf("%w: %s: protocol %v", archive.ErrRefused, archive.ManifestName, err)
	}
	for _, g := range m.Games {
		if _, err := game.Lookup(g); err != nil {
			return fmt.Errorf("%w: %s: game %q: %v", archive.ErrRefused, archive.ManifestName, g, err)
		}
		if err := proto.CheckGame(g); err != nil {
			return fmt.Errorf("%w: %s: %v", archive.ErrRefused, archive.ManifestName, err)
		}
	}
	return nil
}

// Submit stores a player's archive as its next version, once it is checked, and tells the
// player and the hosts.
func (e *Engines) Submit(ctx context.Context, name, archiveName string, data []byte) (protocol.EngineReply, error) {
	switch {
	case !protocol.ValidName(name):
		return protocol.EngineReply{}, refuse(protocol.APIBadRequest, "%q is no player name", name)
	case archiveName != "" && protocol.CheckArchiveName(archiveName) != nil:
		return protocol.EngineReply{}, refuse(protocol.APIBadRequest, "header %s: %v", protocol.HeaderArchiveName, protocol.CheckArchiveName(archiveName))
	case len(data) == 0:
		return protocol.EngineReply{}, refuse(protocol.APIBadRequest, "no archive: the request's body is the archive itself")
	case len(data) > protocol.MaxArchiveSize:
		return protocol.EngineReply{}, refuse(protocol.APITooLarge, "the archive is %d bytes, more than the limit of %d", len(data), protocol.MaxArchiveSize)
	}
	// Refused archives count too: checking one costs the referee more than storing it.
	if !e.allow(name) {
		return protocol.EngineReply{}, refuse(protocol.APIRateLimited, "%s sent %d engines in a row: one more is taken every %v", name, e.cfg.SubmitBurst, e.cfg.SubmitEvery)
	}
	_, text, err := checkArchive(data)
	if err != nil {
		return protocol.EngineReply{}, refuse(protocol.APIBadArchive, "%s", strings.TrimPrefix(err.Error(), archive.ErrRefused.Error()+": "))
	}
	s, err := e.cfg.Store.AddSubmission(ctx, store.Submission{Name: name, ArchiveName: archiveName, Archive: data, Manifest: string(text)})
	if err != nil {
		e.cfg.Log.Error().Err(err).Str("player", name).Msg("cannot store a submission")
		return protocol.EngineReply{}, refuse(protocol.APIInternal, "the submission could not be stored; see the referee's log")
	}
	e.cfg.Log.Info().Str("player", name).Str("version", protocol.EngineVersion(s.Version)).Int64("size", s.Size).Str("sha256", s.SHA256).Msg("engine submitted")
	if pruned, err := e.cfg.Store.PruneSubmissions(ctx, name, e.cfg.KeepVersions); err != nil {
		e.cfg.Log.Error().Err(err).Str("player", name).Msg("cannot delete old submissions")
	} else if len(pruned) > 0 {
		e.cfg.Log.Info().Str("player", name).Ints("versions", pruned).Int("kept", e.cfg.KeepVersions).Msg("old submissions deleted")
	}
	ev := event(s)
	e.publish(protocol.EngineEventSubject(name), ev)
	e.publish(protocol.SubjectHostNew, ev)
	return protocol.EngineReply{V: protocol.Version, Type: protocol.TypeEngineSubmitted, Name: name,
		Version: protocol.EngineVersion(s.Version), Size: s.Size, SHA256: s.SHA256}, nil
}

// allow takes one submission of name from its rate limit.
func (e *Engines) allow(name string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	l := e.limiters[name]
	if l == nil {
		if len(e.limiters) >= maxLimiters {
			e.limiters = map[string]*rate.Limiter{}
		}
		l = rate.NewLimiter(rate.Every(e.cfg.SubmitEvery), e.cfg.SubmitBurst)
		e.limiters[name] = l
	}
	return l.Allow()
}

// Status answers a player's engine_status: its latest submissions with their logs.
func (e *Engines) Status(ctx context.Context, name string, _ protocol.EngineRequest) (protocol.EngineReply, error) {
	subs, err := e.cfg.Store.Submissions(ctx, name, StatusSubmissions)
	if err != nil {
		return protocol.EngineReply{}, e.internal(err)
	}
	return list(subs, true), nil
}

// List answers a host's host_list: for every name, its latest submission and the newest
// one that has not failed (what a host runs), or with req.All every submission; without
// logs.
func (e *Engines) List(ctx context.Context, req protocol.EngineRequest) (protocol.EngineReply, error) {
	limit := 0
	if req.All {
		limit = ListAllSubmissions
	}
	subs, err := e.cfg.Store.Submissions(ctx, "", limit)
	if err != nil {
		return protocol.EngineReply{}, e.internal(err)
	}
	if req.All {
		return list(subs, false), nil
	}
	var keep []store.Submission
	latest, good := map[string]bool{}, map[string]bool{}
	for _, s := range subs { // newest first
		failed := s.State == store.SubmissionBuildFailed || s.State == store.SubmissionRunFailed
		switch {
		case !latest[s.Name]:
			latest[s.Name], good[s.Name] = true, !failed
		case !good[s.Name] && !failed:
			good[s.Name] = true
		default:
			continue
		}
		keep = append(keep, s)
	}
	return list(keep, false), nil
}

// Fetch answers a host's host_fetch: the archive and its SHA-256.
func (e *Engines) Fetch(ctx context.Context, req protocol.EngineRequest) ([]byte, string, error) {
	v, _ := protocol.ParseEngineVersion(req.Version) // checked by the decoder
	s, err := e.cfg.Store.Submission(ctx, req.Name, v)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, "", refuse(protocol.APINotFound, "%s has no submission %s", req.Name, req.Version)
	case err != nil:
		return nil, "", e.internal(err)
	}
	return s.Archive, s.SHA256, nil
}

// Report answers a host's host_report: it records the new state and tells the player.
func (e *Engines) Report(ctx context.Context, req protocol.EngineRequest) (protocol.EngineReply, error) {
	v, _ := protocol.ParseEngineVersion(req.Version)
	s, err := e.cfg.Store.SetSubmissionState(ctx, req.Name, v, req.State, req.Log)
	switch {
	case errors.Is(err, store.ErrNotFound):
		return protocol.EngineReply{}, refuse(protocol.APINotFound, "%s has no submission %s", req.Name, req.Version)
	case errors.Is(err, store.ErrInvalid):
		return protocol.EngineReply{}, refuse(protocol.APIBadRequest, "%v", err)
	case err != nil:
		return protocol.EngineReply{}, e.internal(err)
	}
	e.cfg.Log.Info().Str("player", s.Name).Str("version", protocol.EngineVersion(s.Version)).Str("state", s.State).Msg("engine state")
	e.publish(protocol.EngineEventSubject(s.Name), event(s))
	return list([]store.Submission{s}, true), nil
}

func (e *Engines) internal(err error) error {
	e.cfg.Log.Error().Err(err).Msg("submitted engines")
	return refuse(protocol.APIInternal, "the referee's database failed; see its log")
}

func (e *Engines) publish(subject string, ev protocol.EngineEvent) {
	if e.cfg.Publish == nil {
		return
	}
	if err := e.cfg.Publish(subject, protocol.Encode(ev)); err != nil {
		e.cfg.Log.Warn().Err(err).Str("subject", subject).Msg("cannot publish an engine's state")
	}
}

func event(s store.Submission) protocol.EngineEvent {
	return protocol.EngineEvent{V: protocol.Version, Type: protocol.TypeEngineState, Name: s.Name,
		Version: protocol.EngineVersion(s.Version), State: s.State, Log: s.Log, Time: s.Updated.UTC().Format(time.RFC3339Nano)}
}

// list makes an engine_list of submissions, with their logs or without.
func list(subs []store.Submission, logs bool) protocol.EngineReply {
	r := protocol.EngineReply{V: protocol.Version, Type: protocol.TypeEngineList}
	for _, s := range subs {
		ps := protocol.EngineSubmission{Name: s.Name, Version: protocol.EngineVersion(s.Version), State: s.State, Archive: s.ArchiveName,
			Size: s.Size, SHA256: s.SHA256, Created: s.Created.UTC().Format(time.RFC3339Nano), Updated: s.Updated.UTC().Format(time.RFC3339Nano)}
		if logs {
			ps.Log = s.Log
		}
		r.Submissions = append(r.Submissions, ps)
	}
	return r
}
