package course

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseRoster(t *testing.T) {
	tests := []struct {
		name, text string
		want       []Student
		err        string
	}{
		{name: "names only", text: "alice\nbob\n", want: []Student{{Name: "alice"}, {Name: "bob"}}},
		{name: "a header and full names", text: "name,full name,email\nalice, Alice Liddell ,a@x\n\nbob_2,Bob\n",
			want: []Student{{Name: "alice", FullName: "Alice Liddell"}, {Name: "bob_2", FullName: "Bob"}}},
		{name: "quoted", text: "\"carol\",\"Carol, the third\"\n", want: []Student{{Name: "carol", FullName: "Carol, the third"}}},
		{name: "a bad name", text: "alice\nbob smith\n", err: `line 2: "bob smith" is not a player name`},
		{name: "twice", text: "alice\nbob\nalice\n", err: "line 3: alice is already on line 1"},
		{name: "empty", text: "\n\n", err: "no students"},
		{name: "only a header", text: "name\n", err: "no students"},
		{name: "a dotted name", text: "a.b\n", err: "not a player name"},
		{name: "broken quotes", text: "\"alice\n", err: "roster:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseRoster(strings.NewReader(tc.text))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
	if _, err := ParseRoster(strings.NewReader(strings.Repeat("a", MaxRosterBytes+1))); err == nil {
		t.Error("a roster over the size limit was read")
	}
}

func FuzzParseRoster(f *testing.F) {
	for _, s := range []string{"alice\nbob\n", "name,full\nalice,A\n", "\"x\ny\"\n", "a,b,c\n,,\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		students, err := ParseRoster(strings.NewReader(text))
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, s := range students {
			if s.Name == "" || seen[s.Name] || strings.ContainsAny(s.Name, " .,*>\n") {
				t.Fatalf("ParseRoster(%q) gave %+v", text, students)
			}
			seen[s.Name] = true
		}
	})
}
