package web

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/rs/zerolog"

	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
)

//go:embed static
var staticFiles embed.FS

// Config is what a Server serves.
type Config struct {
	// Store is read, never written.
	Store store.Store
	// NATS, when not nil, is subscribed to every game's events for the live view; with
	// nil there are no live updates.
	NATS *nats.Conn
	// Standings computes tournament t's standings from its games, which the server has
	// read (it draws the crosstable from the same list); with nil the tournament's
	// standings are reported as not available.
	Standings func(ctx context.Context, t store.Tournament, games []store.GameSummary) ([]protocol.StandingsRow, error)
	Log       zerolog.Logger
}

// Server is the web view: an http.Handler for the pages, the API and the live stream.
type Server struct {
	cfg       Config
	mux       *http.ServeMux
	hub       *hub
	sub       *nats.Subscription
	standings standingsCache
	// boards and ladderGames keep each ladder's leaderboard and games list for a moment.
	boards      ttlCache[ladderJSON]
	ladderGames ttlCache[[]store.LadderGame]
}

var _ http.Handler = (*Server)(nil)

// contentSecurityPolicy lets a page load its own scripts, styles and data and nothing
// else: no inline script (so injected markup could not run even if some slipped
// through), no other host, no framing.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// requestTimeout bounds one API request's store work.
const requestTimeout = 15 * time.Second

// New makes a Server and, when cfg.NATS is set, subscribes it to game events.
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("web: a store is required")
	}
	s := &Server{cfg: cfg, mux: http.NewServeMux(), hub: newHub(clientBuffer)}
	static, err := fs.Sub(staticFiles, "static")
	if err != nil {
		return nil, fmt.Errorf("web: %w", err)
	}
	s.mux.Handle("GET /", http.FileServerFS(static))
	s.mux.HandleFunc("GET /api/tournaments", s.handleTournaments)
	s.mux.HandleFunc("GET /api/tournaments/{id}", s.handleTournament)
	s.mux.HandleFunc("GET /api/tournaments/{id}/sprt", s.handleSPRT)
	s.mux.HandleFunc("GET /api/games/{id}", s.handleGame)
	s.mux.HandleFunc("GET /api/ladders/{id}", s.handleLadder)
	s.mux.HandleFunc("GET /api/ladders/{id}/entries/{entry}", s.handleLadderEntry)
	s.mux.HandleFunc("GET /api/players/{name}", s.handlePlayer)
	s.mux.HandleFunc("GET /api/live", s.handleLive)
	s.mux.HandleFunc("GET /api/live/games/{id}", s.handleLiveGame)
	s.mux.HandleFunc("GET /api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such API route")
	})
	if cfg.NATS != nil {
		sub, err := cfg.NATS.Subscribe(protocol.EventSubject("*"), s.onEvent)
		if err != nil {
			return nil, fmt.Errorf("web: subscribe to game events: %w", err)
		}
		s.sub = sub
	}
	return s, nil
}

// ServeHTTP serves the pages, the API and the live stream, with the safety headers on
// every response.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	defer func() {
		// A bug in one handler must cost one request, never the server.
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.cfg.Log.Error().Interface("panic", v).Str("path", r.URL.Path).Msg("web: handler panicked")
			writeError(w, http.StatusInternalServerError, "internal error")
		}
	}()
	s.mux.ServeHTTP(w, r)
}

// Close stops following game events and ends every live stream.
func (s *Server) Close() error {
	var err error
	if s.sub != nil {
		err = s.sub.Unsubscribe()
	}
	s.hub.close()
	return err
}

type errorBody struct {
	Error string `json:"error"`
}

func writeError(w http.ResponseWriter, code int, msg string) {
	writeJSON(w, code, errorBody{Error: msg})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		code, b = http.StatusInternalServerError, []byte(`{"error":"encode response"}`)
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write(append(b, '\n'))
}
