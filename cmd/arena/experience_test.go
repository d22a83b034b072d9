package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arenaref/arena/players/agents/experience"
	"github.com/arenaref/arena/protocol"
)

// TestExperienceRunAndStats runs the experience player in process, checks what it
// writes and what stats reports, then enters the base in a tournament over NATS, where
// it learns from the referee's notices.
func TestExperienceRunAndStats(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "gina.db")
	out := filepath.Join(dir, "curve")
	code, stdout, stderr := runCLI(t, "experience", "run", "--base", base, "--game", "othello:size=6",
		"--opponents", "mm=minimax:depth=2:tt=0:exact=0", "--games", "20", "--window", "5", "--out", out)
	if code != 0 {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	// 20 games: the summary's windows are the two halves, not "first 50" and "last 50".
	if !strings.Contains(stdout, "20 games in") || !strings.Contains(stdout, "first 10:") || !strings.Contains(stdout, "last 10:") ||
		strings.Contains(stdout, "first 50") || strings.Contains(stdout, "last 50") {
		t.Errorf("run summary:\n%s", stdout)
	}
	runBytes := summaryBytes(t, stdout)
	rows := readCSV(t, out+".csv")
	if len(rows) != 21 || rows[0][3] != "margin" || rows[20][0] != "20" {
		t.Errorf("curve CSV: %d rows, header %v", len(rows), rows[0])
	}
	for _, suffix := range []string{"-margin.svg", "-hits.svg", "-size.svg"} {
		if fi, err := os.Stat(out + suffix); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", suffix, err)
		}
	}

	code, stdout, stderr = runCLI(t, "experience", "stats", "--base", base, "--game", "othello:size=6", "--json")
	if code != 0 {
		t.Fatalf("stats: exit %d\n%s", code, stderr)
	}
	var doc experience.Report
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Stats.Games != 20 || doc.Stats.Nodes == 0 || doc.Stats.FileBytes == 0 || doc.Recent.Games != 20 {
		t.Errorf("stats: %+v", doc)
	}
	// run measured the base open, stats after it was closed and opened again: one size.
	if doc.Stats.Bytes != runBytes || runBytes == 0 {
		t.Errorf("experience run says the base has %d bytes, experience stats %d", runBytes, doc.Stats.Bytes)
	}
	_, text, _ := runCLI(t, "experience", "stats", "--base", base, "--game", "othello:size=6")
	if want := fmt.Sprintf("%d bytes", runBytes); !strings.Contains(text, want) {
		t.Errorf("stats text has no %q:\n%s", want, text)
	}

	standings := tournamentJSON(t, "--game", "othello:size=6", "--players", "gina=experience:base="+base+":size=6,random",
		"--rounds", "2", "--tc", "2s", "--db", filepath.Join(dir, "t.db"))
	if standings.Games != 4 || len(standings.Standings) != 2 ||
		!slices.ContainsFunc(standings.Standings, func(r protocol.StandingsRow) bool { return r.Player == "gina" && r.Games == 4 }) {
		t.Errorf("tournament: %d games, standings %+v; want 4 games, gina's among them", standings.Games, standings.Standings)
	}
	code, stdout, _ = runCLI(t, "experience", "stats", "--base", base, "--game", "othello:size=6", "--json")
	if code != 0 {
		t.Fatal("stats after the tournament failed")
	}
	doc = experience.Report{}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Stats.Games != 24 {
		t.Errorf("after a 4-game tournament the base holds %d games, want 24", doc.Stats.Games)
	}

	// A base of another board size is refused before the tournament starts.
	code, _, stderr = runCLI(t, "tournament", "--game", "othello", "--players", "gina=experience:base="+base+":size=6,random",
		"--rounds", "1", "--tc", "100ms", "--db", filepath.Join(dir, "u.db"))
	if code == 0 || !strings.Contains(stderr, "the base is for othello:size=6") {
		t.Errorf("8x8 tournament with a 6x6 base: exit %d\n%s", code, stderr)
	}
}

// summaryBytes reads the base's size from the summary line of experience run.
func summaryBytes(t *testing.T, stdout string) int64 {
	t.Helper()
	m := regexp.MustCompile(`base \d+ nodes, (\d+) bytes`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("no base size in the summary:\n%s", stdout)
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
