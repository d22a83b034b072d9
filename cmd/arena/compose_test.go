package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	composecli "github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"

	"github.com/arenaref/arena/agent"
	"github.com/arenaref/arena/bus/embedded"
	"github.com/arenaref/arena/internal/cli"
	"github.com/arenaref/arena/protocol"
)

// The deployment files live at the repository root, two levels up from this package.
const repoRoot = "../.."

// loadCompose loads docker-compose.yml as Docker Compose would: the compose-spec loader
// checks it against the Compose schema, merges the YAML anchors and resolves the paths.
// No environment is read, so the result does not depend on the machine.
func loadCompose(t *testing.T) *types.Project {
	t.Helper()
	opts, err := composecli.NewProjectOptions([]string{filepath.Join(repoRoot, "docker-compose.yml")}, composecli.WithWorkingDirectory(repoRoot))
	if err != nil {
		t.Fatal(err)
	}
	p, err := opts.LoadProject(context.Background())
	if err != nil {
		t.Fatalf("docker-compose.yml: %v", err)
	}
	return p
}

// checkArenaArgs checks that args is an arena command line whose subcommand exists and
// whose flags all parse, values included, by running it in-process with -h appended: the
// flag package stops at -h and prints the help only when everything before it parsed.
// The context is cancelled, in case a missing value makes -h a value and the command runs.
func checkArenaArgs(t *testing.T, where string, args []string) {
	t.Helper()
	if len(args) == 0 {
		t.Errorf("%s: no arena command", where)
		return
	}
	if _, known := command(args[0]); !known {
		t.Errorf("%s: %q is not an arena subcommand", where, args[0])
		return
	}
	if slices.Contains(args, "-h") || slices.Contains(args, "--help") {
		t.Errorf("%s: %q asks for help", where, args)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	code := run(ctx, append(slices.Clone(args), "-h"), &stdout, &stderr)
	if code != 0 || !strings.HasPrefix(stderr.String(), "Usage: arena "+args[0]) {
		t.Errorf("%s: %q does not parse: exit %d\n%s", where, args, code, stderr.String())
	}
}

// flagValue returns the value of --name (or -name, or --name=value) in args.
func flagValue(args []string, name string) (string, bool) {
	for i, a := range args {
		a = strings.TrimLeft(a, "-")
		if a == name && i+1 < len(args) {
			return args[i+1], true
		}
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v, true
		}
	}
	return "", false
}

