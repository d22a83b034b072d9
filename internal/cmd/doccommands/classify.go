package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// valueWords are the words in capitals that are real values in Arena's commands, not
// placeholders: the prisoner's dilemma's opening histories (--initial CC) and the
// learning strategies (--strategy LB). Every other word in capitals is a placeholder.
var valueWords = map[string]bool{"CC": true, "CD": true, "DC": true, "DD": true, "LB": true, "LL": true, "L3": true}

var (
	optionalRE     = regexp.MustCompile(`\[[^\s\]][^\]]*\]`)
	alternativesRE = regexp.MustCompile(`[^\s|]*[^\s|]\|[^\s|]\S*`)
	ownProgramRE   = regexp.MustCompile(`(^|\s)\./(my|your)[A-Za-z0-9_]*`)
)

// placeholder says why a command cannot run as written ("" when it can): it holds "...",
// an optional part in square brackets, alternatives (a|b), a word in capitals that is
// not a shell variable (URL, NAME, FILE, ID, N), or a program of the reader's own
// (./mybot, ./yourprogram).
func placeholder(text string) string {
	if strings.Contains(text, "...") {
		return `"..."`
	}
	if m := optionalRE.FindString(text); m != "" {
		if f := strings.Fields(m); len(f) > 1 {
			m = f[0] + " ...]"
		}
		return "optional part " + m
	}
	if m := alternativesRE.FindString(text); m != "" {
		return "alternatives " + strings.TrimSpace(m)
	}
	if w := capitalWord(text); w != "" {
		return "placeholder " + w
	}
	if m := ownProgramRE.FindString(text); m != "" {
		return "a program of your own, " + strings.TrimSpace(m)
	}
	return ""
}

