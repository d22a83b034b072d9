package experience

import (
	"database/sql"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/internal/sqlitefile"
)

// ErrBadBase is wrapped by the error Open returns for a file that is not a usable
// experience base: not SQLite, another program's database, a damaged base, a base of
// another format version or of another game. Open never changes such a file.
var ErrBadBase = errors.New("experience: not a usable experience base")

// ErrInUse is wrapped by the error Open returns when another Base, in this process or
// another, has the base open.
var ErrInUse = errors.New("experience: base is in use")

// ErrClosed is returned by the methods of a closed Base.
var ErrClosed = errors.New("experience: base is closed")

const (
	formatName    = "arena-experience"
	formatVersion = 1
	busyTimeoutMS = 5000
)

//go:embed schema.sql
var schemaSQL string

// Key identifies a position: the discs of each colour (othello bitboards) and the side to
// move.
type Key struct {
	Black, White uint64
	Side         game.Seat
}

// KeyOf returns the key of s. The side of a finished position is the one that would have
// moved next (othello State.Side).
func KeyOf(s *othello.State) Key {
	b, w := s.Bitboards()
	return Key{Black: b, White: w, Side: s.Side()}
}

// arc is a move from a node to its child.
type arc struct {
	move  game.Move
	child int32
}

// node is a position of the graph, held in Base.nodes at the index that is its id.
type node struct {
	key      Key
	value    int32
	legal    uint8
	rank     uint8 // topological rank: every child ranks higher than its parent
	freq     int64
	children []arc   // by move
	parents  []int32 // by id
}

// rank orders positions so that a child always ranks above its parent: twice the disc
// count, plus one unless the side to move must pass (a pass leads to a position with the
// same discs where the other side can move, since two passes would end the game).
func rank(s *othello.State) uint8 {
	b, w := s.DiscCounts()
	r := 2 * (b + w)
	if s.IsTerminal() || s.MoveMask() != 0 {
		r++
	}
	return uint8(r)
}

// legalCount returns the number of legal moves of s: a forced pass counts one, a
// finished position has none.
func legalCount(s *othello.State) int {
	if s.IsTerminal() {
		return 0
	}
	if n := bits.OnesCount64(s.MoveMask()); n > 0 {
		return n
	}
	return 1
}

// addFreq adds path counts, saturating rather than wrapping: transpositions can multiply
// paths faster than games are added.
func addFreq(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// better reports whether a child worth (v1, f1) is a better choice than one worth
// (v2, f2) for mover: a higher value for Black, a lower one for White, then the higher
// frequency. Callers scan children in move order and keep the first best, so the lower
// move wins what is left of a tie.
func better(mover game.Seat, v1 int32, f1 int64, v2 int32, f2 int64) bool {
	if v1 != v2 {
		if mover == othello.Black {
			return v1 > v2
		}
		return v1 < v2
	}
	return f1 > f2
}

// Base is an experience base stored in an SQLite file. It is safe for concurrent use:
// Advise, Node and Stats run alongside each other and alongside a Merge's SQLite write;
// merges run one at a time.
type Base struct {
	path string
	game string
	og   *othello.Game
	db   *sql.DB // one connection
	lock *fileLock

	// mergeMu serialises Merge and Close. A merge reads the graph under mergeMu alone
	// (only merges change it) and takes mu for writing only to apply a committed change.
	mergeMu sync.Mutex
	// scratch of the merge under way, kept between merges to save allocations.
	mark    []uint32
	epoch   uint32
	work    []int32
	touched []int32
	broken  error // set when the graph could not be read back after a failed commit

	mu        sync.RWMutex
	closed    bool
	nodes     []node
	index     map[Key]int32
	arcs      int
	games     int64
	decisions int64
	hits      int64
}

// Open opens the base at path, creating it when the file does not exist, is empty or
// is an SQLite database without any table. game is the game spec ("othello",
// "othello:size=6", ...); the base records its canonical form and refuses to open for
// another game.
//
// Open takes an exclusive lock on the base for the life of the Base: a second Open of the
// same base, from this process or another, fails with an error wrapping ErrInUse. A file
// that is not an experience base of this game and format is an error wrapping ErrBadBase
// naming the problem, and is left as it was. Open reads the whole graph into memory and
// checks it (see the package documentation), which takes time in proportion to its size.
func Open(path, gameSpec string) (*Base, error) {
	g, err := game.Lookup(gameSpec)
	if err != nil {
		return nil, fmt.Errorf("experience: open %s: %w", path, err)
	}
	og, ok := g.(*othello.Game)
	if !ok {
		return nil, fmt.Errorf("experience: open %s: game %q is not othello: the experience base is for othello only", path, gameSpec)
	}
	if path == "" || path == ":memory:" || strings.HasPrefix(path, "file:") {
		return nil, fmt.Errorf("experience: open %q: want a file path", path)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("experience: open %s: %w", path, err)
	}
	// The lock goes by name: resolve symbolic links, so that two names of one file take
	// one lock.
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	lock, err := lockFile(abs + ".lock")
	if err != nil {
		if errors.Is(err, ErrInUse) {
			return nil, fmt.Errorf("experience: open %s: %w: another arena process (or another Base of this one) has it open, and a base serves one process at a time", path, ErrInUse)
		}
		return nil, fmt.Errorf("experience: open %s: lock: %w", path, err)
	}
	created, err := sqlitefile.Prepare(abs)
	if err != nil {
		lock.release()
		return nil, fmt.Errorf("experience: open %s: %w", path, err)
	}
	b := &Base{path: abs, game: og.Name(), og: og, lock: lock}
	if err := b.open(); err != nil {
		if b.db != nil {
			b.db.Close()
		}
		if created {
			sqlitefile.Remove(abs)
		}
		lock.release()
		return nil, fmt.Errorf("experience: open %s: %w", path, err)
	}
	return b, nil
}

// open identifies the file, creates the schema in an empty one, switches it to WAL and
// loads the graph.
func (b *Base) open() error {
	empty, err := inspect(b.path, b.game)
	if err != nil {
		return err
	}
	dsn := fmt.Sprintf("file:%s?mode=rw&_busy_timeout=%d&_synchronous=NORMAL&_txlock=immediate",
		sqlitefile.URIPath(b.path), busyTimeoutMS)
	b.db, err = sql.Open("sqlite3", dsn)
	if err != nil {
		return err
	}
	b.db.SetMaxOpenConns(1)
	b.db.SetMaxIdleConns(1)
	b.db.SetConnMaxLifetime(0)
	b.db.SetConnMaxIdleTime(0)
	if empty {
		if err := b.create(); err != nil {
			return fmt.Errorf("create base: %w", explain(err))
		}
	}
	var mode string
	if err := b.db.QueryRow("PRAGMA journal_mode=WAL").Scan(&mode); err != nil {
		return explain(err)
	}
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("journal mode is %q, could not switch to WAL", mode)
	}
	return b.load()
}