func TestComposeFile(t *testing.T) {
	p := loadCompose(t)
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}

	nats, ok := p.Services["nats"]
	if !ok {
		t.Fatalf("no nats service; services: %v", p.ServiceNames())
	}
	t.Run("nats", func(t *testing.T) {
		if !strings.HasPrefix(nats.Image, "nats:2") {
			t.Errorf("image %q, want nats:2-...", nats.Image)
		}
		cmd := strings.Join(nats.Command, " ")
		for _, want := range []string{"-js", "-m 8222"} {
			if !strings.Contains(cmd, want) {
				t.Errorf("command %q lacks %q", cmd, want)
			}
		}
		if nats.HealthCheck == nil || !strings.Contains(strings.Join(nats.HealthCheck.Test, " "), ":8222/healthz") {
			t.Errorf("healthcheck %+v, want a probe of the monitor's /healthz", nats.HealthCheck)
		}
		// The referee warns at every start unless the server takes a submitted engine's
		// archive in one message: the configuration the command reads must say so.
		conf, _ := flagValue(nats.Command, "c")
		payload := -1
		for _, c := range nats.Configs {
			if c.Target == conf {
				if m := regexp.MustCompile(`(?m)^\s*max_payload:\s*(\d+)\s*$`).FindStringSubmatch(string(p.Configs[c.Source].Content)); m != nil {
					payload, _ = strconv.Atoi(m[1])
				}
			}
		}
		if payload < embedded.DefaultMaxPayload {
			t.Errorf("the server's configuration (-c %q) sets max_payload %d, want at least %d", conf, payload, embedded.DefaultMaxPayload)
		}
	})

	ref, ok := p.Services["referee"]
	if !ok {
		t.Fatalf("no referee service; services: %v", p.ServiceNames())
	}
	t.Run("referee", func(t *testing.T) {
		if len(ref.Command) == 0 || ref.Command[0] != "referee" {
			t.Fatalf("command %q, want arena referee", ref.Command)
		}
		db, _ := flagValue(ref.Command, "db")
		mounted := false
		for _, v := range ref.Volumes {
			if v.Type == types.VolumeTypeVolume && v.Source == "arena-data" && v.Target == "/data" {
				mounted = true
			}
		}
		if !mounted || !strings.HasPrefix(db, "/data/") {
			t.Errorf("--db %q and volumes %+v: want the database on the arena-data volume at /data", db, ref.Volumes)
		}
		if _, ok := p.Volumes["arena-data"]; !ok {
			t.Errorf("volume arena-data is not declared at the top level")
		}
		hc := ref.HealthCheck
		if hc == nil || len(hc.Test) < 3 || hc.Test[0] != "CMD" || hc.Test[1] != "arena" || !slices.Contains(hc.Test, "--referee") {
			t.Fatalf("healthcheck %+v, want [CMD arena healthcheck ... --referee]", hc)
		}
		checkArenaArgs(t, "referee healthcheck", hc.Test[2:])
		if hc.Test[2] != "healthcheck" {
			t.Errorf("healthcheck runs arena %s, want arena healthcheck", hc.Test[2])
		}
		// Docker kills a container 10s after SIGTERM unless told otherwise; the referee
		// needs its --grace to let running games finish.
		grace := 30 * time.Second
		if v, ok := flagValue(ref.Command, "grace"); ok {
			if grace, err = time.ParseDuration(v); err != nil {
				t.Fatalf("--grace: %v", err)
			}
		}
		if ref.StopGracePeriod == nil || time.Duration(*ref.StopGracePeriod) <= grace {
			t.Errorf("stop_grace_period %v, want more than the referee's --grace %v", ref.StopGracePeriod, grace)
		}
		// Compose stops a service before those it depends on: depending on every player
		// stops the referee first, so that no player leaves in the middle of a game.
		for name, s := range p.Services {
			if len(s.Command) > 0 && s.Command[0] == "player" {
				if _, ok := ref.DependsOn[name]; !ok {
					t.Errorf("the referee does not depend on player service %s: Compose could stop it first", name)
				}
			}
		}
	})

	var playerNames []string
	for _, name := range p.ServiceNames() {
		s := p.Services[name]
		if s.Build == nil {
			continue
		}
		t.Run("built/"+name, func(t *testing.T) {
			if s.Build.Context != root || s.Build.Dockerfile != "Dockerfile" {
				t.Errorf("built from %s/%s, want the repository's Dockerfile", s.Build.Context, s.Build.Dockerfile)
			}
			if s.Image != ref.Image {
				t.Errorf("image %q, want %q like the referee, so that one build serves every service", s.Image, ref.Image)
			}
			if len(s.Entrypoint) > 0 {
				t.Errorf("entrypoint %q overrides the image's arena", s.Entrypoint)
			}
			checkArenaArgs(t, name+" command", s.Command)
			if dep, ok := s.DependsOn["nats"]; !ok || dep.Condition != types.ServiceConditionHealthy {
				t.Errorf("depends_on %+v, want nats: service_healthy", s.DependsOn)
			}
			if s.Restart != types.RestartPolicyUnlessStopped {
				t.Errorf("restart %q, want %s", s.Restart, types.RestartPolicyUnlessStopped)
			}
			// Every NATS URL names the nats service on its client port.
			if v, ok := flagValue(s.Command, "nats"); !ok {
				t.Errorf("command %q has no --nats: the default, 127.0.0.1, is the container itself", s.Command)
			} else if u, err := url.Parse(v); err != nil || u.Hostname() != "nats" || u.Port() != "4222" {
				t.Errorf("--nats %q, want nats://nats:4222", v)
			}
			if len(s.Command) == 0 || s.Command[0] != "player" {
				return
			}
			grace := cli.DefaultGrace
			if v, ok := flagValue(s.Command, "grace"); ok {
				if grace, err = time.ParseDuration(v); err != nil {
					t.Fatalf("--grace: %v", err)
				}
			}
			if s.StopGracePeriod == nil || time.Duration(*s.StopGracePeriod) <= grace {
				t.Errorf("stop_grace_period %v, want more than the player's --grace %v", s.StopGracePeriod, grace)
			}
			agentName, _ := flagValue(s.Command, "agent")
			pname, ok := flagValue(s.Command, "name")
			if !ok {
				pname = agentName
			}
			if !agent.Known(agentName) {
				t.Errorf("--agent %q is not a built-in agent", agentName)
			}
			// The referee starts its own player for a built-in agent's name, which would
			// then have two processes behind it.
			if !protocol.ValidName(pname) || agent.Known(pname) {
				t.Errorf("player name %q: want a valid name that is not a built-in agent's", pname)
			}
			playerNames = append(playerNames, pname)
		})
	}
	if len(playerNames) < 2 {
		t.Errorf("players %v, want at least two player services", playerNames)
	}
	for i, n := range playerNames {
		if slices.Contains(playerNames[:i], n) {
			t.Errorf("two player services say hello as %s", n)
		}
	}
}

