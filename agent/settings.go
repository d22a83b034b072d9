package agent

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Settings reads an agent's key=value settings (Config.Params), each with its default
// and its range, and keeps the first error: a value out of range or not of its kind, or,
// from Err, a key no read asked for. Every built-in agent reads its settings this way,
// so that they all say the same thing about a bad one:
//
//	option depth="x": want an integer from 1 to 128
//	unknown option "dpeth" (known: depth, tt)
//
// A factory reads every key it knows, then returns Err:
//
//	s := cfg.Settings()
//	depth := s.Int("depth", 0, 1, 128)
//	if err := s.Err(); err != nil {
//		return nil, err
//	}
type Settings struct {
	params   map[string]string
	known    []string
	prefixes []string
	err      error
}

// NewSettings returns a reader of params.
func NewSettings(params map[string]string) *Settings { return &Settings{params: params} }

// lookup marks key as known and returns its text.
func (s *Settings) lookup(key string) (string, bool) {
	if !slices.Contains(s.known, key) {
		s.known = append(s.known, key)
	}
	v, ok := s.params[key]
	return v, ok
}

// fail keeps the first error.
func (s *Settings) fail(key, text, want string) {
	if s.err == nil {
		s.err = fmt.Errorf("option %s=%q: want %s", key, text, want)
	}
}

// String returns key's value, or def when it is not set.
func (s *Settings) String(key, def string) string {
	if v, ok := s.lookup(key); ok {
		return v
	}
	return def
}

// Int returns key's value, an integer from lo to hi, or def when it is not set.
func (s *Settings) Int(key string, def, lo, hi int) int {
	text, ok := s.lookup(key)
	if !ok {
		return def
	}
	v, err := strconv.Atoi(text)
	if err != nil || v < lo || v > hi {
		s.fail(key, text, fmt.Sprintf("an integer from %d to %d", lo, hi))
		return def
	}
	return v
}

// Float returns key's value, a number from lo to hi, or def when it is not set.
func (s *Settings) Float(key string, def, lo, hi float64) float64 {
	text, ok := s.lookup(key)
	if !ok {
		return def
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil || v < lo || v > hi || v != v {
		s.fail(key, text, fmt.Sprintf("a number from %g to %g", lo, hi))
		return def
	}
	return v
}

// Bool returns key's value, true or false, or def when it is not set.
func (s *Settings) Bool(key string, def bool) bool {
	text, ok := s.lookup(key)
	if !ok {
		return def
	}
	v, err := strconv.ParseBool(text)
	if err != nil {
		s.fail(key, text, "true or false")
		return def
	}
	return v
}

// Choice returns key's value, one of choices, or def when it is not set.
func (s *Settings) Choice(key, def string, choices ...string) string {
	text, ok := s.lookup(key)
	if !ok {
		return def
	}
	if !slices.Contains(choices, text) {
		s.fail(key, text, strings.Join(choices, " or "))
		return def
	}
	return text
}

// Prefixed returns the settings whose keys start with prefix, the prefix cut off (the
// settings an agent passes on to another it makes, say), and marks them as known.
func (s *Settings) Prefixed(prefix string) map[string]string {
	s.prefixes = append(s.prefixes, prefix)
	out := map[string]string{}
	for k, v := range s.params {
		if rest, ok := strings.CutPrefix(k, prefix); ok {
			out[rest] = v
		}
	}
	return out
}

// Fail records an error about key's value that the typed readers cannot see, such as
// two settings that do not go together; the first error is kept.
func (s *Settings) Fail(key, want string) {
	s.fail(key, s.params[key], want)
}

// Err returns the first error met, or, when there was none, an error naming the first
// key (in sorted order) that no read asked for, so that a misspelt option is never
// silently ignored.
func (s *Settings) Err() error {
	if s.err != nil {
		return s.err
	}
	keys := make([]string, 0, len(s.params))
	for k := range s.params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if slices.Contains(s.known, k) || slices.ContainsFunc(s.prefixes, func(p string) bool { return strings.HasPrefix(k, p) }) {
			continue
		}
		known := slices.Clone(s.known)
		for _, p := range s.prefixes {
			known = append(known, p+"KEY")
		}
		if len(known) == 0 {
			return fmt.Errorf("unknown option %q (this agent takes none)", k)
		}
		return fmt.Errorf("unknown option %q (known: %s)", k, strings.Join(known, ", "))
	}
	return nil
}
