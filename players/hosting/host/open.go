package host

import (
	"fmt"
	"io"

	"github.com/arenaref/arena/players/hosting/cgroup"
	"github.com/arenaref/arena/players/hosting/sandbox"
)

// Confinement is how a host confines the engines it runs: the bubblewrap sandbox, with
// its limits, unless NoSandbox; a cgroup of its own for every engine and build, unless
// NoCgroups, with the Limits of each group (zero fields take cgroup.DefaultLimits').
type Confinement struct {
	Sandbox   sandbox.Host
	NoSandbox bool
	NoCgroups bool
	Limits    cgroup.Limits
}

// Open makes what c asks for: the Sandbox of Config, and the cgroups of its sandboxes
// (nil without). Each thing given up is said on warn, loudly; what cannot be made is an
// error that says how to get it, or how to go without.
func (c Confinement) Open(warn io.Writer) (Sandbox, *cgroup.Manager, error) {
	if c.NoSandbox {
		fmt.Fprintln(warn, "arena host: WARNING: --no-sandbox: every submitted engine, and its build, runs as this user with all its rights:")
		fmt.Fprintln(warn, "arena host: WARNING: it can read and write your files and reach the network. Use it only for engines you trust.")
		return Unsandboxed{}, nil, nil
	}
	if err := sandbox.Available(); err != nil {
		return nil, nil, fmt.Errorf("%w\narena host runs every submitted engine in a bubblewrap sandbox (Debian package bubblewrap; as root also setpriv, from util-linux); --no-sandbox runs them unconfined, for engines you trust only", err)
	}
	sb := c.Sandbox
	if c.NoCgroups {
		fmt.Fprintln(warn, "arena host: WARNING: --no-cgroups: memory, CPU and processes are limited per process only; one engine can take the machine's memory or CPU from all the others")
		return sb, nil, nil
	}
	cg, err := cgroup.Open(c.Limits)
	if err != nil {
		return nil, nil, fmt.Errorf("%w\narena host puts every engine and build in a cgroup of its own (docs/security.md, \"Resource control with cgroups\"); --no-cgroups runs them without", err)
	}
	fmt.Fprintf(warn, "arena host: every engine and build in a cgroup of its own: %v\n", cg)
	sb.Cgroups = cg
	return sb, cg, nil
}
