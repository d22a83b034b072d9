package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/arenaref/arena/internal/testutil/lockedbuf"
	"github.com/arenaref/arena/store/sqlite"
)

var webViewLine = regexp.MustCompile(`web view: (http://127\.0\.0\.1:[0-9]+/)`)

// TestTournamentHTTP runs a tournament with --http on a free port and reads its web view
// while it plays: the tournament is running, the games the database holds are the ones
// the view lists, the live stream carries the games in progress (so the view follows the
// tournament's own bus), and the view goes when the command ends.
func TestTournamentHTTP(t *testing.T) {
	dbPath := filepath.Join(t.TempDir(), "arena.db")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout bytes.Buffer
	var stderr lockedbuf.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"tournament", "--players", "random,hp1,hp2", "--rounds", "500", "--tc", "20ms",
			"--db", dbPath, "--seed", "5", "--http", "127.0.0.1:0"}, &stdout, &stderr)
	}()
	var base string
	deadline := time.Now().Add(time.Minute)
	for base == "" {
		if m := webViewLine.FindStringSubmatch(stderr.String()); m != nil {
			base = m[1]
			break
		}
		select {
		case code := <-done:
			t.Fatalf("tournament ended (exit %d) without a web view; stderr:\n%s", code, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no web view URL on stderr after a minute:\n%s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	client := &http.Client{Timeout: 10 * time.Second}

	// The live stream: a game's event arrives from the tournament's bus.
	live, err := client.Get(base + "api/live?tournament=1")
	if err != nil {
		t.Fatal(err)
	}
	if ct := live.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/event-stream") {
		t.Fatalf("/api/live Content-Type %q", ct)
	}
	events := make(chan string, 1)
	go func() {
		defer live.Body.Close()
		sc := bufio.NewScanner(live.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var event string
		for sc.Scan() {
			line := sc.Text()
			if e, ok := strings.CutPrefix(line, "event: "); ok {
				event = e
			}
			if d, ok := strings.CutPrefix(line, "data: "); ok && event != "snapshot" && event != "" {
				if strings.Contains(d, `"tournament_id":1`) || strings.Contains(d, `"t1-`) {
					events <- event + " " + d
					return
				}
			}
		}
		close(events)
	}()
	select {
	case ev, ok := <-events:
		if !ok {
			t.Fatal("live stream ended with no event of tournament 1")
		}
		t.Logf("live event: %.120s", ev)
	case <-time.After(time.Minute):
		t.Fatal("no live event of tournament 1 in a minute")
	}

	// The tournament as the view shows it, once a game is stored, against the database.
	var doc struct {
		Tournament struct {
			Status string `json:"status"`
			Played int    `json:"played"`
			Total  int    `json:"total"`
		} `json:"tournament"`
		Games []struct {
			ID    int64 `json:"id"`
			Plies int   `json:"plies"`
		} `json:"games"`
	}
	for {
		if time.Now().After(deadline) {
			t.Fatalf("no game listed after a minute: %+v", doc)
		}
		resp, err := client.Get(base + "api/tournaments/1")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("/api/tournaments/1: %s %s", resp.Status, body)
		}
		if err := json.Unmarshal(body, &doc); err != nil {
			t.Fatalf("/api/tournaments/1: %v\n%s", err, body)
		}
		if len(doc.Games) >= 2 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if doc.Tournament.Status != "running" || doc.Tournament.Total != 3000 || doc.Tournament.Played < len(doc.Games) {
		t.Errorf("tournament in the view: %+v; want running, 3000 games, played at least the %d listed", doc.Tournament, len(doc.Games))
	}
	db, err := sqlite.Open(context.Background(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	stored, err := db.Games(context.Background(), 1)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) < len(doc.Games) || stored[0].ID != doc.Games[0].ID || len(stored[0].Moves) == 0 || doc.Games[0].Plies == 0 {
		t.Errorf("view lists %d games (first %+v); database holds %d", len(doc.Games), doc.Games[0], len(stored))
	}

	cancel()
	if code := <-done; code != 1 {
		t.Fatalf("interrupted tournament exit %d, want 1; stderr:\n%s", code, stderr.String())
	}
	// The view went with the command.
	if resp, err := client.Get(base + "api/tournaments"); err == nil {
		resp.Body.Close()
		t.Errorf("web view still answers after the tournament ended: %s", resp.Status)
	}
}

// TestHTTPFlagChecks: the web view is refused beyond loopback without --insecure-http,
// before anything is played or written.
func TestHTTPFlagChecks(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"tournament non-loopback", []string{"tournament", "--players", "random,hp1", "--http", "0.0.0.0:0"}, "--insecure-http"},
		{"match non-loopback", []string{"match", "random", "hp1", "--http", ":8080"}, "--insecure-http"},
		{"referee non-loopback", []string{"referee", "--http", "192.0.2.1:8080"}, "--insecure-http"},
		{"no port", []string{"tournament", "--players", "random,hp1", "--http", "127.0.0.1"}, "want HOST:PORT"},
		{"insecure alone", []string{"match", "random", "hp1", "--insecure-http"}, "--insecure-http goes with --http"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".db")
			code, _, stderr := runCLI(t, append(tc.args, "--db", db)...)
			if code != 2 || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit %d, stderr %q; want 2 and %q", code, stderr, tc.want)
			}
			if _, err := os.Stat(db); err == nil {
				t.Errorf("the database was created")
			}
		})
	}
}
