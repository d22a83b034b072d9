package main

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

const sample = "# Title\n" +
	"\n" +
	"```sh\n" +
	"go build -o arena ./cmd/arena\n" +
	"./arena server --port 4222 &        # a NATS server\n" +
	"./arena tournament --nats nats://127.0.0.1:4222 \\\n" +
	"  --players a,b --db x.db\n" +
	"\n" +
	"P=\"\"; for r in td-LB td-LL; do\n" +
	"  P=\"$P,$r=learned:weights=out/$r.json\"; done   # a loop\n" +
	"arena tournament --players \"${P#,}\" --db y.db\n" +
	"```\n" +
	"\n" +
	"A session (not commands):\n" +
	"\n" +
	"```\n" +
	"> arena 1\n" +
	"< ready x\n" +
	"```\n" +
	"\n" +
	"```json\n" +
	"{\"arena\": 1}\n" +
	"```\n" +
	"\n" +
	"    arena perft --game othello --depth 3\n" +
	"\n" +
	"```\n" +
	"go test ./...\n" +
	"```\n"

func TestExtractBlocks(t *testing.T) {
	blocks := extractBlocks("x.md", sample)
	if len(blocks) != 2 {
		t.Fatalf("got %d blocks, want 2 (the sh block and the indented one)", len(blocks))
	}
	type cmd struct {
		line int
		text string
		bg   bool
	}
	var got []cmd
	for _, c := range blocks[0].cmds {
		got = append(got, cmd{c.line, c.text, c.bg})
	}
	want := []cmd{
		{4, "go build -o arena ./cmd/arena", false},
		{5, "./arena server --port 4222", true},
		{6, "./arena tournament --nats nats://127.0.0.1:4222 \\\n  --players a,b --db x.db", false},
		{9, "P=\"\"; for r in td-LB td-LL; do\n  P=\"$P,$r=learned:weights=out/$r.json\"; done", false},
		{11, "arena tournament --players \"${P#,}\" --db y.db", false},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("commands:\ngot  %+v\nwant %+v", got, want)
	}
	if blocks[0].line != 3 {
		t.Errorf("block line %d, want 3", blocks[0].line)
	}
	if b := blocks[1]; b.line != 25 || len(b.cmds) != 1 || b.cmds[0].text != "arena perft --game othello --depth 3" {
		t.Errorf("indented block: line %d, %q", b.line, b.cmds[0].text)
	}
}

func TestSimpleCommands(t *testing.T) {
	got := simpleCommands("(cd examples/js && npm ci)\nfor s in 1 2; do X=1 arena train --games \"1 000\" \\\n --seed $s; done")
	want := [][]string{{"cd", "examples/js"}, {"npm", "ci"}, {"arena", "train", "--games", "1 000", "--seed", "$s"}}
	var words [][]string
	for _, s := range got {
		words = append(words, s.words)
	}
	if !reflect.DeepEqual(words, want) {
		t.Errorf("got %q, want %q", words, want)
	}
}

func TestPlaceholder(t *testing.T) {
	for _, tc := range []struct {
		text string
		skip bool
	}{
		{"arena tournament --resume ID --db arena.db", true},
		{"arena player --nats URL --name me", true},
		{"arena match A B --game othello", true},
		{"arena ratings --db arena.db [--json]", true},
		{"arena train --method td|tdleaf --games 10", true},
		{"arena train --opponents hp1,hp2,... --games 10", true},
		{"arena check-engine --protocol gtp -- ./mybot", true},
		{"arena engine --name x --params base=FILE", true},
		{"arena ipd simulate --trials 10 --initial CC", false},
		{"arena train --strategy LB --games 10", false},
		{"make -C examples/c", false},
		{"cc -std=c99 -O2 -o e e.c", false},
		{`P=""; for r in a b; do P="$P,$r"; done`, false},
		{`arena tournament --players "${P#,}"`, false},
		{"ls | wc -l", false},
		{"[ -f x ] && arena version", false},
	} {
		if got := placeholder(tc.text); (got != "") != tc.skip {
			t.Errorf("placeholder(%q) = %q, want a skip: %v", tc.text, got, tc.skip)
		}
	}
}

