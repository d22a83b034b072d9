package game

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// The kinds of board a Drawing describes.
const (
	// BoardSquares is a grid of Width x Height cells, checkered; pieces stand in cells.
	BoardSquares = "squares"
	// BoardIntersections is a Go board: Width x Height points where lines cross; pieces
	// (stones) stand on the points.
	BoardIntersections = "intersections"
	// BoardHex is reserved for a grid of hexagons; Check refuses it for now.
	BoardHex = "hex"
)

// The kinds of Marker.
const (
	// MarkLast outlines the cell or point of the last move.
	MarkLast = "last"
	// MarkDot puts a small dot on a cell or point (a point of interest; on a piece, a dot
	// of the other colour).
	MarkDot = "dot"
	// MarkCross crosses out a cell or point (one that may not be played, such as a ko).
	MarkCross = "cross"
	// MarkLabel writes the marker's Label in the cell or point, small and muted (the
	// number of an empty square of checkers); small boards leave it out.
	MarkLabel = "label"
)

// The coordinates a Drawing's board may show around it (Drawing.Coords): the columns
// lettered a, b, c, ... from the left (no letter skipped), the rows numbered from 1.
const (
	// CoordsNone shows no coordinates.
	CoordsNone = ""
	// CoordsTop numbers the rows from the top: row 0 is 1, as Othello's ranks.
	CoordsTop = "top"
	// CoordsBottom numbers the rows from the bottom: row Height-1 is 1, as in chess,
	// gomoku and Go.
	CoordsBottom = "bottom"
)

// The directions of a Wall.
const (
	WallHorizontal = "h"
	WallVertical   = "v"
)

// Limits of a Drawing, which Check enforces.
const (
	// MaxDrawingSize is the largest Width and Height.
	MaxDrawingSize = 64
	// MaxDrawingSeats bounds a piece's Seat: 0 to MaxDrawingSeats-1 (a game file has at
	// most eight seats).
	MaxDrawingSeats = 8
	// MaxLabelLen is the most characters (runes) of a piece's or a marker's Label.
	MaxLabelLen = 3
	// MaxCoordsWidth is the widest board that may show coordinates: its columns are
	// lettered a to z, and there are no more letters.
	MaxCoordsWidth = 26
)

var (
	// ErrNoDrawing is returned (wrapped) by Draw when the position has no drawing (a game
	// file without a draw function): a page then shows the position's text.
	ErrNoDrawing = errors.New("game: no drawing")
	// ErrBadDrawing is wrapped by Drawing.Check's errors.
	ErrBadDrawing = errors.New("game: bad drawing")
)

// Drawing describes a position as a picture, for the web view, which draws any game
// from it without knowing the game's rules: a board, the pieces on it, markers and walls.
// It encodes to JSON with the field names of its tags; a game file's draw function
// returns the same keys as a dict (docs/games.md).
//
// Coordinates are At = [column, row], both from 0, column 0 at the left and row 0 at the
// top, on a board of Width columns and Height rows: of cells on a board of squares, of
// points on a board of intersections. What the page writes around the board is Coords's:
// nothing, or the columns lettered a, b, ... and the rows numbered from the top
// (CoordsTop) or from the bottom (CoordsBottom); a game sets the one its move text uses.
//
// ToMove is the seat to move, Terminal (-1) when the game is over, Simultaneous (-2)
// when all seats move at once. The rules know it: Draw sets it from the state's ToMove,
// whatever the state's own Draw (or a game file's draw) said.
//
// A drawing may come from an untrusted game file: Check says whether it is well formed.
type Drawing struct {
	Board   string   `json:"board"` // BoardSquares or BoardIntersections
	Width   int      `json:"width"`
	Height  int      `json:"height"`
	Coords  string   `json:"coords,omitempty"` // CoordsNone, CoordsTop or CoordsBottom
	ToMove  int      `json:"to_move"`          // set by Draw: State.ToMove
	Pieces  []Piece  `json:"pieces,omitempty"`
	Markers []Marker `json:"markers,omitempty"`
	Walls   []Wall   `json:"walls,omitempty"`
}