// inspect looks at the file through a read-only connection, so that a file that is not
// a base is never written (a read-write connection would, for instance, checkpoint
// another program's WAL into it on closing). It reports whether the file is an empty
// database the base may be created in.
func inspect(path, gameName string) (empty bool, err error) {
	// SQLite takes a file too short to hold a header for an empty database, and would
	// write over it: look at the header first.
	if err := checkHeader(path); err != nil {
		return false, err
	}
	db, err := sql.Open("sqlite3", fmt.Sprintf("file:%s?mode=ro&_busy_timeout=%d", sqlitefile.URIPath(path), busyTimeoutMS))
	if err != nil {
		return false, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	rows, err := db.Query("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
	if err != nil {
		var se sqlite3.Error
		if errors.As(err, &se) && (se.Code == sqlite3.ErrNotADB || se.Code == sqlite3.ErrCorrupt) {
			return false, fmt.Errorf("%w: not an SQLite database (%v)", ErrBadBase, err)
		}
		return false, explain(err)
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return false, err
		}
		tables = append(tables, name)
	}
	if err := rows.Err(); err != nil {
		return false, err
	}
	rows.Close()
	if len(tables) == 0 {
		return true, nil
	}
	has := map[string]bool{}
	for _, t := range tables {
		has[t] = true
	}
	if !has["meta"] {
		return false, fmt.Errorf("%w: an SQLite database of another program (no meta table; tables: %s)", ErrBadBase, strings.Join(tables, ", "))
	}
	// Check the pages before believing what they say.
	var check string
	if err := db.QueryRow("PRAGMA quick_check(1)").Scan(&check); err != nil {
		return false, fmt.Errorf("%w: damaged: quick_check: %v", ErrBadBase, err)
	}
	if check != "ok" {
		return false, fmt.Errorf("%w: damaged: quick_check: %s", ErrBadBase, check)
	}
	meta := map[string]string{}
	mrows, err := db.Query("SELECT key, value FROM meta")
	if err != nil {
		return false, fmt.Errorf("%w: unreadable meta table: %v", ErrBadBase, err)
	}
	for mrows.Next() {
		var k, v sql.NullString
		if err := mrows.Scan(&k, &v); err != nil {
			mrows.Close()
			return false, fmt.Errorf("%w: unreadable meta table: %v", ErrBadBase, err)
		}
		meta[k.String] = v.String
	}
	if err := mrows.Err(); err != nil {
		return false, fmt.Errorf("%w: unreadable meta table: %v", ErrBadBase, err)
	}
	mrows.Close()
	if f := meta["format"]; f != formatName {
		return false, fmt.Errorf("%w: meta format is %q, not %q: another program's database", ErrBadBase, f, formatName)
	}
	if v, err := strconv.Atoi(meta["version"]); err != nil || v != formatVersion {
		return false, fmt.Errorf("%w: format version %q, this build reads version %d", ErrBadBase, meta["version"], formatVersion)
	}
	if g := meta["game"]; g != gameName {
		return false, fmt.Errorf("%w: the base is for game %q, not %q", ErrBadBase, g, gameName)
	}
	for _, t := range []string{"nodes", "arcs", "games"} {
		if !has[t] {
			return false, fmt.Errorf("%w: damaged: table %s is missing", ErrBadBase, t)
		}
	}
	return false, nil
}

// sqliteHeader begins every SQLite database file.
const sqliteHeader = "SQLite format 3\x00"

// checkHeader returns an error wrapping ErrBadBase unless path is empty or starts with
// the SQLite header.
func checkHeader(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	buf := make([]byte, len(sqliteHeader))
	n, err := io.ReadFull(f, buf)
	switch {
	case n == 0 && err == io.EOF:
		return nil
	case err == io.ErrUnexpectedEOF || err == nil && string(buf) != sqliteHeader:
		return fmt.Errorf("%w: not an SQLite database (no SQLite header)", ErrBadBase)
	}
	return err
}

// explain adds what a user can do about a few of SQLite's terse errors.
func explain(err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) && (se.Code == sqlite3.ErrCantOpen || se.Code == sqlite3.ErrReadonly) {
		return fmt.Errorf("%w (is the directory writable? SQLite keeps -wal and -shm files beside the base)", err)
	}
	return err
}

