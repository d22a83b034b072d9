package engine

import (
	"fmt"
	"slices"
	"strings"
)

// Protocol is one text protocol Arena speaks with engines, as registered: its name, the
// games it plays, the settings it takes and how to make its Dialect. `arena engine`,
// `arena check-engine`, the engine host and the check of a submitted engine's manifest all
// ask the registry (Lookup, Names) rather than knowing the protocols themselves.
type Protocol struct {
	// Name is how --protocol and a manifest's protocol spell it.
	Name string
	// Games are the games the protocol plays, by name as game.Game.Name gives it, options
	// included ("othello", not "othello:size=6"), unless AnyOptions is set; nil means
	// every game.
	Games []string
	// AnyOptions makes Games the names of games without their options: the protocol plays
	// each of them whatever its options ("othello" then covers "othello:size=6").
	AnyOptions bool
	// GamesText says Games in words for error messages, completing "the nboard protocol
	// plays ...".
	GamesText string
	// Check returns an error when s is not usable with the protocol, naming the setting as
	// the commands' flags do ("depth 0: want 1 to 60"); nil accepts any settings.
	Check func(s Settings) error
	// New returns the Dialect for one engine process, with settings Check accepted.
	New func(s Settings) Dialect
}

// Settings are what a user may set about a protocol (the --depth of arena engine and
// check-engine). Each protocol reads the fields it knows and ignores the others.
type Settings struct {
	// Depth is NBoard's search depth, sent with "set depth".
	Depth int
}

// DefaultSettings are the settings when the user gives none.
func DefaultSettings() Settings { return Settings{Depth: NBoardDefaultDepth} }

// protocols is the registry: every protocol, each defined in its dialect's file. Names
// lists them in this order, the default (line) first.
var protocols = []*Protocol{&lineProtocol, &gtpProtocol, &nboardProtocol}

// Lookup returns the protocol called name, or an error that lists the protocols.
func Lookup(name string) (*Protocol, error) {
	for _, p := range protocols {
		if p.Name == name {
			return p, nil
		}
	}
	return nil, fmt.Errorf("%q: want %s", name, strings.Join(Names(), ", "))
}

// Names returns the protocols' names, the default first.
func Names() []string {
	names := make([]string, len(protocols))
	for i, p := range protocols {
		names[i] = p.Name
	}
	return names
}

// Plays reports whether the protocol plays the game called game (game.Game.Name, options
// included).
func (p *Protocol) Plays(game string) bool {
	if p.Games == nil {
		return true
	}
	if p.AnyOptions {
		game, _, _ = strings.Cut(game, ":")
	}
	return slices.Contains(p.Games, game)
}

// CheckGame returns an error, saying which games the protocol plays, when it does not play
// the game called game.
func (p *Protocol) CheckGame(game string) error {
	if p.Plays(game) {
		return nil
	}
	return fmt.Errorf("the %s protocol plays %s, not %s", p.Name, p.GamesText, game)
}

// Dialects checks the settings and returns the constructor of the protocol's Dialect with
// them, one Dialect per engine process (as a Bridge takes it).
func (p *Protocol) Dialects(s Settings) (func() Dialect, error) {
	if p.Check != nil {
		if err := p.Check(s); err != nil {
			return nil, err
		}
	}
	return func() Dialect { return p.New(s) }, nil
}
