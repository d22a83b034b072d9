package script

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"go.starlark.net/starlark"
	"go.starlark.net/syntax"

	"github.com/arenaref/arena/game"
)

// MaxSteps is the most Starlark steps one call of a script's function may take: a loop
// that does not end is stopped there (about a tenth of a second of work).
const MaxSteps = 5_000_000

// MaxFileSize is the largest script file the host reads.
const MaxFileSize = 1 << 20

// ErrScript is wrapped by the errors of a script that cannot be loaded: unreadable,
// malformed, or missing what the contract asks for.
var ErrScript = errors.New("script")

// fileOptions are the Starlark dialect of game files: while loops and sets, so that a
// search such as Quoridor's path rule reads naturally; no recursion, so that a runaway
// script is stopped by the step limit and never by the Go stack.
var fileOptions = &syntax.FileOptions{Set: true, While: true, TopLevelControl: true}

// validName is the form of a game's name: what the wire and the store carry.
var validName = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`)

// Program is a loaded game file: its name, seats, option defaults and functions.
type Program struct {
	file     string // the file's name, as errors name it
	name     string
	seats    []string
	defaults map[string]starlark.Value // option defaults: Int, String or Bool
	keys     []string                  // the option names, sorted

	start, status, play, returns, moveText, stateText, parseState *starlark.Function
	parseMove, draw                                               *starlark.Function // optional
}

// Load reads and compiles the game file at path.
func Load(path string) (*Program, error) {
	src, err := read(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// read reads the game file at path, refusing one over MaxFileSize.
func read(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrScript, err)
	}
	if info.Size() > MaxFileSize {
		return nil, fmt.Errorf("%w: %s is %d bytes; a game file may have %d", ErrScript, path, info.Size(), MaxFileSize)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrScript, err)
	}
	return src, nil
}

// Parse compiles the game file src, named file in errors. Its top level runs once, with
// the step limit.
func Parse(file string, src []byte) (*Program, error) {
	if len(src) > MaxFileSize {
		return nil, fmt.Errorf("%w: %s is %d bytes; a game file may have %d", ErrScript, file, len(src), MaxFileSize)
	}
	thread := threads.Get().(*starlark.Thread)
	defer threads.Put(thread)
	thread.Name = file
	thread.Uncancel()
	base := thread.ExecutionSteps()
	thread.SetMaxExecutionSteps(base + MaxSteps)
	globals, err := starlark.ExecFileOptions(fileOptions, thread, file, src, predeclared)
	if err != nil {
		return nil, fmt.Errorf("%w: %s", ErrScript, describe(err, thread.ExecutionSteps()-base))
	}
	p := &Program{file: file, defaults: map[string]starlark.Value{}}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s: %s", ErrScript, file, fmt.Sprintf(format, args...))
	}

	p.name = strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	if v, ok := globals["name"]; ok {
		s, ok := v.(starlark.String)
		if !ok {
			return nil, bad("name is a %s; want a string", v.Type())
		}
		p.name = string(s)
	}
	if !validName.MatchString(p.name) {
		return nil, bad("the game's name %q: want 1-32 of a-z 0-9 _ -, starting with a letter (set name = \"...\")", p.name)
	}

	seats, ok := globals["seats"].(*starlark.List)
	if !ok || seats.Len() == 0 || seats.Len() > 8 {
		return nil, bad("seats must be a list of 1 to 8 seat names, as seats = [\"black\", \"white\"]")
	}
	for i := range seats.Len() {
		s, ok := seats.Index(i).(starlark.String)
		if !ok || !validName.MatchString(string(s)) {
			return nil, bad("seat %d is %s; want a name of a-z 0-9 _ -", i, seats.Index(i))
		}
		p.seats = append(p.seats, string(s))
	}

	if v, ok := globals["options"]; ok {
		d, ok := v.(*starlark.Dict)
		if !ok {
			return nil, bad("options is a %s; want a dict of option defaults", v.Type())
		}
		for _, item := range d.Items() {
			k, ok := item[0].(starlark.String)
			if !ok || !validName.MatchString(string(k)) {
				return nil, bad("option name %s: want a name of a-z 0-9 _ -", item[0])
			}
			switch item[1].(type) {
			case starlark.Int, starlark.String, starlark.Bool:
			default:
				return nil, bad("option %s has a %s default; want an int, a string or a bool", k, item[1].Type())
			}
			p.defaults[string(k)] = item[1]
			p.keys = append(p.keys, string(k))
		}
		sort.Strings(p.keys)
	}

	fn := func(name string, params int, required bool) (*starlark.Function, error) {
		v, ok := globals[name]
		if !ok {
			if required {
				return nil, bad("no function %s: a game file defines %s", name, strings.Join(requiredFuncs, ", "))
			}
			return nil, nil
		}
		f, ok := v.(*starlark.Function)
		if !ok {
			return nil, bad("%s is a %s; want a function", name, v.Type())
		}
		if f.NumParams() != params {
			return nil, bad("%s takes %d parameters; want %d", name, f.NumParams(), params)
		}
		return f, nil
	}
	for _, f := range []struct {
		to       **starlark.Function
		name     string
		params   int
		required bool
	}{
		{&p.start, "start", 1, true}, {&p.status, "status", 1, true}, {&p.play, "play", 2, true},
		{&p.returns, "returns", 1, true}, {&p.moveText, "move_text", 2, true}, {&p.stateText, "state_text", 1, true},
		{&p.parseState, "parse_state", 2, true}, {&p.parseMove, "parse_move", 2, false}, {&p.draw, "draw", 1, false},
	} {
		if *f.to, err = fn(f.name, f.params, f.required); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// requiredFuncs lists the functions every game file defines, for the error that names one
// missing.
var requiredFuncs = []string{"start(opts)", "status(state)", "play(state, move)", "returns(state)", "move_text(state, move)", "state_text(state)", "parse_state(opts, text)"}

// Name is the game's name.
func (p *Program) Name() string { return p.name }

// describe is the error of a call that ran steps steps, in one line: where it happened
// (file, line and the function of the script's own innermost frame), then the message. A
// step overrun says so.
func describe(err error, steps uint64) string {
	var ee *starlark.EvalError
	if errors.As(err, &ee) {
		msg := ee.Msg
		if steps >= MaxSteps {
			msg = fmt.Sprintf("stopped after %d steps (a loop that does not end?)", MaxSteps)
		}
		msg = strings.TrimPrefix(msg, "fail: ")
		// The innermost frame of the script's own code: a built-in (fail, len) has none.
		for i := len(ee.CallStack) - 1; i >= 0; i-- {
			if f := ee.CallStack[i]; f.Pos.IsValid() && f.Pos.Filename() != "<builtin>" {
				return fmt.Sprintf("%s: in %s: %s", f.Pos, f.Name, msg)
			}
		}
		return msg
	}
	var se syntax.Error
	if errors.As(err, &se) {
		return fmt.Sprintf("%s: %s", se.Pos, se.Msg)
	}
	return err.Error()
}

// options types the options of a spec by their defaults, and returns every option with
// the defaults applied, frozen.
func (p *Program) options(opts game.Options) (*starlark.Dict, error) {
	known := p.keys
	if err := game.CheckOptions(opts, known...); err != nil {
		return nil, fmt.Errorf("%s: %w", p.name, err)
	}
	d := starlark.NewDict(len(p.keys))
	for _, k := range p.keys {
		v := p.defaults[k]
		if text, ok := opts[k]; ok {
			var err error
			if v, err = parseOption(v, text); err != nil {
				return nil, fmt.Errorf("%w: %s: option %s: %v", game.ErrBadGameOption, p.name, k, err)
			}
		}
		_ = d.SetKey(starlark.String(k), v)
	}
	d.Freeze()
	return d, nil
}

// parseOption reads text as a value of def's type.
func parseOption(def starlark.Value, text string) (starlark.Value, error) {
	switch def.(type) {
	case starlark.Int:
		var n int64
		if _, err := fmt.Sscan(text, &n); err != nil || fmt.Sprint(n) != text {
			return nil, fmt.Errorf("%q is not an integer", text)
		}
		return starlark.MakeInt64(n), nil
	case starlark.Bool:
		switch text {
		case "true":
			return starlark.True, nil
		case "false":
			return starlark.False, nil
		}
		return nil, fmt.Errorf("%q is not true or false", text)
	}
	return starlark.String(text), nil
}

// optionText is an option's value as a spec writes it.
func optionText(v starlark.Value) string {
	switch v := v.(type) {
	case starlark.String:
		return string(v)
	case starlark.Bool:
		return strings.ToLower(v.String())
	}
	return v.String()
}
