package course

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/template"

	"github.com/pelletier/go-toml/v2"

	"github.com/arenaref/arena/auth"
	"github.com/arenaref/arena/game"
	"github.com/arenaref/arena/organizer"
	"github.com/arenaref/arena/store"
)

// The names of the course's other credentials, which no student may take.
const (
	SpectatorName = "spectator"
	HostName      = "host"
	TeacherName   = "teacher"
)

// Options are what a course is made of.
type Options struct {
	Students []Student
	Dir      string      // where the files go: a new directory, or an empty one
	Store    store.Store // the referee's database: it keeps the credentials and the ladder
	BusURL   string      // the NATS URL students connect to (nats://HOST:4222)
	WebURL   string      // the web page's URL (http://HOST:8080/)
	// Ladder is the ladder's settings; its players are set to the roster.
	Ladder       organizer.Spec
	OpeningsText string // the content of Ladder.Openings, if it names a file
}

// Result is what Init made.
type Result struct {
	Ladder int64    // the ladder's tournament id
	Files  []string // every file written, under Dir
	// GameFile is the copy, under Dir, of the game file the ladder's game names, if it
	// names one (a script game): every process of the course reads it (Env).
	GameFile string
}

// Env is what to put before the course's commands for them to know its game: the
// environment variable naming the game file (game.EnvFiles), or "" for a built-in game.
func (r Result) Env() string { return envFor(r.GameFile) }

// envFor is the environment variable naming the game file path before a command, or "".
func envFor(path string) string {
	if path == "" {
		return ""
	}
	return game.EnvFiles + "=" + path + " "
}

// Init makes the course: credentials for every student and for the spectator, the host
// and the teacher (stored in the database, secrets written to files of mode 0600 that
// must not exist yet), the ladder (stored, so the referee starts it), its file and the
// students' README. On an error it takes back the credentials it stored.
func Init(ctx context.Context, o Options) (res Result, err error) {
	if len(o.Students) == 0 {
		return res, errors.New("course: no students")
	}
	for _, s := range o.Students {
		if slices.Contains([]string{SpectatorName, HostName, TeacherName, o.Ladder.ValidationOpponent, organizer.DefaultValidationOpponent}, s.Name) {
			return res, fmt.Errorf("course: %s is the name of the course's own %s; rename the student", s.Name, s.Name)
		}
	}
	existing, err := o.Store.Credentials(ctx)
	if err != nil {
		return res, err
	}
	names := []string{SpectatorName, HostName, TeacherName}
	for _, s := range o.Students {
		names = append(names, s.Name)
	}
	for _, c := range existing {
		if slices.Contains(names, c.Name) {
			return res, fmt.Errorf("course: %s already has credentials in the database (arena credentials remove %s, or leave it out)", c.Name, c.Name)
		}
	}
	if err := emptyDir(o.Dir); err != nil {
		return res, err
	}
	if err := os.MkdirAll(filepath.Join(o.Dir, "credentials"), 0o700); err != nil {
		return res, err
	}

	var added []string
	defer func() {
		if err != nil {
			for _, n := range added {
				_ = o.Store.RemoveCredential(context.WithoutCancel(ctx), n)
			}
			for _, f := range res.Files {
				_ = os.Remove(f) // secrets whose credentials are gone, and the rest
			}
		}
	}()
	credential := func(name, role, path string) error {
		f, c, err := auth.NewPassword(name, role)
		if err != nil {
			return err
		}
		if err := o.Store.AddCredential(ctx, c); err != nil {
			return fmt.Errorf("course: credentials of %s: %w", name, err)
		}
		added = append(added, name)
		if err := writeNew(path, f.Encode(), 0o600); err != nil {
			return err
		}
		res.Files = append(res.Files, path)
		return nil
	}
	if file := game.File(o.Ladder.Game); file != "" {
		src, err := os.ReadFile(file)
		if err != nil {
			return res, fmt.Errorf("course: the game: %w", err)
		}
		res.GameFile = filepath.Join(o.Dir, filepath.Base(file))
		if err := writeNew(res.GameFile, src, 0o644); err != nil {
			return res, err
		}
		res.Files = append(res.Files, res.GameFile)
	}
	for _, s := range o.Students {
		if err := credential(s.Name, store.RolePlayer, filepath.Join(o.Dir, "credentials", s.Name+".cred")); err != nil {
			return res, err
		}
	}
	for _, c := range []struct{ name, role string }{
		{SpectatorName, store.RoleSpectator}, {HostName, store.RoleHost}, {TeacherName, store.RoleAdmin},
	} {
		if err := credential(c.name, c.role, filepath.Join(o.Dir, c.name+".cred")); err != nil {
			return res, err
		}
	}

	spec := o.Ladder
	spec.Format = organizer.FormatLadder
	spec.Players = nil
	for _, s := range o.Students {
		spec.Players = append(spec.Players, s.Name)
	}
	d := organizer.New(organizer.Config{Store: o.Store})
	id, _, err := d.Create(ctx, spec, o.OpeningsText, true)
	if err != nil {
		return res, fmt.Errorf("course: the ladder: %w", err)
	}
	res.Ladder = id
	t, err := o.Store.TournamentInfo(ctx, id)
	if err != nil {
		return res, err
	}
	stored, err := organizer.StoredSpec(t)
	if err != nil {
		return res, err
	}
	ladderFile, err := toml.Marshal(stored)
	if err != nil {
		return res, err
	}
	path := filepath.Join(o.Dir, "ladder.toml")
	head := fmt.Sprintf("# The course's ladder, stored in the referee's database as tournament %d; the referee plays it.\n", id)
	if err := writeNew(path, append([]byte(head), ladderFile...), 0o644); err != nil {
		return res, err
	}
	res.Files = append(res.Files, path)

	rules := "" // the game file as the README names it, to a student beside it
	if res.GameFile != "" {
		rules = filepath.Base(res.GameFile)
	}
	var readme bytes.Buffer
	if err := studentReadme.Execute(&readme, map[string]any{
		"Bus": o.BusURL, "Web": strings.TrimSuffix(o.WebURL, "/"), "Ladder": id, "Game": t.Game,
		"TC": stored.TimeControl, "Deadline": stored.Deadline, "Validation": stored.ValidationGames,
		"Opponent": stored.ValidationOpponent, "Top": stored.FinalTop, "Rounds": stored.FinalRounds,
		"Rules": rules, "Env": envFor(rules),
	}); err != nil {
		return res, err
	}
	path = filepath.Join(o.Dir, "README.md")
	if err := writeNew(path, readme.Bytes(), 0o644); err != nil {
		return res, err
	}
	res.Files = append(res.Files, path)
	return res, nil
}

