package archive

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"
)

// maxCommand is the longest build or run command.
const maxCommand = 4096

// gameRE is a game's name without options, as a hello lists it.
var gameRE = regexp.MustCompile(`^[a-z][a-z0-9-]{0,63}$`)

// Manifest is an engine's arena.toml.
type Manifest struct {
	// Protocol is what the engine speaks: one of the protocols ParseManifest was given.
	Protocol string
	// Build is a shell command run in the engine's directory before it is run; empty for
	// none.
	Build string
	// Run is the command line that starts the engine, as written; Argv is it split.
	Run  string
	Argv []string
	// Games lists the games the engine plays, by name (othello); empty means any.
	Games []string
}

// manifestFile is the manifest's TOML form.
type manifestFile struct {
	Protocol *string `toml:"protocol"`
	Build    *string `toml:"build"`
	Run      *string `toml:"run"`
	Game     any     `toml:"game"`
}

// manifestKeys are the keys of a manifest, for error messages.
const manifestKeys = "protocol, build, run, game"

// ParseManifest decodes an arena.toml strictly. Errors wrap ErrRefused and name source and
// the line: "arena.toml:3: unknown key "buld" (known: protocol, build, run, game)".
// protocols are the protocol values accepted, the default first: the engine registry's
// names (engine.Names). The caller passes them so that this package, the format the
// submitting client, the referee and the host share, does not depend on the engine runner.
func ParseManifest(source string, text []byte, protocols []string) (Manifest, error) {
	if len(text) > maxManifest {
		return Manifest{}, refused("%s is more than %d bytes", source, maxManifest)
	}
	if !utf8.Valid(text) {
		return Manifest{}, refused("%s is not UTF-8 text", source)
	}
	var f manifestFile
	dec := toml.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	err := dec.Decode(&f)
	var strict *toml.StrictMissingError
	var decErr *toml.DecodeError
	switch {
	case err == nil:
	case errors.As(err, &strict) && len(strict.Errors) > 0:
		e := strict.Errors[0]
		row, _ := e.Position()
		return Manifest{}, refused("%s:%d: unknown key %q (known: %s)", source, row, strings.Join(e.Key(), "."), manifestKeys)
	case errors.As(err, &decErr):
		row, _ := decErr.Position()
		msg := strings.TrimPrefix(decErr.Error(), "toml: ")
		if m := typeMismatchRE.FindStringSubmatch(msg); m != nil {
			msg = fmt.Sprintf("%s: want a string, not %s", strings.ToLower(m[2]), article(m[1]))
		}
		return Manifest{}, refused("%s:%d: %s", source, row, msg)
	default:
		return Manifest{}, refused("%s: %v", source, err)
	}
	at := func(key string) string { return fmt.Sprintf("%s:%d: %s", source, keyLine(text, key), key) }

	var m Manifest
	switch {
	case f.Protocol == nil:
		return Manifest{}, refused("%s: no protocol: say what the engine speaks (%s)", source, protocolHint(protocols))
	case !slices.Contains(protocols, *f.Protocol):
		return Manifest{}, refused("%s %q: want %s", at("protocol"), *f.Protocol, strings.Join(protocols, ", "))
	}
	m.Protocol = *f.Protocol
	if f.Build != nil {
		m.Build = *f.Build
		if err := checkCommand(m.Build); err != nil {
			return Manifest{}, refused("%s: %v", at("build"), err)
		}
	}
	if f.Run == nil {
		return Manifest{}, refused("%s: no run: give the command line that starts the engine (run = \"./engine\")", source)
	}
	m.Run = *f.Run
	if err := checkCommand(m.Run); err != nil {
		return Manifest{}, refused("%s: %v", at("run"), err)
	}
	if m.Argv, err = SplitCommand(m.Run); err != nil {
		return Manifest{}, refused("%s: %v", at("run"), err)
	}
	if m.Games, err = games(f.Game); err != nil {
		return Manifest{}, refused("%s: %v", at("game"), err)
	}
	return m, nil
}

// typeMismatchRE matches go-toml's message for a value of the wrong type, which names the
// Go field ("cannot decode TOML integer into struct field archive.manifestFile.Run of type string").
var typeMismatchRE = regexp.MustCompile(`^cannot decode TOML (\S+) into struct field \S+\.(\w+) of type`)

