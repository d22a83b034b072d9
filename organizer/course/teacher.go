package course

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/protocol"
	"github.com/arenaref/arena/store"
)

// What the teacher can do to a player's entry (Act).
const (
	// Disable stops the entry: it plays no more and is not ranked, and its player may not
	// enter again, with any version, until it is enabled.
	Disable = "disable"
	// Enable puts a failed, disabled or removed entry back: it validates afresh, then
	// plays. It is how a failed built-in or self-run entrant, whose version never
	// changes, re-enters.
	Enable = "enable"
	// Remove takes the entry out of the ladder: its games count for nobody's rating; its
	// player may enter again with a new version.
	Remove = "remove"
)

// WriteNext prints what the teacher does next, after Init made a course of n students
// in dir, its ladder in the database at dbPath: whom to give what, how to start the
// referee and the host (on busURL), the page to share (at webURL), and how to watch.
func (r Result) WriteNext(w io.Writer, n int, dbPath, dir, busURL, webURL string) error {
	fmt.Fprintf(w, "course: %d students, ladder %d in %s, %d files in %s\n", n, r.Ladder, dbPath, len(r.Files), dir)
	fmt.Fprintf(w, "give each student %s/credentials/NAME.cred and %s/README.md\n", dir, dir)
	fmt.Fprintf(w, "next: %sarena referee --db %s --listen 0.0.0.0:4222 --auth --http 0.0.0.0:8080 --insecure-http   (the web page has no login)\n", r.Env(), dbPath)
	fmt.Fprintf(w, "      %sarena host --nats %s --credentials %s/host.cred --dir engines\n", r.Env(), busURL, dir)
	fmt.Fprintf(w, "then share %sladder.html?id=%d\n", webURL, r.Ladder)
	_, err := fmt.Fprintf(w, "watch: arena course entries --db %s   (and arena course disable|enable|remove --db %s NAME)\n", dbPath, dbPath)
	return err
}

// ErrNoLadder is returned when a database holds no ladder.
var ErrNoLadder = errors.New("course: no ladder in the database (arena course init makes one)")

// FindLadder returns id if it is a ladder's, or the newest ladder's when id is 0.
func FindLadder(ctx context.Context, db store.Store, id int64) (int64, error) {
	ts, err := db.Tournaments(ctx, "")
	if err != nil {
		return 0, err
	}
	var found int64
	for _, t := range ts {
		if t.Format == organizer.FormatLadder && (id == 0 && t.ID > found || t.ID == id) {
			found = t.ID
		}
	}
	switch {
	case found != 0:
		return found, nil
	case id != 0:
		return 0, fmt.Errorf("course: tournament %d is no ladder in the database", id)
	}
	return 0, ErrNoLadder
}

// Player is one player of a course as its teacher sees it: its ladder entries and its
// submitted engines (without archives), newest first.
type Player struct {
	Name        string              `json:"name"`
	Entries     []store.LadderEntry `json:"entries"`
	Submissions []store.Submission  `json:"submissions"`
}

// Players lists every player with an entry in ladder or a submitted engine, by name.
func Players(ctx context.Context, db store.Store, ladder int64) ([]Player, error) {
	entries, err := db.LadderEntries(ctx, ladder)
	if err != nil {
		return nil, err
	}
	subs, err := db.Submissions(ctx, "", 0)
	if err != nil {
		return nil, err
	}
	by := map[string]*Player{}
	get := func(name string) *Player {
		if by[name] == nil {
			by[name] = &Player{Name: name}
		}
		return by[name]
	}
	for _, e := range slices.Backward(entries) {
		p := get(e.Player)
		p.Entries = append(p.Entries, e)
	}
	for _, s := range subs {
		p := get(s.Name)
		p.Submissions = append(p.Submissions, s)
	}
	out := make([]Player, 0, len(by))
	for _, p := range by {
		out = append(out, *p)
	}
	slices.SortFunc(out, func(a, b Player) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// WritePlayers prints players for the teacher: for each, its entries with their status
// and reason, then its submissions with their state and the last tail lines of their
// logs (the build log, or the engine's standard error when it stopped).
func WritePlayers(w io.Writer, players []Player, tail int) error {
	if len(players) == 0 {
		_, err := fmt.Fprintln(w, "no entries and no submissions yet")
		return err
	}
	for i, p := range players {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, p.Name)
		for _, e := range p.Entries {
			fmt.Fprintf(w, "  entry %-4d %-6s %s%s  (since %s)\n", e.ID, e.Version, e.Status, reasonSuffix(e.Reason), stamp(e.Updated))
		}
		for _, s := range p.Submissions {
			fmt.Fprintf(w, "  engine %-10s %s  (%d bytes, submitted %s, updated %s)\n", protocol.EngineVersion(s.Version), s.State, s.Size, stamp(s.Created), stamp(s.Updated))
			for _, line := range LogTail(s.Log, tail) {
				fmt.Fprintf(w, "    | %s\n", line)
			}
		}
	}
	return nil
}

func reasonSuffix(reason string) string {
	if reason == "" {
		return ""
	}
	return ": " + reason
}

func stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05") }

// LogTail is the last n lines of log, without trailing blank lines; none for n <= 0.
func LogTail(log string, n int) []string {
	log = strings.TrimRight(log, "\n")
	if log == "" || n <= 0 {
		return nil
	}
	lines := strings.Split(log, "\n")
	return lines[max(len(lines)-n, 0):]
}

// Act does action (Disable, Enable, Remove) to the newest entry of player name in ladder,
// with reason for the page (a default that says the teacher did it when empty), and
// returns the entry as changed. A running ladder reads the change back within a
// fraction of a second.
func Act(ctx context.Context, db store.Ladders, ladder int64, name, action, reason string) (store.LadderEntry, error) {
	entries, err := db.LadderEntries(ctx, ladder)
	if err != nil {
		return store.LadderEntry{}, err
	}
	var e store.LadderEntry
	for _, c := range entries {
		if c.Player == name && c.ID > e.ID {
			e = c
		}
	}
	if e.ID == 0 {
		return e, fmt.Errorf("course: %s has no entry in ladder %d", name, ladder)
	}
	status := map[string]string{Disable: store.EntryDisabled, Enable: store.EntryValidating, Remove: store.EntryRemoved}[action]
	switch {
	case status == "":
		return e, fmt.Errorf("course: %q is no action: %s, %s or %s", action, Disable, Enable, Remove)
	case action == Enable && (e.Status == store.EntryValidating || e.Status == store.EntryActive):
		return e, fmt.Errorf("course: %s %s is %s already", name, e.Version, e.Status)
	case action == Enable && e.Status == store.EntryRetired:
		return e, fmt.Errorf("course: %s %s is retired: a newer version replaced it", name, e.Version)
	case e.Status == status:
		return e, fmt.Errorf("course: %s %s is %s already", name, e.Version, e.Status)
	}
	if reason == "" {
		reason = map[string]string{Disable: "disabled by the teacher", Enable: "enabled again by the teacher", Remove: "removed by the teacher"}[action]
	}
	if err := db.SetLadderEntry(ctx, e.ID, status, reason); err != nil {
		return e, err
	}
	e.Status, e.Reason = status, reason
	return e, nil
}

// WriteActed writes in one line what Act made of the entry e.
func WriteActed(w io.Writer, e store.LadderEntry) error {
	_, err := fmt.Fprintf(w, "%s %s (entry %d of ladder %d): %s: %s\n", e.Player, e.Version, e.ID, e.Tournament, e.Status, e.Reason)
	return err
}
