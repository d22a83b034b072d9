package web

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
)

// browser starts a headless Chromium for one test, or skips the test when there is none
// (failing instead when ARENA_REQUIRE_CHROMIUM is set, as in CI).
func browser(t *testing.T) context.Context {
	t.Helper()
	var path string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		if os.Getenv("ARENA_REQUIRE_CHROMIUM") != "" {
			t.Fatal("no chromium found and ARENA_REQUIRE_CHROMIUM is set")
		}
		t.Skip("no chromium found (apt-get install chromium); set ARENA_REQUIRE_CHROMIUM to fail instead")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-dev-shm-usage", true),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx, chromedp.WithErrorf(t.Logf))
	t.Cleanup(bcancel)
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return bctx
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](t *testing.T, ctx context.Context, js string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

// open loads a page and waits for an element.
func open(t *testing.T, ctx context.Context, url, css string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS(css))); err != nil {
		t.Fatalf("open %s: %v", url, err)
	}
}

// waitFor polls a JavaScript condition for up to five seconds.
func waitFor(ctx context.Context, js string) error { return waitWithin(ctx, js, 5*time.Second) }

// waitWithin polls a JavaScript condition for up to d.
func waitWithin(ctx context.Context, js string, d time.Duration) error {
	_, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](js, chromedp.WithPollingTimeout(d)))
	return err
}

// drawnJS is JavaScript reading the first board drawn from a drawing (svg.drawing) under
// sel, place by place, row by row from the top: X for a piece of seat 0, O for seat 1, -
// for none; an Othello position's squares, as its text writes them.
func drawnJS(sel string) string {
	return `(() => { const s = document.querySelector(` + strconv.Quote(sel+" svg.drawing") + `); if (!s) return "no drawing";
		const w = +s.dataset.width, cells = Array(w * +s.dataset.height).fill("-");
		for (const p of s.querySelectorAll("g.piece")) cells[+p.dataset.y * w + +p.dataset.x] = "XO"[+p.dataset.seat] || "?";
		return cells.join(""); })()`
}

// boardCellsJS reads the game page's board.
var boardCellsJS = drawnJS("#board")

// checkersJS reads the game page's checkers board square by square, 1 to 32, as
// checkersCells writes a position.
const checkersJS = `(() => { const s = document.querySelector("#board svg.drawing"); if (!s) return "no drawing";
	const cells = Array(32).fill("-");
	for (const p of s.querySelectorAll("g.piece")) {
		const x = +p.dataset.x, y = +p.dataset.y, c = "bw"[+p.dataset.seat];
		cells[y * 4 + Math.floor(x / 2)] = p.textContent === "K" ? c.toUpperCase() : c;
	}
	return cells.join(""); })()`

// TestBrowserGameBoard: the game page, stepped to the end with the right arrow key,
// draws the final position the store has.
func TestBrowserGameBoard(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t)
	hs := newTestServer(t, Config{Store: f.db})
	open(t, ctx, hs.URL+"/game.html?id="+strconv.FormatInt(f.othello.ID, 10), "#board svg.drawing")
	if got, want := eval[string](t, ctx, boardCellsJS), boardOf(f.othello.StartPosition); got != want {
		t.Fatalf("board at the start:\n got  %s\n want %s", got, want)
	}
	var keys []chromedp.Action[chromedp.Void]
	for range f.othello.Moves {
		keys = append(keys, chromedp.KeyEvent(kb.ArrowRight))
	}
	keys = append(keys, chromedp.KeyEvent(kb.ArrowRight)) // one past the end stays at the end
	if err := chromedp.Do(ctx, keys...); err != nil {
		t.Fatal(err)
	}
	if got, want := eval[string](t, ctx, boardCellsJS), boardOf(f.othello.FinalPosition); got != want {
		t.Errorf("board after the last move:\n got  %s\n want %s", got, want)
	}
	n := len(f.othello.Moves)
	if label := eval[string](t, ctx, `document.getElementById("ply").textContent`); label != fmt.Sprintf("ply %d of %d", n, n) {
		t.Errorf("ply label %q", label)
	}
	// One step back with the left arrow is the position before the last move.
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowLeft)); err != nil {
		t.Fatal(err)
	}
	g := recordedGameJSON(f.othello)
	if got, want := eval[string](t, ctx, boardCellsJS), boardOf(g.Moves[n-2].Position); got != want {
		t.Errorf("board one step back:\n got  %s\n want %s", got, want)
	}
}

