package script

import (
	"fmt"
	"strings"

	"go.starlark.net/starlark"

	"github.com/arenaref/arena/game"
)

var _ game.Drawer = (*State)(nil)

// Draw is the script's draw(state), read into a game.Drawing and checked. A game file
// without draw returns an error wrapping game.ErrNoDrawing: every script state is a
// game.Drawer, so the caller learns from the error, not the type, that there is nothing
// to draw. A draw that fails, or returns anything but a drawing that passes
// game.Drawing.Check (a dict of the documented keys only, each of its type), returns an
// error wrapping game.ErrRules that names the file and line of draw.
func (s *State) Draw() (game.Drawing, error) {
	p := s.g.p
	if p.draw == nil {
		return game.Drawing{}, fmt.Errorf("%w: %s defines no draw(state)", game.ErrNoDrawing, p.file)
	}
	v, err := s.g.call("draw", p.draw, s.v)
	if err != nil {
		return game.Drawing{}, err
	}
	d, err := readDrawing(v)
	if err == nil {
		err = d.Check()
	}
	if err != nil {
		return game.Drawing{}, fmt.Errorf("%w: %s: in draw: %w", game.ErrRules, p.draw.Position(), err)
	}
	return d, nil
}

// Longest lists readDrawing reads: Check refuses longer ones anyway, and a script must
// not make the host convert a million entries first.
const (
	maxDrawnPlaces = game.MaxDrawingSize * game.MaxDrawingSize
	maxDrawnWalls  = 2 * (game.MaxDrawingSize - 1) * (game.MaxDrawingSize - 1)
)

// readDrawing reads draw's result: a dict of board, width, height and, optionally,
// coords, pieces, markers and walls, each entry a dict of its own keys. Unknown keys and
// values of another type are refused; the ranges are Check's. There is no to_move: the
// rules say whose turn it is (game.Draw sets it).
func readDrawing(v starlark.Value) (game.Drawing, error) {
	var d game.Drawing
	f, err := fields(v, "the drawing", []string{"board", "width", "height"}, "coords", "pieces", "markers", "walls")
	if err != nil {
		return d, err
	}
	if d.Board, err = f.text("board"); err != nil {
		return d, err
	}
	if d.Width, err = f.number("width"); err != nil {
		return d, err
	}
	if d.Height, err = f.number("height"); err != nil {
		return d, err
	}
	if d.Coords, err = f.text("coords"); err != nil {
		return d, err
	}
	err = f.list("pieces", maxDrawnPlaces, func(what string, v starlark.Value) error {
		e, err := fields(v, what, []string{"at", "seat"}, "label")
		if err != nil {
			return err
		}
		var p game.Piece
		if p.At, err = e.at(); err == nil {
			if p.Seat, err = e.number("seat"); err == nil {
				p.Label, err = e.text("label")
			}
		}
		d.Pieces = append(d.Pieces, p)
		return err
	})
	if err != nil {
		return d, err
	}
	err = f.list("markers", maxDrawnPlaces, func(what string, v starlark.Value) error {
		at, kind, e, err := placed(v, what, "kind", "label")
		var label string
		if err == nil {
			label, err = e.text("label")
		}
		d.Markers = append(d.Markers, game.Marker{At: at, Kind: kind, Label: label})
		return err
	})
	if err != nil {
		return d, err
	}
	err = f.list("walls", maxDrawnWalls, func(what string, v starlark.Value) error {
		at, dir, _, err := placed(v, what, "dir")
		d.Walls = append(d.Walls, game.Wall{At: at, Dir: dir})
		return err
	})
	return d, err
}

// placed reads a marker or a wall: a dict of "at", a string under key and any of
// optional, whose entries it returns for the caller to read.
func placed(v starlark.Value, what, key string, optional ...string) (at [2]int, word string, e dictFields, err error) {
	e, err = fields(v, what, []string{"at", key}, optional...)
	if err != nil {
		return at, "", e, err
	}
	if at, err = e.at(); err != nil {
		return at, "", e, err
	}
	word, err = e.text(key)
	return at, word, e, err
}

