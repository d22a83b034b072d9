package widening

import (
	"context"
	"errors"
	"testing"
	"time"
)

// problemFromBytes makes a problem of any shape from fuzz input, valid or not: a size
// from 0 to 20, a side to move and stones that may be no colour, a target and a ko that
// may be off the board, and a stone list that may be short.
func problemFromBytes(data []byte) Problem {
	get := func(i int) byte {
		if i < len(data) {
			return data[i]
		}
		return 0
	}
	p := Problem{
		Size:   int(get(0) % 21),
		ToMove: Color(get(1) % 4),
		Target: int(int8(get(2))) + int(get(3)),
		Ko:     int(int8(get(4))),
	}
	for i := 5; i < len(data) && len(p.Stones) < p.Size*p.Size; i++ {
		p.Stones = append(p.Stones, Color(data[i]%4))
	}
	return p
}

// FuzzProblem feeds arbitrary problems to Validate and, when they pass, to Solve with
// a short time: no panic, an invalid problem is ErrInvalidProblem, and a valid one gets
// a verdict whose move, if any, is a legal move of the side to move.
func FuzzProblem(f *testing.F) {
	f.Add([]byte{3, 1, 1, 0, 255, 1, 2, 0, 0, 0, 0, 0, 0, 0})                    // a valid 3x3 problem
	f.Add([]byte{3, 2, 4, 0, 255, 0, 1, 0, 1, 2, 1, 0, 1, 0})                    // white to move, target in the middle
	f.Add([]byte{4, 1, 5, 0, 3, 2, 2, 0, 0, 2, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0}) // a ko point
	f.Add([]byte{0, 1, 0, 0, 0})                                                 // size 0
	f.Add([]byte{20, 1, 0, 0, 0})                                                // size 20
	f.Add([]byte{2, 3, 0, 0, 255, 3, 3, 3, 3})                                   // no colours at all
	f.Add([]byte{2, 1, 0, 0, 255, 1, 2, 2, 0})                                   // a dead string
	f.Fuzz(func(t *testing.T, data []byte) {
		p := problemFromBytes(data)
		err := p.Validate()
		if err != nil {
			if !errors.Is(err, ErrInvalidProblem) {
				t.Fatalf("Validate: %v is not an ErrInvalidProblem", err)
			}
			if _, err := Solve(context.Background(), p, Options{}); err == nil {
				t.Fatal("Solve accepted a problem Validate refuses")
			}
			return
		}
		res, err := Solve(context.Background(), p, Options{Time: 20 * time.Millisecond, MaxDepth: 8})
		if err != nil {
			t.Fatalf("Solve of a valid problem: %v", err)
		}
		if res.Verdict < Unknown || res.Verdict > Lost {
			t.Fatalf("verdict %d", res.Verdict)
		}
		if res.Move >= 0 {
			b := problemBoard(p)
			if res.Verdict != Won || !b.legal(res.Move, p.ToMove) {
				t.Fatalf("move %s with verdict %v:\n%s", PointName(res.Move, p.Size), res.Verdict, p)
			}
		}
	})
}
