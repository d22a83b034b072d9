package captureset

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arenaref/arena/lab/gnugo"
)

// Config says how to generate a set. The zero value of each field takes its default.
type Config struct {
	Sizes     []int  // board sizes (default 9, 13, 19)
	Games     int    // games on each size (default DefaultGames of the size)
	Seed      uint32 // seeds every game's random choices (default 1)
	Level     int    // GNU Go's --level for play (default 1: fast, still plausible Go)
	ReadLevel int    // GNU Go's --level for the reading that labels (default 10, its own default)
	Program   string // GNU Go's path ("" finds it: gnugo.Find)
	// Log, when not nil, hears one line per game.
	Log io.Writer
}

// Defaults of Config.
const (
	DefaultSeed      = 1
	DefaultLevel     = 1
	DefaultReadLevel = 10
)

// DefaultSizes are the board sizes of a set made with the defaults.
var DefaultSizes = []int{9, 13, 19}

// DefaultGames is the number of games played on a size x size board when Config.Games
// is 0: about as many points of board on each size (32 games of 9x9, 15 of 13x13, 7 of
// 19x19), which gives each size a similar number of problems, the big boards having
// more strings per game.
func DefaultGames(size int) int { return max(1, 2600/(size*size)) }

// games is the number of games on a size x size board.
func (c Config) games(size int) int {
	if c.Games > 0 {
		return c.Games
	}
	return DefaultGames(size)
}

// withDefaults fills the zero fields and checks the others.
func (c Config) withDefaults() (Config, error) {
	if len(c.Sizes) == 0 {
		c.Sizes = DefaultSizes
	}
	for _, n := range c.Sizes {
		if n < 5 || n > 19 {
			return c, fmt.Errorf("captureset: board size %d: GNU Go plays 5x5 to 19x19", n)
		}
	}
	if c.Games < 0 {
		return c, fmt.Errorf("captureset: %d games", c.Games)
	}
	if c.Seed == 0 {
		c.Seed = DefaultSeed
	}
	if c.Level == 0 {
		c.Level = DefaultLevel
	}
	if c.ReadLevel == 0 {
		c.ReadLevel = DefaultReadLevel
	}
	for _, l := range []int{c.Level, c.ReadLevel} {
		if l < 1 || l > 20 {
			return c, fmt.Errorf("captureset: level %d: want 1 to 20", l)
		}
	}
	return c, nil
}

// Command is the arena command line that makes the set c describes, defaults written
// out, so that a file's header says exactly how to make it again.
func (c Config) Command(out string) string {
	c, _ = c.withDefaults()
	sizes := make([]string, len(c.Sizes))
	for i, n := range c.Sizes {
		sizes[i] = strconv.Itoa(n)
	}
	games := ""
	if c.Games > 0 {
		games = fmt.Sprintf(" --games %d", c.Games)
	}
	return fmt.Sprintf("arena capture-problems --out %s%s --sizes %s --seed %d --level %d --read-level %d",
		out, games, strings.Join(sizes, ","), c.Seed, c.Level, c.ReadLevel)
}

// schedule is when a game is sampled: every every plies from the first-th, once the
// opening has made some contact, to at most maxPlies.
type schedule struct{ first, every, maxPlies int }

// scheduleFor spreads the samples of a game over its length: a 9x9 game at level 1 lasts
// some 40 to 60 plies, a 19x19 one some 250.
func scheduleFor(size int) schedule {
	switch {
	case size <= 9:
		return schedule{first: 6, every: 2, maxPlies: 3 * size * size}
	case size <= 13:
		return schedule{first: 12, every: 3, maxPlies: 3 * size * size}
	}
	return schedule{first: 20, every: 4, maxPlies: 3 * size * size}
}