// dictFields are the entries of one dict of a drawing, what names it in errors.
type dictFields struct {
	what string
	m    map[string]starlark.Value
}

// fields reads v as a dict of string keys: every key of required, and any of optional.
func fields(v starlark.Value, what string, required []string, optional ...string) (dictFields, error) {
	f := dictFields{what: what}
	known := append(append([]string(nil), required...), optional...)
	d, ok := v.(*starlark.Dict)
	if !ok {
		return f, fmt.Errorf("%w: %s is a %s; want a dict with the keys %s", game.ErrBadDrawing, what, v.Type(), strings.Join(known, ", "))
	}
	f.m = make(map[string]starlark.Value, d.Len())
	for _, item := range d.Items() {
		k, ok := item[0].(starlark.String)
		if !ok || !contains(known, string(k)) {
			return f, fmt.Errorf("%w: %s has the key %.40s; want only %s", game.ErrBadDrawing, what, item[0].String(), strings.Join(known, ", "))
		}
		f.m[string(k)] = item[1]
	}
	for _, k := range required {
		if _, ok := f.m[k]; !ok {
			return f, fmt.Errorf("%w: %s has no %q", game.ErrBadDrawing, what, k)
		}
	}
	return f, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// wrong says that entry key is not what it should be.
func (f dictFields) wrong(key, want string) error {
	v, ok := f.m[key]
	if !ok {
		return fmt.Errorf("%w: %s has no %q", game.ErrBadDrawing, f.what, key)
	}
	return fmt.Errorf("%w: %s: %q is %.40s (a %s); want %s", game.ErrBadDrawing, f.what, key, v.String(), v.Type(), want)
}

// number reads an integer entry. Bools are not integers here.
func (f dictFields) number(key string) (int, error) {
	v, ok := f.m[key].(starlark.Int)
	if !ok {
		return 0, f.wrong(key, "an int")
	}
	n, err := starlark.AsInt32(v)
	if err != nil {
		return 0, f.wrong(key, "an int of 32 bits")
	}
	return n, nil
}

// text reads a string entry; a missing optional one is "".
func (f dictFields) text(key string) (string, error) {
	v, ok := f.m[key]
	if !ok {
		return "", nil
	}
	s, ok := v.(starlark.String)
	if !ok {
		return "", f.wrong(key, "a string")
	}
	return string(s), nil
}

// at reads the entry "at": a list or tuple of two ints, [column, row].
func (f dictFields) at() ([2]int, error) {
	var at [2]int
	xy, ok := sequence(f.m["at"])
	if !ok || xy.Len() != 2 {
		return at, f.wrong("at", "[column, row]")
	}
	for i := range at {
		n, ok := xy.Index(i).(starlark.Int)
		if !ok {
			return at, f.wrong("at", "[column, row], two ints")
		}
		c, err := starlark.AsInt32(n)
		if err != nil {
			return at, f.wrong("at", "[column, row], two ints of 32 bits")
		}
		at[i] = c
	}
	return at, nil
}

// sequence is v as a list or a tuple: no other kind of sequence (a string, a range).
func sequence(v starlark.Value) (starlark.Indexable, bool) {
	switch v := v.(type) {
	case *starlark.List:
		return v, true
	case starlark.Tuple:
		return v, true
	}
	return nil, false
}

// list reads an optional entry that is a list or a tuple of at most most values, calling
// each with each value and the value's name in errors ("pieces[3]").
func (f dictFields) list(key string, most int, each func(what string, v starlark.Value) error) error {
	v, ok := f.m[key]
	if !ok {
		return nil
	}
	l, ok := sequence(v)
	if !ok {
		return f.wrong(key, "a list")
	}
	if l.Len() > most {
		return fmt.Errorf("%w: %s has %d %s; at most %d", game.ErrBadDrawing, f.what, l.Len(), key, most)
	}
	for i := range l.Len() {
		if err := each(fmt.Sprintf("%s[%d]", key, i), l.Index(i)); err != nil {
			return err
		}
	}
	return nil
}
