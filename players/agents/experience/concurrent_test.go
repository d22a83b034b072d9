package experience

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/arenaref/arena/game"
)

func TestConcurrentMergeAndAdvise(t *testing.T) {
	g := sized(t, 6)
	const workers, perWorker = 8, 15
	rng := rand.New(rand.NewPCG(31, 32))
	var games []played
	for i := range workers * perWorker {
		// Few distinct openings, so that the workers' games share and transpose.
		games = append(games, randomGame(rng, g, i%5 == 0))
	}

	b, _ := openTemp(t, g.Name())
	var wg sync.WaitGroup
	errs := make(chan error, 2*workers)
	for w := range workers {
		wg.Add(2)
		go func() { // merges its share of the games
			defer wg.Done()
			for i := w; i < len(games); i += workers {
				p := games[i]
				if _, err := b.Merge(&p.start, p.moves, Record{GameID: fmt.Sprint(i), Seat: game.Seat(i % 2), Decisions: 3, Hits: 1}); err != nil {
					errs <- err
					return
				}
			}
		}()
		go func() { // asks for advice along other games meanwhile, and reads stats
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 0))
			for range perWorker {
				p := games[r.IntN(len(games))]
				s := p.start
				for _, m := range p.moves {
					pos := s
					legal := pos.LegalMoves(pos.ToMove(), nil)
					adv, err := b.Advise(&pos, func() (game.Move, error) { return legal[r.IntN(len(legal))], nil })
					if err != nil {
						errs <- err
						return
					}
					if !isLegal(&pos, adv.Move) {
						errs <- fmt.Errorf("advice %+v is illegal", adv)
						return
					}
					b.Node(KeyOf(&pos))
					s.Play(m)
				}
				if _, err := b.Stats(); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	got := snapshot(t, b)
	st, _ := b.Stats()
	if st.Games != int64(len(games)) || st.Decisions != 3*int64(len(games)) || st.Hits != int64(len(games)) {
		t.Errorf("stats %+v", st)
	}
	if d := diffGraphs(got, bruteForce(games)); d != "" {
		t.Fatalf("concurrent base differs from brute force:\n%s", d)
	}

	// Min-max back-up does not depend on the order of the games: sequential merges in
	// three orders give the same graph.
	reversed := make([]played, len(games))
	for i, p := range games {
		reversed[len(games)-1-i] = p
	}
	shuffled := append([]played{}, games...)
	rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	for name, order := range map[string][]played{"in order": games, "reversed": reversed, "shuffled": shuffled} {
		t.Run(name, func(t *testing.T) {
			seq, _ := openTemp(t, g.Name())
			mergeAll(t, seq, order)
			if d := diffGraphs(snapshot(t, seq), got); d != "" {
				t.Fatalf("sequential base differs from the concurrent one:\n%s", d)
			}
		})
	}
}
