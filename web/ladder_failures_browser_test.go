package web

import (
	"context"
	"strconv"
	"testing"

	"github.com/arenaref/arena/store"
)

// TestBrowserLadderEngineFailures shows a ladder's page in Chromium with two submitted
// engines whose newest version failed, one to build with markup in its log: the table of
// failures shows each with its state and the last line of its log, as text, and the
// markup never runs; an engine whose newest version runs is not listed.
func TestBrowserLadderEngineFailures(t *testing.T) {
	ctx := browser(t)
	a := newArena(t)
	id := a.create(t, ladderSpec("1h", "hp1", "mallory", "bob", "carol"), true)
	bg := context.Background()
	submit := func(name, state, log string) {
		t.Helper()
		s, err := a.db.AddSubmission(bg, store.Submission{Name: name, Archive: []byte("x")})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.db.SetSubmissionState(bg, name, s.Version, state, log); err != nil {
			t.Fatal(err)
		}
	}
	submit("mallory", store.SubmissionBuildFailed, "engine.c:1: warning\n"+hostileReason+"\n")
	submit("bob", store.SubmissionRunFailed, "Traceback\nZeroDivisionError: division by zero\n")
	submit("carol", store.SubmissionBuildFailed, "error")
	submit("carol", store.SubmissionRunning, "")
	submit("stranger", store.SubmissionBuildFailed, "not on the roster")
	hs := newTestServer(t, Config{Store: a.db})
	open(t, ctx, hs.URL+"/ladder.html?id="+strconv.FormatInt(id, 10), "#engine-failures tbody tr")

	got := eval[[]string](t, ctx, `Array.from(document.querySelectorAll("#engine-failures tbody tr")).map(r => r.textContent)`)
	want := []string{"bobs1run failedZeroDivisionError: division by zero", "mallorys1build failed" + hostileReason}
	if len(got) != len(want) {
		t.Fatalf("rows %q, want %d", got, len(want))
	}
	for i := range want {
		// The last cell is the time, in the browser's locale.
		if len(got[i]) < len(want[i]) || got[i][:len(want[i])] != want[i] {
			t.Errorf("row %d: %q, want it to begin %q", i, got[i], want[i])
		}
	}
	if pwned := eval[string](t, ctx, `typeof window.pwned`); pwned != "undefined" {
		t.Errorf("window.pwned is %s: the log's markup ran", pwned)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll("main img, main script").length`); n != 0 {
		t.Errorf("the log's markup made %d elements", n)
	}
}
