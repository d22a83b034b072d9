package strictjson

import (
	"encoding/json"
	"strings"
	"testing"
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

func TestCheckKeys(t *testing.T) {
	tests := []struct {
		name string
		data string
		want string // "" for no error, else a part of the error
	}{
		{"exact keys", `{"a":"x","in":{"b":1},"list":[{"b":2}],"Plain":3}`, ""},
		{"free-form field takes any keys", `{"free":{"Anything":{"A":1,"a":2}}}`, ""},
		{"repeated key even in a free-form field", `{"free":{"A":1,"A":2}}`, `field "A" given twice in free`},
		{"wrong case", `{"A":"x"}`, `unknown field "A"`},
		{"unknown key", `{"c":1}`, `unknown field "c"`},
		{"unknown nested key", `{"in":{"B":1}}`, `unknown field "B" in in`},
		{"unknown key in an array element", `{"list":[{"b":1},{"x":1}]}`, `in list[]`},
		{"repeated key", `{"a":"x","a":"y"}`, `field "a" given twice`},
		{"unexported field", `{"skip":1}`, `unknown field "skip"`},
		{"too deep", `{"free":` + strings.Repeat("[", MaxDepth+2) + strings.Repeat("]", MaxDepth+2) + `}`, "nested more than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckKeys([]byte(tt.data), &doc{})
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("CheckKeys(%s) = %v, want nil", tt.data, err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("CheckKeys(%s) = %v, want an error containing %q", tt.data, err, tt.want)
			}
		})
	}
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name string
		data string
		want string // "" for no error, else a part of the error
	}{
		{"exact keys", `{"a":"x","in":{"b":1}}`, ""},
		{"white space after", "{\"a\":\"x\"} \n\t", ""},
		{"a second object", `{"a":"x"}{}`, "data after"},
		{"a stray closing brace", `{"a":"x"}}`, "data after"},
		{"a stray closing bracket", `{"a":"x"}]`, "data after"},
		{"unknown key", `{"c":1}`, `unknown field "c"`},
		{"wrong case", `{"A":"x"}`, `unknown field "A"`},
		{"repeated key", `{"a":"x","a":"y"}`, `field "a" given twice`},
		{"not an object", `[1]`, "cannot unmarshal"},
		{"cut short", `{"a":`, "EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Decode([]byte(tt.data), &doc{})
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("Decode(%q) = %v, want nil", tt.data, err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Fatalf("Decode(%q) = %v, want an error containing %q", tt.data, err, tt.want)
			}
		})
	}
}
