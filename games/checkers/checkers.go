package checkers

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/arenaref/arena/game"
)

// Names the two variants are registered under with the game package.
const (
	Name         = "checkers"
	GiveawayName = "giveaway"
)

// Seats, as game.Seat values: black moves first.
const (
	Black game.Seat = 0
	White game.Seat = 1
)

// DrawPlies is the draw rule: the game is drawn when this many plies in a row have been
// played without a capture or a move of a man (see Quiet and the package doc).
const DrawPlies = 80

// MaxPieces is the most pieces a side may have: the twelve it starts with.
const MaxPieces = 12

// Variant is a rule set: standard English checkers or give-away checkers. Both have the
// same moves; they differ in who wins when the side to move has none.
type Variant int

// The variants.
const (
	// Standard is English checkers: the side to move with no legal move loses.
	Standard Variant = iota
	// Giveaway is give-away (suicide, losing) checkers: the side to move with no legal
	// move wins.
	Giveaway
)

// String returns the name the variant is registered under: "checkers" or "giveaway".
func (v Variant) String() string {
	switch v {
	case Standard:
		return Name
	case Giveaway:
		return GiveawayName
	}
	return fmt.Sprintf("Variant(%d)", int(v))
}

func (v Variant) valid() bool { return v == Standard || v == Giveaway }

var seatNames = [2]string{"black", "white"}

// ErrAmbiguousMove is wrapped (with game.ErrBadMove) by State.ParseMove when a capture
// written with its first and last squares only ("15x31") matches more than one legal
// capture path.
var ErrAmbiguousMove = errors.New("checkers: ambiguous move")

func init() {
	for _, v := range []Variant{Standard, Giveaway} {
		game.Register(v.String(), func(opts game.Options) (game.Game, error) {
			if err := game.CheckOptions(opts); err != nil {
				return nil, err
			}
			return New(v), nil
		})
	}
}

// Game is one variant of checkers. Build one with New or through game.Lookup("checkers")
// or game.Lookup("giveaway").
type Game struct{ v Variant }

var _ game.Game = (*Game)(nil)

// New returns the game of variant v. It panics for a value that is not a Variant, which is
// a programming error.
func New(v Variant) *Game {
	if !v.valid() {
		panic(fmt.Sprintf("checkers: unknown variant %d", int(v)))
	}
	return &Game{v: v}
}

// Name returns the name the game is registered under: "checkers" or "giveaway".
func (g *Game) Name() string { return g.v.String() }

// Variant returns the game's variant.
func (g *Game) Variant() Variant { return g.v }

// Seats returns ["black", "white"].
func (g *Game) Seats() []string { return []string{seatNames[0], seatNames[1]} }

// NewState returns the initial position (a *State).
func (g *Game) NewState() game.State { return g.Initial() }

// Initial returns the initial position: Black men on 1-12, White men on 21-32, Black to
// move.
func (g *Game) Initial() *State {
	return &State{pieces: [2]uint32{0x00000fff, 0xfff00000}, side: uint8(Black), variant: uint8(g.v)}
}