func (b *Base) create() error {
	tx, err := b.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var tables int
	if err := tx.QueryRow("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").Scan(&tables); err != nil {
		return err
	}
	if tables != 0 {
		return fmt.Errorf("%w: tables appeared while the base was being created", ErrBadBase)
	}
	if _, err := tx.Exec(schemaSQL); err != nil {
		return err
	}
	// ANALYZE now makes SQLite's statistics table, which the PRAGMA optimize of Close
	// would otherwise add on the first close: a page more than Stats reported while the
	// base was open.
	if _, err := tx.Exec("ANALYZE"); err != nil {
		return err
	}
	for _, kv := range [][2]string{{"format", formatName}, {"version", strconv.Itoa(formatVersion)}, {"game", b.game}} {
		if _, err := tx.Exec("INSERT INTO meta (key, value) VALUES (?, ?)", kv[0], kv[1]); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// load reads the graph and the game counters into b, checking the graph on the way.
func (b *Base) load() error {
	var n int64
	if err := b.db.QueryRow("SELECT count(*) FROM nodes").Scan(&n); err != nil {
		return fmt.Errorf("%w: damaged: %v", ErrBadBase, err)
	}
	if n > math.MaxInt32 {
		return fmt.Errorf("%w: %d nodes, more than this build handles", ErrBadBase, n)
	}
	nodes := make([]node, 0, n)
	index := make(map[Key]int32, n)
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: damaged: "+format, append([]any{ErrBadBase}, args...)...)
	}

	rows, err := b.db.Query("SELECT id, black, white, side, value, freq, legal FROM nodes ORDER BY id")
	if err != nil {
		return bad("%v", err)
	}
	for rows.Next() {
		var id, black, white, side, value, freq, legal int64
		if err := rows.Scan(&id, &black, &white, &side, &value, &freq, &legal); err != nil {
			rows.Close()
			return bad("%v", err)
		}
		if id != int64(len(nodes)) {
			rows.Close()
			return bad("node ids are not 0, 1, 2, ... (found %d after %d nodes)", id, len(nodes))
		}
		s, err := b.og.FromBitboards(uint64(black), uint64(white), game.Seat(side))
		if err != nil {
			rows.Close()
			return bad("node %d: %v", id, err)
		}
		k := KeyOf(s)
		if _, dup := index[k]; dup {
			rows.Close()
			return bad("node %d repeats the position of node %d", id, index[k])
		}
		if int64(legalCount(s)) != legal {
			rows.Close()
			return bad("node %d: %d legal moves stored, the position has %d", id, legal, legalCount(s))
		}
		if value < -othello.Squares || value > othello.Squares || freq < 1 {
			rows.Close()
			return bad("node %d: value %d, frequency %d", id, value, freq)
		}
		index[k] = int32(id)
		nodes = append(nodes, node{key: k, value: int32(value), freq: freq, legal: uint8(legal), rank: rank(s)})
	}
	if err := rows.Err(); err != nil {
		return bad("%v", err)
	}
	rows.Close()

	// Arcs come by parent, so each parents list is built in order of id, and the
	// parent's position is rebuilt once for all its children.
	arcs := 0
	rows, err = b.db.Query("SELECT parent, move, child FROM arcs ORDER BY parent, move")
	if err != nil {
		return bad("%v", err)
	}
	var ps *othello.State
	last := int64(-1)
	for rows.Next() {
		var parent, move, child int64
		if err := rows.Scan(&parent, &move, &child); err != nil {
			rows.Close()
			return bad("%v", err)
		}
		if parent < 0 || parent >= int64(len(nodes)) || child < 0 || child >= int64(len(nodes)) {
			rows.Close()
			return bad("arc %d-%d-%d names a missing node", parent, move, child)
		}
		if parent != last {
			k := nodes[parent].key
			ps, _ = b.og.FromBitboards(k.Black, k.White, k.Side)
			last = parent
		}
		s := *ps
		if move < 0 || move > int64(othello.Pass) || s.Play(game.Move(move)) != nil {
			rows.Close()
			return bad("arc from node %d: move %d is not legal there", parent, move)
		}
		if KeyOf(&s) != nodes[child].key {
			rows.Close()
			return bad("arc from node %d by %s does not lead to node %d", parent, othello.MoveString(game.Move(move)), child)
		}
		nodes[parent].children = append(nodes[parent].children, arc{move: game.Move(move), child: int32(child)})
		nodes[child].parents = append(nodes[child].parents, int32(parent))
		arcs++
	}
	if err := rows.Err(); err != nil {
		return bad("%v", err)
	}
	rows.Close()

	// Each node must agree with its children: by induction from the finished positions,
	// the whole graph then holds the min-max values and path counts of its games.
	for id := range nodes {
		nd := &nodes[id]
		if nd.legal == 0 {
			s, _ := b.og.FromBitboards(nd.key.Black, nd.key.White, nd.key.Side)
			if len(nd.children) != 0 || nd.value != int32(s.Margin()) || nd.freq != 1 {
				return bad("finished node %d: %d children, value %d (margin %d), frequency %d", id, len(nd.children), nd.value, s.Margin(), nd.freq)
			}
			continue
		}
		if len(nd.children) == 0 {
			return bad("node %d is neither finished nor has a child", id)
		}
		v, f := backup(nd.key.Side, nd.children, nil, func(c int32) (int32, int64) { return nodes[c].value, nodes[c].freq })
		if v != nd.value || f != nd.freq {
			return bad("node %d: value %d and frequency %d stored, its children give %d and %d", id, nd.value, nd.freq, v, f)
		}
	}

	var games, decisions, hits int64
	if err := b.db.QueryRow("SELECT count(*), coalesce(sum(decisions), 0), coalesce(sum(hits), 0) FROM games").Scan(&games, &decisions, &hits); err != nil {
		return bad("%v", err)
	}
	b.nodes, b.index, b.arcs = nodes, index, arcs
	b.games, b.decisions, b.hits = games, decisions, hits
	return nil
}

// backup computes a node's value and frequency from its children and, for a node that
// gains a child in a merge, that extra arc. val gives a child's value and frequency.
func backup(mover game.Seat, children []arc, extra *arc, val func(int32) (int32, int64)) (int32, int64) {
	var v int32
	var f int64
	first := true
	fold := func(c int32) {
		cv, cf := val(c)
		f = addFreq(f, cf)
		switch {
		case first:
			v, first = cv, false
		case mover == othello.Black && cv > v, mover == othello.White && cv < v:
			v = cv
		}
	}
	for _, a := range children {
		fold(a.child)
	}
	if extra != nil {
		fold(extra.child)
	}
	return v, f
}

// Close closes the base, waiting for a merge under way, and releases its lock.
func (b *Base) Close() error {
	b.mergeMu.Lock()
	defer b.mergeMu.Unlock()
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil
	}
	b.closed = true
	_, _ = b.db.Exec("PRAGMA optimize")
	err := b.db.Close()
	b.lock.release()
	b.nodes, b.index = nil, nil
	return err
}

