package experience

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/games/othello"
)

// ErrUnfinished is wrapped by the error Merge returns for a game that did not reach a
// finished position: a game lost on time or by forfeit has no outcome to back up.
var ErrUnfinished = errors.New("experience: game is not finished")

// Record describes a game being merged, for statistics.
type Record struct {
	GameID    string
	Seat      game.Seat // the seat the experience player had
	Decisions int       // moves the player chose in the game
	Hits      int       // of which decided from the base (Case.FromBase)
}

// MergeResult says what a merge changed.
type MergeResult struct {
	NewNodes int // positions the base did not know
	NewArcs  int // moves it had not seen played from their position
	Changed  int // nodes already in the base whose value or frequency changed
	Margin   int // the game's final disc differential, black's view
}

type newArc struct {
	parent int32
	move   game.Move
	child  int32
}

type valFreq struct {
	value int32
	freq  int64
}

// plan is a merge worked out against the graph without changing it, so that memory
// changes only once SQLite has committed. Along one game every position is different
// (the disc count grows, or a pass is followed by a move), so an existing node gains at
// most one child and one parent.
type plan struct {
	base      int32 // id of the first new node
	newNodes  []node
	newArcs   []newArc
	addChild  map[int32]arc   // existing node: the child it gains
	addParent map[int32]int32 // existing node: the parent it gains
	upd       map[int32]valFreq
}

// Merge adds a finished game to the base. start is the game's initial position (an
// opening position will do), moves are all the moves played from it by both sides,
// passes included. The final position must be finished, else the error wraps
// ErrUnfinished; an illegal move is an error wrapping game.ErrIllegalMove (or
// game.ErrGameOver for a move after the end). Either way nothing changes.
//
// Every position along the game becomes a node unless the base knows it, every move an
// arc, and the game's margin is backed up by min-max through all the ancestors of what
// changed, together with the path counts. The changes and a row for the game in the
// games table are written in one transaction; the in-memory graph changes only after it
// commits. Merging a game the base already holds changes no node, but records the game.
func (b *Base) Merge(start *othello.State, moves []game.Move, rec Record) (MergeResult, error) {
	if start == nil {
		return MergeResult{}, errors.New("experience: merge: no start position")
	}
	if start.Game().Name() != b.game {
		return MergeResult{}, fmt.Errorf("experience: merge: a game of %s into a base of %s", start.Game().Name(), b.game)
	}
	if rec.Seat != othello.Black && rec.Seat != othello.White {
		return MergeResult{}, fmt.Errorf("experience: merge: record seat %d is neither black nor white", rec.Seat)
	}
	if rec.Decisions < 0 || rec.Hits < 0 || rec.Hits > rec.Decisions {
		return MergeResult{}, fmt.Errorf("experience: merge: record has %d hits of %d decisions", rec.Hits, rec.Decisions)
	}
	states := make([]othello.State, 1, len(moves)+1)
	states[0] = *start
	s := *start
	for i, m := range moves {
		if err := s.Play(m); err != nil {
			return MergeResult{}, fmt.Errorf("experience: merge: move %d (%s): %w", i+1, s.MoveString(m), err)
		}
		states = append(states, s)
	}
	if !s.IsTerminal() {
		return MergeResult{}, fmt.Errorf("%w: %d moves from the start leave %s to move", ErrUnfinished, len(moves), seatName(s.ToMove()))
	}

	b.mergeMu.Lock()
	defer b.mergeMu.Unlock()
	if b.closed { // only Close sets it, and Close holds mergeMu
		return MergeResult{}, ErrClosed
	}
	p, err := b.plan(states, moves)
	if err != nil {
		return MergeResult{}, err
	}
	res := MergeResult{NewNodes: len(p.newNodes), NewArcs: len(p.newArcs), Changed: len(p.upd), Margin: s.Margin()}
	if b.broken != nil {
		return MergeResult{}, b.broken
	}
	if err := b.write(p, start, moves, rec, res); err != nil {
		var ce commitError
		if errors.As(err, &ce) {
			// The transaction may or may not have reached the file: read it back.
			if rerr := b.reload(); rerr != nil {
				b.broken = fmt.Errorf("experience: merge: the base could not be read back after a failed commit (%v); reopen it", rerr)
			}
		}
		return MergeResult{}, err
	}
	b.apply(p, rec)
	return res, nil
}

