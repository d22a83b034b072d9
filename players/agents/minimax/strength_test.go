package minimax

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/players/agents/heuristic"
)

// openings reads the first count lines of the 5-ply opening file.
func openings(t testing.TB, count int) [][]string {
	t.Helper()
	f, err := os.Open("../../../games/othello/openings/othello-5ply.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var all [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			all = append(all, strings.Fields(line))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	// Spread the picks over the file, which is sorted.
	out := make([][]string, count)
	for i := range out {
		out[i] = all[i*len(all)/count]
	}
	return out
}

// TestStrength is a quick in-process sanity check, not the measurement (that is done
// over NATS with the arena): at depth 4 the agent beats hp1 and hp2 in at least 90% of
// 20 games each, from 10 openings with each colour.
func TestStrength(t *testing.T) {
	ops := openings(t, 10)
	for _, opp := range []struct {
		name  string
		agent agent.Agent
	}{{"hp1", heuristic.NewHP1(1, heuristic.TiesRandom)}, {"hp2", heuristic.NewHP2(1, heuristic.TiesRandom)}} {
		mm := newAgent(t, map[string]string{"depth": "4", "exact": "10"})
		wins, draws, losses, margin := 0, 0, 0, 0
		for g := range 20 {
			agents, me := [2]agent.Agent{mm, opp.agent}, othello.Black
			if g%2 == 1 {
				agents, me = [2]agent.Agent{opp.agent, mm}, othello.White
			}
			s := playGame(t, agents, ops[g/2], 8, 0)
			d := s.Margin()
			if me == othello.White {
				d = -d
			}
			margin += d
			switch {
			case d > 0:
				wins++
			case d < 0:
				losses++
			default:
				draws++
			}
		}
		score := float64(wins) + float64(draws)/2
		t.Logf("minimax depth 4 against %s: %d wins, %d draws, %d losses (%.0f%%), mean margin %+.1f discs",
			opp.name, wins, draws, losses, 100*score/20, float64(margin)/20)
		if score < 18 {
			t.Errorf("against %s: %s, want at least 90%%", opp.name, fmt.Sprintf("%.1f/20", score))
		}
	}
}
