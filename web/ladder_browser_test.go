package web

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/arenaref/arena/store"
)

// rowJS reads a cell of the leaderboard row of a player and version, or "" when there
// is no such row.
func rowJS(player, version, cell string) string {
	return fmt.Sprintf(`(() => { const r = Array.from(document.querySelectorAll("#leaderboard tbody tr"))
		.find(r => r.dataset.player === %q && r.querySelector("td.version").textContent === %q);
		return r ? r.querySelector("td.%s").textContent : ""; })()`, player, version, cell)
}

// TestBrowserLadder watches a ladder in Chromium while it is played: a built-in entrant
// and a student's engine, served over the bus, validate and play. The leaderboard counts
// games as they end and shows an entry that fails, its reason (markup from an engine)
// as text, without reloading; the projector view fits the window and refreshes; the
// student's entry page lists its games, newest first, and its earlier version, and a
// game's replay link opens the game's page with its moves; and once the deadline and
// the final have passed, the page says the standings are final. With ARENA_SCREENSHOTS
// set to a directory, it saves ladder.png and entry.png there for the documentation.
func TestBrowserLadder(t *testing.T) {
	ctx := browser(t)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1100, 800)); err != nil {
		t.Fatal(err)
	}
	a := newArena(t)
	id := a.create(t, ladderSpec("15s", "hp1", "student"), true)
	// The student's earlier version, replaced before the ladder began.
	old := addEntry(t, a.db, id, "student", "0.9", store.EntryRetired, "replaced by version 1")
	a.serve(t, "student", "1", 15*time.Millisecond, "")
	lt := a.run(t, id)
	ladderPage := lt.url + "/ladder.html?id=" + strconv.FormatInt(id, 10)

	open(t, ctx, ladderPage, "#leaderboard tbody tr")
	// A marker that a reload would wipe out.
	eval[bool](t, ctx, `window.arenaLoaded = true`)
	hp1Games := rowJS("hp1", "test", "games")
	if err := waitWithin(ctx, `Number(`+hp1Games+`) > 0`, 20*time.Second); err != nil {
		t.Fatalf("hp1 played no rated game in twenty seconds: %v", err)
	}
	before := eval[string](t, ctx, hp1Games)
	if err := waitWithin(ctx, `Number(`+hp1Games+`) > `+before, 10*time.Second); err != nil {
		t.Fatalf("hp1's games stayed at %s: %v", before, err)
	}
	t.Logf("hp1's games: %s, then %s", before, eval[string](t, ctx, hp1Games))

	t.Run("failed entry", func(t *testing.T) {
		addEntry(t, a.db, id, "mallory", hostileVersion, store.EntryFailed, hostileReason)
		status := rowJS("mallory", hostileVersion, "status")
		if err := waitFor(ctx, status+` !== ""`); err != nil {
			t.Fatalf("the failed entry did not appear: %v", err)
		}
		if got, want := eval[string](t, ctx, status), "failed: "+hostileReason; got != want {
			t.Errorf("status %q, want %q", got, want)
		}
		if pwned := eval[string](t, ctx, `typeof window.pwned`); pwned != "undefined" {
			t.Errorf("window.pwned is %s: the entry's markup ran", pwned)
		}
		if n := eval[int](t, ctx, `document.querySelectorAll("main img, main script").length`); n != 0 {
			t.Errorf("the entry's markup made %d elements", n)
		}
		if !eval[bool](t, ctx, `window.arenaLoaded === true`) {
			t.Error("the page was reloaded")
		}
		if dir := os.Getenv("ARENA_SCREENSHOTS"); dir != "" {
			time.Sleep(300 * time.Millisecond)
			screenshot(t, ctx, filepath.Join(dir, "ladder.png"))
		}
	})

	t.Run("projector", func(t *testing.T) {
		// A window too small for every row: the view keeps the top ones.
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(900, 200)); err != nil {
			t.Fatal(err)
		}
		defer chromedp.Do(ctx, chromedp.EmulateViewport(1100, 800))
		open(t, ctx, ladderPage+"&view=projector", "#leaderboard tbody tr")
		eval[bool](t, ctx, `window.arenaLoaded = true`)
		if n := eval[int](t, ctx, `document.querySelectorAll("main a").length`); n != 0 {
			t.Errorf("%d links on the projector", n)
		}
		if d := eval[string](t, ctx, `getComputedStyle(document.querySelector("header")).display`); d != "none" {
			t.Errorf("the page header shows on the projector (display %s)", d)
		}
		if px := eval[float64](t, ctx, `parseFloat(getComputedStyle(document.querySelector("#leaderboard td")).fontSize)`); px < 20 {
			t.Errorf("font size %.1fpx on the projector", px)
		}
		fits := `document.documentElement.scrollHeight <= window.innerHeight`
		rows := `document.querySelectorAll("#leaderboard tbody tr").length`
		if n := eval[int](t, ctx, rows); !eval[bool](t, ctx, fits) || n < 1 || n >= 4 {
			t.Errorf("%d of 4 rows shown, fitting %v", n, eval[bool](t, ctx, fits))
		}
		// The table, not the heading, whose countdown changes by itself.
		shown := `document.querySelector("#leaderboard tbody").textContent`
		was := eval[string](t, ctx, shown)
		if err := waitWithin(ctx, shown+` !== `+strconv.Quote(was), 10*time.Second); err != nil {
			t.Fatalf("the projector did not change in ten seconds: %v (still %q)", err, was)
		}
		if !eval[bool](t, ctx, `window.arenaLoaded === true`) || !eval[bool](t, ctx, fits) {
			t.Error("the projector reloaded, or no longer fits, to show the change")
		}
	})

	t.Run("index", func(t *testing.T) {
		open(t, ctx, lt.url+"/", "main table")
		link := fmt.Sprintf(`main a[href="ladder.html?id=%d"]`, id)
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(link)), chromedp.WaitVisible(chromedp.CSS("#leaderboard tbody tr"))); err != nil {
			t.Fatalf("follow %s from the list of tournaments: %v", link, err)
		}
	})

	t.Run("entry page", func(t *testing.T) {
		b := decode[ladderJSON](t, get(t, lt.url+"/api/ladders/"+strconv.FormatInt(id, 10)))
		var student int64
		for _, r := range b.Rows {
			if r.Player == "student" && r.Version == "1" {
				student = r.Entry
			}
		}
		open(t, ctx, ladderPage, "#leaderboard tbody tr")
		link := fmt.Sprintf(`#leaderboard tr[data-entry="%d"] td.player a`, student)
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(link)), chromedp.WaitVisible(chromedp.CSS("#games tbody tr"))); err != nil {
			t.Fatalf("follow %s: %v", link, err)
		}
		loc := eval[string](t, ctx, `location.pathname + location.search`)
		if want := fmt.Sprintf("/entry.html?ladder=%d&entry=%d", id, student); loc != want {
			t.Errorf("at %s, want %s", loc, want)
		}
		if n := eval[int](t, ctx, fmt.Sprintf(`document.querySelectorAll('#versions a[href="entry.html?ladder=%d&entry=%d"]').length`, id, old)); n != 1 {
			t.Errorf("%d links to the earlier version", n)
		}
		if text := eval[string](t, ctx, `document.getElementById("main").textContent`); strings.Contains(text, "undefined") || strings.Contains(text, "null") {
			t.Errorf("the entry page shows a missing value: %.500s", text)
		}
		indexes := eval[[]int](t, ctx, `Array.from(document.querySelectorAll("#games tbody tr")).map(r => Number(r.cells[0].textContent))`)
		if len(indexes) < 3 {
			t.Fatalf("%d games listed: %v", len(indexes), indexes)
		}
		for i := 1; i < len(indexes); i++ {
			if indexes[i] >= indexes[i-1] {
				t.Errorf("games not newest first: %v", indexes)
			}
		}
		if n := eval[int](t, ctx, `document.querySelectorAll('#games tbody tr a[href^="game.html?id="]').length`); n != len(indexes) {
			t.Errorf("%d replay links for %d games", n, len(indexes))
		}
		if dir := os.Getenv("ARENA_SCREENSHOTS"); dir != "" {
			screenshot(t, ctx, filepath.Join(dir, "entry.png"))
		}
		// The oldest game, a validation game: its replay link opens its page.
		if phase := eval[string](t, ctx, `document.querySelector("#games tbody tr:last-child").cells[1].textContent`); phase != store.PhaseValidation {
			t.Errorf("the oldest game's phase is %q", phase)
		}
		if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#games tbody tr:last-child a[href^="game.html?id="]`)),
			chromedp.WaitVisible(chromedp.CSS("#board svg.drawing"))); err != nil {
			t.Fatalf("follow the replay link: %v", err)
		}
		gid, err := strconv.ParseInt(strings.TrimPrefix(eval[string](t, ctx, `location.search`), "?id="), 10, 64)
		if err != nil {
			t.Fatalf("game page at %s", eval[string](t, ctx, `location.href`))
		}
		g, err := a.db.Game(context.Background(), gid)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(g.Players, "student") || !slices.Contains(g.Players, "random") {
			t.Errorf("the oldest game listed is %v's, want the student's against random", g.Players)
		}
		if n := eval[int](t, ctx, `document.querySelectorAll("#moves tbody tr").length`); n != len(g.Moves)+1 {
			t.Errorf("%d rows in the move list, want the start and %d moves", n, len(g.Moves))
		}
		if err := chromedp.Do(ctx, chromedp.KeyEvent(kb.End)); err != nil {
			t.Fatal(err)
		}
		if got, want := eval[string](t, ctx, boardCellsJS), boardOf(g.FinalPosition); got != want {
			t.Errorf("game %d after End:\n got  %s\n want %s", gid, got, want)
		}
		if n := eval[int](t, ctx, fmt.Sprintf(`document.querySelectorAll('main a[href="ladder.html?id=%d"]').length`, id)); n != 1 {
			t.Errorf("the game page has %d links to its ladder", n)
		}
	})

	t.Run("frozen", func(t *testing.T) {
		open(t, ctx, ladderPage, "#leaderboard tbody tr")
		eval[bool](t, ctx, `window.arenaLoaded = true`)
		if err := waitWithin(ctx, `document.getElementById("phase").textContent.includes("final standings, frozen")`, 40*time.Second); err != nil {
			t.Fatalf("the ladder did not finish: %v; phase %q", err, eval[string](t, ctx, `document.getElementById("phase").textContent`))
		}
		if !eval[bool](t, ctx, `window.arenaLoaded === true`) {
			t.Error("the page was reloaded")
		}
		if text := eval[string](t, ctx, `document.getElementById("main").textContent`); strings.Contains(text, "undefined") || strings.Contains(text, "null") {
			t.Errorf("the ladder page shows a missing value: %.500s", text)
		}
		for _, r := range []struct{ player, version string }{{"hp1", "test"}, {"student", "1"}} {
			status := eval[string](t, ctx, rowJS(r.player, r.version, "status"))
			final := eval[string](t, ctx, rowJS(r.player, r.version, "final"))
			if !strings.HasSuffix(status, ", finalist") || !strings.Contains(final, "/") {
				t.Errorf("%s %s: status %q, final %q", r.player, r.version, status, final)
			}
		}
	})
}