// ParseState reads a position in the notation of State.String (a *State).
func (g *Game) ParseState(text string) (game.State, error) {
	s, err := g.Parse(text)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// State is a checkers position: the pieces, the side to move, the draw counter, the
// variant and the number of plies played. It is a small value with no pointers inside:
// copying it (c := *s) is a complete, allocation-free clone, so searches can keep a stack
// of States.
type State struct {
	pieces  [2]uint32 // by colour; bit i-1 is square i
	kings   uint32    // which of the pieces are kings
	side    uint8     // the colour to move, also once the game is over
	variant uint8
	quiet   uint8 // plies since the last capture or man move
	ply     int32
}

var _ game.State = (*State)(nil)

// FromPieces builds a position of variant v from the squares of each colour and the
// kings among them (bit i-1 for square i, as Pieces returns them) and the side to move.
// Its Ply and Quiet are 0. It returns an error wrapping game.ErrBadPosition when the
// colours overlap, a king is on an empty square, a side has more than twelve pieces, a
// man stands on the row where it would have been crowned, or v or side is unknown.
func FromPieces(v Variant, black, white, kings uint32, side game.Seat) (*State, error) {
	if !v.valid() {
		return nil, fmt.Errorf("%w: checkers: unknown variant %d", game.ErrBadPosition, int(v))
	}
	if side != Black && side != White {
		return nil, fmt.Errorf("%w: checkers: side to move %v is not black or white", game.ErrBadPosition, side)
	}
	if err := checkPieces(black, white, kings); err != nil {
		return nil, err
	}
	return &State{pieces: [2]uint32{black, white}, kings: kings, side: uint8(side), variant: uint8(v)}, nil
}

func checkPieces(black, white, kings uint32) error {
	if both := black & white; both != 0 {
		return fmt.Errorf("%w: checkers: square %d holds both colours", game.ErrBadPosition, lowSquare(both))
	}
	if lone := kings &^ (black | white); lone != 0 {
		return fmt.Errorf("%w: checkers: a king on empty square %d", game.ErrBadPosition, lowSquare(lone))
	}
	for c, p := range [2]uint32{black, white} {
		if n := bits.OnesCount32(p); n > MaxPieces {
			return fmt.Errorf("%w: checkers: %s has %d pieces, at most %d", game.ErrBadPosition, seatNames[c], n, MaxPieces)
		}
		if men := p &^ kings & crownRow[c]; men != 0 {
			return fmt.Errorf("%w: checkers: a %s man on square %d, where it would have been crowned",
				game.ErrBadPosition, seatNames[c], lowSquare(men))
		}
	}
	return nil
}

func lowSquare(x uint32) int { return bits.TrailingZeros32(x) + 1 }

// Pieces returns the squares of each colour and the kings among them: bit i-1 stands for
// square i.
func (s *State) Pieces() (black, white, kings uint32) { return s.pieces[0], s.pieces[1], s.kings }

// Side returns the colour whose turn it is, or was when the game ended. Unlike ToMove it
// never returns game.Terminal.
func (s *State) Side() game.Seat { return game.Seat(s.side) }

// Variant returns the position's variant.
func (s *State) Variant() Variant { return Variant(s.variant) }

// Game returns the game of the position's variant.
func (s *State) Game() *Game { return &Game{v: Variant(s.variant)} }

// Quiet returns the number of plies played since the last capture or move of a man: the
// draw counter, which ends the game in a draw when it reaches DrawPlies.
func (s *State) Quiet() int { return int(s.quiet) }

// view returns the position from seat's point of view.
func (s *State) view(seat game.Seat) pos {
	c := int(seat) & 1
	return pos{own: s.pieces[c], opp: s.pieces[1-c], kings: s.kings, colour: c}
}

// MovesOf appends to buf the legal moves seat would have in this position if it were to
// move, whoever is to move and whether or not the game is over (so also after the draw
// rule has ended it): its captures if it has any, else its simple moves. It is for
// evaluation features such as mobility; LegalMoves gives the moves of the game. It does
// not allocate when buf has room, and appends nothing for a seat other than Black or
// White.
func (s *State) MovesOf(seat game.Seat, buf []game.Move) []game.Move {
	if seat != Black && seat != White {
		return buf
	}
	p := s.view(seat)
	return p.appendMoves(buf)
}

// MustCapture reports whether the side to move has a capture, which it must then make.
func (s *State) MustCapture() bool {
	p := s.view(s.Side())
	return p.canCapture()
}

// ToMove returns the side to move, or game.Terminal when it has no legal move or the draw
// rule has ended the game.
func (s *State) ToMove() game.Seat {
	if s.IsTerminal() {
		return game.Terminal
	}
	return s.Side()
}

// IsTerminal reports whether the game is over: the side to move has no legal move (no
// pieces, or all blocked), or Quiet has reached DrawPlies.
func (s *State) IsTerminal() bool {
	if s.quiet >= DrawPlies {
		return true
	}
	p := s.view(s.Side())
	return !p.hasMove()
}

// LegalMoves appends the legal moves of seat: those of MovesOf for the side to move, and
// nothing for the other seat or once the game is over. It does not allocate when buf has
// room.
func (s *State) LegalMoves(seat game.Seat, buf []game.Move) []game.Move {
	if seat != s.Side() || s.quiet >= DrawPlies {
		return buf
	}
	return s.MovesOf(seat, buf)
}

// Play applies a move of the side to move, checking it against the rules: the piece is
// the mover's, it goes its way (men forward only), onto empty squares, over opponents'
// pieces, a capture when there is one, and a capture to its end. Errors wrap
// game.ErrGameOver or game.ErrIllegalMove, and leave the state unchanged. It does not
// allocate when the move is legal.
func (s *State) Play(m game.Move) error {
	if s.IsTerminal() {
		return fmt.Errorf("%w: checkers: move %s after the end", game.ErrGameOver, s.MoveString(m))
	}
	p := s.view(s.Side())
	r, why := p.check(m)
	if why != "" {
		return fmt.Errorf("%w: checkers: %s for %s: %s", game.ErrIllegalMove, s.MoveString(m), seatNames[s.side], why)
	}
	s.apply(r)
	return nil
}

// PlayJoint applies the entry of the side to move in moves, which must hold one move per
// seat. Checkers is sequential, so callers normally use Play.
func (s *State) PlayJoint(moves []game.Move) error {
	if len(moves) != 2 {
		return fmt.Errorf("%w: checkers: joint move has %d entries, want 2", game.ErrIllegalMove, len(moves))
	}
	return s.Play(moves[s.side&1])
}

// result is a checked move: where the piece went and what it took.
type result struct {
	from, to uint32 // single bits
	taken    uint32
	king     bool // the moving piece was a king before the move
}

// check validates m for the mover of p and returns what it does, or why it is illegal.
func (p *pos) check(m game.Move) (r result, why string) {
	from, n, dirs, ok := decode(m)
	if !ok {
		return r, "not a move"
	}
	r.from = 1 << uint(from)
	if p.own&r.from == 0 {
		return r, fmt.Sprintf("no piece of the side to move on %d", from+1)
	}
	r.king = p.kings&r.from != 0
	fw := forward[p.colour]
	if n == 0 {
		d := int(dirs)
		if !r.king && d != fw[0] && d != fw[1] {
			return r, "a man moves forward only"
		}
		t := neighbour[d][from]
		if t < 0 {
			return r, "off the board"
		}
		r.to = 1 << uint(t)
		if (p.own|p.opp)&r.to != 0 {
			return r, fmt.Sprintf("square %d is not empty", t+1)
		}
		if p.canCapture() {
			return r, "a capture is mandatory"
		}
		return r, ""
	}
	own, opp := p.own&^r.from, p.opp
	at := from
	for k := range n {
		d := int(dirs >> (2 * uint(k)) & 3)
		if !r.king && d != fw[0] && d != fw[1] {
			return r, "a man captures forward only"
		}
		mid, land := neighbour[d][at], leap[d][at]
		if land < 0 {
			return r, "a jump off the board"
		}
		if opp&(1<<uint(mid)) == 0 {
			return r, fmt.Sprintf("no piece of the opponent to take on %d", mid+1)
		}
		if (own|opp)&(1<<uint(land)) != 0 {
			return r, fmt.Sprintf("square %d is not empty", land+1)
		}
		if !r.king && crownRow[p.colour]&(1<<uint(land)) != 0 && k < n-1 {
			return r, "a man that is crowned ends its move"
		}
		opp &^= 1 << uint(mid)
		r.taken |= 1 << uint(mid)
		at = int(land)
	}
	r.to = 1 << uint(at)
	if !r.king && crownRow[p.colour]&r.to != 0 {
		return r, ""
	}
	q := pos{own: own | r.to, opp: opp, kings: p.kings, colour: p.colour}
	if r.king {
		q.kings |= r.to
	}
	if q.jumpsFrom(at) {
		return r, fmt.Sprintf("the capture goes on from %d", at+1)
	}
	return r, ""
}

// jumpsFrom reports whether the piece on index i can jump.
func (p *pos) jumpsFrom(i int) bool {
	bit := uint32(1) << uint(i)
	isKing := p.kings&bit != 0
	empty := ^(p.own | p.opp)
	for d := range 4 {
		if !isKing && d != forward[p.colour][0] && d != forward[p.colour][1] {
			continue
		}
		mid, land := neighbour[d][i], leap[d][i]
		if land >= 0 && p.opp&(1<<uint(mid)) != 0 && empty&(1<<uint(land)) != 0 {
			return true
		}
	}
	return false
}

// apply plays a checked move of the side to move.
func (s *State) apply(r result) {
	c := s.side & 1
	s.pieces[c] = s.pieces[c]&^r.from | r.to
	s.pieces[1-c] &^= r.taken
	s.kings &^= r.taken
	switch {
	case r.king:
		s.kings = s.kings&^r.from | r.to
	case crownRow[c]&r.to != 0:
		s.kings |= r.to
	}
	if r.taken != 0 || !r.king {
		s.quiet = 0
	} else {
		s.quiet++
	}
	s.side ^= 1
	s.ply++
}

// Returns appends the result of each seat, indexed by seat: once the game is over, +1
// for the winner and -1 for the loser, or 0 each for a draw. In standard checkers the side
// to move with no legal move loses; in give-away it wins. A game ended by the draw rule
// is a draw. Zeros while the game is on.
func (s *State) Returns(buf []float64) []float64 {
	p := s.view(s.Side())
	if p.hasMove() {
		// The game is on, or drawn by the draw rule.
		return append(buf, 0, 0)
	}
	moverWins := Variant(s.variant) == Giveaway
	if moverWins == (s.Side() == Black) {
		return append(buf, 1, -1)
	}
	return append(buf, -1, 1)
}

// Ply returns the number of moves played since the initial position or since the
// position was parsed or built: the text form does not carry it.
func (s *State) Ply() int { return int(s.ply) }

// Clone returns an independent copy (a *State).
func (s *State) Clone() game.State {
	c := *s
	return &c
}
