package organizer

import (
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/ratings"
	"github.com/arenaref/arena/store"
)

// TestCompile checks each setting's errors, which name the setting (the command line
// rewrites the name into its flag), and the schedules of both formats.
func TestCompile(t *testing.T) {
	base := func(edit func(*Spec)) Spec {
		s := DefaultSpec()
		s.Players = []string{"random", "hp1", "hp2"}
		if edit != nil {
			edit(&s)
		}
		return s
	}
	tests := []struct {
		name     string
		spec     Spec
		openings string
		external bool
		wantErr  string // the start of the error, "" for none
		games    int
	}{
		{"round robin", base(nil), "", false, "", 6},
		{"two rounds", base(func(s *Spec) { s.Rounds = 2 }), "", false, "", 12},
		{"gauntlet", base(func(s *Spec) { s.Format = FormatGauntlet; s.Seeds = []string{"random"} }), "", false, "", 4},
		{"external allowed", base(func(s *Spec) { s.Players = []string{"random", "alice"} }), "", true, "", 2},
		{"external refused", base(func(s *Spec) { s.Players = []string{"random", "alice"} }), "", false, `players: unknown agent "alice"`, 0},
		{"unknown game", base(func(s *Spec) { s.Game = "chess" }), "", false, "game: ", 0},
		{"one player", base(func(s *Spec) { s.Players = []string{"random"} }), "", false, "players: need at least two", 0},
		{"bad name", base(func(s *Spec) { s.Players = []string{"random", "a.b"} }), "", true, "players: \"a.b\" is not a valid player name", 0},
		{"twice", base(func(s *Spec) { s.Players = []string{"random", "random"} }), "", false, "players: \"random\" is listed twice", 0},
		{"agent of no game", base(func(s *Spec) { s.Game = "ipd" }), "", false, "players: agent \"hp1\" does not play ipd", 0},
		{"no rounds", base(func(s *Spec) { s.Rounds = 0 }), "", false, "rounds: ", 0},
		{"time control", base(func(s *Spec) { s.TimeControl = "fast" }), "", false, "time_control: ", 0},
		{"negative margin", base(func(s *Spec) { s.Margin = Duration{-time.Second} }), "", false, "margin: ", 0},
		{"concurrency", base(func(s *Spec) { s.Concurrency = 257 }), "", false, "concurrency: ", 0},
		{"elo_k", base(func(s *Spec) { s.EloK = 0 }), "", false, "elo_k: ", 0},
		{"seeds in a round robin", base(func(s *Spec) { s.Seeds = []string{"random"} }), "", false, "seeds: only a gauntlet", 0},
		{"gauntlet without seeds", base(func(s *Spec) { s.Format = FormatGauntlet }), "", false, "seeds: a gauntlet needs", 0},
		{"seed not playing", base(func(s *Spec) { s.Format = FormatGauntlet; s.Seeds = []string{"hp3"} }), "", false, "seeds: \"hp3\" is not one of the players", 0},
		{"format", base(func(s *Spec) { s.Format = "swiss" }), "", false, "format: ", 0},
		{"opening order", base(func(s *Spec) { s.OpeningOrder = "shuffled" }), "", false, "opening_order: ", 0},
		{"openings", base(func(s *Spec) { s.Openings = "o.txt" }), "f5 d6\nc4\n", false, "", 6},
		{"sprt", base(func(s *Spec) {
			s.Players = []string{"random", "hp1"}
			s.SPRT = &ratings.SPRT{Elo1: 10, Alpha: 0.05, Beta: 0.05}
		}), "", false, "", 2},
		{"sprt of three", base(func(s *Spec) { s.SPRT = &ratings.SPRT{Elo1: 10, Alpha: 0.05, Beta: 0.05} }), "", false, "sprt: a sequential test is between two", 0},
		{"bad sprt", base(func(s *Spec) {
			s.Players = []string{"random", "hp1"}
			s.SPRT = &ratings.SPRT{Elo0: 5, Elo1: 1, Alpha: 0.05, Beta: 0.05}
		}), "", false, "sprt: ratings: bad SPRT", 0},
		{"bad openings", base(func(s *Spec) { s.Openings = "o.txt" }), "z9\n", false, "openings o.txt: ", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := tt.spec.Compile(tt.openings, tt.external)
			if tt.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) {
					t.Fatalf("Compile: %v, want an error starting %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(p.Schedule()) != tt.games {
				t.Fatalf("%d games scheduled, want %d", len(p.Schedule()), tt.games)
			}
			rec, err := p.Record()
			if err != nil {
				t.Fatal(err)
			}
			if rec.Status != store.StatusRunning || len(rec.Schedule) != tt.games || rec.Game != p.Game().Name() {
				t.Fatalf("record: status %s, %d scheduled, game %s", rec.Status, len(rec.Schedule), rec.Game)
			}
			back, err := StoredSpec(rec)
			if err != nil || back.Format != tt.spec.Format || back.Rounds != tt.spec.Rounds || back.Margin != tt.spec.Margin {
				t.Fatalf("StoredSpec(Record()) = %+v, %v; want the spec back", back, err)
			}
			if tt.openings != "" && rec.Schedule[0].OpeningIndex != 1 {
				t.Errorf("first game opening %d, want 1", rec.Schedule[0].OpeningIndex)
			}
		})
	}
}

func TestStoredSpecOfOldTournament(t *testing.T) {
	if _, err := StoredSpec(store.Tournament{ID: 3, Config: []byte("{}")}); err == nil || !strings.Contains(err.Error(), "tournament 3") {
		t.Fatalf("StoredSpec without settings: %v, want an error naming tournament 3", err)
	}
}
