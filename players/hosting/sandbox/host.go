package sandbox

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/arenaref/arena/players/hosting/cgroup"
)

// DefaultBuildWall is how long a submitted engine's build may take.
const DefaultBuildWall = 5 * time.Minute

// Host builds and runs submitted engines for arena host, each in a sandbox of its own
// directory: the build may write the directory, the running engine may not. Zero fields
// take the defaults.
type Host struct {
	Limits    Limits
	BuildWall time.Duration
	// Cgroups, when set, runs each build in a cgroup of its own, removed with whatever
	// is left in it when the build ends.
	Cgroups *cgroup.Manager
}

// Command hands dir to its sandbox's uid (Prepare) and returns the command line that runs
// argv in a read-only sandbox of dir.
func (h Host) Command(dir string, argv []string) ([]string, error) {
	if err := Prepare(dir, 0); err != nil {
		return nil, err
	}
	return Command(Config{Dir: dir, Limits: h.Limits}, argv)
}

// Build hands dir to its sandbox's uid (Prepare) and runs the shell command in a
// sandbox of dir as Build does (in a scratch copy of Limits.BuildSize, its result copied
// back), within BuildWall; it returns the output's tail.
func (h Host) Build(ctx context.Context, dir, shell string) ([]byte, error) {
	if err := Prepare(dir, 0); err != nil {
		return nil, err
	}
	wall := h.BuildWall
	if wall <= 0 {
		wall = DefaultBuildWall
	}
	cfg := Config{Dir: dir, Limits: h.Limits}
	if h.Cgroups == nil {
		return Build(ctx, cfg, shell, wall)
	}
	g, err := h.Cgroups.New(filepath.Base(filepath.Dir(dir)) + "-" + filepath.Base(dir) + "-build")
	if err != nil {
		return nil, err
	}
	cfg.Cgroup = g
	log, err := Build(ctx, cfg, shell, wall)
	if n, kerr := g.OOMKills(); kerr == nil && n > 0 {
		log = fmt.Appendf(log, "\nthe build's cgroup reached its memory limit (%d MiB): the kernel killed %d of its processes\n", h.Cgroups.Limits().Memory>>20, n)
	}
	if rerr := g.Remove(); err == nil {
		err = rerr
	}
	return log, err
}
