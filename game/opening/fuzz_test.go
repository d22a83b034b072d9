package opening_test

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/game/opening"
	"github.com/arenaref/arena/games/othello"
	"github.com/arenaref/arena/internal/testutil/testgame"
)

func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"c4 c3\nd3 c5 f6\n",
		"# header\n\nC4,C3\r\n  f5 d6\t\n",
		"c4 c3\nc4,c3\n",
		"1 1\n2\n1 2 1\n",
		"c4 c3 z9\n",
		"pass\n",
		",,,\n",
		"#",
		"",
		"\xff\xfe c4\n",
		"c4\u00a0c3\n",
		"c4\u0085c3\n",
		strings.Repeat("c4 ", 300),
	} {
		f.Add(seed, false)
		f.Add(seed, true)
	}
	f.Fuzz(func(t *testing.T, data string, count bool) {
		var g game.Game = othello.New()
		if count {
			g = testgame.NewCount(12)
		}
		ops, err := opening.Parse(strings.NewReader(data), g)
		if err != nil {
			if ops != nil {
				t.Fatalf("openings returned with error %v", err)
			}
			return
		}
		last := 0
		for _, o := range ops {
			if len(o.Moves) == 0 || o.Line <= last {
				t.Fatalf("opening %+v after line %d", o, last)
			}
			last = o.Line
		}
		var buf bytes.Buffer
		if err := opening.Write(&buf, []string{"fuzz"}, ops); err != nil {
			t.Fatalf("accepted openings do not write: %v", err)
		}
		back, err := opening.Parse(&buf, g)
		if err != nil {
			t.Fatalf("written openings do not parse: %v\n%s", err, buf.String())
		}
		if !slices.EqualFunc(back, ops, func(a, b opening.Opening) bool { return slices.Equal(a.Moves, b.Moves) }) {
			t.Fatalf("round trip changed the openings:\n%v\n%v", back, ops)
		}
	})
}
