package game

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Options are the key=value options of a game spec, such as {"size": "6"} for
// "othello:size=6".
type Options map[string]string

// Factory builds a game from its options. It returns an error wrapping ErrBadGameOption
// for an option it does not know or a value it cannot use.
type Factory func(opts Options) (Game, error)

var (
	registryMu sync.RWMutex
	registry   = map[string]Factory{}
)

// Register makes a game available to Lookup under name. It panics when name is empty,
// contains ':' or is registered twice, since that is a programming error found at start-up.
func Register(name string, f Factory) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if name == "" || strings.ContainsAny(name, ":,= ") {
		panic(fmt.Sprintf("game: invalid game name %q", name))
	}
	if _, dup := registry[name]; dup {
		panic(fmt.Sprintf("game: Register called twice for %q", name))
	}
	registry[name] = f
}

// fileTypes are the loaders of games defined in files, by file extension (".star").
var fileTypes = map[string]func(path string) (string, error){}

// RegisterFileType makes Lookup read games from files whose names end in ext: a spec
// whose name ends so ("./quoridor.star:walls=8") is a path, which load reads and
// registers, returning the name the game registered under. It panics when ext is
// registered twice.
func RegisterFileType(ext string, load func(path string) (name string, err error)) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := fileTypes[ext]; dup || ext == "" {
		panic(fmt.Sprintf("game: RegisterFileType called twice for %q", ext))
	}
	fileTypes[ext] = load
}

// EnvFiles is the environment variable that names game files for every process: files,
// and directories of game files, separated by ':' (the system's path list separator). A
// process that meets a game name it does not know reads them (fromEnv), so a referee, a
// player, a host and a web view started with the same ARENA_GAMES play the same games.
const EnvFiles = "ARENA_GAMES"

// fromEnv reads the game files EnvFiles names, registering their games: it is Lookup's
// last resort. It returns what went wrong with the files that failed, in one line, since
// one of them may hold the game asked for.
func fromEnv() error {
	registryMu.RLock()
	loaders := maps.Clone(fileTypes)
	registryMu.RUnlock()
	var errs []string
	for _, p := range filepath.SplitList(os.Getenv(EnvFiles)) {
		if p == "" {
			continue
		}
		files := []string{p}
		if info, err := os.Stat(p); err == nil && info.IsDir() {
			files = nil
			for ext := range loaders {
				more, _ := filepath.Glob(filepath.Join(p, "*"+ext))
				files = append(files, more...)
			}
			sort.Strings(files)
		}
		for _, f := range files {
			load, ok := loaders[filepath.Ext(f)]
			if !ok {
				errs = append(errs, fmt.Sprintf("%s: not a game file (%s)", f, strings.Join(slices.Sorted(maps.Keys(loaders)), ", ")))
				continue
			}
			if _, err := load(f); err != nil {
				errs = append(errs, err.Error())
			}
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("%s: %s", EnvFiles, strings.Join(errs, "; "))
}

// File returns the path of the game file spec names, if its name is one (it ends in a
// registered file type's extension, RegisterFileType), and "" otherwise.
func File(spec string) string {
	name, _, err := ParseSpec(spec)
	if err != nil {
		return ""
	}
	registryMu.RLock()
	defer registryMu.RUnlock()
	if _, ok := fileTypes[filepath.Ext(name)]; ok {
		return name
	}
	return ""
}

// RegisterLoaded registers a game read from a file, as Register does, but returns an
// error when the name is taken instead of panicking: a file is input, not code.
func RegisterLoaded(name string, f Factory) error {
	registryMu.Lock()
	defer registryMu.Unlock()
	if name == "" || strings.ContainsAny(name, ":,= ") {
		return fmt.Errorf("%w: invalid game name %q", ErrUnknownGame, name)
	}
	if _, dup := registry[name]; dup {
		return fmt.Errorf("%w: the name %q is taken by another game; give the file's game another name", ErrUnknownGame, name)
	}
	registry[name] = f
	return nil
}

// Names lists the registered games in alphabetical order.
func Names() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Lookup finds a game by its spec: a registered name, optionally followed by ':' and
// comma-separated key=value options ("othello:size=6"), or the path of a game file of a
// registered file type (RegisterFileType) in place of the name. Unknown names return an error
// wrapping ErrUnknownGame; malformed or unknown options, one wrapping ErrBadGameOption.
func Lookup(spec string) (Game, error) {
	name, opts, err := ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	registryMu.RLock()
	f, ok := registry[name]
	var load func(string) (string, error)
	for ext, l := range fileTypes {
		if !ok && strings.HasSuffix(name, ext) {
			load = l
		}
	}
	registryMu.RUnlock()
	if load != nil {
		declared, err := load(name)
		if err != nil {
			return nil, err
		}
		registryMu.RLock()
		f, ok = registry[declared]
		registryMu.RUnlock()
	}
	var why error
	if !ok && load == nil {
		why = fromEnv()
		registryMu.RLock()
		f, ok = registry[name]
		registryMu.RUnlock()
	}
	if !ok && why != nil {
		return nil, fmt.Errorf("%w %q (known: %s): %w", ErrUnknownGame, name, strings.Join(Names(), ", "), why)
	}
	if !ok {
		return nil, fmt.Errorf("%w %q (known: %s; the game of a file is known where %s names the file)", ErrUnknownGame, name, strings.Join(Names(), ", "), EnvFiles)
	}
	return f(opts)
}

// ParseSpec splits a game spec into its name and options.
func ParseSpec(spec string) (string, Options, error) {
	name, rest, hasOpts := strings.Cut(strings.TrimSpace(spec), ":")
	if name == "" {
		return "", nil, fmt.Errorf("%w: empty game name", ErrUnknownGame)
	}
	opts := Options{}
	if !hasOpts {
		return name, opts, nil
	}
	for _, kv := range strings.Split(rest, ",") {
		k, v, ok := strings.Cut(kv, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if !ok || k == "" || v == "" {
			return "", nil, fmt.Errorf("%w: %q in %q is not key=value", ErrBadGameOption, kv, spec)
		}
		if _, dup := opts[k]; dup {
			return "", nil, fmt.Errorf("%w: %q given twice in %q", ErrBadGameOption, k, spec)
		}
		opts[k] = v
	}
	return name, opts, nil
}

// CheckOptions returns an error wrapping ErrBadGameOption naming the first option of opts
// that is not in known. Factories call it so that a misspelt option is never ignored.
func CheckOptions(opts Options, known ...string) error {
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		found := false
		for _, kn := range known {
			found = found || k == kn
		}
		if !found {
			return fmt.Errorf("%w: unknown option %q (known: %s)", ErrBadGameOption, k, strings.Join(known, ", "))
		}
	}
	return nil
}
