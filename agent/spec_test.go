package agent

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseSpecs(t *testing.T) {
	tests := []struct {
		in      string
		names   []string
		specs   map[string]Spec
		wantErr string
	}{
		{in: "random,hp1", names: []string{"random", "hp1"}},
		{in: "alice,hp2", names: []string{"alice", "hp2"}},
		{in: "d4=minimax:depth=4,d2=minimax:depth=2:tt=8,hp1", names: []string{"d4", "d2", "hp1"},
			specs: map[string]Spec{
				"d4": {Agent: "minimax", Params: map[string]string{"depth": "4"}},
				"d2": {Agent: "minimax", Params: map[string]string{"depth": "2", "tt": "8"}},
			}},
		{in: "mine=hp1", names: []string{"mine"}, specs: map[string]Spec{"mine": {Agent: "hp1"}}},
		{in: "mine=engine:cmd=python3 mine.py:proto=gtp", names: []string{"mine"},
			specs: map[string]Spec{"mine": {Agent: "engine", Params: map[string]string{"cmd": "python3 mine.py", "proto": "gtp"}}}},
		{in: "j=engine:cmd=java -cp 'a.jar:b.jar' \"M:1\" x\\:y:dir=/tmp", names: []string{"j"},
			specs: map[string]Spec{"j": {Agent: "engine", Params: map[string]string{"cmd": `java -cp 'a.jar:b.jar' "M:1" x\:y`, "dir": "/tmp"}}}},
		{in: "j=engine:cmd='a:b", wantErr: "unterminated quote"},
		{in: "minimax:depth=4", wantErr: "give the player a name"},
		{in: "d4=minimax:depth", wantErr: "not key=value"},
		{in: "d4=minimax:=4", wantErr: "not key=value"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			names, specs, err := ParseSpecs(strings.Split(tt.in, ","))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(names, tt.names) || !reflect.DeepEqual(specs, tt.specs) {
				t.Fatalf("got %v %v, want %v %v", names, specs, tt.names, tt.specs)
			}
		})
	}
}

// TestParseList reads a player list as --players gives it: cut at the commas outside
// quotes, entries trimmed, empty ones dropped.
func TestParseList(t *testing.T) {
	tests := []struct {
		in      string
		names   []string
		wantErr string
	}{
		{in: "random, hp1 ,,", names: []string{"random", "hp1"}},
		{in: "mine=engine:cmd=python3 mine.py:proto=line,hp2", names: []string{"mine", "hp2"}},
		{in: `m=engine:cmd=./m --list 'a,b',hp2`, names: []string{"m", "hp2"}},
		{in: `m=engine:cmd=./m "a,b,hp2`, wantErr: "unterminated quote"},
		{in: "", names: nil},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			names, specs, err := ParseList(tt.in)
			if (err == nil) != (tt.wantErr == "") || err != nil && !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
			}
			if !reflect.DeepEqual(names, tt.names) {
				t.Fatalf("names %q, want %q", names, tt.names)
			}
			if m, ok := specs["m"]; ok && m.Params["cmd"] != "./m --list 'a,b'" {
				t.Errorf("m's cmd %q, want the quoted comma kept", m.Params["cmd"])
			}
		})
	}
}
