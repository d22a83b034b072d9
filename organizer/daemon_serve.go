package organizer

import (
	"context"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/bus"
	"github.com/arenaref/arena/protocol"
)

// Serve answers the referee's API on nc until stop is called: create, status, cancel and
// players (protocol.SubjectAPICreate and the others). Every request is answered, one that
// does not decode as its subject's type with a bad_request error. The handlers run with
// ctx, which should outlive a shutdown's grace (Shutdown), so that a request in flight is
// answered.
func (dm *Daemon) Serve(ctx context.Context, nc *nats.Conn) (stop func(), err error) {
	handlers := map[string]struct {
		want   string
		handle func(context.Context, protocol.APIRequest) protocol.APIReply
	}{
		protocol.SubjectAPICreate:  {protocol.TypeAPICreate, dm.Create},
		protocol.SubjectAPIStatus:  {protocol.TypeAPIStatus, dm.Status},
		protocol.SubjectAPICancel:  {protocol.TypeAPICancel, dm.Cancel},
		protocol.SubjectAPIPlayers: {protocol.TypeAPIPlayers, dm.Players},
	}
	subs := make(map[string]nats.MsgHandler, len(handlers))
	for subject, h := range handlers {
		subs[subject] = func(m *nats.Msg) {
			var reply protocol.APIReply
			if req, err := protocol.DecodeAPIRequest(m.Data, h.want); err != nil {
				reply = protocol.APIError(protocol.APIBadRequest, "%v", err)
			} else {
				reply = h.handle(ctx, req)
			}
			if err := m.Respond(protocol.Encode(reply)); err != nil {
				dm.log.Warn().Err(err).Str("subject", subject).Msg("cannot answer an API request")
			}
		}
	}
	return bus.Subscribe(nc, subs)
}
