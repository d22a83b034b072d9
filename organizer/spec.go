package organizer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"time"

	"github.com/pelletier/go-toml/v2"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/clock"
	"github.com/arenaref/arena/game/opening"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/ratings"
	"github.com/arenaref/arena/referee"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/tournament"
)

// The formats the arena has built in, by their names in tournament files (package
// tournament registers them; tournament.Names lists every registered format).
const (
	FormatRoundRobin = tournament.RoundRobinName
	FormatGauntlet   = tournament.GauntletName
	FormatLadder     = tournament.LadderName
)

// Spec describes a tournament. It is what a tournament file holds (TOML, keys as in the
// toml tags) and what the tournament command's flags set; it is stored with the tournament,
// as JSON, so that a stopped tournament can be resumed with exactly its own settings.
type Spec struct {
	Name    string   `toml:"name" json:"name,omitempty"`
	Game    string   `toml:"game" json:"game"`
	Players []string `toml:"players" json:"players"`
	// Agents configures built-in agents under player names of their own, so that one agent
	// can play with different settings ("d4" = minimax with depth=4).
	Agents       map[string]agent.Spec `toml:"agents" json:"agents,omitempty"`
	Format       string                `toml:"format" json:"format"`
	Seeds        []string              `toml:"seeds" json:"seeds,omitempty"`
	Rounds       int                   `toml:"rounds" json:"rounds"`
	TimeControl  string                `toml:"time_control" json:"time_control"`
	Margin       Duration              `toml:"margin" json:"margin"`
	MaxPlies     int                   `toml:"max_plies" json:"max_plies,omitempty"`
	Openings     string                `toml:"openings" json:"openings,omitempty"`
	OpeningOrder string                `toml:"opening_order" json:"opening_order,omitempty"`
	Concurrency  int                   `toml:"concurrency" json:"concurrency"`
	Seed         int64                 `toml:"seed" json:"seed"`
	Wait         Duration              `toml:"wait" json:"wait"`
	EloK         float64               `toml:"elo_k" json:"elo_k"`
	// Ponder lets engines think between their turns; by default a host freezes the
	// engines it runs between their turns (seed 001: no pondering in the tournament).
	Ponder bool `toml:"ponder" json:"ponder,omitempty"`
	// SPRT is the sequential test of a match (arena match --sprt), stored with it so that
	// a web view can draw its log-likelihood ratio; nil for every other tournament. A
	// tournament file cannot set it.
	SPRT *ratings.SPRT `toml:"-" json:"sprt,omitempty"`

	// A ladder's settings (format "ladder", see ladder.go); the other formats refuse them.
	Deadline           string `toml:"deadline" json:"deadline,omitempty"`
	ValidationGames    int    `toml:"validation_games" json:"validation_games,omitempty"`
	ValidationOpponent string `toml:"validation_opponent" json:"validation_opponent,omitempty"`
	FinalTop           int    `toml:"final_top" json:"final_top,omitempty"`
	FinalRounds        int    `toml:"final_rounds" json:"final_rounds,omitempty"`
	TimeStrikes        int    `toml:"time_strikes" json:"time_strikes,omitempty"`
	GamesPerHour       int    `toml:"games_per_hour" json:"games_per_hour,omitempty"`
}

// Builtin returns the agent that plays under name, and whether there is one: a configured
// agent, or the agent of that very name.
func (s Spec) Builtin(name string) (agent.Spec, bool) {
	if as, ok := s.Agents[name]; ok {
		return as, true
	}
	if agent.Known(name) {
		return agent.Spec{Agent: name}, true
	}
	return agent.Spec{}, false
}

// DefaultSpec holds the defaults of every setting a description may leave out.
func DefaultSpec() Spec {
	return Spec{
		Game: "othello", Format: FormatRoundRobin, Rounds: 1, TimeControl: "100ms",
		Margin: Duration{referee.DefaultMargin}, OpeningOrder: "sequential", Concurrency: 1,
		Wait: Duration{30 * time.Second}, EloK: 16,
	}
}

