package sandbox

import (
	"context"
	"time"
)

// DefaultBuildWall is how long a submitted engine's build may take.
const DefaultBuildWall = 5 * time.Minute

// Host builds and runs submitted engines for arena host, each in a sandbox of its own
// directory: the build may write the directory, the running engine may not. Zero fields
// take the defaults.
type Host struct {
	Limits    Limits
	BuildWall time.Duration
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
	return Build(ctx, Config{Dir: dir, Limits: h.Limits}, shell, wall)
}
