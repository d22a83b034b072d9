package widening

import (
	"fmt"
	"strconv"
	"strings"
)

// Width is how wide a move set is: Narrow (OR1, AND1), Wide (OR2, AND2) or All (every
// legal move, the brute-force search).
type Width int8

// The widths of move sets.
const (
	Narrow Width = 1
	Wide   Width = 2
	All    Width = 3
)

// Step is one widening step: the width of the attacker's moves at OR nodes and of the
// defender's at AND nodes. Each step is a full iterative-deepening search.
type Step struct {
	OR, AND Width
}

// String returns the step as the paper writes its sets: "(OR1,AND2)", "(all,all)".
func (s Step) String() string {
	name := func(prefix string, w Width) string {
		switch w {
		case Narrow:
			return prefix + "1"
		case Wide:
			return prefix + "2"
		case All:
			return "all"
		}
		return fmt.Sprintf("%s?%d", prefix, int8(w))
	}
	return "(" + name("OR", s.OR) + "," + name("AND", s.AND) + ")"
}

// Strategy is a widening strategy of the paper (its section 5): a number, a name and
// the steps it searches in order until one proves the capture.
type Strategy struct {
	Number int
	Name   string
	Steps  []Step
}

// String returns the number and name, "3 OR2-2AND1-2".
func (s Strategy) String() string { return strconv.Itoa(s.Number) + " " + s.Name }

var (
	or1and1 = Step{Narrow, Narrow}
	or1and2 = Step{Narrow, Wide}
	or2and1 = Step{Wide, Narrow}
	or2and2 = Step{Wide, Wide}
)

// Strategies returns the paper's nine widening strategies in its order.
func Strategies() []Strategy {
	return []Strategy{
		{1, "OR2-2AND2-2", []Step{or2and2}},
		{2, "OR1-2AND2-2", []Step{or1and2, or2and2}},
		{3, "OR2-2AND1-2", []Step{or2and1, or2and2}},
		{4, "AND1-2OR1-2", []Step{or1and1, or1and2, or2and2}},
		{5, "OR1-2AND1-2", []Step{or1and1, or2and1, or2and2}},
		{6, "ORAND1-2", []Step{or1and1, or2and2}},
		{7, "OR1-2ANDOR1-2", []Step{or1and1, or2and1, or1and2, or2and2}},
		{8, "ORAND1-2AND1-2", []Step{or1and1, or1and2, or2and1, or2and2}},
		{9, "Brute Force", []Step{{All, All}}},
	}
}

// DefaultStrategy is the strategy of a zero Options: number 3, OR2-2AND1-2, the one the
// paper finds both effective and general and uses with its enhanced table.
const DefaultStrategy = 3

// StrategyByName returns the strategy with the given number ("3") or name
// ("OR2-2AND1-2"; case, spaces and hyphens do not matter, so "brute-force" names the
// ninth).
func StrategyByName(name string) (Strategy, error) {
	all := Strategies()
	if n, err := strconv.Atoi(strings.TrimSpace(name)); err == nil {
		if n >= 1 && n <= len(all) {
			return all[n-1], nil
		}
		return Strategy{}, fmt.Errorf("widening: no strategy %d: want 1 to %d", n, len(all))
	}
	key := normalName(name)
	for _, s := range all {
		if normalName(s.Name) == key {
			return s, nil
		}
	}
	names := make([]string, len(all))
	for i, s := range all {
		names[i] = s.Name
	}
	return Strategy{}, fmt.Errorf("widening: no strategy %q: want a number from 1 to %d or one of %s", name, len(all), strings.Join(names, ", "))
}

func normalName(s string) string {
	return strings.NewReplacer(" ", "", "-", "", "_", "").Replace(strings.ToLower(s))
}

// check reports a step with a width out of range.
func (s Step) check() error {
	for _, w := range []Width{s.OR, s.AND} {
		if w < Narrow || w > All {
			return fmt.Errorf("widening: step %v: widths are 1 (narrow), 2 (wide) or 3 (all)", s)
		}
	}
	return nil
}