// Stats counts what a generation did.
type Stats struct {
	GNUGo       string // GNU Go's version
	Games       map[int]int
	Plies       map[int]int
	Samples     int // positions looked at
	Targets     int // strings of 2 or 3 liberties in them, duplicates left out
	Duplicate   int // strings left out as the same string in the same surroundings as one seen before
	Safe        int // targets GNU Go cannot capture even moving first
	Dead        int // targets GNU Go captures whoever moves first (an attack problem, no defence one)
	Ko          int // attack or defence results that hold only through a ko, dropped
	OddKo       int // problems dropped because GNU Go's ko point is not a ko of the text form
	Unconfirmed int // problems dropped because GNU Go's move did not verify on the position set up from the text, or it named none
	Problems    map[int]map[Kind]int
	Elapsed     time.Duration
}

func newStats() Stats {
	return Stats{Games: map[int]int{}, Plies: map[int]int{}, Problems: map[int]map[Kind]int{}}
}

// Total is the number of problems.
func (s Stats) Total() int {
	n := 0
	for _, k := range s.Problems {
		for _, c := range k {
			n += c
		}
	}
	return n
}

// Generate plays GNU Go against itself and makes capture problems from the games, as
// the package documentation describes. Three GNU Go processes run: the player, the
// reader that follows the game and labels, and the verifier. The result depends only on
// the configuration (and GNU Go's version).
func Generate(ctx context.Context, cfg Config) ([]Problem, Stats, error) {
	cfg, err := cfg.withDefaults()
	stats := newStats()
	if err != nil {
		return nil, stats, err
	}
	begin := time.Now()
	g := &generator{cfg: cfg, stats: &stats, seen: map[string]bool{}}
	defer g.close()
	if err := g.start(ctx); err != nil {
		return nil, stats, err
	}
	for _, size := range cfg.Sizes {
		for game := 1; game <= cfg.games(size); game++ {
			if err := g.play(ctx, size, game); err != nil {
				return nil, stats, fmt.Errorf("%dx%d game %d: %w", size, size, game, err)
			}
		}
	}
	stats.Elapsed = time.Since(begin)
	return g.problems, stats, nil
}

type generator struct {
	cfg                   Config
	stats                 *Stats
	player, reader, judge *gnugo.Engine
	verifier              *Verifier
	seen                  map[string]bool
	problems              []Problem
	perSize               map[int]int
}

func (g *generator) start(ctx context.Context) error {
	var err error
	if g.player, err = gnugo.Start(ctx, gnugo.Config{Program: g.cfg.Program, Level: g.cfg.Level, Seed: g.cfg.Seed}); err != nil {
		return err
	}
	read := gnugo.Config{Program: g.cfg.Program, Level: g.cfg.ReadLevel, Seed: g.cfg.Seed}
	if g.reader, err = gnugo.Start(ctx, read); err != nil {
		return err
	}
	if g.judge, err = gnugo.Start(ctx, read); err != nil {
		return err
	}
	g.verifier = NewVerifier(g.judge)
	g.perSize = map[int]int{}
	g.stats.GNUGo, err = g.player.Command(ctx, "version")
	return err
}

func (g *generator) close() {
	for _, e := range []*gnugo.Engine{g.player, g.reader, g.judge} {
		if e != nil {
			e.Close()
		}
	}
}

// gameSeed is the random seed of one game: distinct for every size and game, never 0
// (which GNU Go's --seed takes for "from the clock").
func gameSeed(seed uint32, size, game int) uint32 {
	x := uint64(seed)*1_000_003 + uint64(size)*10_007 + uint64(game)
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return uint32(x%(1<<31-1)) + 1
}

// gameTimeout bounds one game with its labelling, so that a reading that never ends
// stops the run with an error instead of hanging it. A 19x19 game takes well under a
// minute.
const gameTimeout = 10 * time.Minute

