package main

import (
	"context"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/bus"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
)

// archiveRoom is what a message carrying an archive needs beyond the archive: its headers
// and subject.
const archiveRoom = 64 << 10

// drainWait bounds how long stopping waits for the answers still being sent.
const drainWait = 5 * time.Second

// serveEngines answers the subjects of submitted engines for the referee daemon: players'
// submissions and status requests, and the host API. It has a connection of its own, so
// that an 8 MiB archive never queues in front of the games' turns. stop unsubscribes and
// closes it.
func serveEngines(ctx context.Context, b *bus.Bus, db store.Submissions, log zerolog.Logger) (stop func(), err error) {
	log = log.With().Str("part", "engines").Logger()
	closed := make(chan struct{})
	nc, err := b.Connect("arena-referee-engines", log, nats.ClosedHandler(func(*nats.Conn) { close(closed) }))
	if err != nil {
		return nil, fmt.Errorf("engines: %w", err)
	}
	if limit := nc.MaxPayload(); limit < protocol.MaxArchiveSize+archiveRoom {
		log.Warn().Int64("max_payload", limit).Msgf("the NATS server takes messages of at most %d bytes: submitted engines need max_payload: %d in its configuration",
			limit, protocol.MaxArchiveSize+archiveRoom)
	}
	eng := organizer.NewEngines(organizer.EnginesConfig{Store: db, Publish: nc.Publish, Log: log})
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
