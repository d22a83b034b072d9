package layout

import (
	"bufio"
	"bytes"
	"os/exec"
	"path"
	"strings"
	"testing"
)

const module = "github.com/arenaref/arena"

// rule says that the packages matching From (and not Except) may not depend, directly or
// through other packages, on any package matching Not. Patterns are paths inside the
// module, or full import paths for outside modules; "x/..." matches x and everything
// below it. Only non-test code counts: a test may import what it needs to check a
// package from outside.
type rule struct {
	why    string
	from   []string
	except []string
	not    []string
}

// nats is every package of the NATS client and server.
var nats = []string{"github.com/nats-io/..."}

// rules are Arena's import rules (DESIGN.md, "Data flow" and "Layout").
var rules = []rule{
	{why: "game rules know nothing of NATS, the referee or the store",
		from: []string{"game/...", "games/..."},
		not:  append([]string{"referee/...", "store/...", "organizer/...", "players/...", "bus/...", "web/...", "tournament/..."}, nats...)},
	{why: "the game model imports nothing of the project outside game/",
		from:   []string{"game/..."},
		except: []string{"game/clock"}, // it builds the wire clock, a protocol type
		not:    []string{"games/...", "agent/...", "protocol/...", "internal/..."}},
	{why: "agents and AI libraries know games and the agent API, never NATS, the referee or the store",
		from: []string{"agent/...", "players/agents/...", "players/ai/..."},
		not:  append([]string{"referee/...", "store/...", "organizer/...", "players/player", "players/engine/...", "players/hosting/...", "bus/...", "web/...", "tournament/...", "lab/..."}, nats...)},
	{why: "store is the dependency-free domain of records",
		from: []string{"store"},
		not:  []string{"..."}},
	{why: "ratings is pure maths",
		from: []string{"ratings"},
		not:  []string{"..."}},
	{why: "the storage implementations know nothing of the referee, the application or the players",
		from: []string{"store/..."},
		not:  []string{"protocol/...", "referee/...", "organizer/...", "players/...", "web/...", "tournament/...", "bus/..."}},
	{why: "the web view renders games by name: it imports no game package",
		from: []string{"web/..."},
		not:  []string{"games/...", "players/agents/...", "players/ai/...", "lab/..."}},
	{why: "the wire protocol knows nothing of the referee or the application",
		from: []string{"protocol/..."},
		not:  append([]string{"referee/...", "organizer/...", "store/...", "players/...", "web/...", "tournament/..."}, nats...)},
	{why: "the referee judges games: it knows no format, store or player implementation",
		from: []string{"referee/..."},
		not:  []string{"organizer/...", "store/...", "players/...", "web/...", "games/...", "lab/..."}},
	{why: "tournament formats are pure logic over results: no NATS, referee or storage",
		from: []string{"tournament/..."},
		not:  append([]string{"referee/...", "store/...", "organizer/...", "players/...", "web/...", "bus/...", "games/..."}, nats...)},
	{why: "the player side never reaches into the arena side",
		from:   []string{"players/..."},
		except: []string{"players/hosting"}, // the referee-side submission service lives beside the host it serves
		not:    []string{"referee/...", "organizer/...", "store/sqlite/...", "web/...", "tournament/..."}},
	{why: "the arena side knows agents by name only: the command line links the built-in ones in",
		from: []string{"referee/...", "organizer/...", "web/...", "store/...", "bus/...", "tournament/..."},
		not:  []string{"players/agents/...", "players/ai/...", "lab/..."}},
	{why: "research programs are used by the command line only",
		from:   []string{"..."},
		except: []string{"lab/...", "cmd/...", "internal/cmd/..."},
		not:    []string{"lab/..."}},
	{why: "leaf helpers stay leaves",
		from:   []string{"internal/..."},
		except: []string{"internal/testutil/...", "internal/cmd/...", "internal/layout"},
		not:    []string{"game/...", "games/...", "agent/...", "referee/...", "organizer/...", "store/...", "players/...", "web/...", "lab/...", "tournament/...", "bus/...", "protocol/..."}},
}