// TestBrowserHostileName: a player named <script>window.pwned=1</script> is shown as text
// on the tournament and game pages, and its script never runs.
func TestBrowserHostileName(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t)
	hs := newTestServer(t, Config{Store: f.db, Standings: standingsOf(f.db)})
	for _, page := range []string{
		"/tournament.html?id=" + strconv.FormatInt(f.hostTID, 10),
		"/game.html?id=" + strconv.FormatInt(f.hostile.ID, 10),
	} {
		t.Run(page, func(t *testing.T) {
			open(t, ctx, hs.URL+page, "main table")
			if pwned := eval[string](t, ctx, `typeof window.pwned`); pwned != "undefined" {
				t.Errorf("window.pwned is %s: the name ran as script", pwned)
			}
			if text := eval[string](t, ctx, `document.body.textContent`); !strings.Contains(text, hostile) {
				t.Errorf("the name is not shown as text; page text: %.300s", text)
			}
			if n := eval[int](t, ctx, `document.querySelectorAll("script").length`); n != 1 {
				t.Errorf("%d script elements, want only app.js", n)
			}
		})
	}
}

// TestBrowserLive: the tournament page shows a game in progress from its events, board
// and all, and the game page opened mid-game has its moves so far.
func TestBrowserLive(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t)
	sub, pub := startNATS(t)
	hs := newTestServer(t, Config{Store: f.db, NATS: sub})
	sub.Flush()
	live := "t" + strconv.FormatInt(f.tid, 10) + "-2"
	publish(t, pub, protocol.GameEvent{Type: protocol.TypeEventStart, GameID: live, Game: "othello", Players: []string{"alice", hostile}, Position: start8})
	after := "-------------------X-------XX------XO--------------------------- O"
	publish(t, pub, protocol.GameEvent{Type: protocol.TypeEventMove, GameID: live, Game: "othello", Move: "d3", Position: after})
	liveCellsJS := drawnJS(".liveboard")
	open(t, ctx, hs.URL+"/tournament.html?id="+strconv.FormatInt(f.tid, 10), ".liveboard svg.drawing")
	if got := eval[string](t, ctx, liveCellsJS); got != boardOf(after) {
		t.Errorf("live board from the snapshot:\n got  %s\n want %s", got, boardOf(after))
	}
	// A small board has no coordinates and no line under it.
	if n := eval[int](t, ctx, `document.querySelectorAll(".liveboard svg.drawing text.coord, .liveboard .side").length`); n != 0 {
		t.Errorf("the small live board has %d coordinates and lines under it, want none", n)
	}
	// A move played while the page is open is drawn without a reload.
	next := "------------------OX-------OX------XO--------------------------- X"
	publish(t, pub, protocol.GameEvent{Type: protocol.TypeEventMove, GameID: live, Game: "othello", Ply: 1, Seat: 1, Move: "c3", Position: next})
	if err := waitFor(ctx, liveCellsJS+` === "`+boardOf(next)+`"`); err != nil {
		t.Errorf("live board after a move event: %v (board %s)", err, eval[string](t, ctx, liveCellsJS))
	}
	open(t, ctx, hs.URL+"/game.html?live="+live, "#board")
	if err := waitFor(ctx, `document.getElementById("ply").textContent === "ply 2 of 2"`); err != nil {
		t.Fatalf("live game page: %v (label %q)", err, eval[string](t, ctx, `document.getElementById("ply").textContent`))
	}
	if got := eval[string](t, ctx, boardCellsJS); got != boardOf(next) {
		t.Errorf("live game page board %s, want %s", got, boardOf(next))
	}
	if pwned := eval[string](t, ctx, `typeof window.pwned`); pwned != "undefined" {
		t.Errorf("window.pwned is %s", pwned)
	}
	// The game ends and is recorded: the page shows the result and points to the record.
	rec := store.Game{TournamentID: f.tid, Index: 2, Game: "othello", Players: []string{"alice", hostile}, Result: "1-0", Reason: "resigned",
		Scores: []float64{1, 0}, StartPosition: start8, FinalPosition: next,
		Moves: []store.Move{{Ply: 0, Seat: 0, Move: "d3"}, {Ply: 1, Seat: 1, Move: "c3"}}}
	id, err := f.db.RecordGame(context.Background(), rec)
	if err != nil {
		t.Fatal(err)
	}
	publish(t, pub, protocol.GameEvent{Type: protocol.TypeEventEnd, GameID: live, Game: "othello", Ply: 2, Position: next, Result: "1-0", Reason: "resigned"})
	link := fmt.Sprintf(`document.querySelector('main a[href="game.html?id=%d"]') !== null`, id)
	if err := waitFor(ctx, link); err != nil {
		t.Errorf("no link to the recorded game %d: %v", id, err)
	}
	if text := eval[string](t, ctx, `document.body.textContent`); !strings.Contains(text, "1-0 (resigned)") {
		t.Errorf("result not shown: %.300s", text)
	}
}

