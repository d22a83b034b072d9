package captureset

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/lab/gnugo"
	"github.com/arenaref/arena/lab/gnugo/gnugotest"
)

// shortRun is a real generation small enough for every test run: three 9x9 games.
func shortRun(t *testing.T) ([]Problem, Stats, Config) {
	t.Helper()
	cfg := Config{Sizes: []int{9}, Games: 3, Seed: 1, Program: gnugotest.Program(t)}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ps, stats, err := Generate(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return ps, stats, cfg
}

// TestGenerate checks a short real run: every record reads back as itself, keeps the
// set's promises, and GNU Go, given only the text, agrees with the recorded move.
func TestGenerate(t *testing.T) {
	ps, stats, cfg := shortRun(t)
	kinds := map[Kind]int{}
	for _, p := range ps {
		kinds[p.Kind]++
	}
	if kinds[Attack] == 0 || kinds[Defend] == 0 {
		t.Fatalf("%d attack and %d defence problems: want some of each (%s)", kinds[Attack], kinds[Defend], Summary(stats))
	}
	if stats.Total() != len(ps) || stats.Problems[9][Attack] != kinds[Attack] || stats.Games[9] != 3 {
		t.Errorf("stats %+v for %d problems", stats, len(ps))
	}

	var buf bytes.Buffer
	if err := WriteProblems(&buf, Header(cfg, stats, "x.tsv"), ps); err != nil {
		t.Fatal(err)
	}
	back, err := ReadProblems(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(ps) {
		t.Fatalf("%d problems read back, %d written", len(back), len(ps))
	}

	attacked := map[string]bool{} // board and target of every attack problem
	for _, p := range back {
		if p.Kind == Attack {
			attacked[boardKey(p.Position)+p.Position.Target.String()] = true
		}
	}
	e := startGNUGo(t)
	v := NewVerifier(e)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for i, p := range back {
		pos := p.Position
		owner := pos.Board.At(pos.Target)
		if p.String() != ps[i].String() {
			t.Errorf("%s read back as %s", ps[i], p)
		}
		if libs := len(pos.Board.Liberties(pos.Target)); libs < 2 || libs > 3 {
			t.Errorf("%s: the target has %d liberties", p.ID, libs)
		}
		if p.Kind == Attack && pos.ToMove != owner.Opponent() || p.Kind == Defend && pos.ToMove != owner {
			t.Errorf("%s: %s to move in a %s problem on a %s string", p.ID, pos.ToMove, p.Kind, owner)
		}
		if !strings.HasPrefix(p.Source, "gnugo-9x9-game") || !strings.HasPrefix(p.ID, "9x9-") {
			t.Errorf("%s: source %s", p.ID, p.Source)
		}
		if p.Kind == Defend && !attacked[boardKey(pos)+pos.Target.String()] {
			t.Errorf("%s: a defence problem without the attack problem that shows the threat", p.ID)
		}
		verdict, err := v.Check(ctx, p, p.Move)
		if err != nil {
			t.Fatal(err)
		}
		if verdict != Works {
			t.Errorf("%s: GNU Go's own move %v %v on the position read back", p.ID, p.Move, verdict)
		}
		if p.Kind == Defend {
			// The threat: had the defender passed, the attacker would capture.
			if err := v.setUpBoard(ctx, pos); err != nil {
				t.Fatal(err)
			}
			r, err := e.Attack(ctx, pos.Target)
			if err != nil {
				t.Fatal(err)
			}
			if r.Code != gnugo.Succeeds {
				t.Errorf("%s: a defence problem whose target GNU Go cannot attack (%v)", p.ID, r)
			}
		}
	}
}

// TestGenerateIsReproducible checks that the same configuration makes the same
// problems and counts.
func TestGenerateIsReproducible(t *testing.T) {
	a, sa, _ := shortRun(t)
	b, sb, _ := shortRun(t)
	lines := func(ps []Problem) []string {
		var s []string
		for _, p := range ps {
			s = append(s, p.String())
		}
		return s
	}
	if !slices.Equal(lines(a), lines(b)) {
		t.Errorf("two runs differ:\n%s\n--\n%s", strings.Join(lines(a), "\n"), strings.Join(lines(b), "\n"))
	}
	sa.Elapsed, sb.Elapsed = 0, 0
	if Summary(sa) != Summary(sb) {
		t.Errorf("counts differ: %s; %s", Summary(sa), Summary(sb))
	}
}

func TestHeader(t *testing.T) {
	cfg := Config{Sizes: []int{9, 19}, Seed: 7}
	s := newStats()
	s.GNUGo = "3.8"
	s.Games[9], s.Games[19] = 32, 7
	s.Problems[9] = map[Kind]int{Attack: 3, Defend: 2}
	s.Problems[19] = map[Kind]int{Attack: 1}
	s.Ko = 4
	h := strings.Join(Header(cfg, s, "out.tsv"), "\n")
	for _, want := range []string{
		"GNU Go 3.8",
		"Made by: arena capture-problems --out out.tsv --sizes 9,19 --seed 7 --level 1 --read-level 10",
		"6 problems: 9x9 3 attack + 2 defend from 32 games",
		"19x19 1 attack + 0 defend from 7 games",
		"4 ko results",
	} {
		if !strings.Contains(h, want) {
			t.Errorf("the header does not say %q:\n%s", want, h)
		}
	}
	if got := (Config{Games: 5}).Command("f"); !strings.Contains(got, "--games 5 --sizes 9,13,19 --seed 1") {
		t.Errorf("Command = %q", got)
	}
}

func TestConfigRefusals(t *testing.T) {
	for _, cfg := range []Config{
		{Sizes: []int{4}},
		{Sizes: []int{21}},
		{Games: -1},
		{Level: 30},
		{ReadLevel: -2},
	} {
		if _, _, err := Generate(context.Background(), cfg); err == nil {
			t.Errorf("Generate(%+v) accepted", cfg)
		}
	}
}

func TestDefaultGames(t *testing.T) {
	for size, want := range map[int]int{9: 32, 13: 15, 19: 7, 5: 104} {
		if got := DefaultGames(size); got != want {
			t.Errorf("DefaultGames(%d) = %d, want %d", size, got, want)
		}
	}
}

func TestGameSeeds(t *testing.T) {
	seen := map[uint32]bool{}
	for _, seed := range []uint32{1, 2, 1 << 31} {
		for _, size := range []int{9, 13, 19} {
			for game := 1; game <= 50; game++ {
				s := gameSeed(seed, size, game)
				if s == 0 || seen[s] {
					t.Fatalf("gameSeed(%d, %d, %d) = %d: zero or seen", seed, size, game, s)
				}
				seen[s] = true
			}
		}
	}
}

// BenchmarkGenerate times the generation of one 9x9 game's problems (GNU Go's play,
// reading and verification included) and reports the problems it yields.
func BenchmarkGenerate(b *testing.B) {
	program := gnugotest.Program(b)
	problems := 0
	for i := range b.N {
		ps, _, err := Generate(context.Background(), Config{Sizes: []int{9}, Games: 1, Seed: uint32(i + 1), Program: program})
		if err != nil {
			b.Fatal(err)
		}
		problems += len(ps)
	}
	b.ReportMetric(float64(problems)/float64(b.N), "problems/op")
}
