package player

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/arenaref/arena/protocol"
)

func TestCleanInfo(t *testing.T) {
	long := strings.Repeat("é", protocol.MaxNote) // two bytes a character
	tests := []struct {
		name    string
		in      protocol.SearchInfo
		wantNil bool
		check   func(t *testing.T, out *protocol.SearchInfo)
	}{
		{name: "empty", in: protocol.SearchInfo{}, wantNil: true},
		{name: "note only is kept", in: protocol.SearchInfo{Note: "from the base"}, check: func(t *testing.T, out *protocol.SearchInfo) {
			if out.Note != "from the base" {
				t.Errorf("note %q", out.Note)
			}
		}},
		{name: "long note is cut at a character", in: protocol.SearchInfo{Note: long}, check: func(t *testing.T, out *protocol.SearchInfo) {
			if len(out.Note) > protocol.MaxNote || !utf8.ValidString(out.Note) || !strings.HasPrefix(long, out.Note) || len(out.Note) < protocol.MaxNote-1 {
				t.Errorf("note of %d bytes, valid %v", len(out.Note), utf8.ValidString(out.Note))
			}
		}},
		{name: "bad numbers", in: protocol.SearchInfo{Depth: -1, Nodes: -5, Score: math.NaN(), PV: make([]string, 300)}, check: func(t *testing.T, out *protocol.SearchInfo) {
			if out.Depth != 0 || out.Nodes != 0 || out.Score != 0 || len(out.PV) != maxInfoPV {
				t.Errorf("cleaned to %+v", out)
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := cleanInfo(tc.in)
			if (out == nil) != tc.wantNil {
				t.Fatalf("cleanInfo = %v, want nil %v", out, tc.wantNil)
			}
			if tc.check != nil {
				tc.check(t, out)
			}
		})
	}
}
