package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/arenaref/arena/lab/train"
	"github.com/arenaref/arena/organizer/report"
	"github.com/arenaref/arena/players/ai/learn/model"
)

// TestTrainThenPlay trains a player with arena train, checks what it writes, and enters
// the weights in a tournament over the embedded NATS server.
func TestTrainThenPlay(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "w.json")
	code, stdout, stderr := runCLI(t, "train", "--game", "othello:size=6", "--method", "tdleaf", "--opponents", "hp1,random",
		"--games", "200", "--every", "50", "--test", "hp2", "--test-games", "5", "--out", out, "--seed", "3")
	if code != 0 {
		t.Fatalf("train: exit %d\n%s", code, stderr)
	}
	// 200 games, fewer than the 500 of the running window: the summary says so.
	if !strings.Contains(stdout, "trained tdleaf on othello:size=6: 200 games") || !strings.Contains(stdout, "over all 200 games:") || strings.Contains(stdout, "last 500") {
		t.Errorf("summary:\n%s", stdout)
	}
	f, err := model.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if f.Game != "othello:size=6" || f.Model != model.KindTanhLinear || f.Training.Games != 200 || f.Training.Method != "tdleaf" {
		t.Errorf("weights file: game %q model %q training %+v", f.Game, f.Model, f.Training)
	}
	if _, err := os.Stat(out + ".ckpt"); !os.IsNotExist(err) {
		t.Errorf("the checkpoint is left behind: %v", err)
	}
	rows := readCSV(t, filepath.Join(dir, "w.csv"))
	if len(rows) != 5 || strings.Join(rows[0], ",") != "games,wins,draws,losses,win_rate,test_hp2" || rows[4][0] != "200" {
		t.Errorf("curve CSV: %v", rows)
	}
	svg, err := os.Open(filepath.Join(dir, "w.svg"))
	if err != nil {
		t.Fatal(err)
	}
	defer svg.Close()
	dec := xml.NewDecoder(svg)
	for {
		if _, err := dec.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("curve SVG: %v", err)
		}
	}

	doc := tournamentJSON(t, "--game", "othello:size=6", "--players", "me=learned:weights="+out+":depth=2,random",
		"--rounds", "2", "--tc", "1s", "--db", filepath.Join(dir, "a.db"))
	if doc.Games != 4 {
		t.Fatalf("%d games, want 4", doc.Games)
	}
	for _, r := range doc.Standings {
		if r.Player == "me" && r.Wins+r.Draws+r.Losses != 4 {
			t.Errorf("me: %+v", r)
		}
	}

	// Weights for 6x6 are refused for an 8x8 tournament before any game starts.
	code, _, stderr = runCLI(t, "tournament", "--game", "othello", "--players", "me=learned:weights="+out+",random",
		"--rounds", "1", "--tc", "100ms", "--db", filepath.Join(dir, "b.db"))
	if code == 0 || !strings.Contains(stderr, "the weights are for othello:size=6") {
		t.Errorf("8x8 tournament with 6x6 weights: exit %d\n%s", code, stderr)
	}
}

