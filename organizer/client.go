package organizer

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/auth"
	"github.com/arenaref/arena/bus"
	"github.com/arenaref/arena/protocol"
)

// APITimeout bounds every request to a referee daemon.
const APITimeout = 15 * time.Second

// Client asks a referee daemon's API (Daemon.Serve) over the bus: arena submit, status,
// cancel and players. Its errors say what to do: start a referee, use other credentials.
type Client struct {
	URL         string        // the NATS server's URL
	Options     []nats.Option // the connection's credentials, if any
	Credentials *auth.File    // whose they are, for the errors; nil without
}

// Call connects, sends one API request to subject and waits for the answer, within
// APITimeout. An API error is returned with its reply.
func (c Client) Call(ctx context.Context, subject string, req protocol.APIRequest) (protocol.APIReply, error) {
	ctx, cancel := context.WithTimeout(ctx, APITimeout)
	defer cancel()
	// A request the server's permissions refuse is never answered: stop waiting at once.
	ctx, refuse := context.WithCancelCause(ctx)
	defer refuse(nil)
	opts := append([]nats.Option{nats.ErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		if errors.Is(err, nats.ErrPermissionViolation) {
			refuse(err)
		}
	})}, c.Options...)
	nc, err := bus.Connect(c.URL, "arena-client", zerolog.Nop(), opts...)
	if err != nil {
		return protocol.APIReply{}, auth.ExplainConnect(c.URL, err, c.Credentials)
	}
	defer nc.Close()
	reply, err := Ask(ctx, nc, c.URL, subject, req)
	if cause := context.Cause(ctx); errors.Is(cause, nats.ErrPermissionViolation) {
		who := "these credentials"
		if f := c.Credentials; f != nil {
			who = f.Role + " " + f.Name
		}
		return protocol.APIReply{}, fmt.Errorf("the server does not let %s use the referee's API (%v); use an admin's credentials (arena credentials add NAME --role admin)", who, cause)
	}
	return reply, err
}

// Ask sends one API request over nc, connected to url, and waits for the answer until
// ctx is done. No referee listening, an answer that does not decode and an API error are
// errors, the last one returned with its reply.
func Ask(ctx context.Context, nc *nats.Conn, url, subject string, req protocol.APIRequest) (protocol.APIReply, error) {
	msg, err := nc.RequestWithContext(ctx, subject, protocol.Encode(req))
	switch {
	case errors.Is(err, nats.ErrNoResponders):
		return protocol.APIReply{}, fmt.Errorf("no referee is running on %s (start one with: arena referee --nats %s --db FILE)", url, url)
	case err != nil:
		return protocol.APIReply{}, fmt.Errorf("ask the referee on %s: %w", url, err)
	}
	reply, err := protocol.DecodeAPIReply(msg.Data)
	if err != nil {
		return protocol.APIReply{}, fmt.Errorf("the referee's answer: %w", err)
	}
	if reply.Type == protocol.TypeAPIError {
		return reply, fmt.Errorf("%s (%s)", reply.Message, reply.Error)
	}
	return reply, nil
}