// match reports whether the import path p matches pattern pat (see rule).
func match(pat, p string) bool {
	full := pat
	if pat == "..." {
		full = module + "/..."
	} else if !strings.Contains(strings.SplitN(pat, "/", 2)[0], ".") {
		full = path.Join(module, pat)
	}
	if base, ok := strings.CutSuffix(full, "/..."); ok {
		return p == base || strings.HasPrefix(p, base+"/")
	}
	return p == full
}

func matchAny(pats []string, p string) bool {
	for _, pat := range pats {
		if match(pat, p) {
			return true
		}
	}
	return false
}

// graph is the module's non-test import graph, package by package.
func graph(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	g := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		g[f[0]] = f[1:]
	}
	if len(g) < 50 {
		t.Fatalf("go list found %d packages of the module: too few to be the whole tree", len(g))
	}
	return g
}

// chain returns an import chain from p to a package matching one of not, or nil. It
// walks every package reachable from p, the module's own through the graph and outside
// ones as leaves, except that it also follows nothing through outside packages (their
// own imports are not listed by go list ./...).
func chain(g map[string][]string, p string, not []string) []string {
	prev := map[string]string{p: ""}
	queue := []string{p}
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		for _, d := range g[q] {
			if _, seen := prev[d]; seen {
				continue
			}
			prev[d] = q
			if matchAny(not, d) {
				var c []string
				for x := d; x != ""; x = prev[x] {
					c = append([]string{strings.TrimPrefix(x, module+"/")}, c...)
				}
				return c
			}
			queue = append(queue, d)
		}
	}
	return nil
}

func TestImportRules(t *testing.T) {
	g := graph(t)
	for _, r := range rules {
		t.Run(r.why, func(t *testing.T) {
			checked := 0
			for p := range g {
				if !matchAny(r.from, p) || matchAny(r.except, p) {
					continue
				}
				checked++
				if c := chain(g, p, r.not); c != nil {
					t.Errorf("%s: %s", r.why, strings.Join(c, " -> "))
				}
			}
			if checked == 0 {
				t.Errorf("no package matches %v: the rule checks nothing", r.from)
			}
		})
	}
}

// TestMatch pins the pattern rules the table relies on.
func TestMatch(t *testing.T) {
	for _, c := range []struct {
		pat, p string
		want   bool
	}{
		{"games/...", module + "/games", true},
		{"games/...", module + "/games/othello", true},
		{"games/...", module + "/gamesx", false},
		{"game/...", module + "/games/othello", false},
		{"store", module + "/store", true},
		{"store", module + "/store/sqlite", false},
		{"...", module + "/agent", true},
		{"...", "github.com/nats-io/nats.go", false},
		{"github.com/nats-io/...", "github.com/nats-io/nats.go", true},
		{"github.com/nats-io/...", "github.com/nats-io/nats-server/v2/server", true},
	} {
		if got := match(c.pat, c.p); got != c.want {
			t.Errorf("match(%q, %q) = %v, want %v", c.pat, c.p, got, c.want)
		}
	}
}

// TestRulesCatchABreak shows the check fails for an import that breaks a rule: a game
// importing NATS through another package.
func TestRulesCatchABreak(t *testing.T) {
	g := map[string][]string{
		module + "/games/x": {module + "/game", module + "/bus"},
		module + "/bus":     {"github.com/nats-io/nats.go"},
	}
	c := chain(g, module+"/games/x", nats)
	if strings.Join(c, " -> ") != "games/x -> bus -> github.com/nats-io/nats.go" {
		t.Errorf("chain = %v, want games/x -> bus -> github.com/nats-io/nats.go", c)
	}
	if c := chain(g, module+"/game", nats); c != nil {
		t.Errorf("chain from game = %v, want none", c)
	}
}