func seatName(s game.Seat) string {
	switch s {
	case othello.Black:
		return "black"
	case othello.White:
		return "white"
	}
	return "nobody"
}

// plan works out the merge of the game through states. It runs under mergeMu: only
// merges change the graph, so it reads it without mu.
func (b *Base) plan(states []othello.State, moves []game.Move) (*plan, error) {
	p := &plan{base: int32(len(b.nodes))}
	path := make([]int32, len(states))
	for i := range states {
		s := &states[i]
		k := KeyOf(s)
		id, ok := b.index[k]
		if !ok {
			id = p.base + int32(len(p.newNodes))
			nd := node{key: k, legal: uint8(legalCount(s)), rank: rank(s)}
			if nd.legal == 0 {
				nd.value, nd.freq = int32(s.Margin()), 1
			}
			p.newNodes = append(p.newNodes, nd)
		}
		path[i] = id
	}
	for i, m := range moves {
		par, ch := path[i], path[i+1]
		if par < p.base {
			cs := b.nodes[par].children
			if j, found := slices.BinarySearchFunc(cs, m, func(a arc, m game.Move) int { return cmp.Compare(a.move, m) }); found {
				if cs[j].child != ch {
					return nil, fmt.Errorf("experience: merge: %w: the arc %s from node %d leads to node %d, the game to node %d",
						ErrBadBase, othello.MoveString(m), par, cs[j].child, ch)
				}
				continue
			}
			if p.addChild == nil {
				p.addChild = map[int32]arc{}
			}
			p.addChild[par] = arc{move: m, child: ch}
		} else {
			nd := &p.newNodes[par-p.base]
			nd.children = append(nd.children, arc{move: m, child: ch})
		}
		if ch < p.base {
			if p.addParent == nil {
				p.addParent = map[int32]int32{}
			}
			p.addParent[ch] = par
		} else {
			nd := &p.newNodes[ch-p.base]
			nd.parents = append(nd.parents, par)
		}
		p.newArcs = append(p.newArcs, newArc{parent: par, move: m, child: ch})
	}
	if len(p.newArcs) > 0 {
		b.backupPlan(p)
	}
	return p, nil
}

// backupPlan recomputes the value and frequency of every ancestor of the nodes that
// gained a child, each once, children before parents.
func (b *Base) backupPlan(p *plan) {
	total := int(p.base) + len(p.newNodes)
	if len(b.mark) < total {
		b.mark = append(b.mark, make([]uint32, total-len(b.mark)+total/4)...)
	}
	b.epoch++
	if b.epoch == 0 {
		clear(b.mark)
		b.epoch = 1
	}
	work, touched := b.work[:0], b.touched[:0]
	visit := func(id int32) {
		if b.mark[id] != b.epoch {
			b.mark[id] = b.epoch
			work = append(work, id)
			touched = append(touched, id)
		}
	}
	for _, a := range p.newArcs {
		visit(a.parent)
	}
	for len(work) > 0 {
		id := work[len(work)-1]
		work = work[:len(work)-1]
		if id >= p.base {
			for _, par := range p.newNodes[id-p.base].parents {
				visit(par)
			}
			continue
		}
		for _, par := range b.nodes[id].parents {
			visit(par)
		}
		if par, ok := p.addParent[id]; ok {
			visit(par)
		}
	}
	nodeAt := func(id int32) *node {
		if id >= p.base {
			return &p.newNodes[id-p.base]
		}
		return &b.nodes[id]
	}
	slices.SortFunc(touched, func(x, y int32) int { return cmp.Compare(nodeAt(y).rank, nodeAt(x).rank) })

	p.upd = make(map[int32]valFreq, len(touched))
	val := func(c int32) (int32, int64) {
		if c >= p.base {
			nd := &p.newNodes[c-p.base]
			return nd.value, nd.freq
		}
		if u, ok := p.upd[c]; ok {
			return u.value, u.freq
		}
		return b.nodes[c].value, b.nodes[c].freq
	}
	for _, id := range touched {
		if id >= p.base {
			nd := &p.newNodes[id-p.base]
			nd.value, nd.freq = backup(nd.key.Side, nd.children, nil, val)
			continue
		}
		nd := &b.nodes[id]
		var extra *arc
		if a, ok := p.addChild[id]; ok {
			extra = &a
		}
		if v, f := backup(nd.key.Side, nd.children, extra, val); v != nd.value || f != nd.freq {
			p.upd[id] = valFreq{value: v, freq: f}
		}
	}
	b.work, b.touched = work[:0], touched[:0]
}

