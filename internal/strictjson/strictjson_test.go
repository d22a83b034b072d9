package strictjson

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
)

type inner struct {
	B int `json:"b"`
}

type doc struct {
	A     string          `json:"a"`
	In    *inner          `json:"in"`
	List  []inner         `json:"list"`
	Free  json.RawMessage `json:"free"`
	Plain int
	skip  int
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name string
		data string
		want string // "" for no error, else a part of the error
	}{
		{"exact keys", `{"a":"x","in":{"b":1}}`, ""},
		{"exact keys at every level", `{"a":"x","in":{"b":1},"list":[{"b":2}],"Plain":3}`, ""},
		{"escaped key", `{"\u0061":"x"}`, ""},
		{"free-form field takes any keys", `{"free":{"Anything":{"A":1,"a":2}}}`, ""},
		{"white space after", "{\"a\":\"x\"} \n\t", ""},
		{"a second object", `{"a":"x"}{}`, "data after"},
		{"a stray closing brace", `{"a":"x"}}`, "data after"},
		{"a stray closing bracket", `{"a":"x"}]`, "data after"},
		{"unknown key", `{"c":1}`, `json: unknown field "c"`},
		{"wrong case", `{"A":"x"}`, `unknown field "A" (field names are case-sensitive)`},
		{"wrong case of an untagged field", `{"plain":3}`, `unknown field "plain" (field names are case-sensitive)`},
		{"unknown nested key", `{"in":{"B":1}}`, `unknown field "B" in /in (field names are case-sensitive)`},
		{"unknown key in an array element", `{"list":[{"b":1},{"x":1}]}`, `unknown field "x" in /list/1`},
		{"unexported field", `{"skip":1}`, `unknown field "skip"`},
		{"repeated key", `{"a":"x","a":"y"}`, `field "a" given twice`},
		{"repeated nested key", `{"in":{"b":1,"b":2}}`, `field "b" given twice in /in`},
		{"repeated key even in a free-form field", `{"free":{"A":1,"A":2}}`, `field "A" given twice in /free`},
		{"deep but within the bound", `{"free":` + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + `}`, ""},
		{"too deep", `{"free":` + strings.Repeat("[", MaxDepth+2) + strings.Repeat("]", MaxDepth+2) + `}`, "nested more than"},
		{"brackets in a string do not nest", `{"a":"` + strings.Repeat("[", MaxDepth+2) + `\"{"}`, ""},
		{"not an object", `[1]`, "json: cannot unmarshal JSON array into Go strictjson.doc"},
		{"a string for a number", `{"Plain":"3"}`, "json: cannot unmarshal JSON string into Go int within \"/Plain\""},
		{"cut short", `{"a":`, "EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Decode([]byte(tt.data), &doc{})
			if err != nil && strings.Contains(err.Error(), "case-sensitive") != strings.Contains(tt.want, "case-sensitive") {
				t.Errorf("Decode(%q) = %v: the case hint only for a known field in another case", tt.data, err)
			}
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Decode(%q) = %v, want nil", tt.data, err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("Decode(%q) = %v, want an error containing %q", tt.data, err, tt.want)
			}
		})
	}
}

// TestDecodeAsEncodingJSON checks that a value reads as encoding/json wrote it: durations
// as nanoseconds, times as RFC 3339, raw values kept, and bytes that are not UTF-8 as
// encoding/json reads them.
func TestDecodeAsEncodingJSON(t *testing.T) {
	type record struct {
		Late   time.Duration
		Clocks []time.Duration
		At     time.Time
		Raw    json.RawMessage `json:"raw"`
		Note   string          `json:"note"`
	}
	want := record{Late: 1500 * time.Millisecond, Clocks: []time.Duration{time.Second, -3},
		At: time.Date(2026, 11, 27, 9, 30, 0, 5, time.UTC), Raw: json.RawMessage(`{"x":[1,2]}`), Note: "a\xffb"}
	data, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	var v1, got record
	if err := json.Unmarshal(data, &v1); err != nil {
		t.Fatal(err)
	}
	if err := Decode(data, &got); err != nil {
		t.Fatalf("Decode(%s) = %v", data, err)
	}
	if got.Late != v1.Late || !slices.Equal(got.Clocks, v1.Clocks) || !got.At.Equal(v1.At) ||
		string(got.Raw) != string(v1.Raw) || got.Note != v1.Note {
		t.Errorf("Decode(%s) = %+v, encoding/json reads %+v", data, got, v1)
	}
	raw := []byte("{\"note\":\"a\xffb\"}")
	if err := json.Unmarshal(raw, &v1); err != nil {
		t.Fatal(err)
	}
	if err := Decode(raw, &got); err != nil || got.Note != v1.Note {
		t.Errorf("Decode(%q) = %q, %v; encoding/json reads %q", raw, got.Note, err, v1.Note)
	}
}

// TestExplainKeepsOneWording checks that a json v2 error worded "unable to" (its choice,
// at random once per process) reads "cannot", and still wraps its cause.
func TestExplainKeepsOneWording(t *testing.T) {
	cause := &jsonv2.SemanticError{}
	err := explain(fmt.Errorf("json: unable to unmarshal JSON string into Go int: %w", cause))
	var serr *jsonv2.SemanticError
	if err.Error() != "json: cannot unmarshal JSON string into Go int: "+cause.Error() || !errors.As(err, &serr) {
		t.Errorf("explain = %q (wraps the cause: %v)", err, errors.As(err, &serr))
	}
}

// TestDecodeLeavesUnexported checks that a key named like an unexported field neither
// reaches it nor passes as known.
func TestDecodeLeavesUnexported(t *testing.T) {
	var d doc
	if err := Decode([]byte(`{"skip":1}`), &d); err == nil || d.skip != 0 {
		t.Errorf("Decode({\"skip\":1}) = %v, skip %d; want an error and skip 0", err, d.skip)
	}
}

// TestDecodeConcurrently checks that the pooled decoders keep nothing of one Decode for
// the next: goroutines decoding different documents, good and bad, each get their own.
func TestDecodeConcurrently(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				want := strconv.Itoa(g*1000 + i)
				var d doc
				if err := Decode([]byte(`{"a":"`+want+`","in":{"b":`+want+`}}`), &d); err != nil || d.A != want || d.In == nil || strconv.Itoa(d.In.B) != want {
					errs <- fmt.Errorf("goroutine %d: Decode = %+v, %v; want a and b %s", g, d, err, want)
					return
				}
				if err := Decode([]byte(`{"a":"x","a":"y"}`), &d); err == nil {
					errs <- fmt.Errorf("goroutine %d: a repeated key passed", g)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func BenchmarkDecode(b *testing.B) {
	data := []byte(`{"a":"x","in":{"b":1},"list":[{"b":2},{"b":3},{"b":4}],"free":{"any":[1,2,3]},"Plain":3}`)
	b.ReportAllocs()
	for b.Loop() {
		if err := Decode(data, &doc{}); err != nil {
			b.Fatal(err)
		}
	}
}
