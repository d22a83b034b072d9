// Package web is Arena's live web view: a read-only JSON API over the store, a stream of
// live game events for browsers, and the pages that use both, embedded in the binary (with
// the go:embed directive) so that one file serves everything and nothing is loaded from
// another host.
//
// # The API
//
// Every route is GET only and answers JSON: /api/tournaments, /api/tournaments/{id},
// /api/games/{id}, /api/players/{name}, /api/ladders/{id} (a ladder's leaderboard),
// /api/ladders/{id}/entries/{entry} (one entrant's games) and /api/live/games/{id}. The
// pages are ordinary clients of it; docs/web.md shows example responses. A recorded game comes with the
// position after every move, replayed on the server with the game's own rules, and, for a
// game that draws itself (game.Drawer), each position's drawing, so the browser draws any
// game with one renderer and never needs to know a game's rules. Live events carry the
// drawing of their position too, made once per event (drawing.go).
//
// # Live games
//
// The referee records a game, with its moves, only when it ends. A game in progress is
// known only from its events on protocol.EventSubject, so the Server keeps every game it
// has seen start, move by move, in memory until shortly after it ends. /api/live streams
// them to browsers as Server-Sent Events; each connection starts with a snapshot of the
// games it follows, so a page opened mid-game, or one that reconnects, has the game so far.
//
// Why Server-Sent Events rather than WebSocket: the traffic is one way, server to
// browser; SSE is plain HTTP (a GET answered with text/event-stream), so it passes through
// the proxies and the Content-Security-Policy that already allow the pages; the browser's
// EventSource reconnects by itself; and it needs no library on either side, where
// WebSocket would need one in Go and an upgrade handshake, for a back channel we would
// never use.
//
// A slow browser must never hold up the NATS handler, which serves every browser: each
// connection has a bounded buffer, an event that finds it full is dropped, and that
// connection is told to resync ("event: resync") and closed. The browser reconnects and
// starts again from a fresh snapshot.
//
// # Ladders
//
// A ladder's pages poll their API every two seconds instead of following the stream:
// most of what changes a leaderboard is no game event (an entrant joins, fails, is
// replaced; the deadline passes; the standings freeze), and without NATS there are no
// events at all. The Server keeps a ladder's leaderboard for a second, so the fit runs at
// most once a second however many browsers poll.
//
// # Safety
//
// Names, notes, principal variations and details come from players and engines, so they
// are data, never markup: the pages build the DOM with textContent and createElement
// only, and every response carries a Content-Security-Policy of default-src 'self' (no
// inline script, nothing from elsewhere) and X-Content-Type-Options: nosniff.
package web
