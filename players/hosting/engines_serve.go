package hosting

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/bus"
	"github.com/arenaref/arena/protocol"
)

// Serve answers the subjects of submitted engines on nc until stop is called: players'
// submissions (arena.v1.engines.submit.*) and status requests (arena.v1.engines.status.*),
// and the host API (arena.v1.host.list, fetch, report). Every request is answered, a
// malformed one with a bad_request error. The player's name comes from the subject, never
// from the message: a secured bus lets a player publish only on its own.
func (e *Engines) Serve(ctx context.Context, nc *nats.Conn) (stop func(), err error) {
	log := e.cfg.Log
	respond := func(m *nats.Msg, reply any, err error) {
		var re *protocol.ReplyError
		switch {
		case errors.As(err, &re):
			reply = protocol.APIError(re.Code, "%s", re.Message)
		case err != nil:
			reply = protocol.APIError(protocol.APIInternal, "%v", err)
		}
		if err := m.Respond(protocol.Encode(reply)); err != nil {
			log.Warn().Err(err).Str("subject", m.Subject).Msg("cannot answer a request")
		}
	}
	// request decodes a JSON request of type want, or answers that it is malformed.
	request := func(m *nats.Msg, want string) (protocol.EngineRequest, bool) {
		req, err := protocol.DecodeEngineRequest(m.Data, want)
		if err != nil {
			respond(m, nil, refuse(protocol.APIBadRequest, "%v", err))
			return req, false
		}
		return req, true
	}
	handlers := map[string]nats.MsgHandler{
		protocol.SubjectEngineSubmitAll: func(m *nats.Msg) {
			name, _ := protocol.EngineSubjectName(m.Subject, true)
			r, err := e.Submit(ctx, name, m.Header.Get(protocol.HeaderArchiveName), m.Data)
			respond(m, r, err)
		},
		protocol.SubjectEngineStatusAll: func(m *nats.Msg) {
			name, _ := protocol.EngineSubjectName(m.Subject, false)
			if req, ok := request(m, protocol.TypeEngineStatus); ok {
				r, err := e.Status(ctx, name, req)
				respond(m, r, err)
			}
		},
		protocol.SubjectHostList: func(m *nats.Msg) {
			if req, ok := request(m, protocol.TypeHostList); ok {
				r, err := e.List(ctx, req)
				respond(m, r, err)
			}
		},
		protocol.SubjectHostReport: func(m *nats.Msg) {
			if req, ok := request(m, protocol.TypeHostReport); ok {
				r, err := e.Report(ctx, req)
				respond(m, r, err)
			}
		},
		protocol.SubjectHostFetch: func(m *nats.Msg) {
			req, ok := request(m, protocol.TypeHostFetch)
			if !ok {
				return
			}
			data, sha, err := e.Fetch(ctx, req)
			if err != nil {
				respond(m, nil, err)
				return
			}
			out := nats.NewMsg(m.Reply)
			out.Data = data
			out.Header.Set(protocol.HeaderArchiveSHA256, sha)
			if err := m.RespondMsg(out); err != nil {
				log.Warn().Err(err).Str("player", req.Name).Str("version", req.Version).Msg("cannot send an archive")
			}
		},
	}
	return bus.Subscribe(nc, handlers)
}

// ArchiveRoom is what a message carrying an archive needs beyond the archive: its headers
// and subject. A server whose max_payload is under protocol.MaxArchiveSize+ArchiveRoom
// refuses the largest archives.
const ArchiveRoom = 64 << 10

// drainWait bounds how long stopping waits for the answers still being sent.
const drainWait = 5 * time.Second

// ServeBus answers the subjects of submitted engines for the referee daemon on b (see
// Engines.Serve), on cfg (its Publish is the connection's). It has a connection of its
// own, so that an 8 MiB archive never queues in front of the games' turns, and warns
// when the server's max_payload is too small for archives. stop unsubscribes, drains and
// closes it.
func ServeBus(ctx context.Context, b *bus.Bus, cfg EnginesConfig) (stop func(), err error) {
	log := cfg.Log.With().Str("part", "engines").Logger()
	closed := make(chan struct{})
	nc, err := b.Connect("arena-referee-engines", log, nats.ClosedHandler(func(*nats.Conn) { close(closed) }))
	if err != nil {
		return nil, fmt.Errorf("engines: %w", err)
	}
	if limit := nc.MaxPayload(); limit < protocol.MaxArchiveSize+ArchiveRoom {
		log.Warn().Int64("max_payload", limit).Msgf("the NATS server takes messages of at most %d bytes: submitted engines need max_payload: %d in its configuration",
			limit, protocol.MaxArchiveSize+ArchiveRoom)
	}
	cfg.Publish, cfg.Log = nc.Publish, log
	eng := NewEngines(cfg)
	unsubscribe, err := eng.Serve(ctx, nc)
	if err != nil {
		nc.Close()
		return nil, err
	}
	return func() {
		unsubscribe()
		if nc.Drain() == nil {
			select {
			case <-closed:
			case <-time.After(drainWait):
				nc.Close()
			}
		}
	}, nil
}