// TestTrainResumes carries on a training from a checkpoint left by a run stopped at
// game 40 and ends with the weights of a run that was never stopped.
func TestTrainResumes(t *testing.T) {
	dir := t.TempDir()
	args := func(out string) []string {
		return []string{"train", "--game", "othello:size=4", "--method", "strategy-net", "--opponents", "hp2,random",
			"--games", "100", "--every", "10", "--seed", "5", "--out", filepath.Join(dir, out)}
	}
	if code, _, stderr := runCLI(t, args("whole.json")...); code != 0 {
		t.Fatal(stderr)
	}
	// The run the CLI makes of those flags, stopped at game 40.
	cfg := train.Config{Game: "othello:size=4", Method: "strategy-net", Games: 40, Every: 10, Seed: 5,
		Opponents: []train.Opponent{{Name: "hp2", Agent: "hp2"}, {Name: "random", Agent: "random"}}}
	tr, err := train.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Run(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if err := tr.SaveCheckpoint(filepath.Join(dir, "part.json.ckpt")); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI(t, args("part.json")...)
	if code != 0 || !strings.Contains(stderr, "resuming from") || !strings.Contains(stderr, "at game 40") {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	whole, err := model.Load(filepath.Join(dir, "whole.json"))
	if err != nil {
		t.Fatal(err)
	}
	part, err := model.Load(filepath.Join(dir, "part.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(whole.Weights, part.Weights) || !reflect.DeepEqual(whole.Training, part.Training) {
		t.Errorf("resumed training differs from the whole one:\n%+v\n%+v", whole.Training, part.Training)
	}
	if a, b := readCSV(t, filepath.Join(dir, "whole.csv")), readCSV(t, filepath.Join(dir, "part.csv")); !slices.EqualFunc(a, b, slices.Equal) {
		t.Errorf("curves differ:\n%v\n%v", a, b)
	}

	// A checkpoint of other settings is refused, not silently mixed in.
	if err := tr.SaveCheckpoint(filepath.Join(dir, "other.json.ckpt")); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI(t, append(args("other.json"), "--seat", "black")...)
	if code == 0 || !strings.Contains(stderr, "another training") {
		t.Errorf("mismatched checkpoint: exit %d\n%s", code, stderr)
	}
}

func TestTrainErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--method", "td", "--opponents", "hp1"}, "--out is required"},
		{[]string{"--method", "sarsa", "--opponents", "hp1", "--out", "x.json"}, `unknown method "sarsa": want td, tdleaf, strategy-net, evo, coevo or tune`},
		{[]string{"--method", "co-evo", "--out", "x.json"}, `unknown method "co-evo"; did you mean 'coevo'?`},
		{[]string{"--opponents", "hp1", "--out", "x.json"}, "--method is required: td, tdleaf, strategy-net, evo, coevo or tune"},
		{[]string{"--method", "strategy-net", "--opponents", "hp1", "--credit", "owned", "--out", "x.json"}, `credit "owned" (used, placed)`},
		{[]string{"--method", "td", "--opponents", "hp1", "--credit", "placed", "--out", "x.json"}, "credit is a strategy-net option"},
		{[]string{"--method", "strategy-net", "--opponents", "h=hp1:ties=last", "--out", "x.json"}, "random or first"},
		{[]string{"--method", "tune", "--opponents", "hp1", "--population", "1", "--out", "x.json"}, "--population at least 2"},
		{[]string{"--method", "tune", "--opponents", "hp1", "--tune-games", "0", "--out", "x.json"}, "--tune-games and --final-games must be at least 1"},
		{[]string{"--method", "tune", "--opponents", "self", "--out", "x.json"}, "tuning plays agents"},
		{[]string{"--method", "td", "--opponents", "nobody", "--out", "x.json"}, "unknown agent"},
		{[]string{"--method", "td", "--opponents", "hp1", "--game", "ipd", "--out", "x.json"}, "only the games of the learned player"},
		{[]string{"--method", "td", "--opponents", "hp1", "--alpha", "2", "--out", "x.json"}, "alpha"},
		{[]string{"--method", "coevo", "--out", "x.json"}, "othello:size=4"},
	} {
		args := append([]string{"train"}, tc.args...)
		for i, a := range args {
			if a == "x.json" {
				args[i] = filepath.Join(dir, a)
			}
		}
		code, _, stderr := runCLI(t, args...)
		if code != 2 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
}

// TestTrainTune finds a 4x4 strategy network by search against HP2 breaking ties at
// random, checks what it writes, and plays the weights in a tournament over NATS.
func TestTrainTune(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "t.json")
	code, stdout, stderr := runCLI(t, "train", "--method", "tune", "--game", "othello:size=4", "--opponents", "hp2", "--seat", "white",
		"--generations", "3", "--population", "6", "--tune-games", "10", "--final-games", "200", "--seed", "2", "--out", out)
	if code != 0 {
		t.Fatalf("train: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "3 generations of 6 candidates, 380 games") || !strings.Contains(stdout, "the weights against hp2 in 200 fresh games") {
		t.Errorf("summary:\n%s", stdout)
	}
	f, err := model.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if f.Game != "othello:size=4" || f.Model != model.KindStrategyNet || f.Training.Method != "tune" || f.Training.Seat != "white" ||
		f.Training.Wins+f.Training.Draws+f.Training.Losses != 200 {
		t.Errorf("weights file: game %q model %q training %+v", f.Game, f.Model, f.Training)
	}
	if rows := readCSV(t, filepath.Join(dir, "t.csv")); len(rows) != 4 || strings.Join(rows[0], ",") != "generation,games,best,elite_mean,sigma_mean" {
		t.Errorf("CSV: %v", rows)
	}
	doc := tournamentJSON(t, "--game", "othello:size=4", "--players", "me=learned:weights="+out+",h2f=hp2:ties=first",
		"--rounds", "2", "--tc", "1s", "--db", filepath.Join(dir, "a.db"))
	if doc.Games != 4 {
		t.Errorf("%d games, want 4", doc.Games)
	}
}

// tournamentJSON runs arena tournament --json with args and returns its standings.
func tournamentJSON(t *testing.T, args ...string) report.StandingsDoc {
	t.Helper()
	code, stdout, stderr := runCLI(t, append(append([]string{"tournament"}, args...), "--json")...)
	if code != 0 {
		t.Fatalf("tournament: exit %d\n%s", code, stderr)
	}
	var doc report.StandingsDoc
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestTrainGiveaway trains a give-away checkers learner against a random-weights pool,
// tests it against a disjoint pool, and plays the weights in a tournament; an Othello
// tournament refuses them.
func TestTrainGiveaway(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "g.json")
	code, stdout, stderr := runCLI(t, "train", "--game", "giveaway", "--method", "tdleaf", "--strategy", "LL", "--depth", "2",
		"--opponents", "random-weights:5", "--test", "random-weights:10,random", "--test-games", "1", "--test-first",
		"--games", "40", "--every", "20", "--out", out, "--seed", "3")
	if code != 0 {
		t.Fatalf("train: exit %d\n%s", code, stderr)
	}
	for _, want := range []string{"trained tdleaf on giveaway: 40 games", "test against random-weights:10 before training:", "test against random-weights:10: ", "test against random: "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
	f, err := model.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if f.Game != "giveaway" || f.Names[0] != "men_diff" || len(f.Weights) != 22 || f.Training.Depth != 2 || len(f.Training.Opponents) != 5 {
		t.Errorf("weights file: game %q names %v training %+v", f.Game, f.Names, f.Training)
	}
	rows := readCSV(t, filepath.Join(dir, "g.csv"))
	if len(rows) != 4 || strings.Join(rows[0], ",") != "games,wins,draws,losses,win_rate,test_random-weights:10,test_random" || rows[1][0] != "0" || rows[3][0] != "40" {
		t.Errorf("curve CSV: %v", rows)
	}

	code, stdout, stderr = runCLI(t, "tournament", "--game", "giveaway", "--players", "me=learned:weights="+out+":depth=2,random",
		"--rounds", "1", "--tc", "1s", "--db", filepath.Join(dir, "a.db"), "--json")
	if code != 0 {
		t.Fatalf("tournament: exit %d\n%s", code, stderr)
	}
	var doc report.StandingsDoc
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Games != 2 {
		t.Errorf("%d games, want 2", doc.Games)
	}
	code, _, stderr = runCLI(t, "tournament", "--game", "othello", "--players", "me=learned:weights="+out+",random",
		"--rounds", "1", "--tc", "100ms", "--db", filepath.Join(dir, "b.db"))
	if code == 0 || !strings.Contains(stderr, "the weights are for giveaway") {
		t.Errorf("othello tournament with giveaway weights: exit %d\n%s", code, stderr)
	}
	code, _, stderr = runCLI(t, "train", "--game", "giveaway", "--method", "strategy-net", "--opponents", "random", "--out", filepath.Join(dir, "x.json"))
	if code != 2 || !strings.Contains(stderr, "Othello only") {
		t.Errorf("strategy-net on giveaway: exit %d\n%s", code, stderr)
	}
}