// dockerStage is one FROM ... stage of a Dockerfile: its base image and its instructions,
// continuation lines joined.
type dockerStage struct {
	from         string
	instructions []string
}

func parseDockerfile(t *testing.T, text string) []dockerStage {
	t.Helper()
	var stages []dockerStage
	var line string
	for raw := range strings.SplitSeq(text, "\n") {
		raw = strings.TrimSpace(raw)
		if raw == "" || strings.HasPrefix(raw, "#") {
			continue
		}
		if cont, ok := strings.CutSuffix(raw, "\\"); ok {
			line += cont + " "
			continue
		}
		line += raw
		fields := strings.Fields(line)
		if strings.EqualFold(fields[0], "FROM") {
			stages = append(stages, dockerStage{from: fields[1]})
		} else if len(stages) == 0 {
			t.Fatalf("Dockerfile: %q before the first FROM", line)
		} else {
			stages[len(stages)-1].instructions = append(stages[len(stages)-1].instructions, line)
		}
		line = ""
	}
	return stages
}

// TestDockerfile checks what docker-compose.yml relies on: the final stage runs arena as
// an unprivileged user, built with cgo by the Go release go.mod names, on the Debian
// release the build stage used (the binary links that glibc).
func TestDockerfile(t *testing.T) {
	text, err := os.ReadFile(filepath.Join(repoRoot, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	stages := parseDockerfile(t, string(text))
	if len(stages) < 2 {
		t.Fatalf("%d stages, want a build stage and a final stage", len(stages))
	}
	build, final := stages[0], stages[len(stages)-1]

	gomod, err := os.ReadFile(filepath.Join(repoRoot, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	goVersion := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(gomod)
	if goVersion == nil {
		t.Fatal("go.mod has no go directive")
	}
	wantBuild := "golang:" + string(goVersion[1]) + "-"
	if !strings.HasPrefix(build.from, wantBuild) {
		t.Errorf("build stage FROM %s, want %s... (go.mod says go %s)", build.from, wantBuild, goVersion[1])
	}
	release := build.from[strings.LastIndex(build.from, "-")+1:]
	if !strings.HasPrefix(final.from, "debian:"+release) {
		t.Errorf("final stage FROM %s, want debian:%s..., the build stage's glibc", final.from, release)
	}
	buildRun := strings.Join(build.instructions, "\n")
	for _, want := range []string{"go mod download", "CGO_ENABLED=1", "-trimpath", "./cmd/arena"} {
		if !strings.Contains(buildRun, want) {
			t.Errorf("build stage lacks %q", want)
		}
	}

	last := map[string]string{} // the final stage's last instruction of each kind
	for _, ins := range final.instructions {
		kind, rest, _ := strings.Cut(ins, " ")
		last[strings.ToUpper(kind)] = strings.TrimSpace(rest)
	}
	var entry []string
	if err := json.Unmarshal([]byte(last["ENTRYPOINT"]), &entry); err != nil || !slices.Equal(entry, []string{"arena"}) {
		t.Errorf("final ENTRYPOINT %s, want [\"arena\"]", last["ENTRYPOINT"])
	}
	var cmd []string
	if err := json.Unmarshal([]byte(last["CMD"]), &cmd); err != nil || !slices.Equal(cmd, []string{"help"}) {
		t.Errorf("final CMD %s, want [\"help\"]: a bare docker run prints the commands", last["CMD"])
	} else if code := run(context.Background(), cmd, io.Discard, io.Discard); code != 0 {
		t.Errorf("arena help: exit %d", code)
	}
	if user := last["USER"]; user == "" || user == "root" || user == "0" {
		t.Errorf("final USER %q, want an unprivileged user", user)
	}
	if last["WORKDIR"] != "/data" {
		t.Errorf("final WORKDIR %q, want /data", last["WORKDIR"])
	}
	if !regexp.MustCompile(`(?m)^COPY --from=\S+ \S+ /usr/local/bin/arena$`).MatchString(strings.Join(final.instructions, "\n")) {
		t.Errorf("the final stage does not copy the binary to /usr/local/bin/arena, where ENTRYPOINT finds it")
	}

	ignore, err := os.ReadFile(filepath.Join(repoRoot, ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{".git", "**/*.db"} {
		if !slices.Contains(strings.Split(string(ignore), "\n"), want) {
			t.Errorf(".dockerignore lacks %s", want)
		}
	}
}