// Piece is a piece (a disc, a stone, a pawn) in a cell or on a point, drawn in its seat's
// colour: seat 0 dark, seat 1 light, other seats in other colours.
type Piece struct {
	At   [2]int `json:"at"`
	Seat int    `json:"seat"`
	// Label is written on the piece: empty, or 1 to MaxLabelLen printable characters,
	// such as "K" for a king.
	Label string `json:"label,omitempty"`
}

// Marker marks a cell or point: Kind is MarkLast, MarkDot, MarkCross or MarkLabel.
type Marker struct {
	At   [2]int `json:"at"`
	Kind string `json:"kind"`
	// Label is the text of a MarkLabel marker, 1 to MaxLabelLen printable characters
	// (as a piece's label), such as "12"; the other kinds have none.
	Label string `json:"label,omitempty"`
}

// Wall is a wall two cells long between the cells of a board of squares, as in Quoridor.
// At = [x, y] is a crossing of the grooves between cells: the corner shared by the
// cells (x, y), (x+1, y), (x, y+1) and (x+1, y+1), so x runs from 0 to Width-2 and y from
// 0 to Height-2. The wall's middle is that corner. Dir WallHorizontal ("h") lies in the
// groove between rows y and y+1, along columns x and x+1 (it parts (x, y) from (x, y+1)
// and (x+1, y) from (x+1, y+1)); WallVertical ("v") lies in the groove between columns x
// and x+1, along rows y and y+1.
type Wall struct {
	At  [2]int `json:"at"`
	Dir string `json:"dir"`
}

// Drawer is implemented by states that can draw themselves. Draw returns a drawing of the
// position that passes Check, or an error: one wrapping ErrNoDrawing when the position
// has none, one wrapping ErrRules when a game file's draw failed.
type Drawer interface {
	Draw() (Drawing, error)
}

// Draw draws s, when s is a Drawer, sets the drawing's ToMove from s.ToMove, and checks
// the drawing; otherwise it returns ErrNoDrawing.
func Draw(s State) (Drawing, error) {
	dr, ok := s.(Drawer)
	if !ok {
		return Drawing{}, ErrNoDrawing
	}
	d, err := dr.Draw()
	if err != nil {
		return Drawing{}, err
	}
	d.ToMove = int(s.ToMove())
	if err := d.Check(); err != nil {
		return Drawing{}, err
	}
	return d, nil
}

// cellSet is a set of the cells of the largest board, kept on the stack.
type cellSet [(MaxDrawingSize*MaxDrawingSize + 63) / 64]uint64

// add adds cell i and reports whether it was there already.
func (s *cellSet) add(i int) bool {
	had := s[i/64]&(1<<(i%64)) != 0
	s[i/64] |= 1 << (i % 64)
	return had
}