// play plays one game and collects its problems.
func (g *generator) play(ctx context.Context, size, game int) error {
	ctx, cancel := context.WithTimeout(ctx, gameTimeout)
	defer cancel()
	begin := time.Now()
	before := len(g.problems)
	for _, e := range []*gnugo.Engine{g.player, g.reader} {
		if err := e.BoardSize(ctx, size); err != nil {
			return err
		}
		if err := e.ClearBoard(ctx); err != nil {
			return err
		}
	}
	if err := g.player.SetRandomSeed(ctx, gameSeed(g.cfg.Seed, size, game)); err != nil {
		return err
	}
	sched := scheduleFor(size)
	st := gameState{board: NewBoard(size), toMove: gnugo.Black}
	passes, ply := 0, 0
	for ; ply < sched.maxPlies; ply++ {
		if ply >= sched.first && (ply-sched.first)%sched.every == 0 {
			if err := g.sample(ctx, st, fmt.Sprintf("gnugo-%dx%d-game%d-ply%d", size, size, game, ply)); err != nil {
				return fmt.Errorf("ply %d: %w", ply, err)
			}
		}
		m, err := g.player.GenMove(ctx, st.toMove)
		if err != nil {
			return err
		}
		if m.Resign {
			break
		}
		if err := g.reader.Play(ctx, st.toMove, m); err != nil {
			return err
		}
		if m.Pass {
			st.ko = nil
			if passes++; passes == 2 {
				ply++
				break
			}
		} else {
			passes = 0
			if err := st.play(m.Point); err != nil {
				return fmt.Errorf("ply %d: GNU Go played %s %v: %w", ply, st.toMove, m, err)
			}
		}
		st.toMove = st.toMove.Opponent()
	}
	g.stats.Games[size]++
	g.stats.Plies[size] += ply
	if g.cfg.Log != nil {
		fmt.Fprintf(g.cfg.Log, "%dx%d game %d/%d: %d plies, %d problems (%d in all) in %s\n",
			size, size, game, g.cfg.games(size), ply, len(g.problems)-before, len(g.problems), time.Since(begin).Round(time.Millisecond))
	}
	return nil
}

// gameState is the game as the generator follows it: the board, the player to move, and
// the point simple ko forbids that player, if any.
type gameState struct {
	board  *Board
	toMove gnugo.Color
	ko     *gnugo.Point
}

// play plays the player to move's stone at p. A lone stone that captures a lone stone
// and is left with that one liberty makes a ko: its opponent may not retake at once.
// This is GNU Go's rule for its ko point.
func (st *gameState) play(p gnugo.Point) error {
	captured, err := st.board.Play(st.toMove, p)
	if err != nil {
		return err
	}
	st.ko = nil
	if len(captured) == 1 && len(st.board.Chain(p)) == 1 && len(st.board.Liberties(p)) == 1 {
		k := captured[0]
		st.ko = &k
	}
	return nil
}

// errDesync: the generator's board and GNU Go's differ, which would make every label
// wrong.
var errDesync = errors.New("captureset: the board followed differs from GNU Go's")

// sample makes the problems of one position: every string of 2 or 3 liberties not seen
// before in the same surroundings.
func (g *generator) sample(ctx context.Context, st gameState, source string) error {
	if err := g.checkBoard(ctx, st.board); err != nil {
		return err
	}
	g.stats.Samples++
	for _, chain := range st.board.Strings() {
		libs := st.board.Liberties(chain[0])
		if len(libs) < MinLiberties || len(libs) > MaxLiberties {
			continue
		}
		key := surroundings(st.board, chain, st)
		if g.seen[key] {
			g.stats.Duplicate++
			continue
		}
		g.seen[key] = true
		g.stats.Targets++
		if err := g.label(ctx, st, chain[0], source); err != nil {
			return err
		}
	}
	return nil
}

// label asks GNU Go's reading about the string at target and keeps the problems where
// the side to move succeeds outright.
func (g *generator) label(ctx context.Context, st gameState, target gnugo.Point, source string) error {
	attack, err := g.reader.Attack(ctx, target)
	if err != nil {
		return err
	}
	switch {
	case attack.Code == gnugo.Fails:
		g.stats.Safe++
		return nil
	case attack.Code.IsKo():
		g.stats.Ko++
		return nil
	case attack.NoMove:
		g.stats.Unconfirmed++
		return nil
	}
	if err := g.keep(ctx, st, target, Attack, attack.Move, source); err != nil {
		return err
	}
	defend, err := g.reader.Defend(ctx, target)
	if err != nil {
		return err
	}
	switch {
	case defend.Code == gnugo.Fails:
		g.stats.Dead++
		return nil
	case defend.Code.IsKo():
		g.stats.Ko++
		return nil
	case defend.NoMove: // GNU Go sees no danger after all
		g.stats.Unconfirmed++
		return nil
	}
	return g.keep(ctx, st, target, Defend, defend.Move, source)
}

