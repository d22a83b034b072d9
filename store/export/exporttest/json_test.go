package exporttest

import (
	"errors"
	"strings"
	"testing"

	"github.com/arenaref/arena/store/export"
)

func TestReadJSONErrors(t *testing.T) {
	tests := []struct{ name, in string }{
		{"unknown field", `{"games":[{"id":1,"colour":"red"}]}`},
		{"unknown top field", `{"games":[],"version":1}`},
		{"unknown move field", `{"games":[{"moves":[{"ply":1,"clock":3}]}]}`},
		{"trailing data", `{"games":[]} {}`},
		{"wrong type", `{"games":[{"id":"one"}]}`},
		{"bad time", `{"games":[{"started":"yesterday"}]}`},
		{"time out of range", `{"games":[{"started":"0000-01-01T00:00:00+01:00"}]}`},
		{"not json", `games`},
		{"empty", ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			games, err := ReadJSON(strings.NewReader(tt.in))
			if !errors.Is(err, export.ErrMalformed) {
				t.Errorf("ReadJSON = %+v, %v; want an error wrapping export.ErrMalformed", games, err)
			}
		})
	}
}