// Check reports whether d is a drawing the web view can draw, with an error wrapping
// ErrBadDrawing that names the first field at fault: a board kind other than squares or
// intersections (hex is not drawn yet), a Width or Height outside 1 to MaxDrawingSize,
// Coords other than none, top or bottom (or on a board wider than MaxCoordsWidth), a
// ToMove outside Simultaneous to MaxDrawingSeats-1, anything at a place off the board,
// two pieces in one place (and so more pieces than places), a seat outside 0 to
// MaxDrawingSeats-1, a label that is too long or not printable, more markers than places
// or an unknown kind, a label marker without a label or another marker with one, walls on
// a board of intersections, a wall's crossing off the board, an unknown direction, or the
// same wall twice.
func (d *Drawing) Check() error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrBadDrawing, fmt.Sprintf(format, args...))
	}
	switch d.Board {
	case BoardSquares, BoardIntersections:
	case BoardHex:
		return bad("board %q is not drawn yet; want %q or %q", d.Board, BoardSquares, BoardIntersections)
	default:
		return bad("board %.20q: want %q or %q", d.Board, BoardSquares, BoardIntersections)
	}
	if d.Width < 1 || d.Width > MaxDrawingSize || d.Height < 1 || d.Height > MaxDrawingSize {
		return bad("a %dx%d board: want width and height 1 to %d", d.Width, d.Height, MaxDrawingSize)
	}
	switch d.Coords {
	case CoordsNone:
	case CoordsTop, CoordsBottom:
		if d.Width > MaxCoordsWidth {
			return bad("coords on a board %d wide: the columns are lettered a to z, at most %d", d.Width, MaxCoordsWidth)
		}
	default:
		return bad("coords %.20q: want %q, %q or none", d.Coords, CoordsTop, CoordsBottom)
	}
	if d.ToMove < int(Simultaneous) || d.ToMove >= MaxDrawingSeats {
		return bad("to_move %d: want a seat, 0 to %d, or %d (over) or %d (all at once)", d.ToMove, MaxDrawingSeats-1, Terminal, Simultaneous)
	}
	places := d.Width * d.Height
	on := func(at [2]int) bool { return at[0] >= 0 && at[0] < d.Width && at[1] >= 0 && at[1] < d.Height }
	if len(d.Pieces) > places {
		return bad("%d pieces on a board of %d places", len(d.Pieces), places)
	}
	var taken cellSet
	for i, p := range d.Pieces {
		switch {
		case !on(p.At):
			return bad("pieces[%d] at %s is off the %dx%d board", i, atText(p.At), d.Width, d.Height)
		case p.Seat < 0 || p.Seat >= MaxDrawingSeats:
			return bad("pieces[%d] has seat %d: want 0 to %d", i, p.Seat, MaxDrawingSeats-1)
		case taken.add(p.At[1]*d.Width + p.At[0]):
			return bad("pieces[%d] at %s: another piece is there", i, atText(p.At))
		}
		if err := checkLabel(p.Label); err != "" {
			return bad("pieces[%d] label %.20q: %s", i, p.Label, err)
		}
	}
	if len(d.Markers) > places {
		return bad("%d markers on a board of %d places", len(d.Markers), places)
	}
	for i, m := range d.Markers {
		switch {
		case !on(m.At):
			return bad("markers[%d] at %s is off the %dx%d board", i, atText(m.At), d.Width, d.Height)
		case m.Kind != MarkLast && m.Kind != MarkDot && m.Kind != MarkCross && m.Kind != MarkLabel:
			return bad("markers[%d] kind %.20q: want %q, %q, %q or %q", i, m.Kind, MarkLast, MarkDot, MarkCross, MarkLabel)
		case m.Kind == MarkLabel && m.Label == "":
			return bad("markers[%d] of kind %q has no label", i, MarkLabel)
		case m.Kind != MarkLabel && m.Label != "":
			return bad("markers[%d] of kind %q has a label: only %q markers have one", i, m.Kind, MarkLabel)
		}
		if err := checkLabel(m.Label); err != "" {
			return bad("markers[%d] label %.20q: %s", i, m.Label, err)
		}
	}
	if len(d.Walls) > 0 && d.Board != BoardSquares {
		return bad("walls on a board of %s: walls stand between squares", d.Board)
	}
	crossings := (d.Width - 1) * (d.Height - 1)
	if len(d.Walls) > 2*crossings {
		return bad("%d walls on a board of %d crossings", len(d.Walls), crossings)
	}
	var walls [2]cellSet
	for i, w := range d.Walls {
		x, y := w.At[0], w.At[1]
		if x < 0 || x >= d.Width-1 || y < 0 || y >= d.Height-1 {
			return bad("walls[%d] at %s: want a crossing, [0 to %d, 0 to %d]", i, atText(w.At), d.Width-2, d.Height-2)
		}
		dir := 0
		switch w.Dir {
		case WallHorizontal:
		case WallVertical:
			dir = 1
		default:
			return bad("walls[%d] dir %.20q: want %q or %q", i, w.Dir, WallHorizontal, WallVertical)
		}
		if walls[dir].add(y*(d.Width-1) + x) {
			return bad("walls[%d] at %s %s is there twice", i, atText(w.At), w.Dir)
		}
	}
	return nil
}

