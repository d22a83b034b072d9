// Package local plays games between agents in one process, with no NATS and no referee:
// for research runs that need many games fast (arena experience run) and for tests. The
// agents see what they would see over NATS: a Turn for each move with the position, the
// legal moves and the moves so far, and, for agents that learn (agent.Learner), the
// game_start and game_end notices with the result, so a learning agent learns the same
// way in both.
//
// There is no clock: an agent gets as long as it takes. A move that is not legal, or an
// agent's error, ends the match with an error rather than a forfeit, since in-process
// agents are Arena's own code.
package local

import (
	"context"
	"errors"
	"fmt"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/protocol"
)

// Player is an agent with the name its opponents and notices know it by.
type Player struct {
	Name  string
	Agent agent.Agent
}

// Result is a finished game.
type Result struct {
	Final   game.State
	Moves   []string
	Returns []float64
	// Info is what each move's agent said about it, by ply (nil where it said nothing).
	Info []*protocol.SearchInfo
}

// ErrNotSequential is returned for games with simultaneous moves.
var ErrNotSequential = errors.New("local: only games with one mover at a time are played")

// Play plays one game of g from start (nil: the game's initial position), seat i played
// by seats[i], and returns it finished. gameID names the game in turns and notices.
func Play(ctx context.Context, g game.Game, start game.State, seats []Player, gameID string) (Result, error) {
	if start == nil {
		start = g.NewState()
	}
	if len(seats) != len(g.Seats()) {
		return Result{}, fmt.Errorf("local: %d players for %d seats", len(seats), len(g.Seats()))
	}
	names := make([]string, len(seats))
	for i, p := range seats {
		names[i] = p.Name
	}
	s := start.Clone()
	notice := protocol.GameNotice{V: protocol.Version, GameID: gameID, Game: g.Name(), Players: names, Position: s.String()}
	for i, p := range seats {
		if l, ok := p.Agent.(agent.Learner); ok {
			n := notice
			n.Type, n.Seat = protocol.TypeGameStart, i
			l.GameStarted(n)
		}
	}
	var res Result
	var legal []game.Move
	for {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		seat := s.ToMove()
		if seat == game.Terminal {
			break
		}
		if seat == game.Simultaneous {
			return res, ErrNotSequential
		}
		legal = s.LegalMoves(seat, legal[:0])
		t := agent.Turn{GameID: gameID, Game: g, State: s.Clone(), Seat: seat, Legal: append([]game.Move(nil), legal...), Moves: res.Moves}
		d, err := seats[seat].Agent.Choose(ctx, t)
		if err != nil {
			return res, fmt.Errorf("local: %s: %w", seats[seat].Name, err)
		}
		if d.Resign || d.NoReply || d.Raw != "" {
			return res, fmt.Errorf("local: %s resigned or did not answer", seats[seat].Name)
		}
		text := s.MoveString(d.Move)
		if err := s.Play(d.Move); err != nil {
			return res, fmt.Errorf("local: %s played %s: %w", seats[seat].Name, text, err)
		}
		res.Moves = append(res.Moves, text)
		info := d.Info
		if info.Depth == 0 && info.Nodes == 0 && info.Score == 0 && info.PV == nil && info.Note == "" {
			res.Info = append(res.Info, nil)
		} else {
			res.Info = append(res.Info, &info)
		}
	}
	res.Final = s
	res.Returns = s.Returns(nil)
	end := notice
	end.Type, end.Position, end.Moves, end.Returns = protocol.TypeGameEnd, s.String(), res.Moves, res.Returns
	end.Result, end.Reason = resultText(res.Returns), protocol.ReasonNormal
	for i, p := range seats {
		if l, ok := p.Agent.(agent.Learner); ok {
			n := end
			n.Seat = i
			l.GameEnded(n)
		}
	}
	return res, nil
}

// resultText writes two-seat returns as "1-0", "0-1" or "1/2-1/2".
func resultText(r []float64) string {
	if len(r) != 2 {
		return ""
	}
	switch {
	case r[0] > r[1]:
		return "1-0"
	case r[0] < r[1]:
		return "0-1"
	}
	return "1/2-1/2"
}