// emptyDir makes sure dir does not exist or is empty, so that a course never mixes its
// files with another's.
func emptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return os.MkdirAll(dir, 0o755)
	case err != nil:
		return err
	case len(entries) > 0:
		return fmt.Errorf("course: %s is not empty; give a new directory", dir)
	}
	return nil
}

// writeNew writes a file that must not exist yet; it never follows a link at the path.
func writeNew(path string, data []byte, mode os.FileMode) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

var studentReadme = template.Must(template.New("readme").Parse(`# The course competition: your steps

You have a file NAME.cred from your teacher: your credentials. Keep it secret; whoever
holds it plays as you.

The competition is a ladder of {{.Game}} ({{.TC}} a move; see the time line of
docs/engines.md for clocks). It runs until {{.Deadline}}; after that no new versions enter,
and the top {{.Top}} play a final round-robin ({{.Rounds}} rounds) that decides the final
standings.
{{if .Rules}}
The game's rules are in {{.Rules}}, beside this README: a game file of Arena's
(docs/games.md in Arena's repository). Arena's commands play it when the environment
variable ARENA_GAMES names it, as in the commands below. Your engine need not read it: each
turn tells it the position and the legal moves.
{{end}}
1. **Write an engine.** It reads commands on standard input and answers on standard
   output (Arena's line protocol, docs/engines.md). Start from an example: examples/python
   or examples/c in Arena's repository.
2. **Check it** on your own machine: ` + "`{{.Env}}arena check-engine --game {{.Game}} -- ./my-engine`" + `. It plays the
   positions a tournament would and says what the referee would forfeit.
3. **Submit it.** Put a file arena.toml beside your sources:

       protocol = "line"
       build = "cc -O2 -o engine engine.c"   # or nothing, for a script
       run = "./engine"                      # for Python: run = "python3 engine.py"

   then pack and send them:

       tar czf engine.tar.gz arena.toml engine.c
       arena submit-engine --nats {{.Bus}} --credentials NAME.cred engine.tar.gz

   The host builds it in a sandbox (no network, only your own files) and it enters the
   ladder as a new version. A build that fails prints the compiler's last lines. Each
   submission is a new version; earlier versions and their games stay on the page.
   (You may instead run it yourself: ` + "`{{.Env}}arena engine --nats {{.Bus}} --credentials NAME.cred --game {{.Game}} -- ./my-engine`" + `.)
4. **Watch.** {{.Web}}/ladder.html?id={{.Ladder}} shows the leaderboard: each version
   first plays {{.Validation}} validation games against ` + "`{{.Opponent}}`" + `; an engine that
   sends an illegal move, garbage, crashes or runs out of time there is marked failed, with
   the reason. Click your name for your games and their replays.
`))