// atText writes a place as a game file does: [column, row].
func atText(at [2]int) string { return fmt.Sprintf("[%d, %d]", at[0], at[1]) }

// checkLabel says what is wrong with a piece's label, or "".
func checkLabel(s string) string {
	if s == "" {
		return ""
	}
	if !utf8.ValidString(s) {
		return "not UTF-8"
	}
	if n := utf8.RuneCountInString(s); n > MaxLabelLen {
		return fmt.Sprintf("%d characters; want at most %d", n, MaxLabelLen)
	}
	for _, r := range s {
		if !unicode.IsGraphic(r) || unicode.IsSpace(r) {
			return fmt.Sprintf("character %U is not printable", r)
		}
	}
	return ""
}

// MarshalJSON encodes d as its struct tags say, without reflection: a page of a recorded
// game sends a drawing for every position, and the web view is under load.
func (d Drawing) MarshalJSON() ([]byte, error) { return d.AppendJSON(nil), nil }

// AppendJSON appends d's JSON encoding, the same as MarshalJSON's, to b.
func (d Drawing) AppendJSON(b []byte) []byte {
	b = append(b, `{"board":`...)
	b = appendJSONString(b, d.Board)
	b = append(b, `,"width":`...)
	b = strconv.AppendInt(b, int64(d.Width), 10)
	b = append(b, `,"height":`...)
	b = strconv.AppendInt(b, int64(d.Height), 10)
	b = appendField(b, "coords", d.Coords)
	b = append(b, `,"to_move":`...)
	b = strconv.AppendInt(b, int64(d.ToMove), 10)
	b = appendList(b, "pieces", d.Pieces, func(b []byte, p Piece) []byte {
		b = appendAt(b, p.At)
		b = append(b, `,"seat":`...)
		b = strconv.AppendInt(b, int64(p.Seat), 10)
		return appendField(b, "label", p.Label)
	})
	b = appendList(b, "markers", d.Markers, func(b []byte, m Marker) []byte {
		b = appendKey(appendAt(b, m.At), "kind", m.Kind)
		return appendField(b, "label", m.Label)
	})
	b = appendList(b, "walls", d.Walls, func(b []byte, w Wall) []byte {
		return appendKey(appendAt(b, w.At), "dir", w.Dir)
	})
	return append(b, '}')
}

// appendList appends ,"key":[...] with each item an object that each appends without its
// closing brace, or nothing for no items.
func appendList[T any](b []byte, key string, items []T, each func([]byte, T) []byte) []byte {
	if len(items) == 0 {
		return b
	}
	b = append(b, `,"`...)
	b = append(b, key...)
	b = append(b, `":[`...)
	for i, x := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(each(b, x), '}')
	}
	return append(b, ']')
}

// appendField appends ,"key":"s", or nothing when s is empty (omitempty).
func appendField(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	return appendKey(b, key, s)
}

// appendKey appends ,"key":"s".
func appendKey(b []byte, key, s string) []byte {
	b = append(b, `,"`...)
	b = append(b, key...)
	b = append(b, `":`...)
	return appendJSONString(b, s)
}

// appendAt appends the start of an object with its place: {"at":[x,y].
func appendAt(b []byte, at [2]int) []byte {
	b = append(b, `{"at":[`...)
	b = strconv.AppendInt(b, int64(at[0]), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(at[1]), 10)
	return append(b, ']')
}

// appendJSONString appends s as a JSON string, escaped as encoding/json does.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // the rare string that needs escaping, or is not ASCII
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
