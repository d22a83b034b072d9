package tournament

import (
	"strings"
	"testing"
)

func TestLookup(t *testing.T) {
	for _, name := range []string{RoundRobinName, GauntletName, LadderName} {
		t.Run(name, func(t *testing.T) {
			f, err := Lookup(name)
			if err != nil || f.Name() != name {
				t.Fatalf("Lookup(%q) = %v, %v", name, f, err)
			}
		})
	}
	t.Run("unknown", func(t *testing.T) {
		_, err := Lookup("swiss")
		if err == nil || !strings.HasPrefix(err.Error(), `format: "swiss" is not `) || !strings.Contains(err.Error(), RoundRobinName) {
			t.Errorf("error %v, want one naming the known formats", err)
		}
	})
}

func TestRegisterTwicePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("registering round-robin again did not panic")
		}
	}()
	Register(roundRobin{})
}

func TestCheck(t *testing.T) {
	three := []string{"a", "b", "c"}
	cases := []struct {
		name   string
		format string
		s      Settings
		want   string // the start of the error, "" for none
	}{
		{"round robin", RoundRobinName, Settings{Players: three, Rounds: 1}, ""},
		{"one player", RoundRobinName, Settings{Players: three[:1], Rounds: 1}, "players: need at least two"},
		{"no rounds", RoundRobinName, Settings{Players: three}, "rounds: "},
		{"seeds in a round robin", RoundRobinName, Settings{Players: three, Rounds: 1, Seeds: three[:1]}, "seeds: only a gauntlet"},
		{"ladder keys", RoundRobinName, Settings{Players: three, Rounds: 1, Deadline: "1h"}, "deadline, validation_games"},
		{"gauntlet", GauntletName, Settings{Players: three, Rounds: 1, Seeds: three[:1]}, ""},
		{"gauntlet without seeds", GauntletName, Settings{Players: three, Rounds: 1}, "seeds: a gauntlet needs"},
		{"seed not playing", GauntletName, Settings{Players: three, Rounds: 1, Seeds: []string{"d"}}, `seeds: "d" is not one of the players`},
		{"ladder", LadderName, Settings{Deadline: "90m"}, ""},
		{"ladder without deadline", LadderName, Settings{}, "deadline: a ladder needs one"},
		{"ladder deadline", LadderName, Settings{Deadline: "soon"}, `deadline: "soon" is neither`},
		{"ladder seeds", LadderName, Settings{Deadline: "90m", Seeds: three[:1]}, "seeds: only a gauntlet"},
		{"validation games", LadderName, Settings{Deadline: "90m", ValidationGames: 21}, "validation_games: "},
		{"final top", LadderName, Settings{Deadline: "90m", FinalTop: 1}, "final_top: "},
		{"final rounds", LadderName, Settings{Deadline: "90m", FinalRounds: 21}, "final_rounds: "},
		{"time strikes", LadderName, Settings{Deadline: "90m", TimeStrikes: -1}, "time_strikes: "},
		{"games per hour", LadderName, Settings{Deadline: "90m", GamesPerHour: 36001}, "games_per_hour: "},
		{"validator entrant", LadderName, Settings{Deadline: "90m", Players: []string{"random"}}, `validation_opponent: "random" is also`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Lookup(tc.format)
			if err != nil {
				t.Fatal(err)
			}
			err = f.Check(f.Defaults(tc.s))
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
				t.Errorf("error %v, want one beginning %q", err, tc.want)
			}
		})
	}
}

func TestStaticSchedules(t *testing.T) {
	cases := []struct {
		name   string
		format string
		s      Settings
		games  int
	}{
		{"round robin", RoundRobinName, Settings{Players: []string{"a", "b", "c"}, Rounds: 2}, 12},
		{"gauntlet", GauntletName, Settings{Players: []string{"a", "b", "c"}, Seeds: []string{"b"}, Rounds: 1}, 4},
		{"with openings", RoundRobinName, Settings{Players: []string{"a", "b"}, Rounds: 1, Openings: [][]string{{"d3"}}}, 2},
		{"ladder", LadderName, Settings{Deadline: "1h"}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, _ := Lookup(tc.format)
			s, err := f.Schedule(tc.s)
			if err != nil || len(s) != tc.games {
				t.Fatalf("Schedule = %d games, %v; want %d", len(s), err, tc.games)
			}
			for _, p := range s {
				if len(tc.s.Openings) > 0 && p.OpeningIndex != 1 {
					t.Errorf("game %d has opening %d, want 1", p.Index, p.OpeningIndex)
				}
			}
			if next, err := f.Next(tc.s, nil); next != nil || err != nil {
				t.Errorf("Next = %v, %v; want nothing: the schedule is the whole event", next, err)
			}
		})
	}
}

func TestLadderDefaults(t *testing.T) {
	f, _ := Lookup(LadderName)
	got := f.Defaults(Settings{FinalTop: 4})
	if got.ValidationGames != DefaultValidationGames || got.ValidationOpponent != DefaultValidationOpponent ||
		got.FinalTop != 4 || got.FinalRounds != DefaultFinalRounds ||
		got.TimeStrikes != DefaultTimeStrikes || got.GamesPerHour != DefaultGamesPerHour {
		t.Errorf("Defaults = %+v", got)
	}
}

func TestFinalSchedule(t *testing.T) {
	s := Settings{FinalRounds: 1, Openings: [][]string{{"d3"}, {"c4"}}}
	got, err := FinalSchedule(s, []string{"a", "b", "c"}, 11)
	if err != nil || len(got) != 6 {
		t.Fatalf("FinalSchedule = %d games, %v; want 6", len(got), err)
	}
	for i, p := range got {
		if p.Index != 11+i || p.OpeningIndex == 0 {
			t.Errorf("game %d: %+v, want index %d with an opening", i, p, 11+i)
		}
	}
	if none, err := FinalSchedule(s, []string{"a"}, 1); none != nil || err != nil {
		t.Errorf("a final of one = %v, %v; want none", none, err)
	}
}

func TestAbsoluteDeadline(t *testing.T) {
	now, _ := ParseDeadline("2026-12-18T17:00:00Z")
	cases := []struct{ in, want string }{
		{"90m", "2026-12-18T18:30:00Z"},
		{"2026-12-19T10:00:00Z", "2026-12-19T10:00:00Z"},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			if got := AbsoluteDeadline(tc.in, now); got != tc.want {
				t.Errorf("AbsoluteDeadline(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
