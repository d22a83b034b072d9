package script

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
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
	sources  = map[string][]byte{} // the game's name -> the file it was registered from
)

// loadFile reads the game file at path and registers its game under its name. The same
// file again, or a copy of it at another path (a course's copy of the teacher's file),
// gives the same name; another file with that name is refused, as is an edited copy of a
// library game.
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
	src, err := read(path)
	if err != nil {
		return "", err
	}
	p, err := Parse(path, src)
	if err != nil {
		return "", err
	}
	if lib, err := library.ReadFile("library/" + p.name + Ext); err == nil {
		// A copy of a library game is that game; an edited copy needs a name of its own.
		if bytes.Equal(src, lib) {
			loaded[abs] = p.name
			return p.name, nil
		}
		return "", fmt.Errorf("%w: %s: the game's name %q is a game of Arena's library; an edited copy needs a name of its own (name = \"...\")", ErrScript, path, p.name)
	}
	if had, ok := sources[p.name]; ok && bytes.Equal(had, src) {
		loaded[abs] = p.name
		return p.name, nil
	}
	if err := game.RegisterLoaded(p.name, func(opts game.Options) (game.Game, error) { return p.New(opts) }); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	loaded[abs], sources[p.name] = p.name, src
	return p.name, nil
}
