package web

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/store"
)

// replayed is the position text after every move of a game, with its drawing when the
// game draws, so the browser can draw any ply without knowing the game's rules.
type replayed struct {
	seats   []string
	start   string
	opening []string // after each opening move
	moves   []string // after each recorded move; the moves of one simultaneous ply share one
	err     string   // why the replay stopped early; positions after that are ""

	// The drawings of the same positions (drawingOf); all nil for a game that does not
	// draw.
	startDrawing    json.RawMessage
	openingDrawings []json.RawMessage
	moveDrawings    []json.RawMessage
}

// replay plays a game's opening and moves from its start position with the game's own
// rules. A game that cannot be replayed (an unknown game, a move the rules refuse) keeps
// the positions up to there and says why, rather than failing the whole request.
func replay(name, start string, opening []string, moves []store.Move) replayed {
	rp := replayed{start: start, opening: make([]string, len(opening)), moves: make([]string, len(moves)),
		openingDrawings: make([]json.RawMessage, len(opening)), moveDrawings: make([]json.RawMessage, len(moves))}
	g, err := lookupGame(name)
	if err != nil {
		rp.err = err.Error()
		return rp
	}
	rp.seats = g.Seats()
	st := g.NewState()
	if start != "" && start != st.String() {
		if st, err = g.ParseState(start); err != nil {
			rp.err = "start position: " + err.Error()
			return rp
		}
	}
	rp.start = st.String()
	rp.startDrawing = drawingOf(st)
	for i, text := range opening {
		if err := playText(st, strings.Split(text, ",")); err != nil {
			rp.err = fmt.Sprintf("opening move %d %q: %v", i+1, text, err)
			return rp
		}
		rp.opening[i] = st.String()
		rp.openingDrawings[i] = drawingOf(st)
	}
	for i := 0; i < len(moves); {
		n := 1
		texts := []string{moves[i].Move}
		if st.ToMove() == game.Simultaneous {
			// One entry per seat, in seat order, sharing the ply.
			texts = make([]string, len(rp.seats))
			for n = 0; i+n < len(moves) && moves[i+n].Ply == moves[i].Ply; n++ {
				if s := moves[i+n].Seat; s >= 0 && s < len(texts) {
					texts[s] = moves[i+n].Move
				}
			}
		}
		if err := playText(st, texts); err != nil {
			rp.err = fmt.Sprintf("ply %d %q: %v", moves[i].Ply, strings.Join(texts, ","), err)
			return rp
		}
		pos, drawing := st.String(), drawingOf(st)
		for j := range n {
			rp.moves[i+j], rp.moveDrawings[i+j] = pos, drawing
		}
		i += n
	}
	return rp
}

// playText plays one move, or a joint move of one text per seat when all seats move at once.
func playText(st game.State, texts []string) error {
	if st.ToMove() != game.Simultaneous {
		if len(texts) != 1 {
			return fmt.Errorf("%w: a joint move in a sequential game", game.ErrBadMove)
		}
		m, err := st.ParseMove(texts[0])
		if err != nil {
			return err
		}
		return st.Play(m)
	}
	joint := make([]game.Move, len(texts))
	for i, t := range texts {
		m, err := st.ParseMove(t)
		if err != nil {
			return err
		}
		joint[i] = m
	}
	return st.PlayJoint(joint)
}
