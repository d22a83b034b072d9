package organizer

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/store"
)

func TestCompileConfiguredAgents(t *testing.T) {
	tests := []struct {
		players string
		wantErr string
	}{
		{"a=random,b=hp2", ""},
		{"a=nobody,b=hp2", `unknown agent "nobody"`},
		{"a=random:speed=9,b=hp2", `unknown option "speed"`},
	}
	for _, tt := range tests {
		t.Run(tt.players, func(t *testing.T) {
			s := DefaultSpec()
			var err error
			if s.Players, s.Agents, err = agent.ParseSpecs(strings.Split(tt.players, ",")); err != nil {
				t.Fatal(err)
			}
			_, err = s.Compile("", false)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("compile: %v, want %q", err, tt.wantErr)
			}
		})
	}
	s := DefaultSpec()
	s.Players = []string{"random", "hp1"}
	s.Agents = map[string]agent.Spec{"ghost": {Agent: "random"}}
	if _, err := s.Compile("", false); err == nil || !strings.Contains(err.Error(), "not one of the players") {
		t.Fatalf("an agent for no player: %v", err)
	}
}

func TestPayoffTotals(t *testing.T) {
	games := []store.Game{
		{Players: []string{"tft", "alld"}, Returns: []float64{199, 204}},
		{Players: []string{"alld", "tft"}, Returns: []float64{204, 199}},
		{Players: []string{"tft", "allc"}, Returns: []float64{600, 600}},
	}
	want := map[string]float64{"tft": 998, "alld": 408, "allc": 600}
	if got := PayoffTotals(games); !reflect.DeepEqual(got, want) {
		t.Fatalf("payoffTotals = %v, want %v", got, want)
	}
}

// TestSpecFileTypeErrors checks that a value of the wrong type in a tournament file is
// reported by its key, file and line and the type wanted, in TOML's words, not Go's.
func TestSpecFileTypeErrors(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"string for an integer", "game = \"othello\"\nrounds = \"two\"\n", "cup.toml:2: rounds: want an integer, not a string"},
		{"float for an integer", "concurrency = 1.5\n", "cup.toml:1: concurrency: want an integer, not a float"},
		{"string for an array", "players = \"random\"\n", "cup.toml:1: players: want an array of strings, not a string"},
		{"integers in an array", "seeds = [1, 2]\n", "cup.toml:1: seeds: want an array of strings, not an integer"},
		{"string for a number", "elo_k = \"high\"\n", "cup.toml:1: elo_k: want a number, not a string"},
		{"integer for an agent", "[agents.d2]\nagent = 3\n", "cup.toml:2: agents.d2.agent: want a string, not an integer"},
		{"integer for an agent table", "[agents]\nd2 = 3\n", "cup.toml:2: agents.d2: want a table, not an integer"},
		{"integer parameter", "[agents.d2]\nagent = \"minimax\"\nparams = { depth = 3 }\n", "cup.toml:3: agents.d2.params: want a table of strings, not an integer"},
		// A bare number was once taken as nanoseconds: every player then lost on time.
		{"integer for a duration", "game = \"othello\"\nmargin = 5\n", "cup.toml:2: margin: want a duration in quotes, such as \"50ms\" or \"30s\", not 5"},
		{"boolean for a duration", "wait = true\n", "cup.toml:1: wait: want a duration in quotes, such as \"50ms\" or \"30s\", not true"},
		{"a string that is not a duration", "margin = \"5\"\n", "cup.toml:1: \"5\" is not a duration such as 50ms or 30s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseSpecFile("cup.toml", []byte(tt.text))
			if err == nil || err.Error() != tt.want {
				t.Errorf("error %v, want %q", err, tt.want)
			}
			if err != nil && (strings.Contains(err.Error(), "main.") || strings.Contains(err.Error(), "organizer.")) {
				t.Errorf("error %q names Go internals", err)
			}
		})
	}
}

// FuzzTournamentFile feeds tournament files, which a referee daemon takes from the
// network (arena submit), to the parser and the compiler: any input must give a spec or an
// error naming the file, never a panic.
func FuzzTournamentFile(f *testing.F) {
	for _, name := range []string{"../docs/examples/cup.toml", "../docs/examples/course.toml", "../docs/examples/league.toml"} {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("margin = 5\n"))
	f.Add([]byte("rounds = 9223372036854775807\nplayers = [\"a\", \"b\"]\n"))
	f.Add([]byte("[agents.d2]\nagent = \"minimax\"\nparams = { depth = \"3\" }\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSpecFile("f.toml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.toml") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if s.Rounds > 100 {
			s.Rounds = 100 // a large schedule is refused or slow, not wrong
		}
		_, _ = s.Compile("", true)
	})
}

// TestReadSpecFile reads a tournament file whose openings file is named relative to it.
func TestReadSpecFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("sub/open.txt", "f5 d6\n")
	withOpenings := write("sub/t.toml", "players = [\"random\", \"hp1\"]\nopenings = \"open.txt\"\n")
	missing := write("m.toml", "players = [\"random\", \"hp1\"]\nopenings = \"none.txt\"\n")
	bad := write("bad.toml", "rounds = \"x\"\n")
	ponder := write("ponder.toml", "players = [\"random\", \"hp1\"]\nponder = true\n")
	tests := []struct {
		name, path, wantOpenings, wantErr string
		wantPonder                        bool
	}{
		{name: "openings beside the file", path: withOpenings, wantOpenings: "f5 d6\n"},
		{name: "pondering allowed", path: ponder, wantPonder: true},
		{name: "no such openings", path: missing, wantErr: missing + ": openings: "},
		{name: "a bad file", path: bad, wantErr: "bad.toml"},
		{name: "no file", path: filepath.Join(dir, "none.toml"), wantErr: "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, text, openings, err := ReadSpecFile(tt.path)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("err %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || openings != tt.wantOpenings || !strings.Contains(text, "players") || len(s.Players) != 2 || s.Ponder != tt.wantPonder {
				t.Errorf("ReadSpecFile = %+v, %q, %q, %v", s, text, openings, err)
			}
		})
	}
}
