package agent

import (
	"fmt"
	"strings"

	"github.com/arenaref/arena/internal/shellwords"
)

// Spec is a built-in agent with its parameters, as a tournament file's [agents] table or
// a NAME=AGENT:key=value entry of a player list gives it.
type Spec struct {
	Agent  string            `toml:"agent" json:"agent"`
	Params map[string]string `toml:"params" json:"params,omitempty"`
}

// ParseSpecs reads a player list (arena tournament --players, arena train --opponents):
// each entry a player name (a built-in agent, or an external player), or
// NAME=AGENT[:key=value...] for a built-in agent with settings, such as
// d4=minimax:depth=4. A value may hold a colon in quotes, as a shell quotes
// (cmd=java -cp 'a.jar:b.jar' Main); the quotes are kept in the value, for a setting
// that reads a command line. It returns the names in order and the specs of the
// configured ones (nil when there are none).
func ParseSpecs(list []string) ([]string, map[string]Spec, error) {
	var names []string
	specs := map[string]Spec{}
	for _, entry := range list {
		name, rest, configured := strings.Cut(entry, "=")
		if strings.Contains(name, ":") {
			return nil, nil, fmt.Errorf("%q: give the player a name, as in NAME=%s", entry, entry)
		}
		if !configured {
			names = append(names, entry)
			continue
		}
		parts, err := shellwords.Fields(rest, ':')
		if err != nil {
			return nil, nil, fmt.Errorf("%q: %v", entry, err)
		}
		s := Spec{Agent: parts[0]}
		for _, kv := range parts[1:] {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" || v == "" {
				return nil, nil, fmt.Errorf("%q: %q is not key=value", entry, kv)
			}
			if s.Params == nil {
				s.Params = map[string]string{}
			}
			s.Params[k] = v
		}
		names = append(names, name)
		specs[name] = s
	}
	if len(specs) == 0 {
		specs = nil
	}
	return names, specs, nil
}

// ParseList is ParseSpecs of a comma-separated player list (arena tournament --players),
// cut at the commas outside quotes, so that a quoted setting may hold one; entries are
// trimmed and empty ones dropped.
func ParseList(list string) ([]string, map[string]Spec, error) {
	items, err := shellwords.Fields(list, ',')
	if err != nil {
		return nil, nil, fmt.Errorf("%q: %v", list, err)
	}
	var entries []string
	for _, item := range items {
		if item = strings.TrimSpace(item); item != "" {
			entries = append(entries, item)
		}
	}
	return ParseSpecs(entries)
}