// checkersCells is what the board should show for a checkers position text, square 1 to
// 32: "b"/"w" for men, "B"/"W" for kings, "-" for empty.
func checkersCells(pos string) string {
	cells := []byte(strings.Repeat("-", 32))
	for _, part := range strings.Split(pos, ":")[1:] {
		if part == "" || (part[0] != 'W' && part[0] != 'B') {
			continue
		}
		colour := strings.ToLower(part[:1])
		for _, sq := range strings.Split(part[1:], ",") {
			c := colour
			if strings.HasPrefix(sq, "K") {
				c, sq = strings.ToUpper(colour), sq[1:]
			}
			if n, err := strconv.Atoi(sq); err == nil && n >= 1 && n <= 32 {
				cells[n-1] = c[0]
			}
		}
	}
	return string(cells)
}

// TestBrowserBoards: every game kind is drawn as the store has it, after End.
func TestBrowserBoards(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t)
	hs := newTestServer(t, Config{Store: f.db})
	extra := func(name string, maxPlies int) store.Game {
		tid, err := f.db.CreateTournament(context.Background(), store.Tournament{Game: name, Format: "round-robin", TimeControl: "1s", Players: []string{"alice", "bob"}})
		if err != nil {
			t.Fatal(err)
		}
		start, final, moves, _ := playOut(t, name, maxPlies, last)
		g := store.Game{TournamentID: tid, Index: 1, Game: name, Players: []string{"alice", "bob"}, Result: "0-1", Reason: "normal",
			Scores: []float64{0, 1}, StartPosition: start, FinalPosition: final, Moves: moves}
		if g.ID, err = f.db.RecordGame(context.Background(), g); err != nil {
			t.Fatal(err)
		}
		return g
	}
	for _, tc := range []struct {
		name  string
		g     store.Game
		cells string // JavaScript reading the board
		want  string
	}{
		{"othello 4x4", extra("othello:size=4", 100), boardCellsJS, ""},
		{"othello 6x6", extra("othello:size=6", 100), boardCellsJS, ""},
		{"checkers", f.checker, checkersJS, checkersCells(f.checker.FinalPosition)},
		{"giveaway", extra("giveaway", 40), checkersJS, ""},
		{"ipd", f.ipd, `Array.from(document.querySelectorAll("#board table.ipd tbody tr")).map(r => r.cells[1].textContent + r.cells[2].textContent).join(",")`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.want
			switch {
			case want != "":
			case strings.HasPrefix(tc.g.Game, "othello"):
				want = boardOf(tc.g.FinalPosition)
			case tc.g.Game == "giveaway":
				want = checkersCells(tc.g.FinalPosition)
			case tc.g.Game == "ipd":
				_, want, _ = strings.Cut(tc.g.FinalPosition, " ")
			}
			open(t, ctx, hs.URL+"/game.html?id="+strconv.FormatInt(tc.g.ID, 10), "#board")
			if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.End)); err != nil {
				t.Fatal(err)
			}
			if got := eval[string](t, ctx, tc.cells); got != want {
				t.Errorf("board at the end:\n got  %s\n want %s", got, want)
			}
		})
	}
}

// coordsJS reads the coordinates drawn around the game page's board: the column letters
// from the left and the row numbers from the top, each joined by commas, "a,b,c|1,2,3".
const coordsJS = `(() => { const s = document.querySelector("#board svg.drawing"); if (!s) return "no drawing";
	const read = (sel, key) => Array.from(s.querySelectorAll(sel)).sort((a, b) => a.dataset[key] - b.dataset[key]).map(e => e.textContent).join(",");
	return read("text.coord.col", "col") + "|" + read("text.coord.row", "row"); })()`

