package solvetable

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/arenaref/arena/games/atarigo"
	"github.com/arenaref/arena/lab/captureset"
	"github.com/arenaref/arena/lab/gnugo"
	"github.com/arenaref/arena/players/ai/widening"
)

// MaxProblemBytes bounds a problem file read by ReadProblem.
const MaxProblemBytes = 1 << 20

// ErrNoTarget is the error of ReadProblem for an SGF problem read without a target: SGF
// names no string to capture.
var ErrNoTarget = errors.New("solvetable: an SGF problem needs a target")

// TargetError is a target that ReadProblem refuses: not a point of the board (Err), or
// not on the string that the position's text names (Named).
type TargetError struct {
	Target string
	Named  string // the position's own target, when the two disagree
	Err    error
}

func (e *TargetError) Error() string {
	if e.Err != nil {
		return e.Err.Error()
	}
	return fmt.Sprintf("%s is not the string the position names (target=%s)", e.Target, e.Named)
}

func (e *TargetError) Unwrap() error { return e.Err }

// ReadProblem reads a capture problem from an SGF file or from the capture game's text
// form; target, when given, names the target string (and must agree with the text's).
func ReadProblem(path, target string) (*atarigo.State, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxProblemBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxProblemBytes {
		return nil, fmt.Errorf("%s: larger than %d bytes: not a problem file", path, MaxProblemBytes)
	}
	text := strings.TrimSpace(string(data))
	if strings.HasPrefix(text, "(") {
		if target == "" {
			return nil, ErrNoTarget
		}
		st, err := atarigo.ParseSGF(text, target)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return st, nil
	}
	if target != "" && !strings.Contains(text, "target=") {
		text += " target=" + target
	}
	g, err := atarigo.NewCaptureGame(1, atarigo.DefaultSafe, 0)
	if err != nil {
		return nil, err
	}
	st, err := g.Parse(text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if target != "" {
		p, err := atarigo.ParsePoint(target, st.Size())
		if err != nil {
			return nil, &TargetError{Target: target, Err: err}
		}
		if st.At(p) == atarigo.Empty || !SameString(st, p, st.Target()) {
			return nil, &TargetError{Target: target, Named: atarigo.PointString(st.Target(), st.Size())}
		}
	}
	return st, nil
}

// ReadFile reads a problem set from a file (Read).
func ReadFile(path string) ([]Problem, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ps, err := Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ps, nil
}

// AgreeFile labels the problems of the set at path with our own search (o), checks them
// with GNU Go's reading at captureset.DefaultReadLevel (Agree), and writes those both
// agree on to out, with a header that says how they were made: command is the command
// line. It returns the agreement and its Summary.
func AgreeFile(ctx context.Context, path, out string, o widening.Options, command string) (a Agreement, summary string, err error) {
	ps, err := ReadFile(path)
	if err != nil {
		return a, "", err
	}
	engine, err := gnugo.Start(ctx, gnugo.Config{Level: captureset.DefaultReadLevel})
	if err != nil {
		return a, "", err
	}
	defer engine.Close()
	if a, err = Agree(ctx, ps, o, captureset.NewVerifier(engine), nil); err != nil {
		return a, "", err
	}
	var sb strings.Builder
	a.Summary(&sb, len(ps))
	header := []string{
		"Capture problems of " + filepath.Base(path) + " on which our own deep search agrees with GNU Go's reading:",
		"the side to move succeeds, and our search's move works by GNU Go's reading (level " + strconv.Itoa(captureset.DefaultReadLevel) + ").",
		"Made by: " + command,
		"Deep search: strategy " + o.Strategy.String() + ", " + o.Time.String() + " a problem, table " + map[bool]string{false: "reset", true: "kept"}[o.KeepTable] + "; docs/widening.md.",
		"Fields, tab-separated: id, position, gnugo_move, kind, source (as arena capture-problems writes them).",
	}
	header = append(header, strings.Split(strings.TrimSpace(sb.String()), "\n")...)
	w, err := os.Create(out)
	if err != nil {
		return a, "", err
	}
	if err := captureset.WriteProblems(w, header, a.Kept); err != nil {
		w.Close()
		return a, "", err
	}
	if err := w.Close(); err != nil {
		return a, "", err
	}
	return a, sb.String(), nil
}
