//go:build linux

package sandbox_test

import (
	"context"
	"fmt"
	"time"

	"github.com/arenaref/arena/players/engine"
	"github.com/arenaref/arena/players/hosting/sandbox"
)

// A submitted engine, unpacked into dir, is built in a sandbox that may write dir, then
// run by the engine bridge in one that may not.
func Example() {
	ctx := context.Background()
	dir := "/srv/arena/submissions/alice" // its parents must be o+x
	if err := sandbox.Available(); err != nil {
		fmt.Println(err)
		return
	}
	if err := sandbox.Prepare(dir, 0); err != nil { // for a caller running as root
		fmt.Println(err)
		return
	}
	cfg := sandbox.Config{Dir: dir, Limits: sandbox.DefaultLimits()}
	log, err := sandbox.Build(ctx, cfg, "cc -O2 -o engine engine.c", 2*time.Minute)
	if err != nil {
		fmt.Printf("the build failed: %v\n%s", err, log)
		return
	}
	argv, err := sandbox.Command(cfg, []string{"./engine"})
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := engine.Start(ctx, argv, engine.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()
	// p.Send("arena 1"), p.Recv(ctx)...; a player serves engine.NewBridge(argv, ...).
}