const timeLayout = "2006-01-02T15:04:05.000000Z"

// write stores a planned merge in one transaction.
func (b *Base) write(p *plan, start *othello.State, moves []game.Move, rec Record, res MergeResult) (err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("experience: merge: %w", err)
		}
	}()
	tx, err := b.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if len(p.newNodes) > 0 {
		st, err := tx.Prepare("INSERT INTO nodes (id, black, white, side, value, freq, legal) VALUES (?, ?, ?, ?, ?, ?, ?)")
		if err != nil {
			return err
		}
		for i := range p.newNodes {
			nd := &p.newNodes[i]
			if _, err := st.Exec(int64(p.base)+int64(i), int64(nd.key.Black), int64(nd.key.White), int64(nd.key.Side),
				nd.value, nd.freq, nd.legal); err != nil {
				return err
			}
		}
		st.Close()
	}
	if len(p.upd) > 0 {
		st, err := tx.Prepare("UPDATE nodes SET value = ?, freq = ? WHERE id = ?")
		if err != nil {
			return err
		}
		for id, u := range p.upd {
			if _, err := st.Exec(u.value, u.freq, id); err != nil {
				return err
			}
		}
		st.Close()
	}
	if len(p.newArcs) > 0 {
		st, err := tx.Prepare("INSERT INTO arcs (parent, move, child) VALUES (?, ?, ?)")
		if err != nil {
			return err
		}
		for _, a := range p.newArcs {
			if _, err := st.Exec(a.parent, a.move, a.child); err != nil {
				return err
			}
		}
		st.Close()
	}
	var text strings.Builder
	for i, m := range moves {
		if i > 0 {
			text.WriteByte(' ')
		}
		text.WriteString(othello.MoveString(m))
	}
	if _, err := tx.Exec(`INSERT INTO games (game_id, seat, margin, decisions, hits, nodes, new_nodes, start, moves, merged)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		rec.GameID, int(rec.Seat), res.Margin, rec.Decisions, rec.Hits, int(p.base)+len(p.newNodes), len(p.newNodes),
		start.String(), text.String(), time.Now().UTC().Format(timeLayout)); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return commitError{err}
	}
	return nil
}

// commitError is a failed COMMIT, after which the transaction's fate is unknown.
type commitError struct{ err error }

func (e commitError) Error() string { return "commit: " + e.err.Error() }
func (e commitError) Unwrap() error { return e.err }

// reload reads the graph again from the file.
func (b *Base) reload() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.load()
}

// apply makes a committed merge visible.
func (b *Base) apply(p *plan, rec Record) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for i := range p.newNodes {
		b.index[p.newNodes[i].key] = p.base + int32(i)
	}
	b.nodes = append(b.nodes, p.newNodes...)
	for par, a := range p.addChild {
		cs := b.nodes[par].children
		j, _ := slices.BinarySearchFunc(cs, a.move, func(x arc, m game.Move) int { return cmp.Compare(x.move, m) })
		b.nodes[par].children = slices.Insert(cs, j, a)
	}
	for ch, par := range p.addParent {
		ps := b.nodes[ch].parents
		j, _ := slices.BinarySearch(ps, par)
		b.nodes[ch].parents = slices.Insert(ps, j, par)
	}
	for id, u := range p.upd {
		b.nodes[id].value, b.nodes[id].freq = u.value, u.freq
	}
	b.arcs += len(p.newArcs)
	b.games++
	b.decisions += int64(rec.Decisions)
	b.hits += int64(rec.Hits)
}
