// Package host runs submitted engines as players: the host behind `arena host`. A player
// submits its engine as an archive with a manifest (package archive; arena
// submit-engine); the referee stores it as the player's next version, s1, s2, ...; a host
// fetches it, unpacks it into DIR/NAME/sN, builds it and runs it as the player through the
// engine bridge (players/engine), saying hello with the version "sN".
//
// For every name the host keeps one version running: the newest that has not failed. A
// newer version replaces the running one once it is built (its player stops, then the new
// one starts, so a game in progress at that moment is lost); a version that fails to build
// (build_failed, with the tail of the build's output) or keeps dying once running
// (run_failed: Config.Deaths restarts within Config.DeathWindow, with the tail of its
// standard error) leaves the one before it playing, or brings it back. The host reports
// every change of state to the referee, which keeps it and tells the player.
//
// Everything the host knows comes from the referee (the host API of package protocol), so
// a host that restarts, or a new one on another machine, picks everything up again: it
// lists the submissions, rebuilds what its directory lacks (a finished build leaves a
// marker, DIR/NAME/sN.built, holding the archive's SHA-256), and starts the players. It
// learns of new submissions from the referee's notices on arena.v1.host.new, and lists
// again every Config.Resync in case it missed one.
//
// Each name builds one version at a time, and a build holds one of Config.Concurrency
// places for Config.BuildSlotHold at most, so that one player's slow build cannot hold the
// others' back; Config.BuildTimeout kills it. What a build leaves must be regular files
// and directories only (archive.CheckDir), and the host reads the manifest without
// following a link or blocking on a FIFO (archive.OpenRegular). DIR and DIR/NAME are
// made 0711, each version's directory 0700.
//
// The host never runs a submitted program itself: a Sandbox wraps each engine's command
// line and runs each build. The sandbox is the caller's (arena host wires a bubblewrap
// one); Unsandboxed runs them as plain processes of the host's user, for tests and for a
// host whose every engine is trusted.
//
// With Config.Cgroups, each running version is in a cgroup of its own (package cgroup),
// which bounds its memory, CPU and processes as a whole and is removed, with whatever is
// left in it, when the version stops. Unless Config.Ponder, each engine is frozen between
// its turns (its group's freezer, or SIGSTOP of its process tree without cgroups) and
// thawed for its turns, its handshake and its games' notices: it cannot think on its
// opponent's time nor take the CPU from the engines that are thinking.
package host
