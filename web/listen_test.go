package web

import (
	"io"
	"net"
	"strings"
	"testing"
)

// TestListen serves the view on a free loopback port ("localhost" bound as 127.0.0.1),
// fetches the API from it, and closes it; a port in use is an error naming the flag.
func TestListen(t *testing.T) {
	f := newFixture(t)
	l, err := Listen("localhost:0", Config{Store: f.db, Standings: standingsOf(f.db)}, "--http")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(l.URL(), "http://127.0.0.1:") || !strings.HasSuffix(l.URL(), "/") {
		t.Errorf("URL %q, want http://127.0.0.1:PORT/", l.URL())
	}
	resp := get(t, l.URL()+"api/tournaments")
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `"othello"`) {
		t.Errorf("the API answered %s", body)
	}
	_, port, _ := net.SplitHostPort(strings.TrimSuffix(strings.TrimPrefix(l.URL(), "http://"), "/"))
	if _, err := Listen("127.0.0.1:"+port, Config{Store: f.db}, "--http"); err == nil || !strings.HasPrefix(err.Error(), "--http: ") {
		t.Errorf("a second view on the same port: %v", err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-l.Err():
		t.Errorf("the server stopped with %v", err)
	default:
	}
}