// capitalWord returns the first word in capitals of text that is a placeholder: not a
// variable ($NAME, ${NAME}, NAME=...), not a short flag (-C, -O2), not in valueWords.
func capitalWord(text string) string {
	isWord := func(c byte) bool {
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for i := 0; i < len(text); {
		if !isWord(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isWord(text[j]) {
			j++
		}
		w, at := text[i:j], i
		before := func(k int) byte {
			if at-k < 0 {
				return ' '
			}
			return text[at-k]
		}
		after := byte(' ')
		if j < len(text) {
			after = text[j]
		}
		i = j
		if w[0] < 'A' || w[0] > 'Z' || strings.ToUpper(w) != w || valueWords[w] {
			continue
		}
		switch {
		case before(1) == '$', before(1) == '{' && before(2) == '$':
			continue // a variable
		case after == '=' && strings.ContainsRune(" \t\n;", rune(before(1))):
			continue // an assignment
		case before(1) == '-' && (strings.ContainsRune(" \t\n", rune(before(2))) ||
			before(2) == '-' && strings.ContainsRune(" \t\n", rune(before(3)))):
			continue // a flag
		}
		return w
	}
	return ""
}

// daemonSubcommands are arena's subcommands that run until stopped.
var daemonSubcommands = map[string]bool{"server": true, "referee": true, "player": true, "engine": true, "web": true, "host": true}

// longGames is the --games from which a training or experience run is long by nature.
const longGames = 1000

// longRunning says whether a command is long-running by nature, and why: a daemon (arena
// server, referee, player or engine; nats-server; a program whose script is a player,
// engine or server), or a run the docs give a big workload (--games of 1000 or more; a
// tournament or match whose games at full time per move would outlast bound). daemon tells the
// first kind, which runs in the background even when written in the foreground (the docs
// mean it for a terminal of its own).
func longRunning(text string, bound time.Duration) (long, daemon bool, why string) {
	for _, s := range simpleCommands(text) {
		if args, ok := arenaArgs(s.words); ok {
			sub, flags := subcommand(args)
			if daemonSubcommands[sub] {
				return true, true, "arena " + sub + " runs until stopped"
			}
			g, hasGames := flagValue(flags, "games")
			if hasGames {
				if n, err := strconv.Atoi(g); err == nil && n >= longGames {
					long, why = true, fmt.Sprintf("arena %s --games %d", sub, n)
				}
			}
			if sub == "train" {
				switch method, _ := flagValue(flags, "method"); {
				case method == "tune":
					long, why = true, "arena train --method tune (millions of games)"
				case !hasGames && method != "coevo":
					long, why = true, "arena train without --games (10,000 games)"
				}
			}
			if sub == "match" {
				if est := matchTime(flags); est > bound {
					long, why = true, fmt.Sprintf("a match of up to %s at full time per move", est.Round(time.Second))
				}
			}
			if sub == "tournament" {
				est, known := tournamentTime(flags)
				if !known {
					long, why = true, "a tournament whose size is known only when it runs"
				} else if est > bound {
					long, why = true, fmt.Sprintf("a tournament of up to %s at full time per move", est.Round(time.Second))
				}
			}
			continue
		}
		prog := filepath.Base(s.words[0])
		if prog == "nats-server" {
			return true, true, "nats-server runs until stopped"
		}
		for _, w := range s.words[1:] {
			if strings.HasPrefix(w, "-") {
				continue
			}
			b := strings.ToLower(filepath.Base(w))
			for _, k := range []string{"player", "engine", "server"} {
				if strings.Contains(b, k) && strings.Contains(b, ".") {
					return true, true, w + " runs until stopped"
				}
			}
			break
		}
	}
	return long, false, why
}

// pliesPerGame is the game length assumed when estimating a tournament's time.
const pliesPerGame = 60

// tournamentTime estimates an upper bound of a tournament's duration from its flags: its
// number of games, times pliesPerGame moves at the full time per move, over its
// concurrency. known is false when the players are not written out (a variable, a
// --config or --resume).
func tournamentTime(flags []string) (est time.Duration, known bool) {
	p, ok := flagValue(flags, "players")
	if !ok || strings.Contains(p, "$") {
		return 0, false
	}
	n := len(strings.Split(p, ","))
	rounds := flagInt(flags, "rounds", 1)
	games := rounds * n * (n - 1)
	if f, _ := flagValue(flags, "format"); f == "gauntlet" {
		s, _ := flagValue(flags, "seeds")
		k := len(strings.Split(s, ","))
		games = rounds * 2 * k * (n - k)
	}
	return gamesTime(flags, games), true
}

// matchTime estimates an upper bound of an arena match's duration from its flags, as
// tournamentTime does: --games (1000 unless given) games.
func matchTime(flags []string) time.Duration {
	return gamesTime(flags, flagInt(flags, "games", 1000))
}

// gamesTime is the time games take at pliesPerGame moves each at the full time per move
// of the flags' --tc (100ms unless given), over their --concurrency.
func gamesTime(flags []string, games int) time.Duration {
	tc, ok := flagValue(flags, "tc")
	if !ok {
		tc = "100ms"
	}
	perMove := timePerMove(tc)
	conc := flagInt(flags, "concurrency", 1)
	return time.Duration(games) * pliesPerGame * perMove / time.Duration(max(conc, 1))
}

func flagInt(flags []string, name string, def int) int {
	if v, ok := flagValue(flags, name); ok {
		if n, err := strconv.Atoi(v); err == nil {
			return n
		}
	}
	return def
}

// timePerMove reads a --tc: a duration per move (100ms), or a game clock (60+0.5, 300,
// 40/60, 40/60+1) spread over pliesPerGame/2 moves of each player.
func timePerMove(tc string) time.Duration {
	if d, err := time.ParseDuration(tc); err == nil {
		return d
	}
	secs := func(s string) float64 { f, _ := strconv.ParseFloat(s, 64); return f }
	base, inc, _ := strings.Cut(tc, "+")
	moves := float64(pliesPerGame / 2)
	var perMove float64
	if m, t, ok := strings.Cut(base, "/"); ok {
		perMove = secs(t) / max(secs(m), 1)
	} else {
		perMove = secs(base) / moves
	}
	perMove += secs(inc)
	return time.Duration(perMove * float64(time.Second))
}

// Fixed ports: after the host of a URL (nats://127.0.0.1:4222), after an address or an
// empty host at the start of a word (0.0.0.0:4222, localhost:4222, [::1]:4222, --listen
// :4222), and after --port or -p. A name:number inside a word (random-weights:25) is not
// a port.
var (
	hostPortRE = regexp.MustCompile(`(://[A-Za-z0-9.-]+:|://\[[0-9A-Fa-f:]*\]:|(?:^|[\s='"])(?:[0-9]{1,3}(?:\.[0-9]{1,3}){3}|localhost|\[[0-9A-Fa-f:]*\])?:)([0-9]{2,5})\b`)
	portFlagRE = regexp.MustCompile(`((?:^|\s)(?:--?port|-p)[ =])([0-9]{2,5})\b`)
)

// fixedPorts lists the port numbers written in a text (host:port, --port N, -p N).
func fixedPorts(text string) []string {
	var out []string
	for _, re := range []*regexp.Regexp{hostPortRE, portFlagRE} {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			out = append(out, m[2])
		}
	}
	return out
}

// replacePorts rewrites the fixed ports of a text by the ports of m.
func replacePorts(text string, m map[string]string) string {
	for _, re := range []*regexp.Regexp{hostPortRE, portFlagRE} {
		text = re.ReplaceAllStringFunc(text, func(s string) string {
			sm := re.FindStringSubmatch(s)
			if p, ok := m[sm[2]]; ok {
				return sm[1] + p
			}
			return s
		})
	}
	return text
}

var pathWordRE = regexp.MustCompile(`^[A-Za-z0-9_.][A-Za-z0-9_./-]*$`)

// fileWords returns the words of a command that look like relative file names
// (weights.json, seed002-out/x.json), taken apart at spaces, commas, colons and =, for
// the bookkeeping of files that skipped or unfinished commands did not make.
func fileWords(text string) []string {
	var out []string
	for _, w := range shellWords(strings.ReplaceAll(text, "\\\n", " ")) {
		for _, p := range strings.FieldsFunc(w, func(r rune) bool { return r == ',' || r == ':' || r == '=' }) {
			if strings.HasPrefix(p, "-") || strings.HasPrefix(p, "//") || !pathWordRE.MatchString(p) {
				continue
			}
			if strings.Trim(p, "0123456789.") == "" {
				continue // a number or an address
			}
			if strings.Contains(p, "/") || strings.Contains(strings.TrimPrefix(p, "."), ".") {
				out = append(out, p)
			}
		}
	}
	return out
}
