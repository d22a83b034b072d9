package web

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/bus/embedded"
	"github.com/arenaref/arena/organizer"
	_ "github.com/arenaref/arena/players/agents/heuristic" // played by the tournaments below
	_ "github.com/arenaref/arena/players/agents/minimax"   // played by the tournaments below
	"github.com/arenaref/arena/players/player"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/referee"
	"github.com/arenaref/arena/store"
	"github.com/arenaref/arena/store/sqlite"
)

// hostileNote is what the external player of a live tournament says about every move.
// Player names cannot carry markup (protocol names are letters, digits, '-' and '_'), but
// an engine's search note is free text from the player, shown on the game pages.
const hostileNote = `<script>window.pwned=1</script><img src=x onerror="window.pwned=2">`

// liveTournament is a real tournament played while a test watches: an embedded NATS
// server, the referee and the organizer's Director in-process, built-in agents and one
// external player that takes pace before each move, recorded in SQLite and served by a
// Server that follows the games on the same bus.
type liveTournament struct {
	db   *sqlite.DB
	id   int64
	url  string
	done chan referee.Result // finished games, as the Director records them (some dropped when nobody reads)
	errc chan error          // Run's result
}

// arena is what a live tournament is played with, for one test: an embedded NATS
// server, the referee with its lobby, a Director and its SQLite store.
type arena struct {
	ctx  context.Context // ends with the test
	nats string
	db   *sqlite.DB
	d    *organizer.Director
}