// Duration is a time.Duration written as text ("50ms", "30s") in TOML and JSON. It is a
// struct, not a named integer, so that a bare number in a file ("margin = 5") is a type
// error rather than 5 nanoseconds.
type Duration struct{ time.Duration }

// durationError is Duration's error for text that is not a duration. The TOML decoder
// places it in the file when the value was a string, and not when it was a bare number or
// a boolean, which ParseSpecFile then finds itself (bareDuration).
type durationError struct{ text string }

func (e durationError) Error() string {
	return fmt.Sprintf("%q is not a duration such as 50ms or 30s", e.text)
}

// UnmarshalText reads a Go duration.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return durationError{string(b)}
	}
	d.Duration = v
	return nil
}

// MarshalText writes a Go duration.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.Duration.String()), nil }

// ReadSpecFile reads a tournament file and the openings file it names, which is found
// relative to the tournament file. It returns the spec, the file's text and the openings.
func ReadSpecFile(path string) (s Spec, text, openings string, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Spec{}, "", "", err
	}
	if s, err = ParseSpecFile(path, b); err != nil {
		return Spec{}, "", "", err
	}
	if s.Openings != "" {
		p := s.Openings
		if !filepath.IsAbs(p) {
			p = filepath.Join(filepath.Dir(path), p)
		}
		ob, err := os.ReadFile(p)
		if err != nil {
			return Spec{}, "", "", fmt.Errorf("%s: openings: %v", path, err)
		}
		openings = string(ob)
	}
	return s, string(b), openings, nil
}

// ParseSpecFile reads a tournament file: TOML whose keys must all be known, on top of the
// defaults. Errors name the source and the line.
func ParseSpecFile(source string, text []byte) (Spec, error) {
	s := DefaultSpec()
	dec := toml.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	err := dec.Decode(&s)
	var strict *toml.StrictMissingError
	var decErr *toml.DecodeError
	switch {
	case err == nil:
		return s, nil
	case errors.As(err, &strict) && len(strict.Errors) > 0:
		e := strict.Errors[0]
		row, _ := e.Position()
		return s, fmt.Errorf("%s:%d: unknown key %q (known: %s)", source, row, strings.Join(e.Key(), "."), strings.Join(specKeys(), ", "))
	case errors.As(err, new(durationError)):
		if row, key, value, ok := bareDuration(text); ok {
			return s, fmt.Errorf("%s:%d: %s: want %s, not %s", source, row, key, describeTOMLType(reflect.TypeOf(Duration{})), value)
		}
		return s, fmt.Errorf("%s: %v", source, err)
	case errors.As(err, &decErr):
		row, _ := decErr.Position()
		if msg, ok := typeMismatch(decErr); ok {
			return s, fmt.Errorf("%s:%d: %s", source, row, msg)
		}
		return s, fmt.Errorf("%s:%d: %s", source, row, strings.TrimPrefix(decErr.Error(), "toml: "))
	default:
		return s, fmt.Errorf("%s: %v", source, err)
	}
}

// bareAssignment matches a top-level line "key = value" whose value is not a quoted
// string.
var bareAssignment = regexp.MustCompile(`^\s*([A-Za-z0-9_-]+)\s*=\s*([^"'\s#][^#]*?)\s*(#.*)?$`)

// bareDuration finds the first line of a tournament file that gives a duration key a value
// that is not a string ("margin = 5"), before any table: its line number, key and value.
func bareDuration(text []byte) (row int, key, value string, ok bool) {
	for i, line := range strings.Split(string(text), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "[") {
			return 0, "", "", false // the duration keys are top-level
		}
		m := bareAssignment.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		if f, found := fieldByTOMLKey(reflect.TypeOf(Spec{}), m[1]); found && f.Type == reflect.TypeOf(Duration{}) {
			return i + 1, m[1], m[2], true
		}
	}
	return 0, "", "", false
}

// tomlMismatch matches go-toml's message for a value of the wrong type, which names the
// Go field ("cannot decode TOML string into struct field organizer.Spec.Rounds of type int").
var tomlMismatch = regexp.MustCompile(`^cannot decode TOML (.+?) into `)

