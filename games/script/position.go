package script

import (
	"fmt"

	"go.starlark.net/starlark"
)

// positionValue is what the script's position(state, seat, moves) returns: a new state
// with its status, which play may return instead of the bare state, so that a move costs
// one call into the script instead of two (play, then status).
type positionValue struct {
	state  starlark.Value
	status starlark.Tuple // (seat, moves)
}

var _ starlark.Value = (*positionValue)(nil)

func (p *positionValue) String() string       { return fmt.Sprintf("position(%s, %s)", p.state, p.status) }
func (p *positionValue) Type() string         { return "position" }
func (p *positionValue) Freeze()              { p.state.Freeze(); p.status.Freeze() }
func (p *positionValue) Truth() starlark.Bool { return starlark.True }
func (p *positionValue) Hash() (uint32, error) {
	return 0, fmt.Errorf("unhashable: position")
}

// builtinPosition is position(state, seat, moves).
func builtinPosition(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var state, seat, moves starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 3, &state, &seat, &moves); err != nil {
		return nil, err
	}
	return &positionValue{state: state, status: starlark.Tuple{seat, moves}}, nil
}

// predeclared are the names the host gives every game file beyond Starlark's own.
var predeclared = starlark.StringDict{
	"position": starlark.NewBuiltin("position", builtinPosition),
}