func article(tomlType string) string {
	if strings.IndexAny(tomlType[:1], "aeiou") == 0 {
		return "an " + tomlType
	}
	return "a " + tomlType
}

// protocolHint is the example of a protocol line: `protocol = "line", or gtp or nboard`.
func protocolHint(protocols []string) string {
	if len(protocols) == 0 {
		return "no protocol is known"
	}
	hint := fmt.Sprintf("protocol = %q", protocols[0])
	if len(protocols) > 1 {
		hint += ", or " + strings.Join(protocols[1:], " or ")
	}
	return hint
}

// checkCommand checks the length and characters of a build or run command.
func checkCommand(s string) error {
	switch {
	case strings.TrimSpace(s) == "":
		return errors.New("empty")
	case len(s) > maxCommand:
		return fmt.Errorf("%d bytes, at most %d", len(s), maxCommand)
	case strings.ContainsRune(s, 0):
		return errors.New("a NUL character")
	}
	return nil
}

// games reads the game key: a name, or a list of names.
func games(v any) ([]string, error) {
	var list []string
	switch v := v.(type) {
	case nil:
		return nil, nil
	case string:
		list = []string{v}
	case []any:
		for _, x := range v {
			s, ok := x.(string)
			if !ok {
				return nil, errors.New("want a game's name or a list of names (game = \"othello\")")
			}
			list = append(list, s)
		}
	default:
		return nil, errors.New("want a game's name or a list of names (game = \"othello\")")
	}
	if len(list) == 0 || len(list) > 64 {
		return nil, errors.New("want 1 to 64 games")
	}
	for _, g := range list {
		if !gameRE.MatchString(g) {
			return nil, fmt.Errorf("%q: want a game's name (othello, checkers, ...) without options", g)
		}
	}
	return list, nil
}

// keyLine finds the line of a top-level key in a manifest, for messages about its value;
// 0 when it is not found (the file is valid TOML by then, so that is rare: a quoted key).
func keyLine(text []byte, key string) int {
	re := regexp.MustCompile(`^\s*` + regexp.QuoteMeta(key) + `\s*=`)
	for i, line := range strings.Split(string(text), "\n") {
		if re.MatchString(line) {
			return i + 1
		}
	}
	return 0
}

// shellOperators are characters that a shell would read as more than a word's letters. A
// run line is no shell command: one of them unquoted is refused, not passed on.
const shellOperators = "|&;<>()$`*?[#~"

// SplitCommand splits a command line into words as a shell would, with simple quoting:
// words are separated by blanks; 'single quotes' keep everything up to the next single
// quote; "double quotes" keep everything up to the next unescaped double quote, a
// backslash escaping " and \ inside them; outside quotes a backslash escapes the next
// character. An unquoted shell operator (| & ; < > ( ) $ ` * ? [ # ~) is an error.
func SplitCommand(s string) ([]string, error) {
	var (
		words []string
		cur   strings.Builder
		in    bool // a word is being read (it may be empty: '')
	)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("a single quote is not closed")
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			in = true
		case c == '"':
			closed := false
			for i++; i < len(s); i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
					cur.WriteByte(s[i])
					continue
				}
				if s[i] == '"' {
					closed = true
					break
				}
				cur.WriteByte(s[i])
			}
			if !closed {
				return nil, errors.New("a double quote is not closed")
			}
			in = true
		case c == '\\':
			if i+1 == len(s) {
				return nil, errors.New("a backslash at the end")
			}
			i++
			cur.WriteByte(s[i])
			in = true
		case strings.IndexByte(shellOperators, c) >= 0:
			return nil, fmt.Errorf("%q is a shell operator, and the run line is not run by a shell: quote it, or put the command in a script and run that", string(c))
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	if len(words) == 0 || words[0] == "" {
		return nil, errors.New("no command")
	}
	return words, nil
}

// ReadManifest parses the manifest of an archive unpacked into dir, accepting protocols
// as ParseManifest does. It opens it with OpenRegular: a build may have left a link, a
// FIFO or a device in its place, which is refused (ErrRefused) without blocking.
func ReadManifest(dir string, protocols []string) (Manifest, error) {
	f, err := OpenRegular(filepath.Join(dir, ManifestName))
	if err != nil {
		return Manifest{}, err
	}
	defer f.Close()
	text, err := readManifest(f)
	if err != nil {
		return Manifest{}, err
	}
	return ParseManifest(ManifestName, text, protocols)
}