// Game returns the canonical spec of the base's game.
func (b *Base) Game() string { return b.game }

// Path returns the absolute path of the base's file.
func (b *Base) Path() string { return b.path }

// NodeInfo is what the base knows of a position.
type NodeInfo struct {
	Value    int               // backed-up min-max value, black's disc differential
	Freq     int64             // paths below the node
	Legal    int               // legal moves (0 when the game is over)
	Children map[game.Move]Key // the explored moves
	Parents  []Key             // the positions it was reached from, in order of creation
}

// Node returns what the base knows of a position, and false when it does not know it
// (or is closed).
func (b *Base) Node(k Key) (NodeInfo, bool) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	id, ok := b.index[k]
	if !ok {
		return NodeInfo{}, false
	}
	nd := &b.nodes[id]
	info := NodeInfo{
		Value:    int(nd.value),
		Freq:     nd.freq,
		Legal:    int(nd.legal),
		Children: make(map[game.Move]Key, len(nd.children)),
		Parents:  make([]Key, len(nd.parents)),
	}
	for _, a := range nd.children {
		info.Children[a.move] = b.nodes[a.child].key
	}
	for i, p := range nd.parents {
		info.Parents[i] = b.nodes[p].key
	}
	return info, true
}

// Stats are figures about a base.
type Stats struct {
	Nodes, Arcs int
	Games       int64 // games merged
	Decisions   int64 // sum of the merged games' Record.Decisions
	Hits        int64 // sum of their Record.Hits
	// Bytes is the database's size: its pages times the page size, whether a page is in
	// the main file yet or still in the -wal file. It is what the file holds once the WAL
	// is checkpointed (at the latest when the base closes), so it is the same for an open
	// base and for that base opened again, unlike FileBytes.
	Bytes int64
	// FileBytes is the space on disk right now: the database file and its -wal file. While
	// the base is open the WAL keeps its largest size and the main file lags behind it, so
	// FileBytes is larger than Bytes then, by up to the WAL's size.
	FileBytes int64
}

