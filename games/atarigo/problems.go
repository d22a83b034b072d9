package atarigo

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"
)

//go:embed problems.txt
var problemsText string

// Problem is one of the capture problems embedded in the package (problems.txt), the
// starting positions of the capture game's option problem=N.
type Problem struct {
	Number int    // from 1, as option problem takes it
	Title  string // the first comment line above the problem, such as "ladder"
	Note   string // all the comment lines above it: what happens, the answer
	Start  *State // the position, under the default rules
}

var (
	problemsOnce sync.Once
	problems     []Problem
)

// problemSet returns the embedded problems, read once. The file is part of the program,
// so a mistake in it is a programming error: it panics, and the tests read it.
func problemSet() []Problem {
	problemsOnce.Do(func() {
		ps, err := readProblems(problemsText)
		if err != nil {
			panic(err)
		}
		problems = ps
	})
	return problems
}

// Problems returns the embedded capture problems in order, each with its own copy of the
// start.
func Problems() []Problem {
	ps := append([]Problem(nil), problemSet()...)
	for i := range ps {
		s := *ps[i].Start
		ps[i].Start = &s
	}
	return ps
}

// readProblems reads a problem file: lines starting with '#' are comments, each other
// non-blank line a capture position in the notation of State.String; the comment lines
// just above a position are its note, the first of them its title.
func readProblems(text string) ([]Problem, error) {
	var out []Problem
	var note []string
	r := rules{capture: true, safe: DefaultSafe}
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "":
			note = nil
		case strings.HasPrefix(line, "#"):
			note = append(note, strings.TrimSpace(strings.TrimPrefix(line, "#")))
		default:
			s, err := r.parse(line)
			if err != nil {
				return nil, fmt.Errorf("atarigo: problems.txt line %d: %w", i+1, err)
			}
			if len(note) == 0 {
				return nil, fmt.Errorf("atarigo: problems.txt line %d: a problem without a note above it", i+1)
			}
			out = append(out, Problem{Number: len(out) + 1, Title: note[0], Note: strings.Join(note, "\n"), Start: s})
			note = nil
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("atarigo: problems.txt holds no problem")
	}
	return out, nil
}