func TestLongRunning(t *testing.T) {
	bound := 30 * time.Second
	for _, tc := range []struct {
		text         string
		long, daemon bool
	}{
		{"arena server --port 4222", true, true},
		{"./arena engine --nats u -- python3 e.py", true, true},
		{"nats-server -c x.conf", true, true},
		{"node examples/js/player.js nats://127.0.0.1:4222 js", true, true},
		{"arena check-engine -- python3 examples/python/random_engine.py", false, false},
		{"arena train --games 10000 --out w.json", true, false},
		{"arena train --games 300 --out w.json", false, false},
		{"arena train --method tune --opponents hp1 --out t.json", true, false},
		{"arena train --method strategy-net --opponents hp1 --out t.json", true, false},
		{"arena train --game othello:size=4 --method coevo --runs 10 --out c.json", false, false},
		{"for s in 1 2; do arena train --games 5000; done", true, false},
		{"arena experience run --base b.db --games 1500", true, false},
		// 12 games, 60 plies at 10ms: 7s
		{"arena tournament --players a,b,c --rounds 2 --tc 10ms", false, false},
		// 100 games at 100ms over 2: 300s
		{"arena tournament --players a,b --rounds 50 --tc 100ms --concurrency 2", true, false},
		{"arena tournament --players a,b --rounds 5 --tc 60+0.5", true, false},
		{`arena tournament --players "${P#,}"`, true, false},
		// 40 games of 60 moves at 10s/30+0.1s over 2: 7 minutes
		{"arena match minimax hp2 --tc 10+0.1 --games 40 --concurrency 2 --db clock.db", true, false},
		{"arena match minimax hp2 --tc 10ms --games 4", false, false},
		{"arena match minimax hp2 --sprt elo0=0,elo1=10", true, false},
		{"cp a.db b.db", false, false},
	} {
		long, daemon, why := longRunning(tc.text, bound)
		if long != tc.long || daemon != tc.daemon {
			t.Errorf("longRunning(%q) = %v, %v (%s), want %v, %v", tc.text, long, daemon, why, tc.long, tc.daemon)
		}
	}
}

func TestTimePerMove(t *testing.T) {
	for tc, want := range map[string]time.Duration{
		"100ms":   100 * time.Millisecond,
		"2s":      2 * time.Second,
		"60+0.5":  2500 * time.Millisecond,
		"300":     10 * time.Second,
		"40/60":   1500 * time.Millisecond,
		"40/60+1": 2500 * time.Millisecond,
	} {
		if got := timePerMove(tc); got != want {
			t.Errorf("timePerMove(%q) = %s, want %s", tc, got, want)
		}
	}
}

func TestPorts(t *testing.T) {
	text := "arena server --port 4222 && arena referee --listen 0.0.0.0:4222 --nats nats://127.0.0.1:4222 " +
		"--x nats://nats:4223 --y :4224 --z localhost:8080 --opponents random-weights:25 --w [::1]:4225 " +
		"--params mm5=minimax:depth=5 -p 4226"
	got := fixedPorts(text)
	want := []string{"4222", "4222", "4223", "4224", "8080", "4225", "4222", "4226"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("fixedPorts = %v, want %v", got, want)
	}
	m := map[string]string{"4222": "1", "4223": "2", "4224": "3", "8080": "4", "4225": "5", "4226": "6"}
	out := replacePorts(text, m)
	wantOut := "arena server --port 1 && arena referee --listen 0.0.0.0:1 --nats nats://127.0.0.1:1 " +
		"--x nats://nats:2 --y :3 --z localhost:4 --opponents random-weights:25 --w [::1]:5 " +
		"--params mm5=minimax:depth=5 -p 6"
	if out != wantOut {
		t.Errorf("replacePorts:\ngot  %s\nwant %s", out, wantOut)
	}
}

func TestFileWords(t *testing.T) {
	got := fileWords(`arena tournament --players me=learned:weights=w.json:depth=3,hp1 --db a.db --nats nats://127.0.0.1:4222 --out seed002-out/M-S.json`)
	want := []string{"w.json", "a.db", "seed002-out/M-S.json"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fileWords = %q, want %q", got, want)
	}
}
