package cli

import (
	"bytes"
	"fmt"
	"testing"
)

func TestWriteJSON(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJSON(&buf, map[string]int{"games": 2}); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), "{\n  \"games\": 2\n}\n"; got != want {
		t.Errorf("WriteJSON wrote %q, want %q", got, want)
	}
}

// TestTickerWithoutTerminal checks that without a terminal a Ticker prints every n-th
// count's text only.
func TestTickerWithoutTerminal(t *testing.T) {
	var buf bytes.Buffer
	tk := NewTicker(&buf, 10, 0, "training", 3)
	if tk.Bar != nil {
		t.Fatal("a bar on a buffer")
	}
	for i := 1; i <= 10; i++ {
		tk.Update(i, fmt.Sprintf("game %d", i))
	}
	tk.Finish()
	if got, want := buf.String(), "game 3\ngame 6\ngame 9\n"; got != want {
		t.Errorf("printed %q, want %q", got, want)
	}
}