// keep makes a problem of kind from the position and GNU Go's move, and keeps it if the
// move verifies on the position set up from the problem's text.
func (g *generator) keep(ctx context.Context, st gameState, target gnugo.Point, kind Kind, move gnugo.Point, source string) error {
	size := st.board.Size()
	pos := Position{Board: st.board.Clone(), ToMove: kind.Winner(st.board.At(target)), Target: target}
	if st.ko != nil && pos.ToMove == st.toMove {
		pos.Ko, pos.HasKo = *st.ko, true
		if !pos.isKo(pos.Ko) {
			g.stats.OddKo++
			return nil
		}
	}
	p := Problem{ID: fmt.Sprintf("%dx%d-%03d", size, size, g.perSize[size]+1), Position: pos, Move: move, Kind: kind, Source: source}
	// The text is what users get: it must read back as the same problem.
	back, err := ParseProblem(p.String())
	if err != nil {
		return fmt.Errorf("%s: %w", source, err)
	}
	v, err := g.verifier.Check(ctx, back, back.Move)
	if err != nil {
		return err
	}
	if v != Works {
		g.stats.Unconfirmed++
		if g.cfg.Log != nil {
			fmt.Fprintf(g.cfg.Log, "dropped %s: GNU Go's move %v %v on the position set up from the text\n", p, p.Move, v)
		}
		return nil
	}
	g.perSize[size]++
	if g.stats.Problems[size] == nil {
		g.stats.Problems[size] = map[Kind]int{}
	}
	g.stats.Problems[size][kind]++
	g.problems = append(g.problems, p)
	return nil
}

// checkBoard compares the board the generator follows with GNU Go's.
func (g *generator) checkBoard(ctx context.Context, b *Board) error {
	gnu := NewBoard(b.Size())
	for _, c := range []gnugo.Color{gnugo.Black, gnugo.White} {
		stones, err := g.reader.ListStones(ctx, c)
		if err != nil {
			return err
		}
		for _, s := range stones {
			if !s.OnBoard(b.Size()) {
				return fmt.Errorf("%w: GNU Go lists %v", errDesync, s)
			}
			gnu.Set(s, c)
		}
	}
	if !gnu.Equal(b) {
		return errDesync
	}
	return nil
}

// surroundings is the key that makes two targets the same problem: the board size, the
// string's stones, and every point within two steps of them (their colours), with the
// ko point when it lies there. A string that moves on unchanged through a game, with
// play elsewhere, is one problem, not one a sample.
func surroundings(b *Board, chain []gnugo.Point, st gameState) string {
	stones := slices.Clone(chain)
	slices.SortFunc(stones, func(a, c gnugo.Point) int {
		if a.Row != c.Row {
			return a.Row - c.Row
		}
		return a.Col - c.Col
	})
	var k strings.Builder
	fmt.Fprintf(&k, "%d:", b.Size())
	for _, s := range stones {
		k.WriteString(s.String())
		k.WriteByte(',')
	}
	k.WriteByte(':')
	n := b.Size()
	for row := range n {
		for col := range n {
			p := gnugo.Point{Col: col, Row: row}
			near := false
			for _, s := range stones {
				if abs(s.Col-p.Col)+abs(s.Row-p.Row) <= 2 {
					near = true
					break
				}
			}
			if !near {
				continue
			}
			c := stoneChar[b.At(p)]
			if st.ko != nil && *st.ko == p {
				c = 'k'
			}
			k.WriteByte(c)
		}
	}
	return k.String()
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
