package web

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/arenaref/arena/bus/embedded"
	"github.com/arenaref/arena/protocol"
)

// sse reads Server-Sent Events from a stream.
type sse struct {
	t    *testing.T
	resp *http.Response
	r    *bufio.Reader
	ch   chan sseEvent
}

type sseEvent struct {
	name, data string
	err        error
}

func openSSE(t *testing.T, url string) *sse {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	s := &sse{t: t, resp: resp, r: bufio.NewReader(resp.Body), ch: make(chan sseEvent, 100)}
	go func() {
		var ev sseEvent
		for {
			line, err := s.r.ReadString('\n')
			if err != nil {
				s.ch <- sseEvent{err: err}
				close(s.ch)
				return
			}
			line = strings.TrimRight(line, "\n")
			switch {
			case line == "":
				if ev.name != "" || ev.data != "" {
					s.ch <- ev
				}
				ev = sseEvent{}
			case strings.HasPrefix(line, "event: "):
				ev.name = line[len("event: "):]
			case strings.HasPrefix(line, "data: "):
				ev.data += line[len("data: "):]
			}
		}
	}()
	return s
}

// next returns the next event, failing after a second.
func (s *sse) next() sseEvent {
	s.t.Helper()
	select {
	case ev, ok := <-s.ch:
		if !ok || ev.err != nil {
			s.t.Fatalf("stream ended: %v", ev.err)
		}
		return ev
	case <-time.After(time.Second):
		s.t.Fatal("no event within a second")
	}
	return sseEvent{}
}

func startNATS(t *testing.T) (sub, pub *nats.Conn) {
	t.Helper()
	srv, err := embedded.Start(embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Shutdown)
	for _, c := range []**nats.Conn{&sub, &pub} {
		nc, err := nats.Connect(srv.URL())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		*c = nc
	}
	return sub, pub
}

func publish(t *testing.T, nc *nats.Conn, ev protocol.GameEvent) {
	t.Helper()
	ev.V = protocol.Version
	if err := nc.Publish(protocol.EventSubject(ev.GameID), protocol.Encode(ev)); err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
}

const start8 = "---------------------------OX------XO--------------------------- X"

func TestLiveSSE(t *testing.T) {
	f := newFixture(t)
	sub, pub := startNATS(t)
	hs := newTestServer(t, Config{Store: f.db, NATS: sub})
	if err := sub.Flush(); err != nil { // the subscription is on the server
		t.Fatal(err)
	}

	stream := openSSE(t, hs.URL+"/api/live?tournament=3")
	if ev := stream.next(); ev.name != "snapshot" || !strings.Contains(ev.data, `"live":true`) {
		t.Fatalf("first event %q %s, want a live snapshot", ev.name, ev.data)
	}
	// Another tournament's game is filtered out; this one's arrive in order.
	publish(t, pub, protocol.GameEvent{Type: protocol.TypeEventStart, GameID: "t4-1", Game: "othello", Players: []string{"x", "y"}, Position: start8})
	publish(t, pub, protocol.GameEvent{Type: protocol.TypeEventStart, GameID: "t3-1", Game: "othello", Players: []string{"alice", "bob"}, Position: start8})
	publish(t, pub, protocol.GameEvent{Type: protocol.TypeEventMove, GameID: "t3-1", Game: "othello", Ply: 0, Move: "d3",
		Position: "-------------------X-------XX------XO--------------------------- O"})
	ev := stream.next()
	var got eventJSON
	if err := json.Unmarshal([]byte(ev.data), &got); err != nil {
		t.Fatal(err)
	}
	if ev.name != "start" || got.GameID != "t3-1" || got.TournamentID != 3 || got.Index != 1 || got.Players[0] != "alice" {
		t.Fatalf("event %q %+v, want t3-1's start", ev.name, got)
	}
	if ev := stream.next(); ev.name != "move" || !strings.Contains(ev.data, `"move":"d3"`) {
		t.Fatalf("event %q %s, want the move d3", ev.name, ev.data)
	}

	// A page opened mid-game gets the moves so far in its snapshot.
	mid := openSSE(t, hs.URL+"/api/live?game=t3-1")
	ev = mid.next()
	var snap snapshotJSON
	if err := json.Unmarshal([]byte(ev.data), &snap); err != nil {
		t.Fatal(err)
	}
	if ev.name != "snapshot" || len(snap.Games) != 1 || len(snap.Games[0].Moves) != 1 || snap.Games[0].Moves[0].Move != "d3" ||
		snap.Games[0].StartPosition != start8 || !snap.Games[0].Live {
		t.Fatalf("mid-game snapshot %q %s", ev.name, ev.data)
	}
	lg := decode[gameJSON](t, get(t, hs.URL+"/api/live/games/t3-1"))
	if len(lg.Moves) != 1 || lg.Players[1] != "bob" {
		t.Errorf("live game %+v", lg)
	}

	publish(t, pub, protocol.GameEvent{Type: protocol.TypeEventEnd, GameID: "t3-1", Game: "othello", Ply: 1,
		Position: start8, Result: "0-1", Reason: "time_forfeit", Detail: "<b>late</b>"})
	for _, s := range []*sse{stream, mid} {
		if ev := s.next(); ev.name != "end" || !strings.Contains(ev.data, `"reason":"time_forfeit"`) {
			t.Errorf("event %q %s, want the end", ev.name, ev.data)
		}
	}
	lg = decode[gameJSON](t, get(t, hs.URL+"/api/live/games/t3-1"))
	if lg.Live || lg.Result != "0-1" || lg.Detail != "<b>late</b>" {
		t.Errorf("ended game %+v", lg)
	}
}