func newArena(t *testing.T) *arena {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	srv, err := embedded.Start(embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	a := &arena{ctx: ctx, nats: srv.URL()}
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "arena.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ref, err := referee.New(referee.Config{Conn: a.conn(t, "referee"), Log: zerolog.Nop()})
	if err != nil {
		t.Fatal(err)
	}
	if err := ref.StartLobby(ctx, 100*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	a.db = db
	a.d = organizer.New(organizer.Config{Store: db, Referee: ref, NATSURL: a.nats, Version: "test", Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)})
	t.Cleanup(a.d.Close)
	return a
}

func (a *arena) conn(t *testing.T, name string) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect(a.nats, nats.Name(name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// serve plays an external player, name at version, over the bus until the test ends or
// the returned stop is called: it waits pace before each move, then plays the move that
// leaves the opponent fewest replies (a real game, not a walkover), with note as its
// search note.
func (a *arena) serve(t *testing.T, name, version string, pace time.Duration, note string) (stop func()) {
	t.Helper()
	play := agent.Func(func(ctx context.Context, turn agent.Turn) (agent.Decision, error) {
		select {
		case <-time.After(pace):
		case <-ctx.Done():
		}
		best, fewest := turn.Legal[0], 1<<30
		for _, m := range turn.Legal {
			st := turn.State.Clone()
			if err := st.Play(m); err != nil {
				continue
			}
			n := len(st.LegalMoves(st.ToMove(), nil))
			if n < fewest {
				best, fewest = m, n
			}
		}
		return agent.Decision{Move: best, Info: protocol.SearchInfo{Depth: 1, Nodes: int64(len(turn.Legal)), Note: note}}, nil
	})
	pctx, cancel := context.WithCancel(a.ctx)
	pc := a.conn(t, name)
	served := make(chan struct{})
	go func() {
		defer close(served)
		cfg := player.Config{Name: name, Agent: "fewest-replies", Version: version, Log: zerolog.New(zerolog.NewTestWriter(t)).Level(zerolog.WarnLevel)}
		if err := player.Serve(pctx, pc, cfg, play); err != nil && pctx.Err() == nil {
			t.Errorf("player %s: %v", name, err)
		}
	}()
	stop = func() { cancel(); <-served }
	t.Cleanup(stop)
	return stop
}

// create makes a tournament of spec.
func (a *arena) create(t *testing.T, spec organizer.Spec, external bool) int64 {
	t.Helper()
	id, _, err := a.d.Create(a.ctx, spec, "", external)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// run plays tournament id until the test ends, served by a Server that follows its games.
func (a *arena) run(t *testing.T, id int64) *liveTournament {
	t.Helper()
	db := a.db
	standings := func(ctx context.Context, t store.Tournament, games []store.GameSummary) ([]protocol.StandingsRow, error) {
		return organizer.StandingsOf(ctx, db, t, games)
	}
	hs := newTestServer(t, Config{Store: db, NATS: a.conn(t, "web"), Standings: standings})
	lt := &liveTournament{db: db, id: id, url: hs.URL, done: make(chan referee.Result, 64), errc: make(chan error, 1)}
	ctx, cancel := context.WithCancel(a.ctx)
	go func() {
		lt.errc <- a.d.Run(ctx, id, nil, func(_, _ int, res referee.Result) {
			// A ladder plays more games than a test reads: never hold it up.
			select {
			case lt.done <- res:
			default:
			}
		})
	}()
	// Run ends with the test: the server and the store close after it.
	t.Cleanup(func() {
		cancel()
		select {
		case <-lt.errc:
		case <-time.After(30 * time.Second):
			t.Error("the tournament did not stop")
		}
	})
	return lt
}

// startLiveTournament plays spec (its external player, if slow is not empty, answered by
// serve with pace and note) and serves it.
func startLiveTournament(t *testing.T, spec organizer.Spec, slow string, pace time.Duration, note string) *liveTournament {
	t.Helper()
	a := newArena(t)
	if slow != "" {
		a.serve(t, slow, "1", pace, note)
	}
	return a.run(t, a.create(t, spec, slow != ""))
}

// nextGame waits for the next recorded game and returns it as stored.
func (lt *liveTournament) nextGame(t *testing.T) store.Game {
	t.Helper()
	select {
	case res := <-lt.done:
		games, err := lt.db.Games(context.Background(), lt.id)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range games {
			if "t"+strconv.FormatInt(lt.id, 10)+"-"+strconv.Itoa(g.Index) == res.GameID {
				return g
			}
		}
		t.Fatalf("game %s finished but is not in the store", res.GameID)
	case err := <-lt.errc:
		t.Fatalf("the tournament ended: %v", err)
	case <-time.After(2 * time.Minute):
		t.Fatal("no game finished in two minutes")
	}
	panic("unreachable")
}

var liveBoardJS = drawnJS(".liveboard")

// TestBrowserLiveTournament watches a real tournament in Chromium: a move arrives on the
// tournament page's live board without a reload; a finished game's record, stepped to
// its end with the End key, draws the final position the database holds; and an engine's
// note made of markup is shown as text on the pages, never run.
func TestBrowserLiveTournament(t *testing.T) {
	ctx := browser(t)
	s := organizer.DefaultSpec()
	s.Players = []string{"hp1", "slowpoke"}
	s.TimeControl = "2s"
	s.Rounds = 2
	s.Seed = 11
	s.Wait = organizer.Duration{Duration: 20 * time.Second}
	lt := startLiveTournament(t, s, "slowpoke", 150*time.Millisecond, hostileNote)

	tournamentPage := lt.url + "/tournament.html?id=" + strconv.FormatInt(lt.id, 10)
	open(t, ctx, tournamentPage, ".liveboard svg.drawing")
	// A marker that a reload would wipe out.
	eval[bool](t, ctx, `window.arenaLoaded = true`)
	before := eval[string](t, ctx, liveBoardJS)
	if len(before) != 64 {
		t.Fatalf("live board has %d cells: %q", len(before), before)
	}
	if err := waitFor(ctx, liveBoardJS+` !== "`+before+`"`); err != nil {
		t.Fatalf("the live board did not change in five seconds: %v (still %s)", err, before)
	}
	if !eval[bool](t, ctx, `window.arenaLoaded === true`) {
		t.Fatal("the page was reloaded to show the move")
	}
	if pwned := eval[string](t, ctx, `typeof window.pwned`); pwned != "undefined" {
		t.Errorf("window.pwned is %s on the tournament page", pwned)
	}

	g := lt.nextGame(t)
	if len(g.Moves) < 10 || g.FinalPosition == "" {
		t.Fatalf("recorded game %d: %d moves, final %q", g.ID, len(g.Moves), g.FinalPosition)
	}
	open(t, ctx, lt.url+"/game.html?id="+strconv.FormatInt(g.ID, 10), "#board svg.drawing")
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.End)); err != nil {
		t.Fatal(err)
	}
	if got, want := eval[string](t, ctx, boardCellsJS), boardOf(g.FinalPosition); got != want {
		t.Errorf("recorded game %d after End:\n got  %s\n want %s", g.ID, got, want)
	}
	// One step back is not the final position: the keys move the board.
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft)); err != nil {
		t.Fatal(err)
	}
	if got := eval[string](t, ctx, boardCellsJS); got == boardOf(g.FinalPosition) {
		t.Errorf("left arrow after End left the final position on the board")
	}
	if text := eval[string](t, ctx, `document.body.textContent`); !strings.Contains(text, hostileNote) {
		t.Errorf("the engine's note is not shown as text; page text: %.400s", text)
	}
	if pwned := eval[string](t, ctx, `typeof window.pwned`); pwned != "undefined" {
		t.Errorf("window.pwned is %s on the game page: the note ran", pwned)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("main script, main img").length`); n != 0 {
		t.Errorf("the note made %d elements", n)
	}
}

// maxScreenshot keeps the documentation's images small.
const maxScreenshot = 150 << 10

// screenshot saves a PNG of the browser's viewport at path: the viewport only, since a
// long move list would make a page image too big for the docs.
func screenshot(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG")) || len(png) > maxScreenshot {
		t.Errorf("%s: %d bytes, PNG %v; want a PNG of at most %d bytes", path, len(png), bytes.HasPrefix(png, []byte("\x89PNG")), maxScreenshot)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d bytes", path, len(png))
}

// TestScreenshots saves a PNG of each page during a live tournament into the directory
// ARENA_SCREENSHOTS names (docs/web for the documentation):
//
//	ARENA_SCREENSHOTS=$PWD/docs/web go test ./web -run TestScreenshots
func TestScreenshots(t *testing.T) {
	dir := os.Getenv("ARENA_SCREENSHOTS")
	if dir == "" {
		t.Skip("set ARENA_SCREENSHOTS to a directory to save screenshots of the pages")
	}
	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1100, 800)); err != nil {
		t.Fatal(err)
	}
	s := organizer.DefaultSpec()
	s.Players = []string{"minimax", "hp1", "d3", "steady"}
	s.Agents = map[string]agent.Spec{"d3": {Agent: "minimax", Params: map[string]string{"depth": "3"}}}
	s.TimeControl = "2s"
	s.Seed = 5
	s.Wait = organizer.Duration{Duration: 20 * time.Second}
	lt := startLiveTournament(t, s, "steady", 120*time.Millisecond, "")

	shot := func(name, url, css string, keys ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		open(t, ctx, url, css)
		if err := chromedp.Do(ctx, keys...); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond) // let the graph and live boards draw
		screenshot(t, ctx, filepath.Join(dir, name))
	}
	// Wait for a couple of games so the standings and lists have something in them, with
	// one of d3's (it reports its search) among them.
	var searched store.Game
	for searched.ID == 0 {
		g := lt.nextGame(t)
		if g.Players[0] == "d3" || g.Players[1] == "d3" {
			searched = g
		}
	}
	id := strconv.FormatInt(lt.id, 10)
	shot("tournaments.png", lt.url+"/", "main table")
	shot("tournament.png", lt.url+"/tournament.html?id="+id, ".liveboard svg.drawing")
	// The game page in the middle game, its graph marking the ply shown.
	mid := []chromedp.Action[chromedp.Void]{chromedp.KeyEvent(kb.End)}
	for range 24 {
		mid = append(mid, chromedp.KeyEvent(kb.ArrowLeft))
	}
	shot("game.png", lt.url+"/game.html?id="+strconv.FormatInt(searched.ID, 10), "#board svg.drawing", mid...)
	shot("player.png", lt.url+"/player.html?name=d3", "main table")
}