// Nodes returns how many positions the base holds, from memory: cheap enough for every
// move, unlike Stats, which also measures the file on disk.
func (b *Base) Nodes() int {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return len(b.nodes)
}

// Stats returns figures about the base.
func (b *Base) Stats() (Stats, error) {
	b.mu.RLock()
	if b.closed {
		b.mu.RUnlock()
		return Stats{}, ErrClosed
	}
	st := Stats{Nodes: len(b.nodes), Arcs: b.arcs, Games: b.games, Decisions: b.decisions, Hits: b.hits}
	b.mu.RUnlock()
	if err := b.db.QueryRow("SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()").Scan(&st.Bytes); err != nil {
		return Stats{}, fmt.Errorf("experience: stats: %w", explain(err))
	}
	for _, suffix := range []string{"", "-wal"} {
		fi, err := os.Stat(b.path + suffix)
		if err == nil {
			st.FileBytes += fi.Size()
		} else if !errors.Is(err, fs.ErrNotExist) {
			return Stats{}, fmt.Errorf("experience: stats: %w", err)
		}
	}
	return st, nil
}

// GameRow is a merged game as the base records it.
type GameRow struct {
	N         int64 // 1 for the first game merged, 2 for the next, ...
	GameID    string
	Seat      game.Seat
	Margin    int // final disc differential, black's view
	Decisions int
	Hits      int
	Nodes     int // nodes in the base after the merge
}

// LastGame returns the record of the game merged last, and false when there is none.
func (b *Base) LastGame() (GameRow, bool, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed {
		return GameRow{}, false, ErrClosed
	}
	var g GameRow
	err := b.db.QueryRow("SELECT n, game_id, seat, margin, decisions, hits, nodes FROM games ORDER BY n DESC LIMIT 1").
		Scan(&g.N, &g.GameID, &g.Seat, &g.Margin, &g.Decisions, &g.Hits, &g.Nodes)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return GameRow{}, false, nil
	case err != nil:
		return GameRow{}, false, fmt.Errorf("experience: last game: %w", err)
	}
	return g, true, nil
}

// Games returns the merged games' records in the order they were merged.
func (b *Base) Games() ([]GameRow, error) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed {
		return nil, ErrClosed
	}
	rows, err := b.db.Query("SELECT n, game_id, seat, margin, decisions, hits, nodes FROM games ORDER BY n")
	if err != nil {
		return nil, fmt.Errorf("experience: games: %w", err)
	}
	defer rows.Close()
	var out []GameRow
	for rows.Next() {
		var g GameRow
		if err := rows.Scan(&g.N, &g.GameID, &g.Seat, &g.Margin, &g.Decisions, &g.Hits, &g.Nodes); err != nil {
			return nil, fmt.Errorf("experience: games: %w", err)
		}
		out = append(out, g)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("experience: games: %w", err)
	}
	return out, nil
}