// liveStream serves f's store with live games from a NATS server, and opens a stream
// of every game, its snapshot read; events published with pub arrive on it.
func liveStream(t *testing.T, f *fixture) (pub *nats.Conn, stream *sse) {
	t.Helper()
	sub, pub := startNATS(t)
	hs := newTestServer(t, Config{Store: f.db, NATS: sub})
	sub.Flush()
	stream = openSSE(t, hs.URL+"/api/live")
	stream.next() // snapshot
	return pub, stream
}

func TestLiveBadEventsIgnored(t *testing.T) {
	pub, stream := liveStream(t, newFixture(t))
	for _, raw := range []string{`not json`, `{"v":1,"type":"move","game_id":"t1-1","game":"othello","ply":-1,"seat":0,"position":""}`} {
		pub.Publish(protocol.EventSubject("t1-1"), []byte(raw))
	}
	// An event on another game's subject is not believed either.
	pub.Publish(protocol.EventSubject("t1-2"), protocol.Encode(protocol.GameEvent{V: 1, Type: "start", GameID: "t1-1", Game: "othello"}))
	publish(t, pub, protocol.GameEvent{Type: protocol.TypeEventStart, GameID: "t1-9", Game: "othello", Position: start8})
	if ev := stream.next(); !strings.Contains(ev.data, `"game_id":"t1-9"`) {
		t.Errorf("first event after the bad ones: %q %s", ev.name, ev.data)
	}
}

// TestSlowClientDropped: a stream that does not keep up loses its events, is told to
// resync, and never holds up publishing.
func TestSlowClientDropped(t *testing.T) {
	h := newHub(4)
	slow, fast := &client{}, &client{}
	h.subscribe(slow)
	h.subscribe(fast)
	done := make(chan struct{})
	go func() {
		for i := range 50 {
			h.publish(protocol.GameEvent{V: 1, Type: "move", GameID: "t1-1", Game: "othello", Ply: i, Move: "d3"}, nil, nil, time.Now())
			<-fast.ch
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("publish blocked on a slow client")
	}
	select {
	case <-slow.lost:
	default:
		t.Error("slow client not told to resync")
	}
	select {
	case <-fast.lost:
		t.Error("a client that kept up was dropped")
	default:
	}
	if len(slow.ch) != 4 {
		t.Errorf("slow client's buffer holds %d, want its bound 4", len(slow.ch))
	}
	if g, _ := h.game("t1-1"); len(g.Moves) != 50 {
		t.Errorf("game has %d moves, want 50", len(g.Moves))
	}
}

// TestResyncEvent: a stream that lost events says so and ends, so the browser reconnects.
func TestResyncEvent(t *testing.T) {
	f := newFixture(t)
	s, err := New(Config{Store: f.db})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	hs := httptest.NewServer(s)
	defer hs.Close()
	srv := hs.URL
	stream := openSSE(t, srv+"/api/live")
	if ev := stream.next(); ev.name != "snapshot" || !strings.Contains(ev.data, `"live":false`) {
		t.Fatalf("snapshot %q %s", ev.name, ev.data)
	}
	s.hub.mu.Lock()
	for c := range s.hub.clients {
		c.lostOnce.Do(func() { close(c.lost) })
	}
	s.hub.mu.Unlock()
	if ev := stream.next(); ev.name != "resync" {
		t.Fatalf("event %q, want resync", ev.name)
	}
	select {
	case ev := <-stream.ch:
		if ev.err == nil {
			t.Errorf("stream went on after resync: %q", ev.name)
		}
	case <-time.After(time.Second):
		t.Error("stream not closed after resync")
	}
}
