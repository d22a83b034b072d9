package script

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/arenaref/arena/game"
)

// Ext is the extension of game files.
const Ext = ".star"

// library holds the games shipped with Arena, one file each, named as the game.
//
//go:embed library/*.star
var library embed.FS

func init() {
	for _, name := range Library() {
		var once sync.Once
		var prog *Program
		var err error
		game.Register(name, func(opts game.Options) (game.Game, error) {
			once.Do(func() { prog, err = LibraryProgram(name) })
			if err != nil {
				return nil, err
			}
			return prog.New(opts)
		})
	}
	game.RegisterFileType(Ext, loadFile)
}

// Library lists the games shipped with Arena, by name.
func Library() []string {
	entries, _ := fs.ReadDir(library, "library")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), Ext))
	}
	sort.Strings(names)
	return names
}

// LibraryProgram compiles the shipped game called name.
func LibraryProgram(name string) (*Program, error) {
	src, err := library.ReadFile("library/" + name + Ext)
	if err != nil {
		return nil, fmt.Errorf("%w: no game %s in the library", ErrScript, name)
	}
	p, err := Parse(name+Ext, src)
	if err != nil {
		return nil, err
	}
	if p.name != name {
		return nil, fmt.Errorf("%w: library/%s%s names its game %q", ErrScript, name, Ext, p.name)
	}
	return p, nil
}

var (
	loadedMu sync.Mutex
	loaded   = map[string]string{} // absolute path -> the game's name
)

// loadFile reads the game file at path and registers its game under its name; the same
// file again gives the same name.
func loadFile(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrScript, err)
	}
	loadedMu.Lock()
	defer loadedMu.Unlock()
	if name, ok := loaded[abs]; ok {
		return name, nil
	}
	p, err := Load(path)
	if err != nil {
		return "", err
	}
	if lib, err := library.ReadFile("library/" + p.name + Ext); err == nil {
		// A copy of a library game is that game; an edited copy needs a name of its own.
		if src, _ := os.ReadFile(path); bytes.Equal(src, lib) {
			loaded[abs] = p.name
			return p.name, nil
		}
		return "", fmt.Errorf("%w: %s: the game's name %q is a game of Arena's library; an edited copy needs a name of its own (name = \"...\")", ErrScript, path, p.name)
	}
	if err := game.RegisterLoaded(p.name, func(opts game.Options) (game.Game, error) { return p.New(opts) }); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	loaded[abs] = p.name
	return p.name, nil
}
