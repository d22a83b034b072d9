package main

import "github.com/arenaref/arena/internal/cli"

// subcommandsOf returns the subcommands of the named command, or nil when it has none.
// Completion and help use it; each command's run dispatches with cli.RunSubcommand.
func subcommandsOf(name string) []cli.Subcommand {
	switch name {
	case "credentials":
		return credentialsSubcommands()
	case "course":
		return courseSubcommands()
	case "experience":
		return experienceSubcommands()
	case "ipd":
		return ipdSubcommands()
	case "tune-checkers":
		return tuneCheckersSubcommands()
	}
	return nil
}