// newPlaceJS names the place of the piece the last move added on the game page's board
// by the coordinates drawn beside its column and its row, "d3".
const newPlaceJS = `(() => { const s = document.querySelector("#board svg.drawing"), p = s && s.querySelector("g.piece.new"); if (!p) return "no new piece";
	const col = s.querySelector('text.coord.col[data-col="' + p.dataset.x + '"]'), row = s.querySelector('text.coord.row[data-row="' + p.dataset.y + '"]');
	return (col ? col.textContent : "?") + (row ? row.textContent : "?"); })()`

// sideJS is the line under the game page's board, and its data-to-move.
const sideJS = `(() => { const e = document.querySelector("#board .drawn .side"); return e ? e.textContent + " [" + e.dataset.toMove + "]" : "no line"; })()`

// TestBrowserBoardText: what the boards write besides the pieces. Othello's board letters
// its files a to h over the columns and numbers its ranks 1 to 8 down the left (rank 1 at
// the top), so that a move's text names the square where its disc is drawn; under it,
// the discs by colour and whose move it is, from the rules. Checkers' empty dark squares
// show their numbers, and its line says whose move it is.
func TestBrowserBoardText(t *testing.T) {
	ctx := browser(t)
	f := newFixture(t)
	hs := newTestServer(t, Config{Store: f.db})

	open(t, ctx, hs.URL+"/game.html?id="+strconv.FormatInt(f.othello.ID, 10), "#board svg.drawing")
	if got, want := eval[string](t, ctx, coordsJS), "a,b,c,d,e,f,g,h|1,2,3,4,5,6,7,8"; got != want {
		t.Errorf("Othello's coordinates %q, want %q", got, want)
	}
	if got, want := eval[string](t, ctx, sideJS), "Black 2 - 2 White; Black to move [0]"; got != want {
		t.Errorf("at the start the line under the board is %q, want %q", got, want)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	first := f.othello.Moves[0].Move
	if got := eval[string](t, ctx, newPlaceJS); got != first {
		t.Errorf("the first move, %s, is drawn where the coordinates say %s", first, got)
	}
	if got, want := eval[string](t, ctx, sideJS), "Black 4 - 1 White; White to move [1]"; got != want {
		t.Errorf("after %s the line under the board is %q, want %q", first, got, want)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.End)); err != nil {
		t.Fatal(err)
	}
	if got := eval[string](t, ctx, sideJS); !strings.HasSuffix(got, "[-1]") || strings.Contains(got, "to move") {
		t.Errorf("at the end of the game the line under the board is %q, want the counts alone and to_move -1", got)
	}

	// numbersJS lists the squares whose number the checkers board shows, and says where
	// one is not its own square's number.
	const numbersJS = `(() => { const out = [];
		for (const m of document.querySelectorAll("#board svg.drawing text.marker.label")) {
			const sq = +m.dataset.y * 4 + Math.floor(+m.dataset.x / 2) + 1;
			out.push(String(sq) === m.textContent ? sq : "square " + sq + " shows " + m.textContent);
		}
		return out.sort((a, b) => a - b).join(","); })()`
	empties := func(pos string) string {
		var sq []string
		for i, c := range checkersCells(pos) {
			if c == '-' {
				sq = append(sq, strconv.Itoa(i+1))
			}
		}
		return strings.Join(sq, ",")
	}
	open(t, ctx, hs.URL+"/game.html?id="+strconv.FormatInt(f.checker.ID, 10), "#board svg.drawing")
	if got, want := eval[string](t, ctx, numbersJS), empties(f.checker.StartPosition); got != want || want != "13,14,15,16,17,18,19,20" {
		t.Errorf("checkers at the start shows the numbers %q, want those of its empty squares, %q", got, want)
	}
	if got, want := eval[string](t, ctx, sideJS), "Black 12 - 12 White; Black to move [0]"; got != want {
		t.Errorf("checkers at the start: the line under the board is %q, want %q", got, want)
	}
	if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.End)); err != nil {
		t.Fatal(err)
	}
	if got, want := eval[string](t, ctx, numbersJS), empties(f.checker.FinalPosition); got != want {
		t.Errorf("checkers at the end shows the numbers %q, want those of its empty squares, %q", got, want)
	}
	side := "Black"
	if strings.HasPrefix(f.checker.FinalPosition, "W") {
		side = "White"
	}
	if got := eval[string](t, ctx, sideJS); !strings.Contains(got, "; "+side+" to move [") {
		t.Errorf("checkers at the end (%s): the line under the board is %q, want %s to move", f.checker.FinalPosition, got, side)
	}
}