// typeMismatch describes a value of the wrong type in a tournament file by its key and
// the type the key wants ("rounds: want an integer, not a string"), or reports false
// for other errors.
func typeMismatch(e *toml.DecodeError) (string, bool) {
	m := tomlMismatch.FindStringSubmatch(strings.TrimPrefix(e.Error(), "toml: "))
	key := e.Key()
	if m == nil || len(key) == 0 {
		return "", false
	}
	t := reflect.TypeOf(Spec{})
	for _, k := range key {
		switch t.Kind() {
		case reflect.Map:
			t = t.Elem() // a key of [agents] or of an agent's params: any name
			continue
		case reflect.Struct:
		default:
			return "", false
		}
		f, ok := fieldByTOMLKey(t, k)
		if !ok {
			return "", false
		}
		t = f.Type
	}
	return fmt.Sprintf("%s: want %s, not %s %s", strings.Join(key, "."), describeTOMLType(t), article(m[1]), m[1]), true
}

// fieldByTOMLKey returns the field of struct type t whose toml tag is key.
func fieldByTOMLKey(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		if name, _, _ := strings.Cut(f.Tag.Get("toml"), ","); name == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// describeTOMLType says in TOML's words what a value of Go type t is written as.
func describeTOMLType(t reflect.Type) string {
	switch {
	case t == reflect.TypeOf(Duration{}):
		return `a duration in quotes, such as "50ms" or "30s"`
	case t.Kind() == reflect.String:
		return "a string"
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Uint64:
		return "an integer"
	case t.Kind() == reflect.Float32 || t.Kind() == reflect.Float64:
		return "a number"
	case t.Kind() == reflect.Bool:
		return "true or false"
	case t.Kind() == reflect.Slice:
		return "an array of " + strings.TrimPrefix(strings.TrimPrefix(describeTOMLType(t.Elem()), "a "), "an ") + "s"
	case t.Kind() == reflect.Map:
		return "a table of " + strings.TrimPrefix(strings.TrimPrefix(describeTOMLType(t.Elem()), "a "), "an ") + "s"
	default:
		return "a table"
	}
}

// article is "an" before a word that begins with a vowel, "a" otherwise.
func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

// specKeys lists the keys a tournament file may use.
func specKeys() []string {
	return []string{"name", "game", "players", "agents", "format", "seeds", "rounds", "time_control", "margin",
		"max_plies", "openings", "opening_order", "concurrency", "seed", "wait", "elo_k",
		"deadline", "validation_games", "validation_opponent", "final_top", "final_rounds",
		"time_strikes", "games_per_hour"}
}

// Plan is a checked Spec, ready to be stored and played.
type Plan struct {
	Spec     Spec
	game     game.Game
	tc       clock.TimeControl
	schedule []tournament.Pairing
	openings [][]string // the opening lines; a ladder keeps them for its final phase
}

// Host says what a tournament may use of the machine that referees it.
type Host struct {
	// External admits players that are not built-in agents: only when players connect
	// over a NATS server others can reach.
	External bool
	// Programs lets agents start programs on this machine (agent.Config.Programs), as the
	// engine agent starts its cmd: only for a tournament the machine's user runs here
	// (arena tournament, arena match, their files and --resume), never for one that came
	// over the network.
	Programs bool
	// Running, when set, reports that the player name already plays as the agent as with
	// these very settings on this host (the Director's built-in players, started by Ready
	// before the tournament is created): such an agent is not built again to be checked,
	// which for one that holds a resource (the experience agent's base file) would fail.
	Running func(name string, as agent.Spec) bool
}

// Compile is CompileOn a host that admits external players when external is set and starts
// no programs: the referee daemon's, for a tournament submitted over the network.
func (s Spec) Compile(openingsText string, external bool) (Plan, error) {
	return s.CompileOn(Host{External: external}, openingsText)
}

// CompileOn checks every setting of s for host h and builds its schedule. openingsText is
// the content of the file s.Openings names (the caller reads it, so that `arena submit` can
// send it to a referee on another machine). Errors name the setting.
func (s Spec) CompileOn(h Host, openingsText string) (Plan, error) {
	g, err := game.Lookup(s.Game)
	if err != nil {
		return Plan{}, err // it begins "game: "
	}
	f, err := tournament.Lookup(s.Format)
	if err != nil {
		return Plan{}, err // it begins "format: "
	}
	s = s.withDefaults(f)
	if err := f.Check(s.settings(nil)); err != nil {
		return Plan{}, err
	}
	if r, ok := runners[f.Name()]; ok {
		return r.compile(s, g, openingsText, h)
	}
	if s.SPRT != nil {
		if len(s.Players) != 2 {
			return Plan{}, fmt.Errorf("sprt: a sequential test is between two players, not %d", len(s.Players))
		}
		if err := s.SPRT.Check(); err != nil {
			return Plan{}, fmt.Errorf("sprt: %w", err)
		}
	}
	if _, err := s.checkPlayers(g, h); err != nil {
		return Plan{}, err
	}
	tc, err := s.checkSettings()
	if err != nil {
		return Plan{}, err
	}
	openings, err := s.openingLines(g, openingsText)
	if err != nil {
		return Plan{}, err
	}
	schedule, err := f.Schedule(s.settings(openings))
	if err != nil {
		return Plan{}, fmt.Errorf("schedule: %v", err)
	}
	return Plan{Spec: s, game: g, tc: tc, schedule: schedule, openings: openings}, nil
}

// withDefaults is s with the settings of its format f that s leaves out filled in.
func (s Spec) withDefaults(f tournament.Format) Spec {
	d := f.Defaults(s.settings(nil))
	s.ValidationGames, s.ValidationOpponent, s.FinalTop, s.FinalRounds = d.ValidationGames, d.ValidationOpponent, d.FinalTop, d.FinalRounds
	s.TimeStrikes, s.GamesPerHour = d.TimeStrikes, d.GamesPerHour
	return s
}

// settings is what s's format reads of it, with the opening lines read from its file.
func (s Spec) settings(openings [][]string) tournament.Settings {
	return tournament.Settings{
		Players: s.Players, Seeds: s.Seeds, Rounds: s.Rounds,
		Openings: openings, RandomOpenings: s.OpeningOrder == "random", Seed: s.Seed,
		Deadline: s.Deadline, ValidationGames: s.ValidationGames, ValidationOpponent: s.ValidationOpponent,
		FinalTop: s.FinalTop, FinalRounds: s.FinalRounds, TimeStrikes: s.TimeStrikes, GamesPerHour: s.GamesPerHour,
	}
}

// openingLines checks the opening order and reads the opening lines of s's openings file,
// whose text is openingsText: none when s names no file.
func (s Spec) openingLines(g game.Game, openingsText string) ([][]string, error) {
	switch s.OpeningOrder {
	case "sequential", "", "random":
	default:
		return nil, fmt.Errorf("opening_order: %q is not sequential or random", s.OpeningOrder)
	}
	if s.Openings == "" {
		return nil, nil
	}
	ops, err := opening.Parse(strings.NewReader(openingsText), g)
	if err != nil {
		return nil, fmt.Errorf("openings %s: %v", s.Openings, err)
	}
	lines := make([][]string, len(ops))
	for i, o := range ops {
		lines[i] = o.Moves
	}
	return lines, nil
}

// checkPlayers checks the names of the players and the built-in agents among them, as
// host h would make them, and that every configured agent is one of them; it returns the
// set of names.
func (s Spec) checkPlayers(g game.Game, h Host) (map[string]bool, error) {
	seen := map[string]bool{}
	for _, n := range s.Players {
		if !protocol.ValidName(n) {
			return nil, fmt.Errorf("players: %q is not a valid player name (1-64 of A-Z a-z 0-9 - _)", n)
		}
		if seen[n] {
			return nil, fmt.Errorf("players: %q is listed twice", n)
		}
		seen[n] = true
		as, isBuiltin := s.Builtin(n)
		switch {
		case isBuiltin:
			if !agent.Known(as.Agent) {
				return nil, fmt.Errorf("players: %s: unknown agent %q (built-in: %s)", n, as.Agent, strings.Join(agent.Names(), ", "))
			}
			if !playsGame(agent.Games(as.Agent), g) {
				return nil, fmt.Errorf("players: agent %q does not play %s", as.Agent, g.Name())
			}
			if h.Running != nil && h.Running(n, as) {
				continue // built and checked when it was started
			}
			// Build it once, so that a bad setting is reported now, not when games start. An
			// engine agent starts its program only later, when the tournament starts.
			a, err := agent.New(as.Agent, agent.Config{Params: as.Params, Programs: h.Programs})
			if err != nil {
				return nil, fmt.Errorf("players: %s: %w", n, err)
			}
			if gc, ok := a.(agent.GameChecker); ok {
				err = gc.CheckGame(g)
			}
			agent.Close(a)
			if err != nil {
				return nil, fmt.Errorf("players: %s: %v", n, err)
			}
		case !h.External:
			return nil, fmt.Errorf("players: unknown agent %q (built-in: %s; external players need a NATS server: --nats URL)", n, strings.Join(agent.Names(), ", "))
		}
	}
	for n := range s.Agents {
		if !seen[n] {
			return nil, fmt.Errorf("agents: %q is not one of the players", n)
		}
	}
	return seen, nil
}

// checkSettings checks the settings every format shares and returns the time control.
func (s Spec) checkSettings() (clock.TimeControl, error) {
	tc, err := clock.Parse(s.TimeControl)
	if err != nil {
		return tc, fmt.Errorf("time_control: %v", err)
	}
	switch {
	case s.Margin.Duration < 0:
		return tc, fmt.Errorf("margin: must not be negative")
	case s.MaxPlies < 0:
		return tc, fmt.Errorf("max_plies: must not be negative")
	case s.Wait.Duration < 0:
		return tc, fmt.Errorf("wait: must not be negative")
	case s.Concurrency < 1 || s.Concurrency > 256:
		return tc, fmt.Errorf("concurrency: must be between 1 and 256, got %d", s.Concurrency)
	case s.EloK <= 0 || math.IsInf(s.EloK, 0) || math.IsNaN(s.EloK):
		return tc, fmt.Errorf("elo_k: must be a positive number")
	case len(s.Name) > 200:
		return tc, fmt.Errorf("name: at most 200 characters")
	}
	return tc, nil
}

// Schedule is every game the plan is to play, by Index.
func (p Plan) Schedule() []tournament.Pairing { return p.schedule }

// Game is the game the plan plays, with its options.
func (p Plan) Game() game.Game { return p.game }

// Record is the stored form of the plan: the tournament row with its spec and schedule.
// The spec names the game as the game names itself, so a game file is stored by its
// game's name, not by a path that means nothing to another process.
func (p Plan) Record() (store.Tournament, error) {
	spec := p.Spec
	spec.Game = p.game.Name()
	cfg, err := json.Marshal(spec)
	if err != nil {
		return store.Tournament{}, err
	}
	sched := make([]store.ScheduledGame, len(p.schedule))
	for i, pr := range p.schedule {
		sched[i] = store.ScheduledGame{Index: pr.Index, Round: pr.Round, Players: pr.Players, Opening: pr.Opening, OpeningIndex: pr.OpeningIndex}
	}
	return store.Tournament{
		Game: p.game.Name(), Format: p.Spec.Format, TimeControl: p.tc.String(), Rounds: p.Spec.Rounds,
		Seed: p.Spec.Seed, Players: p.Spec.Players, Status: store.StatusRunning, Config: cfg, Schedule: sched,
	}, nil
}

// StoredSpec reads back the Spec stored with a tournament.
func StoredSpec(t store.Tournament) (Spec, error) {
	s := DefaultSpec()
	if err := json.Unmarshal(t.Config, &s); err != nil || len(s.Players) == 0 && s.Format != FormatLadder {
		return s, fmt.Errorf("tournament %d has no stored settings to resume from (made by an older arena?)", t.ID)
	}
	return s, nil
}

// playsGame reports whether an agent registered for games can play g.
func playsGame(games []string, g game.Game) bool {
	if games == nil {
		return true
	}
	name, _, _ := game.ParseSpec(g.Name())
	for _, gn := range games {
		if gn == name {
			return true
		}
	}
	return false
}
