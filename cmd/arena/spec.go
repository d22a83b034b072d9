package main

import (
	"strings"

	"github.com/arenaref/arena/internal/cli"
)

// flagNames maps the keys of a tournament file to the tournament command's flags.
var flagNames = map[string]string{
	"game": "--game", "players": "--players", "format": "--format", "seeds": "--seeds", "rounds": "--rounds",
	"time_control": "--tc", "margin": "--margin", "max_plies": "--max-plies", "openings": "--openings",
	"opening_order": "--opening-order", "concurrency": "--concurrency", "seed": "--seed", "wait": "--wait",
	"elo_k": "--elo-k",
}

// asFlagError rewrites an error of compile that begins with a file key ("time_control: ...")
// to name the flag that sets it ("--tc: ..."), for people who used flags.
func asFlagError(err error) error {
	key, rest, ok := strings.Cut(err.Error(), ": ")
	if flag, known := flagNames[key]; ok && known {
		return cli.Usagef("%s: %s", flag, rest)
	}
	return cli.UsageError{Msg: err.Error()}
}
