package testgame

import (
	"fmt"
	"strconv"

	"github.com/arenaref/arena/game"
)

func init() {
	game.Register(CountName, func(opts game.Options) (game.Game, error) {
		if err := game.CheckOptions(opts, "target"); err != nil {
			return nil, err
		}
		target, err := intOption(opts, "target", DefaultTarget)
		if err != nil {
			return nil, err
		}
		return NewCount(target), nil
	})
	game.Register(PenniesName, func(opts game.Options) (game.Game, error) {
		if err := game.CheckOptions(opts, "rounds"); err != nil {
			return nil, err
		}
		rounds, err := intOption(opts, "rounds", DefaultRounds)
		if err != nil {
			return nil, err
		}
		return NewPennies(rounds), nil
	})
}

// maxOption bounds the numeric options: the games are for tests, and a larger game would
// only make a test slow.
const maxOption = 1000

// intOption reads opts[key] as a number from 1 to maxOption, or returns def when absent.
func intOption(opts game.Options, key string, def int) (int, error) {
	v, ok := opts[key]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > maxOption {
		return 0, fmt.Errorf("%w: %s=%q is not a number from 1 to %d", game.ErrBadGameOption, key, v, maxOption)
	}
	return n, nil
}

// spec is the canonical spec of a game with one numeric option: the bare name when the
// option has its default value.
func spec(name, key string, n, def int) string {
	if n == def {
		return name
	}
	return fmt.Sprintf("%s:%s=%d", name, key, n)
}
