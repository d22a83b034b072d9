package course

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/arenaref/arena/protocol"
)

// MaxRoster is the most students a roster may list, and MaxRosterBytes its largest size.
const (
	MaxRoster      = 2000
	MaxRosterBytes = 1 << 20
)

// Student is one line of a roster: the player name the student plays under (also the
// name of its credentials) and, optionally, a full name for the teacher's eyes.
type Student struct {
	Name     string
	FullName string
}

// ParseRoster reads a roster: CSV, one student a line, the first column the player name
// (1-64 of A-Z a-z 0-9 - _), an optional second column a full name; more columns are
// ignored. A first line whose first cell is "name" is a header. Blank lines are skipped.
// Errors name the line.
func ParseRoster(r io.Reader) ([]Student, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxRosterBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxRosterBytes {
		return nil, fmt.Errorf("roster: larger than %d bytes", MaxRosterBytes)
	}
	cr := csv.NewReader(strings.NewReader(string(data)))
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	seen := map[string]int{}
	var out []Student
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("roster: %v", err)
		}
		line, _ := cr.FieldPos(0) // only after a record was read: it panics otherwise
		name := strings.TrimSpace(rec[0])
		if name == "" && len(rec) == 1 {
			continue
		}
		if len(out) == 0 && len(seen) == 0 && strings.EqualFold(name, "name") {
			seen[""] = line // the header
			continue
		}
		if !protocol.ValidName(name) {
			return nil, fmt.Errorf("roster line %d: %q is not a player name (1-64 of A-Z a-z 0-9 - _)", line, name)
		}
		if at, ok := seen[name]; ok && name != "" {
			return nil, fmt.Errorf("roster line %d: %s is already on line %d", line, name, at)
		}
		seen[name] = line
		s := Student{Name: name}
		if len(rec) > 1 {
			s.FullName = strings.TrimSpace(rec[1])
		}
		out = append(out, s)
		if len(out) > MaxRoster {
			return nil, fmt.Errorf("roster: more than %d students", MaxRoster)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("roster: no students")
	}
	return out, nil
}
