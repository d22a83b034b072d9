package archive

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/arenaref/arena/players/engine"
)

// protocols are the engine registry's, as the referee and the host pass them.
var protocols = engine.Names()

func TestParseManifest(t *testing.T) {
	m, err := ParseManifest("arena.toml", []byte(`# my engine
protocol = "gtp"
build = "cc -O2 -o engine engine.c"
run = "./engine --name 'my bot' \"x y\" a\\ b ''"
game = ["othello", "atari-go"]
`), protocols)
	if err != nil {
		t.Fatal(err)
	}
	want := Manifest{Protocol: "gtp", Build: "cc -O2 -o engine engine.c", Run: `./engine --name 'my bot' "x y" a\ b ''`,
		Argv: []string{"./engine", "--name", "my bot", "x y", "a b", ""}, Games: []string{"othello", "atari-go"}}
	if !slices.Equal(m.Argv, want.Argv) || m.Protocol != want.Protocol || m.Build != want.Build || m.Run != want.Run || !slices.Equal(m.Games, want.Games) {
		t.Errorf("got %#v\nwant %#v", m, want)
	}
	m, err = ParseManifest("arena.toml", []byte("protocol = 'line'\nrun = 'python3 engine.py'\ngame = 'othello'\n"), protocols)
	if err != nil || m.Build != "" || !slices.Equal(m.Games, []string{"othello"}) || !slices.Equal(m.Argv, []string{"python3", "engine.py"}) {
		t.Errorf("%#v, %v", m, err)
	}
}

func TestParseManifestErrors(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"unknown key", "protocol = \"line\"\nrun = \"./e\"\nbuld = \"make\"\n", `arena.toml:3: unknown key "buld" (known: protocol, build, run, game)`},
		{"a table", "protocol = \"line\"\nrun = \"./e\"\n[engine]\nx = 1\n", `arena.toml:3: unknown key "engine"`},
		{"wrong type", "protocol = \"line\"\nrun = 3\n", "arena.toml:2: run: want a string, not an integer"},
		{"bad TOML", "protocol = \"line\nrun = \"./e\"\n", "arena.toml:1:"},
		{"no protocol", "run = \"./e\"\n", "no protocol"},
		{"bad protocol", "run = \"./e\"\nprotocol = \"uci\"\n", `arena.toml:2: protocol "uci": want line, gtp, nboard`},
		{"no run", "protocol = \"line\"\n", "no run"},
		{"empty run", "protocol = \"line\"\nrun = \"  \"\n", "arena.toml:2: run: empty"},
		{"a pipe", "protocol = \"line\"\nrun = \"./e | tee log\"\n", `arena.toml:2: run: "|" is a shell operator`},
		{"a variable", "protocol = \"line\"\n\nrun = \"./e $HOME\"\n", `arena.toml:3: run: "$" is a shell operator`},
		{"a glob", "protocol = \"line\"\nrun = \"./e *.txt\"\n", `"*" is a shell operator`},
		{"an open quote", "protocol = \"line\"\nrun = \"./e 'x\"\n", "a single quote is not closed"},
		{"an open double quote", "protocol = \"line\"\nrun = './e \"x'\n", "a double quote is not closed"},
		{"a trailing backslash", "protocol = \"line\"\nrun = './e \\'\n", "a backslash at the end"},
		{"an empty build", "protocol = \"line\"\nbuild = \"\"\nrun = \"./e\"\n", "arena.toml:2: build: empty"},
		{"a long build", "protocol = \"line\"\nbuild = \"" + strings.Repeat("x", 4097) + "\"\nrun = \"./e\"\n", "arena.toml:2: build: 4097 bytes"},
		{"a game with options", "protocol = \"line\"\nrun = \"./e\"\ngame = \"othello:size=6\"\n", `arena.toml:3: game: "othello:size=6": want a game's name`},
		{"a game as a number", "protocol = \"line\"\nrun = \"./e\"\ngame = 1\n", "arena.toml:3: game: want a game's name or a list"},
		{"no games", "protocol = \"line\"\nrun = \"./e\"\ngame = []\n", "want 1 to 64 games"},
		{"not UTF-8", "protocol = \"line\"\nrun = \"./\xff\"\n", "not UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseManifest("arena.toml", []byte(tt.text), protocols)
			if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want a refusal saying %q", err, tt.want)
			}
		})
	}
}

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"./engine", []string{"./engine"}},
		{"  python3\tengine.py  --depth=3 ", []string{"python3", "engine.py", "--depth=3"}},
		{`a'b c'd`, []string{"ab cd"}},
		{`"a \"quoted\" \\ word" '\n'`, []string{`a "quoted" \ word`, `\n`}},
		{`"keep \$ as is"`, []string{`keep \$ as is`}},
		{`x '|' "&&" \;`, []string{"x", "|", "&&", ";"}},
		{`x '' ""`, []string{"x", "", ""}},
		{"java -cp . Main", []string{"java", "-cp", ".", "Main"}},
		{"./e {a} x=1 a]b !x", []string{"./e", "{a}", "x=1", "a]b", "!x"}},
	}
	for _, tt := range tests {
		got, err := SplitCommand(tt.in)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, in := range []string{"", "   ", "''", "a && b", "a; b", "a > log", "a < in", "$(x)", "`x`", "a # comment", "~/e", "a?", "[a]"} {
		if got, err := SplitCommand(in); err == nil {
			t.Errorf("SplitCommand(%q) = %q, want an error", in, got)
		}
	}
}

// FuzzParseManifest feeds arbitrary text to ParseManifest: it never panics, every error is
// a refusal that names the file, and what it accepts is a manifest a host can run.
func FuzzParseManifest(f *testing.F) {
	for _, s := range []string{
		manifest,
		"protocol = \"gtp\"\nbuild = \"make\"\nrun = \"./e 'a b' \\\"c\\\"\"\ngame = [\"othello\"]\n",
		"protocol = \"line\"\nrun = \"./e | x\"\n",
		"protocol = 'nboard'\nrun = '''\n./e\n'''\ngame = 'othello'\n",
		"protocol = \"line\"\nrun = \"./e\"\nbuld = 1\n",
		"[x]\n",
		"protocol = 1",
		"game = [1, 'a']\n",
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		m, err := ParseManifest("arena.toml", text, protocols)
		if err != nil {
			if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "arena.toml") {
				t.Fatalf("error %v", err)
			}
			return
		}
		if !slices.Contains(protocols, m.Protocol) || len(m.Argv) == 0 || m.Argv[0] == "" {
			t.Fatalf("accepted %q as %#v", text, m)
		}
		again, err := SplitCommand(m.Run)
		if err != nil || !slices.Equal(again, m.Argv) {
			t.Fatalf("run %q splits to %q, then %q (%v)", m.Run, m.Argv, again, err)
		}
		for _, g := range m.Games {
			if !gameRE.MatchString(g) {
				t.Fatalf("game %q accepted", g)
			}
		}
	})
}
