package export

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/store"
)

// Format names, for callers that let their users choose a format.
const (
	FormatPGN  = "pgn"
	FormatJSON = "json"
	FormatCSV  = "csv"
	FormatGGF  = "ggf"
)

// Formats are the format names Write knows, in the order a help text lists them.
var Formats = []string{FormatPGN, FormatJSON, FormatCSV, FormatGGF}

// Write writes games in format, one of Formats; m is for PGN only.
func Write(w io.Writer, format string, games []store.Game, m Meta) error {
	switch format {
	case FormatPGN:
		return WritePGN(w, games, m)
	case FormatJSON:
		return WriteJSON(w, games)
	case FormatCSV:
		return WriteCSV(w, games)
	case FormatGGF:
		return WriteGGF(w, games)
	}
	return fmt.Errorf("export: unknown format %q", format)
}

// Errors wrapped by the writers and readers, so callers can tell the cases apart.
var (
	// ErrMalformed is wrapped by every error of a reader about its input.
	ErrMalformed = errors.New("export: malformed input")
	// ErrUnsupported is wrapped when a game cannot be written in a format: a game that is
	// not Othello in GGF, a game without two players in PGN or GGF, a move or a name the
	// format has no way to write.
	ErrUnsupported = errors.New("export: not representable in this format")
)

// EventName is the event name of an export: one tournament's, one game's, or all.
func EventName(tournament int64, gameName string) string {
	switch {
	case tournament != 0:
		return fmt.Sprintf("Arena tournament %d", tournament)
	case gameName != "":
		return "Arena " + gameName
	}
	return "Arena"
}

// Meta is what a PGN file says about where its games were played. An empty Event becomes
// "Arena tournament N" for a game of tournament N, and "?" (unknown, in PGN) otherwise; an
// empty Site becomes "?".
type Meta struct {
	Event string // "Arena tournament 3"
	Site  string // "arena"
}

// Record is a game as a file carries it, which is less than the store keeps. White and
// Black are the players of seat 0 and seat 1 in every format, whatever colours the format
// gives them (in Othello's PGN White is the player of the black discs; in a checkers PDN
// White is the player in the Black tag, who moves first: see the package documentation).
// Fields a format does not carry are empty.
type Record struct {
	Event string // PGN Event
	Site  string // PGN Site, GGF PC
	// Date is the format's own text: PGN Date ("2025.01.02"), GGF DT
	// ("2025.01.02_03:04:05.UTC"), the CSV column started (RFC 3339).
	Date string
	// Round is the PGN Round tag, or the CSV columns round and index written the same
	// way: "R.I", "R" or "-".
	Round  string
	White  string
	Black  string
	Result string // "1-0", "0-1", "1/2-1/2" or "*", from seat 0's side
	// Reason is Arena's reason code: PGN ArenaReason (or Termination, when a file has
	// no ArenaReason), the CSV column reason, GGF's result flag (see the package doc).
	Reason string
	// Moves are the moves of the whole game from its start, the opening included, in the
	// game's notation; a round of a simultaneous game is one entry, "C/D".
	Moves []string
	// Game is the game spec: "othello", "othello:size=6", "ipd". GGF gives the Othello
	// spec of its board size.
	Game string
	// Board is the side of the board of an Othello game (8 for "othello"), 0 for other
	// games.
	Board int
}

// results are the results a store.Game and a Record may have.
var results = []string{store.ResultFirstWins, store.ResultSecondWins, store.ResultDraw, store.ResultNone}

// ValidResult reports whether s is one of the four results: the writers refuse any other
// and the readers accept no other.
func ValidResult(s string) bool { return slices.Contains(results, s) }

// MaxBoard is the largest Othello board the writers and readers handle: files are the
// letters a to z.
const MaxBoard = 26

// OthelloSize returns the board side of an Othello spec ("othello" 8, "othello:size=6"
// 6), and false for a spec of another game or a size no board can have: an even side from
// 4 to 26, so that the start position has its four centre squares and every file a letter.
func OthelloSize(spec string) (int, bool) {
	if !strings.HasPrefix(spec, "othello") {
		return 0, false // before ParseSpec, which would allocate for every game of a file
	}
	name, opts, err := game.ParseSpec(spec)
	if err != nil || name != "othello" {
		return 0, false
	}
	n := 8
	for k, v := range opts {
		if k != "size" {
			return 0, false
		}
		var err error
		if n, err = strconv.Atoi(v); err != nil {
			return 0, false
		}
	}
	if !ValidBoard(n) {
		return 0, false
	}
	return n, true
}

// ValidBoard reports whether n is the side of an Othello board the formats handle.
func ValidBoard(n int) bool { return n >= 4 && n <= MaxBoard && n%2 == 0 }

// flatMoves returns the moves of a whole game, the opening first, one entry per ply: a
// ply at which several seats moved (the store records each seat's move under the same
// ply) becomes their moves in seat order joined by "/", and so does a joint opening move,
// which the store writes joined by ",".
func flatMoves(g store.Game) []string {
	out := make([]string, 0, len(g.Opening)+len(g.Moves))
	for _, m := range g.Opening {
		out = append(out, strings.ReplaceAll(m, ",", "/"))
	}
	for i := 0; i < len(g.Moves); {
		j := i + 1
		for j < len(g.Moves) && g.Moves[j].Ply == g.Moves[i].Ply {
			j++
		}
		if j == i+1 {
			out = append(out, g.Moves[i].Move)
		} else {
			round := slices.Clone(g.Moves[i:j])
			slices.SortStableFunc(round, func(a, b store.Move) int { return a.Seat - b.Seat })
			texts := make([]string, len(round))
			for k, m := range round {
				texts[k] = m.Move
			}
			out = append(out, strings.Join(texts, "/"))
		}
		i = j
	}
	return out
}

// simultaneous reports whether moves are the rounds of a game whose seats move at once.
func simultaneous(moves []string) bool {
	return slices.ContainsFunc(moves, func(m string) bool { return strings.Contains(m, "/") })
}

// RoundTag writes a tournament round and a schedule index as PGN's Round: "R.I", "R"
// without an index, "-" (not applicable) outside tournaments.
func RoundTag(round, index int) string {
	switch {
	case index > 0:
		return strconv.Itoa(round) + "." + strconv.Itoa(index)
	case round > 0:
		return strconv.Itoa(round)
	}
	return "-"
}

// parseRoundTag reads what RoundTag writes.
func parseRoundTag(s string) (round, index int, ok bool) {
	if s == "-" {
		return 0, 0, true
	}
	r, i, dotted := strings.Cut(s, ".")
	round, ok = ParseDigits(r)
	if !ok {
		return 0, 0, false
	}
	if !dotted {
		return round, 0, round > 0
	}
	index, ok = ParseDigits(i)
	return round, index, ok && index > 0
}

// ParseDigits reads a non-negative decimal number of plain digits, the way every number
// of the formats is read: no sign, no space, no empty text.
func ParseDigits(s string) (int, bool) {
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// hasControl reports whether s has an ASCII control character (tab and newline included),
// which the line-based formats cannot carry in a value.
func hasControl(s string) bool {
	return strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f })
}

// gameLabel names a game in an error: its place in the slice and its id.
func gameLabel(i int, g store.Game) string {
	if g.ID != 0 {
		return fmt.Sprintf("game %d (id %d)", i+1, g.ID)
	}
	return fmt.Sprintf("game %d", i+1)
}
