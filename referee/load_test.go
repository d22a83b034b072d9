package referee

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/tournament"
)

// fixedLoad is a LoadMeter that reports the same load for every span.
func fixedLoad(late time.Duration) LoadMeter {
	return LoadMeterFunc(func(time.Time, time.Time) Load { return Load{Late: late} })
}

// TestJudgeOverload: a time forfeit is the machine's when the referee itself was at least
// as late as the reply, and the player's otherwise.
func TestJudgeOverload(t *testing.T) {
	req := protocol.TurnRequest{GameID: "g1"}
	cases := []struct {
		name     string
		referee  time.Duration // the referee's own lateness during the turn
		wait     time.Duration // what its threads lost to the machine while busy
		ex       exchange
		excused  bool
		lateness time.Duration
	}{
		{"11ms late, referee 40ms late", 40 * time.Millisecond, 0, decoded(reply(req, "1"), limit+11*time.Millisecond), true, 40 * time.Millisecond},
		{"11ms late, quiet machine", 0, 0, decoded(reply(req, "1"), limit+11*time.Millisecond), false, 0},
		{"60ms late, referee 40ms late", 40 * time.Millisecond, 0, decoded(reply(req, "1"), limit+60*time.Millisecond), false, 0},
		{"timed out, reply 30ms late, referee 40ms late", 40 * time.Millisecond, 0, exchange{timedOut: true, elapsed: limit, late: 30 * time.Millisecond}, true, 40 * time.Millisecond},
		{"timed out, deadline's timer fired 50ms late", 0, 0, exchange{timedOut: true, elapsed: limit, late: 30 * time.Millisecond, timerLate: 50 * time.Millisecond}, true, 50 * time.Millisecond},
		{"no reply in the watch", 40 * time.Millisecond, 0, exchange{timedOut: true, elapsed: limit, watched: time.Second}, false, 0},
		{"no reply, not watched", time.Second, 0, exchange{timedOut: true, elapsed: limit}, false, 0},
		{"11ms late, threads held back 20ms", 0, 20 * time.Millisecond, decoded(reply(req, "1"), limit+11*time.Millisecond), true, 20 * time.Millisecond},
		{"no reply in the watch, threads held back 2s", 0, 2 * time.Second, exchange{timedOut: true, elapsed: limit, watched: time.Second}, false, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := judgeRun(t, 0)
			g.r.load = LoadMeterFunc(func(time.Time, time.Time) Load { return Load{Late: tc.referee, Wait: tc.wait} })
			out := g.judge(0, 0, g.st.LegalMoves(0, nil), tc.ex)
			if out.reason != protocol.ReasonTimeForfeit {
				t.Fatalf("reason %q (%s), want a time forfeit", out.reason, out.detail)
			}
			if (out.overload != nil) != tc.excused {
				t.Fatalf("overload %+v, want excused %v", out.overload, tc.excused)
			}
			if tc.excused && out.overload.Late != tc.lateness {
				t.Errorf("referee lateness %v, want %v", out.overload.Late, tc.lateness)
			}
		})
	}
}

// lateAlice returns a referee of e measuring its lateness with load, and makes alice a
// player that replies 11ms after its deadline, bob an instant one.
func lateAlice(e *env, load LoadMeter) *Referee {
	e.t.Helper()
	ref, err := New(Config{Conn: e.refNC, Clock: e.clock, ID: "ref-load", Load: load})
	if err != nil {
		e.t.Fatal(err)
	}
	e.player("alice", func(req protocol.TurnRequest) []byte {
		e.clock.Advance(limit + 11*time.Millisecond)
		return lastLegal(req)
	})
	e.player("bob", lastLegal)
	return ref
}

// TestOverloadVoidsGame plays a game whose reply comes 11ms after the deadline: with the
// referee measured 40ms late then, the game is void (ErrOverloaded, also ErrVoided) and says
// why; on a quiet machine the same reply loses on time.
func TestOverloadVoidsGame(t *testing.T) {
	for _, referee := range []time.Duration{0, 40 * time.Millisecond} {
		t.Run(referee.String(), func(t *testing.T) {
			e := newEnv(t)
			ref := lateAlice(e, fixedLoad(referee))
			res, err := ref.Play(context.Background(), countMatch(t, "g1", "alice", "bob"))
			if referee == 0 {
				if err != nil || res.Reason != protocol.ReasonTimeForfeit || res.Forfeit != 0 {
					t.Fatalf("err %v, reason %q (%s); want alice's time forfeit", err, res.Reason, res.Detail)
				}
				return
			}
			if !errors.Is(err, ErrOverloaded) || !errors.Is(err, ErrVoided) {
				t.Fatalf("err %v, want ErrOverloaded and ErrVoided", err)
			}
			if res.Reason != protocol.ReasonAborted || res.Forfeit != -1 || res.Returns != nil ||
				res.Late != 11*time.Millisecond || res.Lateness != referee {
				t.Fatalf("result %+v", res)
			}
			for _, want := range []string{"void: the machine was overloaded", "it came 11ms after that", "the referee itself ran up to 40ms late"} {
				if !strings.Contains(res.Detail, want) {
					t.Errorf("detail %q lacks %q", res.Detail, want)
				}
			}
		})
	}
}

// TestTournamentReplaysOverloadedGames: a tournament reports a game voided by an overload
// to Tournament.Voided and plays it again; the second time the machine is quiet and the
// late player loses on time.
func TestTournamentReplaysOverloadedGames(t *testing.T) {
	e := newEnv(t)
	var calls int
	load := LoadMeterFunc(func(time.Time, time.Time) Load {
		calls++ // judge runs on the game's goroutine, one game at a time
		if calls == 1 {
			return Load{Late: 40 * time.Millisecond}
		}
		return Load{}
	})
	ref := lateAlice(e, load)
	m := countMatch(t, "t", "alice", "bob")
	var voided []Result
	var results []Result
	err := ref.RunTournament(context.Background(), Tournament{
		ID: "t", Game: m.Game, TC: m.TC,
		Schedule: []tournament.Pairing{{Index: 1, Round: 1, Players: []string{"alice", "bob"}}},
		Voided:   func(_ tournament.Pairing, res Result) { voided = append(voided, res) },
	}, func(_ context.Context, _ tournament.Pairing, res Result) error {
		results = append(results, res)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(voided) != 1 || voided[0].Lateness != 40*time.Millisecond {
		t.Fatalf("voided %+v, want one game with the referee 40ms late", voided)
	}
	if len(results) != 1 || results[0].Reason != protocol.ReasonTimeForfeit {
		t.Fatalf("results %+v, want one time forfeit", results)
	}
}
